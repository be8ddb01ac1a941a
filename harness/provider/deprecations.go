package provider

import (
	"bufio"
	_ "embed"
	"encoding/json"
	"regexp"
	"strings"
)

// Nested deprecations: the provider's schema marks deprecated properties
// of nested types too (deprecationMessage), but ../shared records only
// resources' top-level inputs. deprecations.json holds the nested ones,
// extracted by ParseDeprecations from the typings Pulumi generates from
// that schema (github.com/pulumi/pulumi-harness v0.16.0,
// sdk/nodejs/types/input.ts, "@deprecated" on a nested input property;
// the schema.json itself is not in the stored snapshot). Regenerate with
//
//	HARNESS_SDK_INPUT_TS=/path/to/input.ts go test ./harness/provider -run TestNestedDeprecationsFile -update
//
//go:embed deprecations.json
var deprecationsJSON []byte

// Deprecation is a deprecated property of a nested type, in the facts'
// type naming (the type's name within its module: MonitoredServiceRequest).
type Deprecation struct {
	Module   string `json:"module"`
	Type     string `json:"type"`
	Property string `json:"property"`
	Message  string `json:"message"`
}

func nestedDeprecations() ([]Deprecation, error) {
	var out []Deprecation
	return out, json.Unmarshal(deprecationsJSON, &out)
}

var (
	tsNamespace  = regexp.MustCompile(`^\s*export namespace (\w+) \{`)
	tsInterface  = regexp.MustCompile(`^\s*export interface (\w+) \{`)
	tsDeprecated = regexp.MustCompile(`^\s*\*\s*@deprecated\s*(.*)$`)
	tsProperty   = regexp.MustCompile(`^\s*(\w+)\??:`)
)

// ParseDeprecations reads a generated TypeScript SDK's input typings and
// returns every nested input property marked @deprecated, in file order.
func ParseDeprecations(src string) []Deprecation {
	var out []Deprecation
	var module, typ, pending string
	deprecated := false
	sc := bufio.NewScanner(strings.NewReader(src))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case tsNamespace.MatchString(line):
			module = tsNamespace.FindStringSubmatch(line)[1]
		case tsInterface.MatchString(line):
			typ, deprecated = tsInterface.FindStringSubmatch(line)[1], false
		case tsDeprecated.MatchString(line):
			pending, deprecated = strings.TrimSpace(tsDeprecated.FindStringSubmatch(line)[1]), true
		case deprecated && typ != "" && tsProperty.MatchString(line):
			out = append(out, Deprecation{Module: module, Type: typ, Property: tsProperty.FindStringSubmatch(line)[1], Message: pending})
			deprecated = false
		}
	}
	return out
}
