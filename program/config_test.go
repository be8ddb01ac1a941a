package program

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/diag"
	"github.com/pulumi/pulumi/sdk/v3/go/common/diag/colors"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/config"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/internal/catalogtest"
	"github.com/company/harness-platform/internal/mocktest"
)

// Settings reach the program the ways the Pulumi CLI gives them: `pulumi
// config set` and `-c` (which the CLI saves to the stack file before the
// program starts, cmd/pulumi/operations/io.go parseAndSaveConfigArray), and
// the ESC environment the stack file imports (config the file does not
// set). Each changes what is declared; a bad one is refused once, before
// anything is registered, at its origin: the stack file's line, or the
// config key and the environment it came from.
func TestSettingsReachThePlan(t *testing.T) {
	c := example(t)
	files := c.Files()
	const stack = "production"
	// The pipelines and Values files are the service stacks'; their
	// settings are their environment's, from the same config.
	services := catalogtest.OnlyServiceStack(t, c, stack)
	esc := map[string]string{"harness-platform:workloads": `{"replicas":2,"resources":1}`}

	// `pulumi config set harness-platform:approval '{...}'`: a whole object.
	set := cliSet(t, files, stack, "harness-platform:approval", `{"teamApprovals":2,"platformApprovals":1,"timeout":"1d"}`, false)
	// The approvals are the deploy-stage templates' (the platform
	// stack's), the same for every pipeline built from them.
	templates := runCLI(t, set, stack, esc).OfType(tTemplate)
	if len(templates) == 0 {
		t.Fatal("no templates")
	}
	for _, p := range templates {
		if !strings.Contains(str(p, "templateYaml"), "minimumCount: 2") {
			t.Errorf("%s: the team approvals set by `pulumi config set` (2) are not in the template", p.Name)
		}
	}
	rec := runCLI(t, set, services, esc)
	// The ESC environment's workloads: replicas doubled in every Values file.
	base := replicas(t, runCLI(t, files, services, nil))
	doubled := replicas(t, rec)
	if len(base) == 0 {
		t.Error("no Values files")
	}
	for name, n := range base {
		if doubled[name] != 2*n {
			t.Errorf("%s: %d replicas with the ESC environment's factor 2, %d without", name, doubled[name], n)
		}
	}
	// and the Values files name where their factors came from.
	for _, f := range rec.OfType(tFile) {
		if want := "and config harness-platform:workloads (stack " + services + ", from the ESC environment harness-platform/production that Pulumi.production.yaml imports); change them"; strings.HasSuffix(str(f, "name"), "-values.yaml") && !strings.Contains(str(f, "content"), want) {
			t.Errorf("%s does not name the origin of its workloads (%s):\n%s", str(f, "name"), want, str(f, "content"))
		}
	}
	// `pulumi up -c --path harness-platform:approval.timeout=4h`: one field.
	dashC := cliSet(t, files, stack, "harness-platform:approval.timeout", "4h", true)
	for _, p := range runCLI(t, dashC, stack, nil).OfType(tTemplate) {
		if !strings.Contains(str(p, "templateYaml"), "timeout: 4h") {
			t.Errorf("%s: the approval timeout set by -c (4h) is not in the template", p.Name)
		}
	}

	// Bad values, each reported once where it came from.
	for _, tc := range []struct {
		name   string
		files  catalog.Files
		esc    map[string]string
		origin string
	}{
		{"config set", cliSet(t, files, stack, "harness-platform:approval", `{"teamApprovals":0,"platformApprovals":1,"timeout":"1d"}`, false), nil,
			"Pulumi.production.yaml:16:20: approval teamApprovals 0 is too low"},
		{"-c", cliSet(t, files, stack, "harness-platform:approval.timeout", "forever", true), nil,
			"Pulumi.production.yaml:16:5: approval timeout \"forever\" is not a duration"},
		{"ESC", files, map[string]string{"harness-platform:workloads": `{"replicas":20,"resources":1}`},
			"config harness-platform:workloads (stack production, from the ESC environment harness-platform/production that Pulumi.production.yaml imports): "},
	} {
		rec := &mocktest.Recorder{StackOutputs: deployedChain(example(t))}
		err := mocktest.Run(New(tc.files), stack, rec, mocktest.WithConfig(cliConfig(t, tc.files, stack, tc.esc), "harness-platform:githubToken"))
		if err == nil {
			t.Fatalf("%s: a bad value was accepted", tc.name)
		}
		msg := err.Error()
		if n := strings.Count(msg, tc.origin); n != 1 {
			t.Errorf("%s: want the bad value reported once at %q, found %d times in:\n%s", tc.name, tc.origin, n, msg)
		}
		if !strings.Contains(msg, " 1 problem(s) ") {
			t.Errorf("%s: want one problem:\n%s", tc.name, msg)
		}
		if n := len(rec.Resources()); n != 0 {
			t.Errorf("%s: a refused configuration registered %d resources", tc.name, n)
		}
	}
}

// runCLI runs stack with the config the Pulumi CLI would give it for files
// and the ESC values esc, every other stack deployed.
func runCLI(t *testing.T, files catalog.Files, stack string, esc map[string]string) *mocktest.Recorder {
	t.Helper()
	rec := &mocktest.Recorder{StackOutputs: deployedChain(example(t))}
	cfg := cliConfig(t, files, stack, esc)
	if err := mocktest.Run(New(files), stack, rec, mocktest.WithConfig(cfg, "harness-platform:githubToken")); err != nil {
		t.Fatalf("%s: %v", stack, err)
	}
	return rec
}

// cliSet sets key in the stack file of stack as `pulumi config set` and
// `-c` do: with the Pulumi SDK's own loader, config map and writer. value
// is JSON for an object, else a string; path is --path.
func cliSet(t *testing.T, files catalog.Files, stack, key, value string, path bool) catalog.Files {
	t.Helper()
	env, _ := catalog.SplitStack(stack)
	name := "Pulumi." + env + ".yaml"
	ps := loadStack(t, files, name)
	k, err := config.ParseKey(key)
	if err != nil {
		t.Fatal(err)
	}
	v := config.NewValue(value)
	if json.Valid([]byte(value)) && strings.HasPrefix(value, "{") {
		v = config.NewObjectValue(value)
	}
	if err := ps.Config.Set(k, v, path); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), name)
	if err := ps.Save(file); err != nil {
		t.Fatal(err)
	}
	out := catalog.Files{}
	for n, data := range files {
		out[n] = data
	}
	if out[name], err = os.ReadFile(file); err != nil {
		t.Fatal(err)
	}
	return out
}

// cliConfig is the config the Pulumi CLI gives the program of stack: the
// ESC environment's values, overridden by the stack file's (a service
// stack's settings are its environment's: the engine writes them to its
// file), and the project's declared defaults for keys neither sets.
func cliConfig(t *testing.T, files catalog.Files, stack string, esc map[string]string) map[string]string {
	t.Helper()
	env, _ := catalog.SplitStack(stack)
	out := map[string]string{"harness-platform:githubToken": mocktest.TestToken, "harness:accountId": mocktest.TestAccount}
	for k, v := range esc {
		out[k] = v
	}
	ps := loadStack(t, files, "Pulumi."+env+".yaml")
	for k, v := range ps.Config {
		if v.Secure() {
			continue
		}
		s, err := v.Value(config.NopDecrypter)
		if err != nil {
			t.Fatal(err)
		}
		out[k.String()] = s
	}
	return out
}

func loadStack(t *testing.T, files catalog.Files, name string) *workspace.ProjectStack {
	t.Helper()
	dir := t.TempDir()
	for _, n := range []string{catalog.ProjectFile, name} {
		if err := os.WriteFile(filepath.Join(dir, n), files[n], 0o600); err != nil {
			t.Fatal(err)
		}
	}
	project, err := workspace.LoadProject(filepath.Join(dir, catalog.ProjectFile))
	if err != nil {
		t.Fatal(err)
	}
	sink := diag.DefaultSink(io.Discard, io.Discard, diag.FormatOptions{Color: colors.Never})
	ps, err := workspace.LoadProjectStack(sink, project, filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// replicas are the replicas of every Values file rec registered, by name.
func replicas(t *testing.T, rec *mocktest.Recorder) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, f := range rec.OfType(tFile) {
		var doc struct {
			Replicas int `yaml:"replicas"`
		}
		if !strings.HasSuffix(str(f, "name"), "-values.yaml") {
			continue
		}
		if err := yaml.Unmarshal([]byte(str(f, "content")), &doc); err != nil {
			t.Fatal(err)
		}
		out[str(f, "name")] = doc.Replicas
	}
	return out
}
