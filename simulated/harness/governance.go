package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"

	"github.com/company/harness-platform/simulated/core"
)

// enforceOnSave refuses, as Harness's policy engine does, an entity
// (kind pipeline or template: the policy set's type) that an enabled
// policy set of that type and action onsave denies: the sets of the
// entity's project, of its org and of the account, each policy evaluated
// with the entity's document as input (its YAML as JSON: input.pipeline,
// input.template) and every deny message reported. A set whose policies
// have severity warning does not refuse. A pipeline's doc is the pipeline
// expanded (its templates applied: expandPipeline), as Harness evaluates
// it. Templates saved through the provider are not evaluated (CheckSave
// says why).
// https://developer.harness.io/docs/platform/governance/policy-as-code/harness-governance-overview
func enforceOnSave(kind, typ string, news resource.PropertyMap, doc map[string]any, cloud *core.Cloud) error {
	if cloud == nil {
		return nil // no account to hold policies
	}
	org, project := core.Str(news, "orgId"), core.Str(news, "projectId")
	all := cloud.OfType("harness:platform/policySet:PolicySet")
	var ids []string // the sets that apply
	for id, set := range all {
		props := set.Properties
		if props["type"] == kind && props["action"] == "onsave" && props["enabled"] == true && covers(props, org, project) {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	sort.Strings(ids) // a stable order of messages
	if doc == nil {
		return nil // Check reports YAML that does not parse
	}
	input, err := asJSON(doc)
	if err != nil {
		return nil
	}
	policies := map[string]core.Record{} // scope/identifier -> policy
	for _, p := range cloud.OfType("harness:platform/policy:Policy") {
		policies[scopeOf(p.Properties)+"/"+fmt.Sprint(p.Properties["identifier"])] = p
	}
	var denials []string
	for _, id := range ids {
		props := all[id].Properties
		list, _ := props["policies"].([]any)
		for _, e := range list {
			ref, _ := e.(map[string]any)
			if ref["severity"] == "warning" {
				continue
			}
			policy, ok := policies[scopeOf(props)+"/"+fmt.Sprint(ref["identifier"])]
			if !ok {
				continue
			}
			msgs, err := deny(fmt.Sprint(policy.Properties["rego"]), input)
			if err != nil {
				return fmt.Errorf("%s: policy %v of policy set %v does not evaluate: %v", typ, ref["identifier"], props["identifier"], err)
			}
			for _, m := range msgs {
				denials = append(denials, fmt.Sprintf("%v/%v: %s", props["identifier"], ref["identifier"], m))
			}
		}
	}
	if len(denials) > 0 {
		return fmt.Errorf("%s: POLICY_EVALUATION_FAILURE: %s %s was refused on save by the project's policies:\n  %s",
			typ, kind, core.Str(news, "identifier"), strings.Join(denials, "\n  "))
	}
	return nil
}

// covers reports whether a policy set at its scope applies to a pipeline
// of org and project: the account's to every pipeline, an org's to its
// projects', a project's to its own.
func covers(set map[string]any, org, project string) bool {
	setOrg, _ := set["orgId"].(string)
	setProject, _ := set["projectId"].(string)
	return setOrg == "" || setOrg == org && (setProject == "" || setProject == project)
}

func scopeOf(props map[string]any) string {
	org, _ := props["orgId"].(string)
	project, _ := props["projectId"].(string)
	return org + "/" + project
}

// deny evaluates the deny set of a policy's package, in the Rego syntax
// Harness's samples use (v0). Each policy is compiled once (about 7 ms)
// and its prepared query kept: every pipeline a stack saves is evaluated
// against the same few policies.
func deny(policy string, input any) ([]string, error) {
	query, err := prepared(policy)
	if err != nil {
		return nil, err
	}
	rs, err := query.Eval(context.Background(), rego.EvalInput(input))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, r := range rs {
		for _, e := range r.Expressions {
			list, _ := e.Value.([]any)
			for _, m := range list {
				out = append(out, fmt.Sprint(m))
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

type preparedPolicy struct {
	query rego.PreparedEvalQuery
	err   error
}

var preparedPolicies sync.Map // policy text -> func() preparedPolicy

func prepared(policy string) (rego.PreparedEvalQuery, error) {
	load, _ := preparedPolicies.LoadOrStore(policy, sync.OnceValue(func() preparedPolicy {
		module, err := ast.ParseModuleWithOpts("policy.rego", policy, ast.ParserOptions{RegoVersion: ast.RegoV0})
		if err != nil {
			return preparedPolicy{err: err}
		}
		q, err := rego.New(
			rego.Query(module.Package.Path.String()+".deny"),
			rego.Module("policy.rego", policy),
			rego.SetRegoVersion(ast.RegoV0),
		).PrepareForEval(context.Background())
		return preparedPolicy{q, err}
	}))
	p := load.(func() preparedPolicy)()
	return p.query, p.err
}

// asJSON is a YAML document as the JSON Harness gives a policy.
func asJSON(doc any) (any, error) {
	b, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	var out any
	return out, json.Unmarshal(b, &out)
}
