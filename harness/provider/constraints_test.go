package provider

import (
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
)

const (
	k8sConnector = "harness:platform/kubernetesConnector:KubernetesConnector"
	githubConn   = "harness:platform/githubConnector:GithubConnector"
	environment  = "harness:platform/environment:Environment"
	policySet    = "harness:platform/policySet:PolicySet"
	project      = "harness:platform/project:Project"
)

func props(m map[string]any) resource.PropertyMap { return resource.NewPropertyMapFromMap(m) }

func constraints(t *testing.T) *Constraints {
	t.Helper()
	c, err := LoadConstraints()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Each kind of constraint refuses what the real provider's Check refuses,
// in its words, and accepts the fixed input.
func TestEveryConstraintKindFails(t *testing.T) {
	c := constraints(t)
	inherit := map[string]any{"delegateSelectors": []any{"d"}}
	cases := []struct {
		name, token string
		bad, good   map[string]any
		kind, msg   string
	}{
		{"conflictsWith", k8sConnector,
			map[string]any{"identifier": "k", "delegateSelectors": []any{"d"}, "inheritFromDelegate": inherit},
			map[string]any{"identifier": "k", "inheritFromDelegate": inherit},
			KindConflicts, `Conflicting configuration arguments. "delegate_selectors": conflicts with inherit_from_delegate. Examine values at 'res.delegateSelectors'.`},
		{"atLeastOneOf", k8sConnector,
			map[string]any{"identifier": "k"},
			map[string]any{"identifier": "k", "inheritFromDelegate": inherit},
			KindAtLeastOneOf, `Missing required argument. "client_key_cert": one of ` + "`client_key_cert,inherit_from_delegate,openid_connect,service_account,username_password`" + ` must be specified. Examine values at 'res.clientKeyCert'.`},
		{"exactlyOneOf, two set", githubConn,
			map[string]any{"identifier": "g", "connectionType": "Repo", "url": "u", "credentials": map[string]any{"http": map[string]any{"username": "u", "usernameRef": "r", "tokenRef": "t"}}},
			map[string]any{"identifier": "g", "connectionType": "Repo", "url": "u", "credentials": map[string]any{"http": map[string]any{"username": "u", "tokenRef": "t"}}},
			KindExactlyOneOf, "only one of `credentials.0.http.0.anonymous,credentials.0.http.0.github_app,credentials.0.http.0.username,credentials.0.http.0.username_ref` can be specified"},
		{"exactlyOneOf, none set", githubConn,
			map[string]any{"identifier": "g", "connectionType": "Repo", "url": "u", "credentials": map[string]any{"http": map[string]any{"tokenRef": "t"}}},
			map[string]any{"identifier": "g", "connectionType": "Repo", "url": "u", "credentials": map[string]any{"http": map[string]any{"anonymouses": map[string]any{}}}},
			KindExactlyOneOf, "must be specified"},
		{"requiredWith", environment,
			map[string]any{"identifier": "e", "type": "Production", "projectId": "p"},
			map[string]any{"identifier": "e", "type": "Production", "projectId": "p", "orgId": "o"},
			KindRequiredWith, `Missing required argument. "project_id": all of ` + "`org_id,project_id`" + ` must be specified. Examine values at 'res.projectId'.`},
		{"allowedValues", environment,
			map[string]any{"identifier": "e", "type": "Staging"},
			map[string]any{"identifier": "e", "type": "PreProduction"},
			KindAllowed, "expected type to be one of [PreProduction Production], got Staging"},
		{"minItems", policySet,
			map[string]any{"identifier": "s", "action": "onstep", "type": "custom", "policies": []any{}},
			map[string]any{"identifier": "s", "action": "onstep", "type": "custom", "policies": []any{map[string]any{"identifier": "p", "severity": "error"}}},
			KindItems, "Not enough list items"},
		{"computedOnly", project,
			map[string]any{"identifier": "p", "orgId": "o", "modules": []any{"CD"}},
			map[string]any{"identifier": "p", "orgId": "o"},
			KindComputedOnly, `"modules": this field cannot be set`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var found bool
			for _, v := range c.Check(tc.token, props(tc.bad)) {
				if v.Kind == tc.kind && strings.Contains(v.Message("res"), tc.msg) {
					found = true
				}
			}
			if !found {
				t.Errorf("bad input not refused with %q; got %+v", tc.msg, c.Check(tc.token, props(tc.bad)))
			}
			for _, v := range c.Check(tc.token, props(tc.good)) {
				if v.Kind == tc.kind {
					t.Errorf("good input refused: %s", v.Message("res"))
				}
			}
		})
	}
}

// Check fills the defaults the real provider fills, and not where a
// sibling it conflicts with is set.
func TestDefaults(t *testing.T) {
	c := constraints(t)
	got := c.WithDefaults(githubConn, "gh", props(map[string]any{"identifier": "g"}))
	if v := got["executeOnDelegate"]; !v.IsBool() || !v.BoolValue() {
		t.Errorf("executeOnDelegate not filled: %v", got)
	}
	got = c.WithDefaults(githubConn, "gh", props(map[string]any{"identifier": "g", "executeOnDelegate": false}))
	if got["executeOnDelegate"].BoolValue() {
		t.Error("a given value was overwritten")
	}
	if n := c.WithDefaults(environment, "env", props(map[string]any{}))["name"]; !n.IsString() || n.StringValue() != "env" {
		t.Errorf("autoName: %v", n)
	}
}

// A change to a forceNew property replaces; other changes update.
func TestReplaces(t *testing.T) {
	c := constraints(t)
	olds := props(map[string]any{"identifier": "a", "name": "x", "orgId": "o"})
	news := props(map[string]any{"identifier": "b", "name": "y", "orgId": "o"})
	if got := c.Replaces(project, olds, news, []string{"identifier", "name"}); len(got) != 1 || got[0] != "identifier" {
		t.Errorf("replaces %v, want [identifier]", got)
	}
}
