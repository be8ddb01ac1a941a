package plan

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/harness/document"
	"github.com/company/harness-platform/ident"
	"github.com/company/harness-platform/internal/regotest"
)

// ruleDenials evaluates the pipeline rules as Harness's policy engine does
// on a pipeline event (the pipeline document as input).
func ruleDenials(t *testing.T, policy string, pipeline any) []string {
	t.Helper()
	return regotest.Deny(t, "pipeline_rules", policy, pipeline, time.Time{})
}

// policyInput decodes a pipeline's YAML as Harness hands it to a policy.
// expandedYAML is a stack's pipeline of service as Harness's policies see
// it (Expanded), as YAML.
func expandedYAML(t *testing.T, c *catalog.Catalog, stack, service string) string {
	t.Helper()
	p := mustBuild(t, c, stack)
	for _, d := range p.Deployments {
		if d.Service == service {
			doc, err := Expanded(d.Pipeline.YAML, p.Templates)
			if err != nil {
				t.Fatal(err)
			}
			b, err := yaml.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
	}
	t.Fatalf("%s: no deployment of %s", stack, service)
	return ""
}

// ruleCase is a pipeline, an edit of it, and the one denial the pipeline
// rules must give it ("": none).
type ruleCase struct {
	name     string
	pipeline string
	mutate   func(map[string]any)
	want     string
}

// checkRuleCases evaluates policy on each case's edited pipeline.
func checkRuleCases(t *testing.T, policy string, cases []ruleCase) {
	t.Helper()
	for _, tc := range cases {
		doc := policyInput(t, tc.pipeline)
		tc.mutate(doc)
		got := ruleDenials(t, policy, doc)
		switch {
		case tc.want == "" && len(got) > 0:
			t.Errorf("%s: denied: %q", tc.name, got)
		case tc.want != "" && (len(got) != 1 || !strings.Contains(got[0], tc.want)):
			t.Errorf("%s: got %q, want one denial containing %q", tc.name, got, tc.want)
		}
	}
}

func policyInput(t *testing.T, y string) map[string]any {
	t.Helper()
	var doc map[string]any
	if err := yaml.Unmarshal([]byte(y), &doc); err != nil {
		t.Fatal(err)
	}
	// Through JSON, as Harness gives it: the mutations below edit a copy.
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	doc = nil
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestPipelineRulesDeclaredByTheFoundation(t *testing.T) {
	c := example(t)
	r := mustBuild(t, c, "dev").Foundation.PipelineRules
	if r == nil {
		t.Fatal("the foundation declares no pipeline rules")
	}
	var actions []string
	for _, s := range r.Sets {
		actions = append(actions, s.Action)
		if s.Type != "pipeline" || !s.Enabled || s.Severity != "error" || !slices.Equal(s.Policies, []string{r.Policy.Identifier}) {
			t.Errorf("policy set %s: %+v", s.Identifier, s)
		}
	}
	if !slices.Equal(actions, []string{"onsave", "onrun"}) {
		t.Errorf("actions %v, want onsave and onrun", actions)
	}
	for _, want := range []string{`"productionEnvironments":["prod"]`, `"changeWindowSets":{"prod":"prod_change_window"}`, `"platformGroup":"platform_team"`, `"minApprovers":1`} {
		if !strings.Contains(r.Policy.Rego, want) {
			t.Errorf("the rules' settings lack %s:\n%s", want, r.Policy.Rego[strings.LastIndex(r.Policy.Rego, "rules :="):])
		}
	}
}

// Every pipeline the program generates keeps the rules it asks Harness to
// enforce: otherwise its own up would be refused on save.
func TestGeneratedPipelinesKeepThePipelineRules(t *testing.T) {
	c := example(t)
	root := mustBuild(t, c, "dev").Foundation
	policy := root.PipelineRules.Policy.Rego
	pipelines := 0
	if root.CI != nil {
		if got := ruleDenials(t, policy, policyInput(t, root.CI.Pipeline.YAML)); len(got) > 0 {
			t.Errorf("the CI pipeline is denied: %q", got)
		}
		pipelines++
	}
	for _, stack := range c.AllStacks() {
		p := mustBuild(t, c, stack)
		for _, d := range p.Deployments {
			expanded, err := Expanded(d.Pipeline.YAML, p.Templates)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := yaml.Marshal(expanded)
			if got := ruleDenials(t, policy, policyInput(t, string(b))); len(got) > 0 {
				t.Errorf("%s: %s is denied: %q", stack, d.Pipeline.Identifier, got)
			}
			// Evaluated on the saved pipeline alone (its template not
			// applied), a pipeline is refused, never allowed: the rules
			// fail closed on what they cannot see.
			got := ruleDenials(t, policy, policyInput(t, d.Pipeline.YAML))
			if want := "references template " + d.Pipeline.Template + ", which was not applied"; len(got) != 1 || !strings.Contains(got[0], want) {
				t.Errorf("%s: %s unexpanded: got %q, want %q", stack, d.Pipeline.Identifier, got, want)
			}
			pipelines++
		}
	}
	if pipelines < 20 {
		t.Fatalf("only %d pipelines checked", pipelines)
	}
}

// Each rule, at its boundary, on a pipeline as edited in the Harness UI.
func TestPipelineRulesRefuse(t *testing.T) {
	c := example(t)
	policy := mustBuild(t, c, "dev").Foundation.PipelineRules.Policy.Rego
	// As Harness evaluates them: templates applied, references kept.
	prod := expandedYAML(t, c, "production.services", "payment-service")
	dev := expandedYAML(t, c, "dev.services", "payment-service")
	// What a hand-made copy of the pipeline would be: every gate, inline.
	copied := resolvedOf(t, deploymentOf(t, c, "production.services", "payment-service").Pipeline)
	stages := func(doc map[string]any) []any { return doc["pipeline"].(map[string]any)["stages"].([]any) }
	// The Deployment stage is the last: Production's first deploys upstream.
	stage := func(doc map[string]any) map[string]any {
		all := stages(doc)
		return all[len(all)-1].(map[string]any)["stage"].(map[string]any)
	}
	chained := func(doc map[string]any) map[string]any {
		return stages(doc)[0].(map[string]any)["stage"].(map[string]any)
	}
	execution := func(doc map[string]any) map[string]any {
		return stage(doc)["spec"].(map[string]any)["execution"].(map[string]any)
	}
	// node is a steps element's step or step group.
	node := func(e any) map[string]any {
		m := e.(map[string]any)
		if g, ok := m["stepGroup"].(map[string]any); ok {
			return g
		}
		return m["step"].(map[string]any)
	}
	without := func(id string) func(map[string]any) {
		return func(doc map[string]any) {
			e := execution(doc)
			e["steps"] = slices.DeleteFunc(e["steps"].([]any), func(s any) bool { return node(s)["identifier"] == id })
		}
	}
	// edit changes the step or step group id, at the top or in a group.
	edit := func(id string, f func(step map[string]any)) func(map[string]any) {
		return func(doc map[string]any) {
			for _, s := range execution(doc)["steps"].([]any) {
				n := node(s)
				if n["identifier"] == id {
					f(n)
				}
				if inner, ok := n["steps"].([]any); ok {
					for _, e := range inner {
						if st := node(e); st["identifier"] == id {
							f(st)
						}
					}
				}
			}
		}
	}
	script := map[string]any{"step": map[string]any{"type": "ShellScript", "identifier": "fix_it", "name": "Fix it",
		"spec": map[string]any{"shell": "Bash", "source": map[string]any{"type": "Inline", "spec": map[string]any{"script": "kubectl delete ns x"}}}}}
	insert := func(element any) func(map[string]any) {
		return func(doc map[string]any) {
			e := execution(doc)
			e["steps"] = append([]any{element}, e["steps"].([]any)...)
		}
	}
	checkRuleCases(t, policy, []ruleCase{
		{"as generated", prod, func(map[string]any) {}, ""},
		{"dev has no gates", dev, func(map[string]any) {}, ""},
		{"dev script step", dev, insert(script), "step fix_it is a ShellScript step"},
		{"script step", prod, insert(script), "step fix_it is a ShellScript step"},
		{"script in a step group", prod, insert(map[string]any{"stepGroup": map[string]any{"identifier": "g", "name": "g", "steps": []any{script}}}), "is a ShellScript step"},
		{"Run step in a parallel block", prod, insert(map[string]any{"parallel": []any{map[string]any{"step": map[string]any{"type": "Run", "identifier": "r", "spec": map[string]any{}}}}}), "step r is a Run step"},
		{"script in rollback steps", prod, func(doc map[string]any) {
			e := execution(doc)
			e["rollbackSteps"] = append(e["rollbackSteps"].([]any), script)
		}, "is a ShellScript step"},
		{"no team approval", prod, without("team_approval"), "without an approval step of the owning team's group"},
		{"no platform approval", prod, without("platform_approval"), "without an approval step of the platform group platform_team"},
		{"team step lists the platform group too", prod, func(doc map[string]any) {
			without("platform_approval")(doc)
			edit("team_approval", func(st map[string]any) {
				a := st["spec"].(map[string]any)["approvers"].(map[string]any)
				a["userGroups"] = []any{"payments_team", "platform_team"}
			})(doc)
		}, "without an approval step of the owning team's group"},
		{"executor may approve", prod, edit("platform_approval", func(st map[string]any) {
			st["spec"].(map[string]any)["approvers"].(map[string]any)["disallowPipelineExecutor"] = false
		}), "step platform_approval lets the pipeline's executor approve"},
		{"no minimum", prod, edit("team_approval", func(st map[string]any) {
			delete(st["spec"].(map[string]any)["approvers"].(map[string]any), "minimumCount")
		}), "step team_approval needs approvers.minimumCount of at least 1"},
		{"no change window", prod, without("change_window"), "without the change-window Policy step; add a Policy step with the policy set prod_change_window"},
		{"another policy set", prod, edit("change_window", func(st map[string]any) {
			st["spec"].(map[string]any)["policySets"] = []any{"always_allow"}
		}), "without the change-window Policy step"},
		{"no rollback", prod, func(doc map[string]any) { execution(doc)["rollbackSteps"] = []any{} }, "without rollback steps"},
		{"production stage in a parallel block", prod, func(doc map[string]any) {
			// Found there, and not "after" the upstream stage.
			p := doc["pipeline"].(map[string]any)
			s := p["stages"].([]any)
			p["stages"] = []any{s[0], map[string]any{"parallel": []any{s[1]}}}
		}, "without deploying the same image tag to pre_stable first"},
		{"not tested upstream first", prod, func(doc map[string]any) {
			p := doc["pipeline"].(map[string]any)
			p["stages"] = p["stages"].([]any)[1:]
		}, "stage deploy deploys to Production (prod) without deploying the same image tag to pre_stable first; keep the Pipeline stage that runs payment_service_pre_stable"},
		{"tested after", prod, func(doc map[string]any) {
			p := doc["pipeline"].(map[string]any)
			s := p["stages"].([]any)
			p["stages"] = []any{s[1], s[0]}
		}, "without deploying the same image tag to pre_stable first"},
		{"another service tested", prod, func(doc map[string]any) {
			chained(doc)["spec"].(map[string]any)["pipeline"] = "ledger_writer_pre_stable"
		},
			"without deploying the same image tag to pre_stable first"},
		{"another tag tested", prod, func(doc map[string]any) {
			inputs := chained(doc)["spec"].(map[string]any)["inputs"].(map[string]any)
			inputs["variables"].([]any)[0].(map[string]any)["value"] = "latest"
		}, "without deploying the same image tag to pre_stable first"},
		{"production runs whatever upstream did", prod, func(doc map[string]any) { stage(doc)["when"].(map[string]any)["pipelineStatus"] = "All" },
			"without deploying the same image tag to pre_stable first"},
		{"stages can be picked", prod, func(doc map[string]any) { doc["pipeline"].(map[string]any)["allowStageExecutions"] = true },
			"must set allowStageExecutions: false"},
		{"a hand-made copy with every gate", copied, func(map[string]any) {}, "stage deploy deploys to Production (prod) but is not built from the platform's deploy template (deploy_<archetype>_prod_<strategy>)"},
		{"left its template", prod, func(doc map[string]any) { delete(stage(doc), "template") }, "is not built from the platform's deploy template"},
		{"another template", prod, func(doc map[string]any) { stage(doc)["template"].(map[string]any)["templateRef"] = "my_deploy" }, "is not built from the platform's deploy template"},
		{"another environment's template", prod, func(doc map[string]any) {
			stage(doc)["template"].(map[string]any)["templateRef"] = "deploy_api_pre_stable_canary_verified"
		}, "is not built from the platform's deploy template"},
		{"a pinned platform version", prod, func(doc map[string]any) { stage(doc)["template"].(map[string]any)["versionLabel"] = "v1" }, ""},
		{"no stages", prod, func(doc map[string]any) { delete(doc["pipeline"].(map[string]any), "stages") }, "the pipeline has no stages list"},
	})
}

// A Production pipeline deploys its run's tag to the upstream environment
// first, in the same run; nothing else chains.
func TestProductionDeploysTheTagUpstreamFirst(t *testing.T) {
	c := example(t)
	for _, stack := range c.AllStacks() {
		p := mustBuild(t, c, stack)
		for _, d := range p.Deployments {
			var doc document.Document
			if err := yaml.Unmarshal([]byte(resolvedOf(t, d.Pipeline)), &doc); err != nil {
				t.Fatal(err)
			}
			stages := doc.Pipeline.Stages
			if !p.Production {
				if len(stages) != 1 || doc.Pipeline.AllowStageExecutions != nil {
					t.Errorf("%s %s: %d stages", stack, d.Service, len(stages))
				}
				continue
			}
			child := ident.Pipeline(d.Service, "pre_stable")
			var spec document.ChainedPipeline
			b, _ := yaml.Marshal(stages[0].Stage.Spec)
			if err := yaml.Unmarshal(b, &spec); err != nil {
				t.Fatal(err)
			}
			want := document.ChainedPipeline{Org: "default", Project: "platform", Pipeline: child, Inputs: document.RuntimeInputs{Identifier: child,
				Variables: []document.InputValue{{Name: ImageTagInput, Type: "String", Value: "<+pipeline.variables.imageTag>"}, {Name: TargetRegionInput, Type: "String", Value: "<+pipeline.variables.targetRegion>"}}}}
			if len(stages) != 2 || stages[0].Stage.Type != "Pipeline" || !reflect.DeepEqual(spec, want) ||
				stages[1].Stage.When == nil || stages[1].Stage.When.PipelineStatus != "Success" ||
				doc.Pipeline.AllowStageExecutions == nil || *doc.Pipeline.AllowStageExecutions {
				t.Errorf("%s %s: stages %+v, chained %+v, allowStageExecutions %v", stack, d.Service, stages, spec, doc.Pipeline.AllowStageExecutions)
			}
		}
	}
}

// The template rules hold every deploy-stage template the plan saves (as
// Harness gives a template policy its input, input.template), and refuse
// a template edited to break a stage rule, as the pipeline rules refuse
// the pipeline.
func TestTemplateRules(t *testing.T) {
	c := example(t)
	policy := mustBuild(t, c, "dev").Foundation.PipelineRules.Template.Rego
	deny := func(doc map[string]any) []string {
		return regotest.Deny(t, "template_rules", policy, doc, time.Time{})
	}
	checked := 0
	for _, stack := range c.Chain {
		for _, tmpl := range mustBuild(t, c, stack).Templates {
			doc := policyInput(t, tmpl.YAML)
			if got := deny(doc); len(got) != 0 {
				t.Errorf("%s: template %s: %q", stack, tmpl.Identifier, got)
			}
			checked++
			if !c.Stacks[stack].IsProduction() {
				continue
			}
			spec := doc["template"].(map[string]any)["spec"].(map[string]any)
			steps := spec["spec"].(map[string]any)["execution"].(map[string]any)["steps"].([]any)
			for _, m := range []struct {
				name, want string
				edit       func() []any
			}{
				{"a script step", "is a ShellScript step", func() []any {
					return append(slices.Clone(steps), map[string]any{"step": map[string]any{"identifier": "sh", "type": "ShellScript"}})
				}},
				{"no image scan", "without scanning its image first", func() []any { return slices.Clone(steps[1:]) }},
			} {
				spec["spec"].(map[string]any)["execution"].(map[string]any)["steps"] = m.edit()
				if got := deny(doc); !slices.ContainsFunc(got, func(s string) bool { return strings.Contains(s, m.want) && strings.Contains(s, tmpl.Identifier) }) {
					t.Errorf("%s: template %s with %s: %q, want a denial naming it: %q", stack, tmpl.Identifier, m.name, got, m.want)
				}
			}
			spec["spec"].(map[string]any)["execution"].(map[string]any)["steps"] = steps
		}
	}
	if checked == 0 {
		t.Fatal("no template checked")
	}
}
