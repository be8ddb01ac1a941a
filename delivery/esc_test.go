package delivery

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pulumi/esc"
	"github.com/pulumi/esc/eval"
	"github.com/pulumi/pulumi/sdk/v3/go/common/diag"
	"github.com/pulumi/pulumi/sdk/v3/go/common/diag/colors"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"

	"github.com/company/harness-platform/internal/catalogtest"
	"github.com/company/harness-platform/trust"
)

// The ESC environments as ESC itself reads them: parsed and evaluated by
// the ESC module (github.com/pulumi/esc, the evaluator the ESC service and
// CLI run), opened as a team that may open them, with the logins answered
// as AWS and GitHub answer them (package trust: aws-login, aws-secrets,
// gh-login). Every credential an environment hands out (environment
// variables, Pulumi config) must come out secret, and none may be
// written in the file.
func TestESCEvaluates(t *testing.T) {
	files, _ := filepath.Glob("../esc/*.yaml")
	if len(files) == 0 {
		t.Fatal("no ESC environment in ../esc")
	}
	m, err := trust.Load()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, file := range files {
		name := escName(file)
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if _, diags, err := eval.LoadYAMLBytes(file, data); err != nil || diags.HasErrors() {
			t.Errorf("%s: ESC refuses it: %v %v", file, err, diags)
			continue
		}
		var env *esc.Environment
		for _, team := range m.Access.Teams {
			if team.MayOpen(name) {
				o, err := m.Open(ctx, team.Name, name, false)
				if err != nil {
					t.Errorf("%s: team %s cannot open it: %v", file, team.Name, err)
				} else {
					env = o.Values
				}
				break
			}
		}
		if env == nil {
			t.Errorf("%s: no team may open it (esc/pulumi/access.yaml)", file)
			continue
		}
		for _, top := range []string{"environmentVariables", "pulumiConfig"} {
			v, ok := env.Properties[top]
			if !ok {
				continue
			}
			for key, value := range v.Value.(map[string]esc.Value) {
				if credential(key) && !value.Secret {
					t.Errorf("%s: %s.%s comes out in plain text; take it from a secret (aws-login, aws-secrets, gh-login)", file, top, key)
				}
			}
		}
		if strings.Contains(string(data), "AKIA") || strings.Contains(string(data), "ghp_") || strings.Contains(string(data), "ghs_") {
			t.Errorf("%s holds a key", file)
		}
		if !strings.Contains(string(data), "fn::open::aws-login:") || !strings.Contains(string(data), "oidc:") {
			t.Errorf("%s: AWS is not reached by OIDC login", file)
		}
	}
}

// credential reports whether an environment variable or config key names
// a credential.
func credential(key string) bool {
	k := strings.ToLower(key)
	for _, w := range []string{"token", "password", "apikey", "api_key", "secret", "access_key"} {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
}

// escProject is the ESC project of the environments in esc/.
const escProject = "harness-platform"

// escName is the environment a file defines: esc/harness-platform-dev.yaml
// is harness-platform/dev, esc/harness-platform-dev-preview.yaml
// harness-platform/dev-preview.
func escName(file string) string {
	return escProject + "/" + strings.TrimPrefix(strings.TrimSuffix(filepath.Base(file), ".yaml"), escProject+"-")
}

// Every stack file imports its ESC environment, which esc/ defines, so
// the CLI run by hand or by CI reads the same values; pull requests'
// previews replace it with the environment's read-only one (the
// workflows open the same environments: TestWorkflowContract).
func TestStackFilesImportTheirESCEnvironment(t *testing.T) {
	c := catalogtest.Example(t, "..")
	_, preview := load(t, "preview.yml")
	// The stack files as the Pulumi CLI loads them (its own loader and
	// schema, sdk/go/common/workspace), and as the catalog reads them.
	project, err := workspace.LoadProject("../Pulumi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sink := diag.DefaultSink(io.Discard, io.Discard, diag.FormatOptions{Color: colors.Never})
	for _, env := range c.Chain {
		want := "harness-platform/" + env
		ps, err := workspace.LoadProjectStack(sink, project, "../Pulumi."+env+".yaml")
		if err != nil {
			t.Fatalf("Pulumi.%s.yaml as the Pulumi CLI loads it: %v", env, err)
		}
		if imports := ps.Environment.Imports(); !slices.Contains(imports, want) || len(ps.EnvironmentBytes()) == 0 {
			t.Errorf("Pulumi.%s.yaml imports %v for the Pulumi CLI, want %s", env, imports, want)
		}
		if !slices.Contains(c.Stacks[env].Imports, want) {
			t.Errorf("Pulumi.%s.yaml imports %v, want %s", env, c.Stacks[env].Imports, want)
		}
		for _, file := range []string{"../esc/harness-platform-" + env + ".yaml", "../esc/harness-platform-" + env + "-preview.yaml"} {
			if _, err := os.Stat(file); err != nil {
				t.Errorf("stack %s: %v", env, err)
			}
		}
	}
	if !strings.Contains(preview, `--override-env "harness-platform/$env=harness-platform/$env-preview"`) {
		t.Error("pull requests' previews read the deployer's ESC environment the stack file imports")
	}
}

// What runs on changes no one has approved yet (a pull request's preview)
// and what only reads (the drift check) open the <env>-preview
// environments: their Harness key and GitHub token are the read-only
// ones of harness-platform/ci-preview, never harness-platform/ci's,
// which write.
func TestPreviewEnvironmentsAreReadOnly(t *testing.T) {
	m, err := trust.Load()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	files, _ := filepath.Glob("../esc/*-preview.yaml")
	if len(files) < 4 {
		t.Fatalf("preview environments: %v", files)
	}
	want := map[string]string{
		"HARNESS_PLATFORM_API_KEY": "stand-in value of harness-platform/ci/harness-viewer-api-key",
		"GITHUB_TOKEN":             "ghs_stand-in-harness-platform-reader",
	}
	for _, file := range files {
		o, err := m.Open(ctx, "harness-platform-preview", escName(file), false)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		vars := o.Values.Properties["environmentVariables"].Value.(map[string]esc.Value)
		for k, v := range want {
			if got := vars[k].Value; got != v {
				t.Errorf("%s: %s is %v, want the read-only %q", file, k, got, v)
			}
		}
	}
}
