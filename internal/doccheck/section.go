// Package doccheck checks the documentation: the sections of docs/ that
// are generated from the code (Section, for the tests that own them),
// and, in its own tests, every Mermaid block of README.md and docs/*.md
// with Mermaid's own parser (docs/check/run.sh, Node.js and npm).
package doccheck

import (
	"os"
	"strings"
	"testing"
)

// Section compares doc's generated section name, between
// "<!-- name: begin -->" and "<!-- name: end -->", with want; with update
// it rewrites the section to want. It returns the section as it stands
// (want once rewritten) and whether it is want.
func Section(t testing.TB, doc, name, want string, update bool) (string, bool) {
	t.Helper()
	begin, end := "<!-- "+name+": begin -->\n", "<!-- "+name+": end -->"
	data, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	i, j := strings.Index(text, begin), strings.Index(text, end)
	if i < 0 || j < i {
		t.Fatalf("%s has no %q ... %q section", doc, begin, end)
	}
	got := text[i+len(begin) : j]
	if got != want && update {
		if err := os.WriteFile(doc, []byte(text[:i+len(begin)]+want+text[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return want, true
	}
	return got, got == want
}
