package provider

import (
	"slices"
	"sort"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
)

// WithDefaults returns inputs with the defaults the real provider's Check
// fills in: every absent property whose checkFillsDefault is true, in
// objects that are given; at the top level not when a property it
// conflicts with, or shares an exactlyOneOf group with, is set. name
// completes an absent autoName property.
func (c *Constraints) WithDefaults(token, name string, inputs resource.PropertyMap) resource.PropertyMap {
	rc, ok := c.Resources[token]
	if !ok {
		return inputs
	}
	out := inputs.Copy()
	for path, pc := range rc.Properties {
		parent, leaf := splitPath(path)
		if pc.AutoName && parent == "" {
			if _, ok := out[resource.PropertyKey(leaf)]; !ok {
				out[resource.PropertyKey(leaf)] = resource.NewStringProperty(name)
			}
			continue
		}
		if !pc.CheckFillsDefault || pc.Default == nil {
			continue
		}
		for _, in := range instances(out, parent) {
			if _, ok := in.obj[resource.PropertyKey(leaf)]; ok {
				continue
			}
			if parent == "" && (slices.ContainsFunc(pc.ConflictsWith, func(m string) bool { return isSet(out, in, parent, m) }) ||
				slices.ContainsFunc(pc.ExactlyOneOf, func(m string) bool { return m != path && isSet(out, in, parent, m) })) {
				continue
			}
			in.obj[resource.PropertyKey(leaf)] = resource.NewPropertyValue(pc.Default)
		}
	}
	return out
}

// Replaces lists the top-level properties whose change between olds and
// news replaces the resource: a forceNew property that changed, a block
// added or removed or resized when forceNew, or a change to a forceNew
// property inside a block.
func (c *Constraints) Replaces(token string, olds, news resource.PropertyMap, changed []string) []string {
	rc := c.Resources[token]
	var out []string
	for _, k := range changed {
		if pc, ok := rc.Properties[k]; ok && pc.ForceNew {
			out = append(out, k)
			continue
		}
		for path, pc := range rc.Properties {
			if !pc.ForceNew || !strings.HasPrefix(path, k+".") && !strings.HasPrefix(path, k+"[]") {
				continue
			}
			parent, leaf := splitPath(path)
			a, b := instances(olds, parent), instances(news, parent)
			differs := len(a) != len(b)
			for i := 0; !differs && i < len(a); i++ {
				differs = !a[i].obj[resource.PropertyKey(leaf)].DeepEquals(b[i].obj[resource.PropertyKey(leaf)])
			}
			if differs {
				out = append(out, k)
				break
			}
		}
	}
	return out
}

// ComputedOnly lists the top-level properties of token that only the
// provider sets (outputs the real provider writes into the state).
func (c *Constraints) ComputedOnly(token string) []string {
	var out []string
	for k, pc := range c.Resources[token].Properties {
		if pc.ComputedOnly {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}
