// Package template expands Harness template references as Harness does
// before it evaluates a pipeline: each stage (or the pipeline) that names
// a template by templateRef and versionLabel takes the template's content,
// with the template's runtime inputs (<+input>) filled from the
// reference's templateInputs.
//
// Harness evaluates pipeline policies against this expanded pipeline
// ("an expanded version of the Pipeline YAML, including expanded
// references of stages/steps"), on save and on run:
// https://developer.harness.io/docs/platform/governance/policy-as-code/harness-governance-overview
// https://developer.harness.io/docs/platform/templates/use-a-template
package template

import (
	"fmt"
	"sort"
	"strings"
)

// Ref is one template reference in a pipeline.
type Ref struct {
	// Where is the stage's identifier, or "pipeline" for a pipeline
	// template.
	Where string
	// Template is the templateRef as written: "id" (the pipeline's
	// project), "org.id" or "account.id".
	Template string
	// Version is the versionLabel; "" means the stable version.
	Version string
}

// Scope splits a templateRef into its scope ("project", "org", "account")
// and identifier.
func (r Ref) Scope() (scope, identifier string) {
	for _, s := range []string{"account", "org"} {
		if id, ok := strings.CutPrefix(r.Template, s+"."); ok {
			return s, id
		}
	}
	return "project", r.Template
}

// Refs are the template references of a pipeline document (its YAML
// decoded: map[string]any), stages in parallel groups included.
func Refs(doc map[string]any) []Ref {
	p, _ := doc["pipeline"].(map[string]any)
	if p == nil {
		return nil
	}
	var out []Ref
	if r, ok := refOf(p, "pipeline"); ok {
		out = append(out, r)
	}
	for _, st := range stages(p) {
		id, _ := st["identifier"].(string)
		if r, ok := refOf(st, id); ok {
			out = append(out, r)
		}
	}
	return out
}

func refOf(node map[string]any, where string) (Ref, bool) {
	t, _ := node["template"].(map[string]any)
	if t == nil {
		return Ref{}, false
	}
	ref, _ := t["templateRef"].(string)
	version, _ := t["versionLabel"].(string)
	return Ref{Where: where, Template: ref, Version: version}, ref != ""
}

// stages are the stage nodes of a pipeline, in order, parallel ones
// included.
func stages(p map[string]any) []map[string]any {
	list, _ := p["stages"].([]any)
	var out []map[string]any
	for _, e := range list {
		el, _ := e.(map[string]any)
		if st, ok := el["stage"].(map[string]any); ok {
			out = append(out, st)
		}
		if par, ok := el["parallel"].([]any); ok {
			for _, pe := range par {
				pel, _ := pe.(map[string]any)
				if st, ok := pel["stage"].(map[string]any); ok {
					out = append(out, st)
				}
			}
		}
	}
	return out
}

// Lookup returns the template document (its YAML decoded, with a
// top-level "template" key) a reference names, or an error in Harness's
// words when it does not exist.
type Lookup func(r Ref) (map[string]any, error)

// Expand returns doc with every template reference expanded: a stage
// keeps its identifier, name and template reference, and takes the
// template's spec (type, spec, failure strategies, when, variables) with
// its inputs filled from templateInputs. doc is not modified.
func Expand(doc map[string]any, lookup Lookup) (map[string]any, error) {
	out := clone(doc).(map[string]any)
	p, _ := out["pipeline"].(map[string]any)
	if p == nil {
		return out, nil
	}
	if r, ok := refOf(p, "pipeline"); ok {
		spec, err := specOf(lookup, r)
		if err != nil {
			return nil, err
		}
		inputs, _ := p["template"].(map[string]any)["templateInputs"].(map[string]any)
		merged := fill(spec, inputs).(map[string]any)
		for k, v := range merged {
			if _, own := p[k]; !own {
				p[k] = v
			}
		}
	}
	for _, st := range stages(p) {
		id, _ := st["identifier"].(string)
		r, ok := refOf(st, id)
		if !ok {
			continue
		}
		spec, err := specOf(lookup, r)
		if err != nil {
			return nil, err
		}
		inputs, _ := st["template"].(map[string]any)["templateInputs"].(map[string]any)
		for k, v := range fill(spec, inputs).(map[string]any) {
			if _, own := st[k]; !own {
				st[k] = v
			}
		}
	}
	return out, nil
}

func specOf(lookup Lookup, r Ref) (map[string]any, error) {
	t, err := lookup(r)
	if err != nil {
		return nil, err
	}
	body, _ := t["template"].(map[string]any)
	spec, _ := body["spec"].(map[string]any)
	if spec == nil {
		return nil, fmt.Errorf("template %s (version %q) has no spec", r.Template, r.Version)
	}
	return spec, nil
}

// IsInput reports whether a value is a runtime input (<+input>, with or
// without modifiers such as .allowedValues(...)).
func IsInput(v any) bool {
	s, ok := v.(string)
	return ok && strings.HasPrefix(s, "<+input>")
}

// fill returns the template value t with every runtime input replaced by
// the value at the same place in inputs (left an input when inputs has
// none: the run asks for it). Lists are matched element by element by
// their node's identifier (steps, stages), else by position, as
// templateInputs mirror the template.
func fill(t, inputs any) any {
	switch tv := t.(type) {
	case map[string]any:
		in, _ := inputs.(map[string]any)
		out := make(map[string]any, len(tv))
		for k, v := range tv {
			out[k] = fill(v, in[k])
		}
		return out
	case []any:
		in, _ := inputs.([]any)
		out := make([]any, len(tv))
		for i, v := range tv {
			out[i] = fill(v, matching(v, i, in))
		}
		return out
	default:
		if IsInput(t) && inputs != nil {
			return inputs
		}
		return t
	}
}

// matching is the element of inputs that mirrors the template's list
// element v at index i.
func matching(v any, i int, inputs []any) any {
	if id := nodeIdentifier(v); id != "" {
		for _, in := range inputs {
			if nodeIdentifier(in) == id {
				return in
			}
		}
		return nil
	}
	if i < len(inputs) {
		return inputs[i]
	}
	return nil
}

// nodeIdentifier is the identifier of a list element that is a node
// ({step: {identifier: ...}}) or an object with an identifier.
func nodeIdentifier(v any) string {
	m, _ := v.(map[string]any)
	if id, ok := m["identifier"].(string); ok {
		return id
	}
	if len(m) == 1 {
		for _, inner := range m {
			if n, ok := inner.(map[string]any); ok {
				id, _ := n["identifier"].(string)
				return id
			}
		}
	}
	return ""
}

// Inputs are the paths of a template's runtime inputs (dot-separated,
// list elements by node identifier or index): what a referencing
// pipeline's templateInputs may give, and what, when it changes, makes
// Harness ask pipelines to reconcile.
func Inputs(spec any) []string {
	var out []string
	var walk func(v any, path string)
	walk = func(v any, path string) {
		switch tv := v.(type) {
		case map[string]any:
			for k, e := range tv {
				walk(e, join(path, k))
			}
		case []any:
			for i, e := range tv {
				key := nodeIdentifier(e)
				if key == "" {
					key = fmt.Sprint(i)
				}
				walk(e, join(path, key))
			}
		default:
			if IsInput(v) {
				out = append(out, path)
			}
		}
	}
	walk(spec, "")
	sort.Strings(out)
	return out
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}

func clone(v any) any {
	switch tv := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(tv))
		for k, e := range tv {
			out[k] = clone(e)
		}
		return out
	case []any:
		out := make([]any, len(tv))
		for i, e := range tv {
			out[i] = clone(e)
		}
		return out
	default:
		return v
	}
}
