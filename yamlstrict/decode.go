// Package yamlstrict decodes YAML into Go structs strictly and reports every
// problem with its position: unknown keys (with a suggestion), missing
// required keys, values of the wrong kind and values outside an enum.
//
// Struct fields use the `yaml` tag for their key, and optionally
// `required:"true"`, `enum:"a|b|c"` and `desc:"..."` (the description the
// catalog's JSON Schema carries). A field of type At records where its struct
// was declared, so later checks can point at the right line.
package yamlstrict

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	goyaml "github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/parser"
	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/diag"
)

// Sources name where nodes that are not their file's came from (a stack's
// Pulumi config, say): a problem in one is reported at that name, without
// a line, since no file has one for it.
type Sources map[*yaml.Node]string

// Mark records n and every node under it as coming from source.
func (s Sources) Mark(n *yaml.Node, source string) {
	s[n] = source
	for _, c := range n.Content {
		s.Mark(c, source)
	}
}

// pos is where n is: its source, or its line and column in file.
func (s Sources) pos(file string, n *yaml.Node) diag.Pos {
	if src, ok := s[n]; ok {
		return diag.Pos{File: src}
	}
	return diag.Pos{File: file, Line: n.Line, Col: n.Column}
}

// At records the position of a decoded mapping.
type At struct {
	file    string
	node    *yaml.Node
	sources Sources
}

// Pos is the position of the mapping itself.
func (a At) Pos() diag.Pos {
	if a.node == nil {
		return diag.Pos{File: a.file}
	}
	return a.sources.pos(a.file, a.node)
}

// Field is the position of the value of key, or of the mapping when the key
// is absent.
func (a At) Field(key string) diag.Pos {
	if n := a.value(key); n != nil {
		return a.sources.pos(a.file, n)
	}
	return a.Pos()
}

// Has reports whether the mapping has key.
func (a At) Has(key string) bool { return a.value(key) != nil }

// Item is the position of the i-th element of the sequence under key.
func (a At) Item(key string, i int) diag.Pos {
	if n := a.value(key); n != nil && n.Kind == yaml.SequenceNode && i < len(n.Content) {
		return a.sources.pos(a.file, n.Content[i])
	}
	return a.Field(key)
}

// Tag is the resolved YAML tag of key's value ("!!str", "!!float", ...),
// or "" when key is absent: an unquoted 1.30 is a float, which Pulumi
// config would pass on as 1.3.
func (a At) Tag(key string) string {
	if n := a.value(key); n != nil {
		return n.ShortTag()
	}
	return ""
}

func (a At) value(key string) *yaml.Node { return Value(a.node, key) }

// Value is the value of key in the mapping m; nil when m is not a mapping
// (or nil) or has no such key.
func Value(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// ParseFile parses one YAML document. Syntax errors become diagnostics.
//
// goccy/go-yaml's parser checks the syntax first: it reports where a
// problem is as data (the offending token's line and column; yaml.v3
// only writes a line into its message, a line early for some). Keys given
// twice are left to the decoder, which names both. yaml.v3 then builds
// the node tree.
func ParseFile(file string, data []byte, diags *diag.List) *yaml.Node {
	if _, err := parser.ParseBytes(data, 0, parser.AllowDuplicateMapKey()); err != nil {
		var syntax *goyaml.SyntaxError
		if errors.As(err, &syntax) && syntax.Token != nil {
			diags.Add(file, syntax.Token.Position.Line, syntax.Token.Position.Column, "fix the YAML syntax", "YAML syntax error: %s", syntax.Message)
		} else {
			diags.Add(file, 0, 0, "fix the YAML syntax", "YAML syntax error: %v", err)
		}
		return nil
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			diags.Add(file, 0, 0, "add the expected top-level keys", "file is empty")
			return nil
		}
		// What goccy/go-yaml accepts and yaml.v3 does not: yaml.v3's
		// message, which names the line.
		diags.Add(file, 0, 0, "fix the YAML syntax", "YAML syntax error: %s", strings.TrimPrefix(err.Error(), "yaml: "))
		return nil
	}
	if len(doc.Content) == 0 {
		diags.Add(file, 0, 0, "add the expected top-level keys", "file is empty")
		return nil
	}
	return doc.Content[0]
}

// Decode decodes node into v, a pointer to a struct, adding a diagnostic for
// every problem found. Fields whose values are wrong keep their zero value.
// Nodes of node's tree are file's unless sources (which may be nil) names
// another source for them.
func Decode(file string, node *yaml.Node, v any, sources Sources, diags *diag.List) {
	d := decoder{file: file, sources: sources, diags: diags}
	d.decode(node, reflect.ValueOf(v).Elem(), "")
}

type decoder struct {
	file    string
	sources Sources
	diags   *diag.List
}

var atType = reflect.TypeOf(At{})

func (d *decoder) add(n *yaml.Node, fix, format string, args ...any) {
	p := d.sources.pos(d.file, n)
	d.diags.Add(p.File, p.Line, p.Col, fix, format, args...)
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	default:
		return fmt.Sprintf("%q", n.Value)
	}
}

func (d *decoder) decode(n *yaml.Node, v reflect.Value, key string) {
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	where := ""
	if key != "" {
		where = fmt.Sprintf(" for %q", key)
	}
	switch v.Kind() {
	case reflect.Pointer:
		if n.Tag == "!!null" {
			return
		}
		p := reflect.New(v.Type().Elem())
		d.decode(n, p.Elem(), key)
		v.Set(p)
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			d.add(n, "write it as key: value pairs", "expected a mapping%s, found %s", where, kindName(n))
			return
		}
		d.decodeStruct(n, v)
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			d.add(n, "write it as a list, e.g. [a, b]", "expected a list%s, found %s", where, kindName(n))
			return
		}
		s := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
		for i, item := range n.Content {
			d.decode(item, s.Index(i), key)
		}
		v.Set(s)
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			d.add(n, "write it as key: value pairs", "expected a mapping%s, found %s", where, kindName(n))
			return
		}
		m := reflect.MakeMapWithSize(v.Type(), len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i], n.Content[i+1]
			elem := reflect.New(v.Type().Elem()).Elem()
			d.decode(val, elem, k.Value)
			m.SetMapIndex(reflect.ValueOf(k.Value).Convert(v.Type().Key()), elem)
		}
		v.Set(m)
	default:
		if n.Kind != yaml.ScalarNode {
			d.add(n, "give a single value", "expected a %s%s, found %s", scalarName(v.Kind()), where, kindName(n))
			return
		}
		if err := n.Decode(v.Addr().Interface()); err != nil {
			d.add(n, "give a single value of that kind", "expected a %s%s, found %q", scalarName(v.Kind()), where, n.Value)
		}
	}
}

func scalarName(k reflect.Kind) string {
	switch k {
	case reflect.Bool:
		return "boolean (true or false)"
	case reflect.Int, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint32, reflect.Uint64:
		return "whole number"
	case reflect.Float32, reflect.Float64:
		return "number"
	default:
		return "string"
	}
}

func (d *decoder) decodeStruct(n *yaml.Node, v reflect.Value) {
	fields := Fields(v.Type())
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		f, ok := fields.byKey[k.Value]
		if !ok {
			fix := "remove it"
			if s := suggest(k.Value, fields.keys); s != "" {
				fix = fmt.Sprintf("did you mean %q?", s)
			} else if len(fields.keys) > 0 {
				fix = "allowed keys: " + strings.Join(fields.keys, ", ")
			}
			d.add(k, fix, "unknown key %q", k.Value)
			continue
		}
		if seen[k.Value] {
			d.add(k, "keep one of them", "key %q is given twice", k.Value)
			continue
		}
		seen[k.Value] = true
		fv := v.Field(f.Index)
		d.decode(val, fv, k.Value)
		// A required string given blank parses but means nothing: refused
		// as a missing key is.
		if f.Required && fv.Kind() == reflect.String && val.Kind == yaml.ScalarNode && strings.TrimSpace(fv.String()) == "" {
			fix := "write a value"
			if f.Description != "" {
				fix += ": " + strings.TrimSuffix(f.Description, ".")
			}
			d.add(val, fix, "%q is empty", k.Value)
			fv.SetString("") // later checks skip what is not given
			continue
		}
		if f.Enum != nil && fv.Kind() == reflect.String && val.Kind == yaml.ScalarNode && !contains(f.Enum, fv.String()) {
			fix := "use one of: " + strings.Join(f.Enum, ", ")
			if s := suggest(fv.String(), f.Enum); s != "" {
				fix = fmt.Sprintf("did you mean %q?", s)
			}
			d.add(val, fix, "%q is not a valid %s", fv.String(), k.Value)
		}
	}
	for _, f := range fields.list {
		if f.Required && !seen[f.Key] {
			d.add(n, fmt.Sprintf("add %q", f.Key+": ..."), "missing required key %q", f.Key)
		}
	}
	if fields.at >= 0 {
		v.Field(fields.at).Set(reflect.ValueOf(At{file: d.file, node: n, sources: d.sources}))
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
