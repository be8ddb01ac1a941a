package aws

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// constraintsJSON are the Terraform schema constraints of the AWS
// resources the program declares, extracted from terraform-provider-aws's
// sources by tools/tfconstraints (the file records the command, the
// provider commits and the Pulumi SDK version its names were checked
// against).
//
//go:embed aws-constraints.json
var constraintsJSON []byte

// property is one input's constraints (tools/tfconstraints's Property).
type property struct {
	Required      bool     `json:"required"`
	ForceNew      bool     `json:"forceNew"`
	List          bool     `json:"list"`
	MaxItems      int      `json:"maxItems"`
	MinItems      int      `json:"minItems"`
	OneOf         []string `json:"oneOf"`
	ConflictsWith []string `json:"conflictsWith"`
	ExactlyOneOf  []string `json:"exactlyOneOf"`
	RequiredWith  []string `json:"requiredWith"`
}

// constraints are the constraints by type, then by property path.
var constraints = func() map[string]map[string]property {
	var file struct {
		Resources map[string]struct {
			Properties map[string]property `json:"properties"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(constraintsJSON, &file); err != nil {
		panic(fmt.Sprintf("simulated/aws/aws-constraints.json: %v", err))
	}
	out := map[string]map[string]property{}
	for typ, r := range file.Resources {
		out[typ] = r.Properties
	}
	return out
}()

// at are the values at a dotted path, through objects and the elements of
// lists of objects; unknown values are left out (a preview's outputs:
// nothing to check yet).
func at(m resource.PropertyMap, path []string) []resource.PropertyValue {
	v, ok := m[resource.PropertyKey(path[0])]
	for ok && v.IsSecret() {
		v = v.SecretValue().Element
	}
	if !ok || v.IsNull() || v.ContainsUnknowns() && len(path) == 1 && v.IsComputed() {
		return nil
	}
	if len(path) == 1 {
		return []resource.PropertyValue{v}
	}
	var out []resource.PropertyValue
	switch {
	case v.IsObject():
		out = at(v.ObjectValue(), path[1:])
	case v.IsArray():
		for _, e := range v.ArrayValue() {
			for e.IsSecret() {
				e = e.SecretValue().Element
			}
			if e.IsObject() {
				out = append(out, at(e.ObjectValue(), path[1:])...)
			}
		}
	}
	return out
}

// set reports whether a path has a value (unknown included).
func set(m resource.PropertyMap, path string) bool {
	parts := strings.Split(path, ".")
	v, ok := m[resource.PropertyKey(parts[0])]
	if !ok || v.IsNull() {
		return false
	}
	if len(parts) == 1 || v.IsComputed() {
		return true
	}
	return len(at(m, parts)) > 0
}

// checkConstraints refuses what the real AWS provider's Check refuses by
// the Terraform schema: a value outside its allowed ones, inputs that
// conflict, an exactly-one-of or required-with group broken, a list of
// the wrong size (Terraform's wording, with Pulumi's names). Required
// inputs are checked by the caller (required).
func checkConstraints(typ string, news resource.PropertyMap) []*pulumirpc.CheckFailure {
	props := constraints[typ]
	paths := make([]string, 0, len(props))
	for p := range props {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var failures []*pulumirpc.CheckFailure
	fail := func(path, reason string) {
		failures = append(failures, &pulumirpc.CheckFailure{Property: path, Reason: reason})
	}
	for _, path := range paths {
		c := props[path]
		values := at(news, strings.Split(path, "."))
		if len(values) == 0 {
			continue
		}
		for _, v := range values {
			if len(c.OneOf) > 0 {
				for _, s := range strs(v) {
					if !slices.Contains(c.OneOf, s) {
						fail(path, fmt.Sprintf("expected %s to be one of %q, got %s", path, c.OneOf, s))
					}
				}
			}
			if c.List && c.MaxItems != 1 && v.IsArray() {
				n := len(v.ArrayValue())
				if c.MaxItems > 0 && n > c.MaxItems {
					fail(path, fmt.Sprintf("%s: attribute supports %d item maximum, config has %d declared", path, c.MaxItems, n))
				}
				if n < c.MinItems {
					fail(path, fmt.Sprintf("%s: attribute requires %d item minimum, config has %d declared", path, c.MinItems, n))
				}
			}
		}
		for _, other := range c.ConflictsWith {
			if set(news, other) {
				fail(path, fmt.Sprintf("%q: conflicts with %s", path, other))
			}
		}
		for _, other := range c.RequiredWith {
			if !set(news, other) {
				fail(path, fmt.Sprintf("%q: all of `%s` must be specified", path, strings.Join(append([]string{path}, c.RequiredWith...), ",")))
			}
		}
		if len(c.ExactlyOneOf) > 1 && path == c.ExactlyOneOf[0] {
			var given []string
			for _, p := range c.ExactlyOneOf {
				if set(news, p) {
					given = append(given, p)
				}
			}
			if len(given) > 1 {
				fail(path, fmt.Sprintf("%q: only one of `%s` can be specified, but `%s` were specified.", path, strings.Join(c.ExactlyOneOf, ","), strings.Join(given, ",")))
			}
		}
	}
	return failures
}

// forceNewReplaces are the changed inputs whose change replaces the
// object: a force-new property, or one holding a force-new property whose
// value changed.
func forceNewReplaces(typ string, olds, news resource.PropertyMap, changed []string) []string {
	props := constraints[typ]
	var out []string
	for _, key := range changed {
		for path, c := range props {
			if !c.ForceNew || (path != key && !strings.HasPrefix(path, key+".")) {
				continue
			}
			parts := strings.Split(path, ".")
			if path == key || !equalValues(at(olds, parts), at(news, parts)) {
				out = append(out, key)
				break
			}
		}
	}
	return out
}

func equalValues(a, b []resource.PropertyValue) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].DeepEquals(b[i]) {
			return false
		}
	}
	return true
}

// strs are a value's strings: itself, or a list's elements.
func strs(v resource.PropertyValue) []string {
	switch {
	case v.IsString():
		return []string{v.StringValue()}
	case v.IsArray():
		var out []string
		for _, e := range v.ArrayValue() {
			if e.IsString() {
				out = append(out, e.StringValue())
			}
		}
		return out
	}
	return nil
}
