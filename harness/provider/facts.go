// Package provider holds what the Harness provider accepts, as ../shared
// records it (harness-provider/schema.json and constraints.json, read at
// run time, never copied into the repository) with the nested deprecations
// of deprecations.json: its resources' inputs and types (Facts) and its
// Terraform constraints, defaults and force-new properties (Constraints).
// The simulated providers enforce them in offline runs; the conformance
// tests hold what the program registers to them.
package provider

import (
	"fmt"
	"sort"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
)

// Facts are the Harness provider's API facts (harness-provider/schema.json).
type Facts struct {
	Version   string                   `json:"version"`
	Resources map[string]ResourceFacts `json:"resources"`
	Types     map[string]TypeFacts     `json:"types"`
}

// ResourceFacts describe one resource type.
type ResourceFacts struct {
	Inputs             map[string]InputFacts `json:"inputs"`
	RequiredInputs     []string              `json:"requiredInputs"`
	SecretOutputs      []string              `json:"secretOutputs"`
	DeprecationMessage string                `json:"deprecationMessage"`
}

// InputFacts describe one input property.
type InputFacts struct {
	Type       string `json:"type"`
	Required   bool   `json:"required"`
	Secret     bool   `json:"secret"`
	Deprecated bool   `json:"deprecated"`
}

// TypeFacts describe one nested object type.
type TypeFacts struct {
	GoPackage  string                   `json:"goPackage"`
	Properties map[string]PropertyFacts `json:"properties"`
}

// PropertyFacts describe one property of a nested type.
type PropertyFacts struct {
	Type     string `json:"type"`
	Required bool   `json:"required"`
	// Deprecated is the provider's deprecation message (deprecations.go).
	Deprecated string `json:"-"`
}

// CheckResource returns every way inputs, registered under token, would be
// refused by the provider or break the project's rules on secrets.
func (f *Facts) CheckResource(token string, inputs resource.PropertyMap) []string {
	res, ok := f.Resources[token]
	if !ok {
		return []string{fmt.Sprintf("unknown resource type token %q", token)}
	}
	var problems []string
	if res.DeprecationMessage != "" {
		problems = append(problems, fmt.Sprintf("%s is deprecated: %s", token, res.DeprecationMessage))
	}
	for _, name := range sortedKeys(inputs) {
		v := inputs[resource.PropertyKey(name)]
		in, ok := res.Inputs[name]
		if !ok {
			problems = append(problems, fmt.Sprintf("%s: unknown input %q", token, name))
			continue
		}
		if in.Deprecated {
			problems = append(problems, fmt.Sprintf("%s: input %q is deprecated", token, name))
		}
		if in.Secret && !v.IsNull() && !v.ContainsSecrets() && !v.IsComputed() {
			problems = append(problems, fmt.Sprintf("%s: input %q is secret but was given as a plain value", token, name))
		}
		problems = append(problems, f.checkValue(token+"."+name, in.Type, v)...)
	}
	for _, name := range res.RequiredInputs {
		if v, ok := inputs[resource.PropertyKey(name)]; !ok || v.IsNull() {
			problems = append(problems, fmt.Sprintf("%s: required input %q is not set", token, name))
		}
	}
	return problems
}

// checkValue checks that v has the kind typ names, recursing into lists,
// maps and nested objects.
func (f *Facts) checkValue(path, typ string, v resource.PropertyValue) []string {
	for v.IsSecret() {
		v = v.SecretValue().Element
	}
	if v.IsOutput() {
		if !v.OutputValue().Known {
			return nil
		}
		v = v.OutputValue().Element
	}
	if v.IsComputed() || v.IsNull() {
		return nil
	}
	bad := func(want string) []string {
		return []string{fmt.Sprintf("%s: expected %s, got %s", path, want, v.TypeString())}
	}
	switch {
	case typ == "string":
		if !v.IsString() {
			return bad("a string")
		}
	case typ == "boolean":
		if !v.IsBool() {
			return bad("a boolean")
		}
	case typ == "integer" || typ == "number":
		if !v.IsNumber() {
			return bad("a number")
		}
	case typ == "any":
	case strings.HasPrefix(typ, "array<"):
		if !v.IsArray() {
			return bad("a list")
		}
		elem := strings.TrimSuffix(strings.TrimPrefix(typ, "array<"), ">")
		var out []string
		for i, e := range v.ArrayValue() {
			out = append(out, f.checkValue(fmt.Sprintf("%s[%d]", path, i), elem, e)...)
		}
		return out
	case strings.HasPrefix(typ, "map<"):
		if !v.IsObject() {
			return bad("a map")
		}
		elem := strings.TrimSuffix(strings.TrimPrefix(typ, "map<"), ">")
		var out []string
		for k, e := range v.ObjectValue() {
			out = append(out, f.checkValue(path+"."+string(k), elem, e)...)
		}
		return out
	case strings.HasPrefix(typ, "object:"):
		if !v.IsObject() {
			return bad("an object")
		}
		name := strings.TrimPrefix(typ, "object:")
		t, ok := f.Types[name]
		if !ok {
			return []string{fmt.Sprintf("%s: type %s is not in the facts", path, name)}
		}
		obj := v.ObjectValue()
		var out []string
		for _, k := range sortedKeys(obj) {
			p, ok := t.Properties[k]
			if !ok {
				out = append(out, fmt.Sprintf("%s: unknown property %q of %s", path, k, name))
				continue
			}
			if e := obj[resource.PropertyKey(k)]; p.Deprecated != "" && !e.IsNull() {
				out = append(out, fmt.Sprintf("%s.%s is deprecated: %s", path, k, p.Deprecated))
			}
			out = append(out, f.checkValue(path+"."+k, p.Type, obj[resource.PropertyKey(k)])...)
		}
		for k, p := range t.Properties {
			if e, ok := obj[resource.PropertyKey(k)]; p.Required && (!ok || e.IsNull()) {
				out = append(out, fmt.Sprintf("%s: required property %q of %s is not set", path, k, name))
			}
		}
		sort.Strings(out)
		return out
	default:
		return []string{fmt.Sprintf("%s: unknown type string %q in the facts", path, typ)}
	}
	return nil
}

func sortedKeys(m resource.PropertyMap) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, string(k))
	}
	sort.Strings(out)
	return out
}
