package catalog

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/company/harness-platform/diag"
)

// A stack file importing ESC environments (both forms Pulumi accepts) is a
// valid stack file; a malformed import is reported where it is.
func TestStackFileWithESCImports(t *testing.T) {
	for _, form := range []string{"environment:\n  - platform/production\n  - platform/shared\n", "environment:\n  imports:\n    - platform/production\n    - platform/shared\n"} {
		files := withoutESCImport(t, exampleFiles(t), "production")
		files["Pulumi.production.yaml"] = append([]byte(form), files["Pulumi.production.yaml"]...)
		c, err := Parse(files)
		if err != nil {
			t.Fatalf("%q: %v", form, err)
		}
		if got := strings.Join(c.Stacks["production"].Imports, ","); got != "platform/production,platform/shared" {
			t.Errorf("%q: imports %q", form, got)
		}
	}
	files := withoutESCImport(t, exampleFiles(t), "production")
	files["Pulumi.production.yaml"] = append([]byte("environment: platform/production\n"), files["Pulumi.production.yaml"]...)
	_, err := Parse(files)
	if err == nil || !strings.Contains(err.Error(), "Pulumi.production.yaml:1:14: environment must be a list of ESC environment names") {
		t.Fatalf("want the malformed import reported at its position, got %v", err)
	}
}

// withoutESCImport removes the stack file's own ESC import.
func withoutESCImport(t *testing.T, files map[string][]byte, stack string) map[string][]byte {
	t.Helper()
	name := "Pulumi." + stack + ".yaml"
	own := "environment:\n  - harness-platform/" + stack + "\n"
	if !strings.Contains(string(files[name]), own) {
		t.Fatalf("%s does not import its ESC environment", name)
	}
	files[name] = []byte(strings.Replace(string(files[name]), own, "", 1))
	return files
}

// Settings given through Pulumi config replace the file's; values equal to
// the file's or to the project's declared defaults change nothing; values
// from elsewhere are validated once, in the same pass as the files, and
// named by their config key and source, next to the file's own problems
// with their lines.
func TestResolveConfig(t *testing.T) {
	files := exampleFiles(t)
	plain, err := Parse(files)
	if err != nil {
		t.Fatal(err)
	}
	same, err := Resolve(files, &Config{Stack: "production", Values: map[string]string{
		Namespace + ":upstream": "staging",
		Namespace + ":approval": `{"teamApprovals":1,"platformApprovals":1,"timeout":"1d"}`,
	}})
	if err != nil || !reflect.DeepEqual(same.Stacks, plain.Stacks) {
		t.Fatalf("config equal to the stack file must resolve as the file does: %v", err)
	}
	// Pulumi gives the program Pulumi.yaml's declared defaults too.
	if same, err := Resolve(files, &Config{Stack: "dev", Values: map[string]string{
		Namespace + ":upstream": "",
		Namespace + ":approval": `{"teamApprovals":1,"platformApprovals":1,"timeout":"1d"}`,
	}}); err != nil || !reflect.DeepEqual(same.Stacks, plain.Stacks) {
		t.Fatalf("the project's declared defaults must resolve as the file does: %v", err)
	}
	changed, err := Resolve(files, &Config{Stack: "production", Values: map[string]string{
		Namespace + ":approval": `{"teamApprovals":2,"platformApprovals":1,"timeout":"4h"}`,
		Namespace + ":regions":  `[{"name":"euw1","networkCidr":"10.3.0.0/17"},{"name":"euw2","networkCidr":"10.3.128.0/18"}]`,
	}})
	if err != nil {
		t.Fatal(err)
	}
	prod := changed.Stacks["production"]
	// Each setting keeps its origin: the file's position, or its key and
	// source.
	if got := prod.Origin(Namespace + ":upstream").String(); got != "Pulumi.production.yaml:5:30" {
		t.Errorf("upstream from %s, want Pulumi.production.yaml:5:30", got)
	}
	if got := prod.Origin(Namespace + ":approval").File; got != "config harness-platform:approval (stack production, from Pulumi config, which differs from Pulumi.production.yaml: --config-file or the Automation API)" {
		t.Errorf("approval from %s", got)
	}
	if got := prod.Origin(WorkloadsKey); got != (diag.Pos{File: "Pulumi.production.yaml"}) {
		t.Errorf("an unset setting from %v, want its stack file", got)
	}
	if prod.Approval.TeamApprovals != 2 || prod.Approval.Timeout != "4h" || prod.Regions[1].NetworkCIDR != "10.3.128.0/18" {
		t.Errorf("config did not reach the stack: approval %+v, regions %+v", prod.Approval, prod.Regions)
	}
	// A service stack's config carries Pulumi.yaml's defaults for what its
	// own file does not set; its environment's settings stand.
	if svc, err := Resolve(files, &Config{Stack: "staging.payments", Values: map[string]string{
		Namespace + ":upstream": "",
	}}); err != nil || svc.Stacks["staging"].Upstream != "dev" {
		t.Fatalf("a service stack's project default replaced its environment's upstream: %v", err)
	}
	files["Pulumi.production.yaml"] = []byte(strings.Replace(string(files["Pulumi.production.yaml"]), "timeout: 1d", "timeout: forever", 1))
	_, err = Resolve(files, &Config{Stack: "production", Values: map[string]string{
		Namespace + ":regions":      `[{"name":"euw1","networkCidr":"not-a-cidr"},{"name":"euw2","networkCidr":"10.3.128.0/17"}]`,
		Namespace + ":changeWindow": `{"days":["Mon"],"start":"10:00","end":"16:00","colour":"red"}`,
		Namespace + ":workloads":    `{"replicas":20}`,
	}})
	var d *diag.Error
	if !errors.As(err, &d) {
		t.Fatalf("want every problem as a *diag.Error, got %v", err)
	}
	msg := err.Error()
	for _, want := range []string{
		`config harness-platform:regions (stack production, from Pulumi config, which differs from Pulumi.production.yaml: --config-file or the Automation API): networkCidr "not-a-cidr" is not an IPv4 CIDR`,
		`config harness-platform:changeWindow (stack production, from Pulumi config, which differs from Pulumi.production.yaml: --config-file or the Automation API): unknown key "colour"`,
		`config harness-platform:workloads (stack production, from the ESC environment harness-platform/production that Pulumi.production.yaml imports): harness-platform:workloads.replicas is 20`,
		`Pulumi.production.yaml:16:5: approval timeout "forever" is not a duration`,
	} {
		if n := strings.Count(msg, want); n != 1 {
			t.Errorf("want %q once, found %d times in:\n%s", want, n, msg)
		}
	}
	if len(d.List) != 4 {
		t.Errorf("want 4 problems, got %d:\n%s", len(d.List), msg)
	}
}

// A Resolver resolves the files once for every run whose config the stack
// files already say, and resolves them with the config of any other run.
func TestResolver(t *testing.T) {
	r := NewResolver(exampleFiles(t))
	same := map[string]string{Namespace + ":upstream": "staging", Namespace + ":approval": `{"teamApprovals":1,"platformApprovals":1,"timeout":"1d"}`}
	a, err := r.Resolve(&Config{Stack: "production", Values: same})
	if err != nil {
		t.Fatal(err)
	}
	b, err := r.Resolve(&Config{Stack: "dev.payments", Values: map[string]string{Namespace + ":upstream": ""}})
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Error("two runs whose config the stack files say resolved the files twice")
	}
	changed, err := r.Resolve(&Config{Stack: "production", Values: map[string]string{Namespace + ":approval": `{"teamApprovals":2,"platformApprovals":1,"timeout":"1d"}`}})
	if err != nil {
		t.Fatal(err)
	}
	if changed == a || changed.Stacks["production"].Approval.TeamApprovals != 2 || a.Stacks["production"].Approval.TeamApprovals != 1 {
		t.Error("a run with its own config got the shared catalog, or changed it")
	}
	if _, err := r.Resolve(&Config{Stack: "production", Values: map[string]string{Namespace + ":workloads": `{"replicas":20}`}}); err == nil {
		t.Error("a bad value from ESC was not reported")
	}
}
