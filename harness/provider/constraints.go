package provider

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
)

// Constraints are the Terraform rules the real provider's Check and Diff
// enforce (harness-provider/constraints.json; its README says how to read
// them).
type Constraints struct {
	Version   string                         `json:"version"`
	Resources map[string]ResourceConstraints `json:"resources"`
}

// ResourceConstraints are one resource's rules, by property path.
type ResourceConstraints struct {
	TerraformResource string                        `json:"terraformResource"`
	Properties        map[string]PropertyConstraint `json:"properties"`
}

// PropertyConstraint is what constraints.json says of one property path.
type PropertyConstraint struct {
	TerraformPath     string   `json:"terraformPath"`
	ConflictsWith     []string `json:"conflictsWith"`
	ExactlyOneOf      []string `json:"exactlyOneOf"`
	AtLeastOneOf      []string `json:"atLeastOneOf"`
	RequiredWith      []string `json:"requiredWith"`
	ForceNew          bool     `json:"forceNew"`
	Immutable         bool     `json:"immutable"`
	ImmutableMessage  string   `json:"immutableMessage"`
	Default           any      `json:"default"`
	CheckFillsDefault bool     `json:"checkFillsDefault"`
	AutoName          bool     `json:"autoName"`
	Computed          bool     `json:"computed"`
	ComputedOnly      bool     `json:"computedOnly"`
	MinItems          *int     `json:"minItems"`
	MaxItems          *int     `json:"maxItems"`
	AllowedValues     []string `json:"allowedValues"`
	IgnoreCase        bool     `json:"allowedValuesIgnoreCase"`
	NotEmpty          bool     `json:"notEmpty"`
	Element           bool     `json:"element"`
}

// Constraint kinds, as a Violation names them.
const (
	KindExactlyOneOf = "exactlyOneOf"
	KindAtLeastOneOf = "atLeastOneOf"
	KindRequiredWith = "requiredWith"
	KindConflicts    = "conflictsWith"
	KindAllowed      = "allowedValues"
	KindNotEmpty     = "notEmpty"
	KindItems        = "items"
	KindComputedOnly = "computedOnly"
)

// Violation is one refusal, in the words of the real provider's Check.
type Violation struct {
	Kind string
	// Path is the Pulumi property path, with array indexes
	// ("inheritFromDelegate.delegateSelectors", "healthSources[0].spec").
	Path string
	// Summary and Detail are Terraform's diagnostic.
	Summary, Detail string
}

// Message is the provider's error for a resource named name: the bridge
// prints Terraform's summary and detail and the value's Pulumi address.
func (v Violation) Message(name string) string {
	return fmt.Sprintf("%s. %s. Examine values at '%s.%s'.", v.Summary, v.Detail, name, v.Path)
}

// instance is one place a property's parent object occurs in the inputs.
type instance struct {
	obj     resource.PropertyMap
	pulumi  string // Pulumi path of obj, with indexes ("" at the root)
	indexes []int  // array indexes on the way, for Terraform's .N
}

// instances lists every object at parent (a path such as "a.b[]" or "").
func instances(root resource.PropertyMap, parent string) []instance {
	out := []instance{{obj: root}}
	if parent == "" {
		return out
	}
	for _, seg := range strings.Split(parent, ".") {
		key, isArray := strings.CutSuffix(seg, "[]")
		var next []instance
		for _, in := range out {
			v, ok := in.obj[resource.PropertyKey(key)]
			if !ok {
				continue
			}
			v = unwrap(v)
			p := join(in.pulumi, key)
			switch {
			case isArray && v.IsArray():
				for i, e := range v.ArrayValue() {
					if e = unwrap(e); e.IsObject() {
						next = append(next, instance{e.ObjectValue(), p + "[" + strconv.Itoa(i) + "]", append(slices.Clone(in.indexes), i)})
					}
				}
			case !isArray && v.IsObject():
				next = append(next, instance{v.ObjectValue(), p, in.indexes})
			}
		}
		out = next
	}
	return out
}

func unwrap(v resource.PropertyValue) resource.PropertyValue {
	for v.IsSecret() {
		v = v.SecretValue().Element
	}
	return v
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}

func splitPath(path string) (parent, leaf string) {
	if i := strings.LastIndex(path, "."); i >= 0 {
		return path[:i], path[i+1:]
	}
	return "", path
}

// isSet reports whether a group member is given, relative to the
// instance of the property that names it (members share its parent) or
// from the root (members through flattened objects).
func isSet(root resource.PropertyMap, in instance, parent, member string) bool {
	mp, leaf := splitPath(member)
	objs := []resource.PropertyMap{in.obj}
	if mp != parent {
		objs = nil
		for _, i := range instances(root, mp) {
			objs = append(objs, i.obj)
		}
	}
	for _, o := range objs {
		if v, ok := o[resource.PropertyKey(leaf)]; ok && !v.IsNull() {
			return true
		}
	}
	return false
}

// tfPath is Terraform's address of path in an instance: ".N" becomes the
// element's index.
func tfPath(tf string, indexes []int) string {
	for _, i := range indexes {
		tf = strings.Replace(tf, ".N", "."+strconv.Itoa(i), 1)
	}
	return tf
}

func (r ResourceConstraints) tfPaths(paths []string, indexes []int) string {
	out := make([]string, len(paths))
	for i, p := range paths {
		tf := p
		if c, ok := r.Properties[p]; ok && c.TerraformPath != "" {
			tf = c.TerraformPath
		}
		out[i] = tfPath(tf, indexes)
	}
	return strings.Join(out, ",")
}

// Check returns what the real provider's Check refuses in inputs, in
// Terraform's order for each property (exactlyOneOf, atLeastOneOf,
// requiredWith, conflictsWith, then the value), first failure only.
func (c *Constraints) Check(token string, inputs resource.PropertyMap) []Violation {
	rc, ok := c.Resources[token]
	if !ok {
		return nil
	}
	var out []Violation
	paths := make([]string, 0, len(rc.Properties))
	for p := range rc.Properties {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, path := range paths {
		pc := rc.Properties[path]
		parent, leaf := splitPath(path)
		for _, in := range instances(inputs, parent) {
			if v, ok := rc.checkOne(inputs, in, parent, leaf, pc); ok {
				out = append(out, v)
			}
		}
	}
	return out
}

func (rc ResourceConstraints) checkOne(root resource.PropertyMap, in instance, parent, leaf string, pc PropertyConstraint) (Violation, bool) {
	tf := tfPath(pc.TerraformPath, in.indexes)
	path := join(in.pulumi, leaf)
	value, present := in.obj[resource.PropertyKey(leaf)]
	present = present && !value.IsNull()
	fail := func(kind, summary, detail string) (Violation, bool) {
		return Violation{Kind: kind, Path: path, Summary: summary, Detail: detail}, true
	}
	if g := pc.ExactlyOneOf; len(g) > 0 {
		var set []string
		for _, m := range g {
			if isSet(root, in, parent, m) {
				set = append(set, m)
			}
		}
		switch {
		case len(set) == 0:
			return fail(KindExactlyOneOf, "Invalid combination of arguments", fmt.Sprintf("%q: one of `%s` must be specified", tf, rc.tfPaths(g, in.indexes)))
		case len(set) > 1:
			return fail(KindExactlyOneOf, "Invalid combination of arguments", fmt.Sprintf("%q: only one of `%s` can be specified, but `%s` were specified.", tf, rc.tfPaths(g, in.indexes), rc.tfPaths(set, in.indexes)))
		}
	}
	if g := pc.AtLeastOneOf; len(g) > 0 && !slices.ContainsFunc(g, func(m string) bool { return isSet(root, in, parent, m) }) {
		return fail(KindAtLeastOneOf, "Missing required argument", fmt.Sprintf("%q: one of `%s` must be specified", tf, rc.tfPaths(g, in.indexes)))
	}
	if !present {
		return Violation{}, false
	}
	if pc.ComputedOnly {
		return fail(KindComputedOnly, "Computed attribute cannot be set", fmt.Sprintf("%q: this field cannot be set", tf))
	}
	if g := pc.RequiredWith; len(g) > 0 {
		for _, m := range g {
			if !isSet(root, in, parent, m) {
				return fail(KindRequiredWith, "Missing required argument", fmt.Sprintf("%q: all of `%s` must be specified", tf, rc.tfPaths(g, in.indexes)))
			}
		}
	}
	for _, m := range pc.ConflictsWith {
		if isSet(root, in, parent, m) && !value.ContainsUnknowns() {
			return fail(KindConflicts, "Conflicting configuration arguments", fmt.Sprintf("%q: conflicts with %s", tf, rc.tfPaths([]string{m}, in.indexes)))
		}
	}
	v := unwrap(value)
	if v.IsArray() && (pc.MinItems != nil || pc.MaxItems != nil) {
		n := len(v.ArrayValue())
		if pc.MinItems != nil && n < *pc.MinItems {
			return fail(KindItems, "Not enough list items", fmt.Sprintf("Attribute %s requires %d item minimum, but config has only %d declared.", tf, *pc.MinItems, n))
		}
		if pc.MaxItems != nil && n > *pc.MaxItems {
			return fail(KindItems, "Too many list items", fmt.Sprintf("Attribute %s supports %d item maximum, but config has %d declared.", tf, *pc.MaxItems, n))
		}
	}
	values := []resource.PropertyValue{v}
	if pc.Element && v.IsArray() {
		values = v.ArrayValue()
	}
	for _, e := range values {
		if e = unwrap(e); !e.IsString() {
			continue
		}
		s := e.StringValue()
		if pc.NotEmpty && s == "" {
			return fail(KindNotEmpty, "Invalid value", fmt.Sprintf("expected %q to not be an empty string, got %s", tf, s))
		}
		if len(pc.AllowedValues) > 0 && !slices.ContainsFunc(pc.AllowedValues, func(a string) bool {
			return a == s || pc.IgnoreCase && strings.EqualFold(a, s)
		}) {
			return fail(KindAllowed, "Invalid value", fmt.Sprintf("expected %s to be one of [%s], got %s", tf, strings.Join(pc.AllowedValues, " "), s))
		}
	}
	return Violation{}, false
}
