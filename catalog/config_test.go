package catalog

import (
	"errors"
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
// the file's change nothing; values from elsewhere are validated and named
// by their config key, next to the file's own problems with their lines.
func TestWithConfig(t *testing.T) {
	c, err := Parse(exampleFiles(t))
	if err != nil {
		t.Fatal(err)
	}
	same, err := c.WithConfig("production", map[string]string{
		Namespace + ":upstream":    "staging",
		Namespace + ":approval":    `{"teamApprovals":1,"platformApprovals":1,"timeout":"1d"}`,
		Namespace + ":githubToken": "ignored",
	})
	if err != nil || same != c {
		t.Fatalf("config equal to the stack file must leave the catalog as it is: %v", err)
	}
	// Pulumi gives the program Pulumi.yaml's declared defaults too.
	if same, err := c.WithConfig("dev", map[string]string{
		Namespace + ":upstream": "",
		Namespace + ":approval": `{"teamApprovals":1,"platformApprovals":1,"timeout":"1d"}`,
	}); err != nil || same != c {
		t.Fatalf("the project's declared defaults must leave the catalog as it is: %v", err)
	}
	changed, err := c.WithConfig("production", map[string]string{
		Namespace + ":approval": `{"teamApprovals":2,"platformApprovals":1,"timeout":"4h"}`,
		Namespace + ":regions":  `[{"name":"euw1","networkCidr":"10.3.0.0/17"},{"name":"euw2","networkCidr":"10.3.128.0/18"}]`,
	})
	if err != nil {
		t.Fatal(err)
	}
	prod := changed.Stacks["production"]
	if prod.Approval.TeamApprovals != 2 || prod.Approval.Timeout != "4h" || prod.Regions[1].NetworkCIDR != "10.3.128.0/18" {
		t.Errorf("config did not reach the stack: approval %+v, regions %+v", prod.Approval, prod.Regions)
	}
	if c.Stacks["production"].Approval.TeamApprovals != 1 {
		t.Error("WithConfig changed the catalog it was called on")
	}
	_, err = c.WithConfig("production", map[string]string{
		Namespace + ":regions":      `[{"name":"euw9","networkCidr":"10.3.0.0/17"}]`,
		Namespace + ":changeWindow": `{"days":["Mon"],"start":"10:00","end":"16:00","colour":"red"}`,
	})
	var d *diag.Error
	if !errors.As(err, &d) {
		t.Fatalf("want every problem as a *diag.Error, got %v", err)
	}
	msg := err.Error()
	for _, want := range []string{
		`config harness-platform:regions (stack production, from pulumi config or ESC): unknown region "euw9"`,
		`config harness-platform:changeWindow (stack production, from pulumi config or ESC): unknown key "colour"`,
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("missing %q in:\n%s", want, msg)
		}
	}
}
