package catalog

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/company/harness-platform/diag"
	"github.com/company/harness-platform/ident"
	"github.com/company/harness-platform/yamlstrict"
)

// validator checks the decoded documents and reports every problem; it
// never changes them. The lookups it builds are what resolve uses.
type validator struct {
	files *decoded
	diags *diag.List
	// warns are what a run should hear but that stops nothing (a
	// version close to the end of its support, a placeholder network).
	warns diag.List

	regions      map[string]*regionDoc
	teams        map[string]*teamDoc
	archetypes   map[string]*archetypeDoc
	stacks       map[string]*stackDoc
	services     map[string]*serviceDoc
	enabled      map[*serviceDoc]map[string]bool
	shards       map[*serviceDoc]string // each service's service stack
	chain        []string               // stack names from the root
	platformTeam string
}

func newValidator(files *decoded, diags *diag.List) *validator {
	return &validator{
		files: files, diags: diags,
		regions: map[string]*regionDoc{}, teams: map[string]*teamDoc{}, archetypes: map[string]*archetypeDoc{},
		stacks: files.stacks, services: map[string]*serviceDoc{}, enabled: map[*serviceDoc]map[string]bool{},
		shards: map[*serviceDoc]string{},
	}
}

func (v *validator) at(pos diag.Pos, fix, format string, args ...any) {
	v.diags.At(pos, fix, format, args...)
}

func (v *validator) warnAt(pos diag.Pos, fix, format string, args ...any) {
	v.warns.At(pos, fix, format, args...)
}

// unique reports a name declared twice and a name whose Harness identifier
// collides with another's; seen maps identifiers to their first declaration.
func (v *validator) unique(kind, name, id string, pos diag.Pos, seen map[string]string, firstAt map[string]diag.Pos) bool {
	if prev, ok := seen[id]; ok {
		first := firstAt[id]
		if prev == name {
			v.at(pos, fmt.Sprintf("remove or rename one of them (the first is at line %d)", first.Line), "duplicate %s name %q", kind, name)
		} else {
			v.at(pos, fmt.Sprintf("rename one of them (the other is at line %d)", first.Line), "%s %q maps to Harness identifier %q, the same as %s %q", kind, name, id, kind, prev)
		}
		return false
	}
	seen[id], firstAt[id] = name, pos
	return true
}

func (v *validator) checkIdent(pos diag.Pos, what, id string) bool {
	if err := ident.Check(id); err != nil {
		v.at(pos, "choose a name whose identifier is valid: it starts with a letter, uses letters, digits and '-' or '_', and is not a reserved word", "%s: %v", what, err)
		return false
	}
	return true
}

var durationPattern = regexp.MustCompile(`^([1-9][0-9]*[smhdw])+$`)

var (
	hhmm     = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]$`)
	weekdays = []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}
)

var repoPattern = regexp.MustCompile(`^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$`)

// suggestion is the fix for a reference to an unknown name.
func (v *validator) suggestion(name string, known []string, where string) string {
	if s := yamlstrict.Suggest(name, known); s != "" {
		return fmt.Sprintf("did you mean %q?", s)
	}
	if len(known) == 0 {
		return "declare it in " + where
	}
	return fmt.Sprintf("use one of: %s, or declare it in %s", strings.Join(known, ", "), where)
}

func keys[V any](m map[string]V) []string { return sortedKeys(m) }

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
