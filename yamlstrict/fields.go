package yamlstrict

import (
	"reflect"
	"strings"
	"sync"
)

// Field describes one YAML key of a struct type.
type Field struct {
	Key         string
	Index       int
	Type        reflect.Type
	Required    bool
	Enum        []string
	Description string
}

// StructFields lists the YAML keys of a struct type, in declaration order.
type StructFields struct {
	list  []Field
	keys  []string
	byKey map[string]Field
	at    int // index of the At field, or -1
}

// List returns the fields in declaration order.
func (s StructFields) List() []Field { return s.list }

var cache sync.Map // reflect.Type -> StructFields

// Fields returns the YAML fields of struct type t.
func Fields(t reflect.Type) StructFields {
	if c, ok := cache.Load(t); ok {
		return c.(StructFields)
	}
	s := StructFields{byKey: map[string]Field{}, at: -1}
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if sf.Type == atType {
			s.at = i
			continue
		}
		key, _, _ := strings.Cut(sf.Tag.Get("yaml"), ",")
		if key == "" || key == "-" || !sf.IsExported() {
			continue
		}
		f := Field{Key: key, Index: i, Type: sf.Type, Required: sf.Tag.Get("required") == "true", Description: sf.Tag.Get("desc")}
		if e := sf.Tag.Get("enum"); e != "" {
			f.Enum = strings.Split(e, "|")
		}
		s.list = append(s.list, f)
		s.keys = append(s.keys, key)
		s.byKey[key] = f
	}
	cache.Store(t, s)
	return s
}

// suggest returns the candidate closest to s, if it is close enough to be a
// likely typo.
func suggest(s string, candidates []string) string {
	best, bestDist := "", len(s)/2+2
	for _, c := range candidates {
		if d := distance(strings.ToLower(s), strings.ToLower(c)); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// Suggest is suggest for callers that check references (team, archetype).
func Suggest(s string, candidates []string) string { return suggest(s, candidates) }

// distance is the optimal string alignment distance: Levenshtein plus
// transposition of adjacent characters, the commonest typo ("tgas").
func distance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
