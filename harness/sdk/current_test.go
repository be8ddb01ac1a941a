package harness_test

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The generated bindings are what harnessgen makes of today's provider
// facts and harness/bindings.txt: an edit by hand, a changed list or new
// facts fail here until `make bindings` is run.
func TestBindingsAreCurrent(t *testing.T) {
	if _, err := os.Stat("../../../shared/harness-provider/schema.json"); err != nil {
		t.Fatalf("the Harness provider's facts are missing (../shared/harness-provider beside the project): %v", err)
	}
	if testing.Short() {
		t.Skip("builds the generator (Pulumi's pkg/v3 codegen)")
	}
	// go test caches a result by the files the test itself opened; the
	// generator's reads happen in another process, so open them here too.
	for _, dir := range []string{".", "../../tools/harnessgen"} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				_, err = os.ReadFile(path)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, path := range []string{"../bindings.txt", "../../../shared/harness-provider/schema.json", "../../../shared/harness-provider/constraints.json"} {
		if _, err := os.ReadFile(path); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "-C", "../../tools/harnessgen", "run", ".", "-root", "../..", "-check")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}
