package ledger

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/conformance.md from the ledger")

// Every entry names a source (a vendor page or a vendor repository's
// path) and a test that exists; every service has entries; the page is
// the ledger's.
func TestLedger(t *testing.T) {
	tests := map[string]string{} // package -> its test files' text
	for _, e := range Entries {
		if e.Service == "" || e.Behaviour == "" || !slices.Contains(Services, e.Service) {
			t.Errorf("%+v: a service of %v and a behaviour", e, Services)
		}
		if !SourcePattern.MatchString(e.Source) {
			t.Errorf("%s: %q: no source (a vendor page, https://..., or a vendor repository's path, owner/repo path)", e.Service, e.Behaviour)
		}
		text, ok := tests[e.Package]
		if !ok {
			files, _ := filepath.Glob(filepath.Join("..", "..", e.Package, "*_test.go"))
			var b strings.Builder
			for _, f := range files {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				b.Write(data)
			}
			text = b.String()
			tests[e.Package] = text
		}
		if !strings.Contains(text, "\nfunc "+e.Test+"(t *testing.T)") {
			t.Errorf("%s: %q: no test %s in %s", e.Service, e.Behaviour, e.Test, e.Package)
		}
	}
	for _, s := range Services {
		if !slices.ContainsFunc(Entries, func(e Entry) bool { return e.Service == s }) {
			t.Errorf("no entry for %s", s)
		}
	}
	page := filepath.Join("..", "..", "docs", "conformance.md")
	want := Markdown(Entries)
	if *update {
		if err := os.WriteFile(page, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(page)
	if err != nil || string(got) != want {
		t.Errorf("docs/conformance.md is stale (%v): go test ./internal/ledger -update", err)
	}
}

// An entry without a source, or with a test that does not exist, is
// refused.
func TestLedgerRefusesWhatHasNoSource(t *testing.T) {
	for _, s := range []string{"", "our reading", "see the code"} {
		if SourcePattern.MatchString(s) {
			t.Errorf("%q passes as a source", s)
		}
	}
}
