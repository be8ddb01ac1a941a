package plan

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func render(t testing.TB, p *Plan, service string) []byte {
	return renderWith(t, p, RenderOptions{Service: service})
}

func renderWith(t testing.TB, p *Plan, opts RenderOptions) []byte {
	var b bytes.Buffer
	if err := Render(&b, p, opts); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// The rendered documents of the example catalog are reviewed files; they
// change only with `go test ./plan -update`. <stack>.golden.yaml has the
// service pipelines resolved (what runs: the full pipelines from before
// the templates, unchanged by them), <stack>.saved.golden.yaml as saved,
// on their templates.
func TestGolden(t *testing.T) {
	c := example(t)
	for _, stack := range c.AllStacks() {
		p := mustBuild(t, c, stack)
		golden(t, renderWith(t, p, RenderOptions{Resolved: true}), filepath.Join("testdata", stack+".golden.yaml"))
		if !p.IsPlatform() {
			golden(t, render(t, p, ""), filepath.Join("testdata", stack+".saved.golden.yaml"))
		}
	}
}

func golden(t *testing.T, got []byte, path string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run `go test ./plan -update` to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the rendering differs from %s (-golden +rendered):\n%s\nreview the change and run `go test ./plan -update`", path, cmp.Diff(strings.Split(string(want), "\n"), strings.Split(string(got), "\n")))
	}
}

func TestRenderingIsDeterministic(t *testing.T) {
	first := render(t, mustBuild(t, example(t), "production"), "")
	for i := 0; i < 5; i++ {
		if again := render(t, mustBuild(t, example(t), "production"), ""); !bytes.Equal(first, again) {
			t.Fatal("two renderings of the same catalog differ")
		}
	}
}

// documents splits a rendering into its documents keyed by their heading.
func documents(out []byte) map[string]string {
	docs := map[string]string{}
	for _, d := range strings.Split(string(out), "---\n")[1:] {
		head, _, _ := strings.Cut(d, "\n")
		docs[head] = d
	}
	return docs
}

// Changing one service changes only that service's documents.
func TestChangeIsLocalToOneService(t *testing.T) {
	c := example(t)
	before := documents(render(t, mustBuild(t, c, "production.services"), ""))
	for i := range c.Services {
		if c.Services[i].Name == "checkout-api" {
			c.Services[i].Tags = map[string]string{"tier": "gold"}
		}
	}
	after := documents(render(t, mustBuild(t, c, "production.services"), ""))
	if len(before) != len(after) {
		t.Fatalf("document count changed: %d -> %d", len(before), len(after))
	}
	var changed []string
	for head, doc := range before {
		if after[head] != doc {
			changed = append(changed, head)
		}
	}
	if len(changed) != 2 {
		t.Fatalf("want only checkout-api's pipeline and trigger to change, changed: %v", changed)
	}
	for _, head := range changed {
		if !strings.Contains(head, "checkout_api_prod") {
			t.Errorf("unrelated document changed: %s", head)
		}
	}
}

func TestRenderOneService(t *testing.T) {
	p := mustBuild(t, example(t), "dev.services")
	docs := documents(render(t, p, "payment-service"))
	want := []string{"# dev.services: service payment_service", "# dev.services: fileStoreFile payment_service_int_stable_values", "# dev.services: pipeline payment_service_int_stable", "# dev.services: trigger payment_service_int_stable_webhook"}
	if len(docs) != len(want) {
		t.Fatalf("got %d documents: %v", len(docs), docs)
	}
	for _, h := range want {
		if _, ok := docs[h]; !ok {
			t.Errorf("missing %q", h)
		}
	}
}
