// Package ledger is the ledger of the stand-ins: for every behaviour of a
// simulated service the offline runs rely on, where the behaviour was
// taken from (the vendor's page or source) and the test that holds it.
// docs/conformance.md is rendered from it (Markdown); its test fails for
// an entry without a source or whose test does not exist, and when the
// page is stale.
//
// Where the vendor's own code runs offline it is named as the source and
// the stand-in is that code: act's expression interpreter, ESC's
// evaluator with ESC's published schemas, Kubernetes' Pod Security and
// RBAC libraries, the network policy project's matcher.
package ledger

import (
	"fmt"
	"regexp"
	"strings"
)

// SourcePattern is what a source must be: a vendor page (https://...),
// a fact file of ../shared, or a vendor repository's path or issue
// (owner/repo path, owner/repo#n).
var SourcePattern = regexp.MustCompile(`^(https://\S+|\.\./shared/\S+|[A-Za-z0-9-]+/[A-Za-z0-9._-]+[ #]\S.*)`)

// Entry is one behaviour of a stand-in.
type Entry struct {
	// Service is the vendor service stood in for: GitHub Actions, GitHub
	// API, Harness, ESC, AWS or Kubernetes.
	Service string
	// Behaviour says what the stand-in does, as the vendor does.
	Behaviour string
	// Source is where that was read: a vendor page (https://...) or a
	// vendor repository's path (owner/repo path).
	Source string
	// Vendor: the stand-in is the vendor's own code, run offline.
	Vendor bool
	// Package is the directory, from the repository's root, whose test
	// Test holds the behaviour.
	Package, Test string
}

// Services are the services of the ledger, in the page's order.
var Services = []string{"GitHub Actions", "GitHub API", "Harness", "ESC", "AWS", "Kubernetes"}

// Markdown is docs/conformance.md.
func Markdown(entries []Entry) string {
	var b strings.Builder
	b.WriteString("# The stand-ins and their sources\n\n")
	b.WriteString("<!-- Generated from internal/ledger (go test ./internal/ledger -update); do not edit. -->\n\n")
	b.WriteString("Every offline run goes through stand-ins of the vendors' services. Each behaviour the\n")
	b.WriteString("program relies on is listed here with where it was read and the test that holds it;\n")
	b.WriteString("\"vendor code\" marks a stand-in that is the vendor's own code, run offline. An entry\n")
	b.WriteString("without a source, or naming a test that does not exist, fails `make test`.\n")
	for _, s := range Services {
		fmt.Fprintf(&b, "\n## %s\n\n| behaviour | source | held by |\n| --- | --- | --- |\n", s)
		for _, e := range entries {
			if e.Service != s {
				continue
			}
			src := e.Source
			if strings.HasPrefix(src, "https://") {
				src = "<" + src + ">"
			} else {
				src = "`" + src + "`"
			}
			if e.Vendor {
				src = "vendor code: " + src
			}
			fmt.Fprintf(&b, "| %s | %s | `%s` (`%s`) |\n", strings.ReplaceAll(e.Behaviour, "|", "\\|"), src, e.Test, e.Package)
		}
	}
	return b.String()
}
