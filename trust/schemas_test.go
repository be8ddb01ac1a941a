package trust_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pulumi/esc/schema"
	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/internal/catalogtest"
	"github.com/company/harness-platform/plan"
	"github.com/company/harness-platform/trust"
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
			for _, id := range []string{"1000001", "1000002"} {
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

// ShortestLogin reads, without opening, the logins ESC's evaluator runs
// when it opens the environment: the same shortest life for every
// committed environment.
func TestShortestLoginIsWhatOpeningGrants(t *testing.T) {
	m := load(t)
	ctx := context.Background()
	def := func(_ context.Context, env string) ([]byte, error) { return m.Environments[env], nil }
	for env := range m.Environments {
		var team string
		for _, tm := range m.Access.Teams {
			if tm.MayOpen(env) {
				team = tm.Name
				break
			}
		}
		o, err := m.Open(ctx, team, env, false)
		if err != nil {
			t.Fatalf("%s: %v", env, err)
		}
		var opened time.Duration
		for _, g := range o.Grants {
			if g.Kind == trust.KindAWSRole && (opened == 0 || g.Lifetime < opened) {
				opened = g.Lifetime
			}
		}
		read, err := trust.ShortestLogin(ctx, env, def)
		if err != nil || read != opened || read == 0 {
			t.Errorf("%s: read %s (%v), opening grants %s", env, read, err, opened)
		}
	}
	// A login with no duration lasts aws-login's default.
	bare := []byte("values:\n  l:\n    fn::open::aws-login:\n      oidc: {roleArn: arn:aws:iam::111111111111:role/x, sessionName: s}\n")
	if d, err := trust.ShortestLogin(ctx, "e", func(context.Context, string) ([]byte, error) { return bare, nil }); d != 2*time.Hour || err != nil {
		t.Errorf("a login with no duration: %s, %v; want 2h", d, err)
	}
}

// Reading a stack decrypts it (Pulumi Cloud's Stack Read holds
// stack:export and stack:decrypt), so each environment's deployer team
// reads exactly the stacks its own stacks read, and writes only its
// own: its upstream environment's stacks (stack references: the
// platform stack's contract and each shard's upstream), its own, and,
// for the root environment, the later environments' service stacks
// (their last contracts, read before a service leaves the catalog:
// program/contract.go, readUpstream, readSiblings, readDownstream).
// Another environment's platform stack, which holds its delegate
// tokens, is read only by the environment right after it.
func TestDeployersReadOnlyWhatTheirStacksRead(t *testing.T) {
	m := load(t)
	c := catalogtest.Example(t, "..")
	all := c.AllStacks()
	for i, env := range c.Chain {
		team := m.Access.Team("harness-platform-" + env)
		if team == nil {
			t.Fatalf("no deployer team for %s", env)
		}
		reads := map[string]bool{}
		for _, s := range c.StacksOf(env) {
			reads[s] = true
		}
		if i > 0 {
			for _, s := range c.StacksOf(c.Chain[i-1]) {
				reads[s] = true
			}
		} else {
			for _, later := range c.Chain[1:] {
				for _, s := range c.StacksOf(later)[1:] {
					reads[s] = true
				}
			}
		}
		own := map[string]bool{}
		for _, s := range c.StacksOf(env) {
			own[s] = true
		}
		for _, s := range all {
			got := team.StackPermission(trust.Project + "/" + s)
			switch {
			case own[s] && got != "write":
				t.Errorf("%s may %s stack %s, its own: its up would be refused", team.Name, got, s)
			case !own[s] && reads[s] && got != "read":
				t.Errorf("%s may %s stack %s, which its stacks read", team.Name, got, s)
			case !reads[s] && got != "none":
				t.Errorf("%s may %s stack %s, which none of its stacks reads: it would decrypt it for nothing", team.Name, got, s)
			}
		}
	}
}

// stateCredentials are the credentials the example catalog's stacks
// hold in their states: each platform stack's delegate tokens (the
// Delegatetoken's value, and the Kubernetes Secret holding it). The
// connectors' credentials are references to AWS Secrets Manager and hold
// none (plan.SecretText).
func stateCredentials(t *testing.T) trust.StateCredentials {
	t.Helper()
	c := catalogtest.Example(t, "..")
	out := trust.StateCredentials{}
	for _, stack := range c.AllStacks() {
		p, err := plan.Build(c, stack)
		if err != nil {
			t.Fatal(err)
		}
		if !p.IsPlatform() {
			continue // its clusters are its platform stack's
		}
		for _, cl := range p.Clusters {
			out[stack] = append(out[stack], "delegate token "+cl.Delegate.Token)
		}
	}
	if len(out) == 0 {
		t.Fatal("no stack holds a credential: the delegate tokens are gone, and this table with them")
	}
	return out
}

// No deployer decrypts the credentials of a later, more trusted,
// environment: a dev deployer (no reviewers) reads no staging or
// production delegate token. (A pull request's identity still reads
// every stack, delegate tokens included: the table says so.)
func TestDeployersDecryptNoLaterEnvironmentsCredentials(t *testing.T) {
	m := load(t)
	creds := stateCredentials(t)
	for i, env := range chain {
		id := trust.Identity{Run: "up " + env, Team: "harness-platform-" + env}
		got := m.Decrypts(id, creds)
		for _, later := range chain[i+1:] {
			for _, cred := range creds[later] {
				if slices.Contains(got, cred) {
					t.Errorf("%s decrypts %s of %s", id.Team, cred, later)
				}
			}
		}
		for _, cred := range creds[env] {
			if !slices.Contains(got, cred) {
				t.Errorf("%s does not decrypt its own %s: its up could not read its state", id.Team, cred)
			}
		}
	}
}
