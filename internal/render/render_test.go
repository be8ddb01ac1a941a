package render

import (
	"bytes"
	"flag"
	"github.com/company/harness-platform/internal/catalogtest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/company/harness-platform/catalog"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func example(t testing.TB) *catalog.Catalog { return catalogtest.Example(t, "../..") }

// The rendered pipelines of the example catalog are reviewed files; they
// change only with `go test ./internal/render -update`.
func TestGolden(t *testing.T) {
	c := example(t)
	for _, stack := range c.Chain {
		got, err := Stack(c, stack, "")
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", stack+".golden.yaml")
		if *update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run `go test ./internal/render -update` to create it)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from %s; review the change and run `go test ./internal/render -update`", stack, path)
		}
	}
}

func TestRenderingIsDeterministic(t *testing.T) {
	c := example(t)
	first, _ := Stack(c, "production", "")
	for i := 0; i < 5; i++ {
		again, _ := Stack(example(t), "production", "")
		if !bytes.Equal(first, again) {
			t.Fatal("two renderings of the same catalog differ")
		}
	}
}

// documents splits a rendering into its documents keyed by their heading.
func documents(t *testing.T, out []byte) map[string]string {
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
	before := documents(t, must(Stack(c, "production", "")))
	c.Service("checkout-api").Tags = map[string]string{"tier": "gold"}
	after := documents(t, must(Stack(c, "production", "")))
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
		if !strings.HasSuffix(head, "of checkout-api") {
			t.Errorf("unrelated document changed: %s", head)
		}
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
