package trust_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/pulumi/esc/schema"
	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/internal/example"
)

// ESC type-checks fn::open's inputs against the provider's published
// schema (../shared/esc-schema/README.md): gh-login's appId is a number,
// so a quoted one makes the environment, and every environment importing
// it, fail to open. The stand-ins must refuse it as the service does.
func TestESCRefusesAQuotedAppID(t *testing.T) {
	ctx := context.Background()
	for env, team := range map[string]string{
		"harness-platform/ci":                 "harness-platform-dev",
		"harness-platform/ci-preview":         "harness-platform-preview",
		"harness-platform/production-preview": "harness-platform-preview", // imports ci-preview
	} {
		m := load(t)
		if _, err := m.Open(ctx, team, env, false); err != nil {
			t.Fatalf("%s as committed: %v", env, err)
		}
		for name, data := range m.Environments {
			s := string(data)
			for _, id := range []string{example.L(t, "1000001"), example.L(t, "1000002")} {
				s = strings.ReplaceAll(s, "appId: "+id, `appId: "`+id+`"`)
			}
			m.Environments[name] = []byte(s)
		}
		_, err := m.Open(ctx, team, env, false)
		if err == nil || !strings.Contains(err.Error(), "expected number") {
			t.Errorf("%s with a quoted appId: %v, want ESC's type error", env, err)
		}
	}
}

// The published schemas set no additionalProperties: false, so ESC does
// not refuse a misspelled key; it is ignored, and the provider then
// misses it. Every key every esc/ file gives an fn::open must be one the
// provider's published inputs name, at every depth the schema describes.
func TestEnvironmentsUseOnlyPublishedInputs(t *testing.T) {
	m := load(t)
	opens := 0
	for name, data := range m.Environments {
		var doc yaml.Node
		if err := yaml.Unmarshal(data, &doc); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		walkOpens(&doc, func(provider string, inputs *yaml.Node) {
			opens++
			sch, ok := m.Schemas[provider]
			if !ok {
				t.Errorf("%s:%d: fn::open::%s: ESC publishes no such provider (%v)", name, inputs.Line, provider, m.Schemas.Names())
				return
			}
			for _, p := range unknownKeys(sch.Inputs, inputs, "") {
				t.Errorf("%s:%d: fn::open::%s: %s is not an input the published schema names", name, p.line, provider, p.path)
			}
		})
	}
	if opens == 0 {
		t.Fatal("no fn::open in esc/")
	}
}

// Each stand-in declares the published schema itself, not a copy.
func TestStandInsDeclareThePublishedSchemas(t *testing.T) {
	m := load(t)
	for _, name := range []string{"aws-login", "aws-secrets", "gh-login"} {
		in, out := m.ProviderSchema(name)
		if in == nil || in != m.Schemas[name].Inputs || out != m.Schemas[name].Outputs {
			t.Errorf("%s: the stand-in declares another schema than ../shared's", name)
		}
	}
	if in, _ := m.ProviderSchema("vault-login"); in != nil {
		t.Error("a provider with no stand-in has a schema")
	}
	// The published file is what it says: gh-login's appId a number.
	if got := m.Schemas["gh-login"].Inputs.Properties["appId"].Type; got != "number" {
		t.Errorf("gh-login appId is %q in ../shared", got)
	}
}

func walkOpens(n *yaml.Node, f func(provider string, inputs *yaml.Node)) {
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if p, ok := strings.CutPrefix(n.Content[i].Value, "fn::open::"); ok {
				f(p, n.Content[i+1])
			}
		}
	}
	for _, c := range n.Content {
		walkOpens(c, f)
	}
}

type badKey struct {
	path string
	line int
}

// unknownKeys lists the keys of value that s does not name, where s
// describes an object with properties; additionalProperties, where
// given, describe every other key. An interpolation (${...}) is not
// looked into: the evaluator types it.
func unknownKeys(s *schema.Schema, value *yaml.Node, at string) []badKey {
	if s == nil || value.Kind != yaml.MappingNode {
		if s != nil && s.Items != nil && value.Kind == yaml.SequenceNode {
			var out []badKey
			for i, c := range value.Content {
				out = append(out, unknownKeys(s.Items, c, fmt.Sprintf("%s[%d]", at, i))...)
			}
			return out
		}
		return nil
	}
	var out []badKey
	for i := 0; i+1 < len(value.Content); i += 2 {
		key, v := value.Content[i], value.Content[i+1]
		path := strings.TrimPrefix(at+"."+key.Value, ".")
		if strings.HasPrefix(key.Value, "fn::") {
			continue
		}
		p, ok := s.Properties[key.Value]
		if !ok {
			p = s.AdditionalProperties
		}
		if p == nil {
			out = append(out, badKey{path, key.Line})
			continue
		}
		out = append(out, unknownKeys(p, v, path)...)
	}
	return out
}
