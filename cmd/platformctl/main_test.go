package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/company/harness-platform/engine"
	"github.com/company/harness-platform/internal/catalogtest"
	"github.com/company/harness-platform/internal/conformance"
)

// project writes the example project to a temporary directory, with edits.
func project(t *testing.T, edit func(map[string][]byte)) string {
	files, err := catalogtest.ExampleFiles("../..")
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(files)
	}
	dir := t.TempDir()
	for name, data := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestValidate(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"validate", "--dir", project(t, nil)}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	// A stack file importing ESC environments is accepted.
	esc := project(t, func(f map[string][]byte) {
		f["Pulumi.production.yaml"] = append([]byte("environment:\n  - platform/production\n"), f["Pulumi.production.yaml"]...)
	})
	if code := run([]string{"validate", "--dir", esc}, &out, &errOut); code != 0 {
		t.Fatalf("a stack file with an ESC import: exit %d: %s", code, errOut.String())
	}
	bad := project(t, func(f map[string][]byte) {
		f["catalog/services.yaml"] = bytes.Replace(f["catalog/services.yaml"], []byte("team: checkout"), []byte("team: chekout"), 1)
		f["Pulumi.production.yaml"] = bytes.Replace(f["Pulumi.production.yaml"], []byte("upstream: staging"), []byte("upstream: qa"), 1)
	})
	out.Reset()
	errOut.Reset()
	if code := run([]string{"validate", "--dir", bad}, &out, &errOut); code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	want := "Pulumi.production.yaml:5:30: upstream stack \"qa\" has no stack file; use one of: dev, production, staging, or declare it in Pulumi.qa.yaml\n" +
		"catalog/services.yaml:32:11: unknown team \"chekout\"; did you mean \"checkout\"?\n" +
		"2 problem(s); nothing was declared\n"
	if errOut.String() != want {
		t.Fatalf("stderr:\n%s\nwant:\n%s", errOut.String(), want)
	}
}

func TestRenderProductionIsSchemaValid(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"render", "--stack", "production", "--dir", project(t, nil)}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	docs := strings.Split(out.String(), "---\n")[1:]
	if len(docs) < 20 {
		t.Fatalf("only %d documents", len(docs))
	}
	validated := 0
	for _, doc := range docs {
		// Harness publishes schemas for pipelines and triggers.
		validate := conformance.ValidatePipeline
		switch {
		case strings.Contains(doc, "\ntrigger:\n"):
			validate = conformance.ValidateTrigger
		case !strings.Contains(doc, "\npipeline:\n"):
			continue
		}
		validated++
		if err := validate([]byte(doc)); err != nil {
			head, _, _ := strings.Cut(doc, "\n")
			t.Errorf("%s: %v", head, err)
		}
	}
	if validated < 20 {
		t.Fatalf("validated only %d documents", validated)
	}
	errOut.Reset()
	if code := run([]string{"render", "--stack", "production", "--service", "promo-importer", "--dir", project(t, nil)}, &out, &errOut); code != 1 ||
		!strings.Contains(errOut.String(), `service "promo-importer" is not enabled in stack "production"`) {
		t.Fatalf("render of a service not in the stack: exit %d, %s", code, errOut.String())
	}
}

// The command line: each command its own flags, help anywhere and before
// any catalog is loaded, exit 2 for anything the command does not take.
func TestCommandLine(t *testing.T) {
	dir := project(t, nil)
	for _, tc := range []struct {
		args     []string
		code     int
		stdout   string
		stderr   string
		noStdout bool
	}{
		{args: []string{"render", "--stack", "production", "extra", "--service", "payment-service", "--dir", dir}, code: 2, stderr: `unexpected argument "extra"`, noStdout: true},
		{args: []string{"validate", "--dir", dir, "stray"}, code: 2, stderr: `unexpected argument "stray"`},
		{args: []string{"validate", "--bogus"}, code: 2, stderr: "flag provided but not defined: -bogus"},
		{args: []string{"validate", "--service", "x", "--dir", dir}, code: 2, stderr: "flag provided but not defined: -service"},
		{args: []string{"render", "--dir", dir}, code: 2, stderr: "--stack is required"},
		{args: []string{"up", "--stack", "dev", "--dir", dir}, code: 2, stderr: "then pass --yes"},
		{args: []string{"frobnicate"}, code: 2, stderr: `unknown command "frobnicate"`},
		{args: []string{"render", "--stack", "production", "-h"}, code: 0, stdout: "-service"},
		{args: []string{"up", "--dir", "/nonexistent", "--help"}, code: 0, stdout: "-yes"},
		{args: []string{"-h"}, code: 0, stdout: "recover"},
		{args: []string{"help", "refresh"}, code: 0, stdout: "-preview-only"},
		{args: []string{"recover", "-h"}, code: 0, stdout: "-unlock"},
	} {
		var out, errOut bytes.Buffer
		code := run(tc.args, &out, &errOut)
		if code != tc.code || !strings.Contains(out.String(), tc.stdout) || !strings.Contains(errOut.String(), tc.stderr) {
			t.Errorf("platformctl %s: exit %d, stdout %q, stderr %q; want exit %d, stdout with %q, stderr with %q",
				strings.Join(tc.args, " "), code, out.String(), errOut.String(), tc.code, tc.stdout, tc.stderr)
		}
		if tc.noStdout && out.Len() > 0 {
			t.Errorf("platformctl %s printed %d bytes although the command line is wrong", strings.Join(tc.args, " "), out.Len())
		}
	}
}

// --dir finds ../shared beside the project, whatever the working directory.
func TestDirLocatesShared(t *testing.T) {
	if _, err := engine.FindCLI(); err != nil {
		t.Fatalf("%v (make test installs it)", err)
	}
	projectDir, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	var out, errOut bytes.Buffer
	code := run([]string{"preview", "--stack", "staging", "--offline", "--state", t.TempDir(), "--dir", projectDir}, &out, &errOut)
	if code != 1 || !strings.Contains(errOut.String(), `stack "staging" reads its upstream "dev", which has not been deployed`) {
		t.Fatalf("want the engine to start (and refuse the undeployed upstream), got exit %d: %s", code, errOut.String())
	}
}
