package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
