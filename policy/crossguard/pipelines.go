package crossguard

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/policyx"
	"gopkg.in/yaml.v3"
)

const pipelineType = "harness:platform/pipeline:Pipeline"

// scriptSteps run arbitrary commands: the seeds forbid them in deployment
// pipelines (a script step bypasses review of what a deployment does).
var scriptSteps = []string{"ShellScript", "ShellScriptProvision", "Run", "Background", "Container", "Plugin"}

// step is one step of a pipeline, with where it is.
type step struct {
	Type, Identifier string
	Spec             map[string]any
	Rollback         bool
}

// stage is one stage of a pipeline, in order: a Deployment stage's
// environment, service, condition and steps; a Pipeline stage's child and
// the imageTag it passes.
type stage struct {
	Identifier, Environment string
	// Type is the stage type: Deployment, CI, Pipeline, Approval, ...
	Type  string
	Steps []step
	// Service is a Deployment stage's serviceRef; When its
	// when.pipelineStatus.
	Service, When string
	// Child is a Pipeline stage's pipeline, ImageTag the imageTag input it
	// gives it.
	Child, ImageTag string
	// Template is the templateRef of a stage built from a template; its
	// Steps are then the steps its templateInputs give values to.
	Template string
	// Elements are the stage's execution.steps as written (steps, step
	// groups, parallel blocks), in order.
	Elements []map[string]any
}

// pipeline is what the rules read of a pipeline document.
type pipeline struct {
	Stages []stage
	// AllowStageExecutions is nil when the document does not set it.
	AllowStageExecutions *bool
}

// pipelineStages reads a pipeline resource's stages; ok is false when the
// resource is not a pipeline or its YAML is not known yet.
func pipelineStages(r policyx.AnalyzerResource) (stages []stage, ok bool, err error) {
	p, ok, err := readPipeline(r)
	return p.Stages, ok, err
}

// readPipeline reads a pipeline resource's YAML; ok is false when the
// resource is not a pipeline or its YAML is not known yet.
func readPipeline(r policyx.AnalyzerResource) (p pipeline, ok bool, err error) {
	if r.Type != pipelineType {
		return p, false, nil
	}
	y, known := stringAt(r.Properties, "yaml")
	if !known {
		return p, false, nil
	}
	var doc struct {
		Pipeline struct {
			AllowStageExecutions *bool `yaml:"allowStageExecutions"`
			Stages               []struct {
				Stage struct {
					Identifier string `yaml:"identifier"`
					Type       string `yaml:"type"`
					When       struct {
						PipelineStatus string `yaml:"pipelineStatus"`
					} `yaml:"when"`
					Template struct {
						TemplateRef    string `yaml:"templateRef"`
						TemplateInputs struct {
							Spec stageSpec `yaml:"spec"`
						} `yaml:"templateInputs"`
					} `yaml:"template"`
					Spec stageSpec `yaml:"spec"`
				} `yaml:"stage"`
			} `yaml:"stages"`
		} `yaml:"pipeline"`
	}
	if err := yaml.Unmarshal([]byte(y), &doc); err != nil {
		return p, true, err
	}
	p.AllowStageExecutions = doc.Pipeline.AllowStageExecutions
	for _, s := range doc.Pipeline.Stages {
		spec := s.Stage.Spec
		if ref := s.Stage.Template.TemplateRef; ref != "" {
			// What the saved pipeline gives its template; the template's
			// own content is checked on the template (readTemplate).
			spec = s.Stage.Template.TemplateInputs.Spec
		}
		st := stage{Identifier: s.Stage.Identifier, Type: s.Stage.Type, Environment: spec.Environment.EnvironmentRef,
			Service: spec.Service.ServiceRef, When: s.Stage.When.PipelineStatus, Child: spec.Pipeline, Template: s.Stage.Template.TemplateRef}
		for _, v := range spec.Inputs.Variables {
			if v.Name == "imageTag" {
				st.ImageTag = v.Value
			}
		}
		st.Steps = flatten(spec.Execution.Steps, false, st.Steps)
		st.Steps = flatten(spec.Execution.RollbackSteps, true, st.Steps)
		st.Elements = spec.Execution.Steps
		p.Stages = append(p.Stages, st)
	}
	return p, true, nil
}

// stageSpec is what the rules read of a stage's spec (or of the spec a
// template stage's inputs give).
type stageSpec struct {
	Environment struct {
		EnvironmentRef string `yaml:"environmentRef"`
	} `yaml:"environment"`
	Service struct {
		ServiceRef string `yaml:"serviceRef"`
	} `yaml:"service"`
	Execution struct {
		Steps         []map[string]any `yaml:"steps"`
		RollbackSteps []map[string]any `yaml:"rollbackSteps"`
	} `yaml:"execution"`
	// A Pipeline stage's child and inputs.
	Pipeline string `yaml:"pipeline"`
	Inputs   struct {
		Variables []struct {
			Name  string `yaml:"name"`
			Value string `yaml:"value"`
		} `yaml:"variables"`
	} `yaml:"inputs"`
}

const templateType = "harness:platform/template:Template"

// readTemplate reads a stage template resource's stage (identified by the
// template's identifier); ok is false when the resource is not a
// template, not a Stage template, or its YAML is not known yet.
func readTemplate(r policyx.AnalyzerResource) (st stage, ok bool, err error) {
	if r.Type != templateType {
		return st, false, nil
	}
	y, known := stringAt(r.Properties, "templateYaml")
	if !known {
		return st, false, nil
	}
	var doc struct {
		Template struct {
			Identifier string `yaml:"identifier"`
			Type       string `yaml:"type"`
			Spec       struct {
				Type string `yaml:"type"`
				When struct {
					PipelineStatus string `yaml:"pipelineStatus"`
				} `yaml:"when"`
				Spec stageSpec `yaml:"spec"`
			} `yaml:"spec"`
		} `yaml:"template"`
	}
	if err := yaml.Unmarshal([]byte(y), &doc); err != nil {
		return st, true, err
	}
	t := doc.Template
	if t.Type != "Stage" {
		return st, false, nil
	}
	st = stage{Identifier: t.Identifier, Type: t.Spec.Type, Environment: t.Spec.Spec.Environment.EnvironmentRef,
		Service: t.Spec.Spec.Service.ServiceRef, When: t.Spec.When.PipelineStatus}
	st.Steps = flatten(t.Spec.Spec.Execution.Steps, false, st.Steps)
	st.Steps = flatten(t.Spec.Spec.Execution.RollbackSteps, true, st.Steps)
	st.Elements = t.Spec.Spec.Execution.Steps
	return st, true, nil
}

// deployTemplateRef matches the identifiers of the platform's deploy-stage
// templates (ident.DeployTemplate: deploy_<archetype>_<env>_<strategy>
// [_verified]), in the pipeline's project; its first group is
// <archetype>_<env>.
var deployTemplateRef = regexp.MustCompile("^deploy_([a-z0-9_]+)_(rolling|canary)(_verified)?$")

// templateEnvironment is the Production environment among envs whose
// deploy template ref names, or "".
func templateEnvironment(ref string, envs []string) string {
	m := deployTemplateRef.FindStringSubmatch(ref)
	if m == nil {
		return ""
	}
	for _, env := range envs {
		if archetype, ok := strings.CutSuffix(m[1], "_"+env); ok && archetype != "" {
			return env
		}
	}
	return ""
}

// flatten lists the steps of an execution block, through parallel blocks
// and step groups.
func flatten(elements []map[string]any, rollback bool, out []step) []step {
	for _, e := range elements {
		if s, ok := e["step"].(map[string]any); ok {
			spec, _ := s["spec"].(map[string]any)
			out = append(out, step{Type: fmt.Sprint(s["type"]), Identifier: fmt.Sprint(s["identifier"]), Spec: spec, Rollback: rollback})
		}
		if p, ok := e["parallel"].([]any); ok {
			out = flatten(maps(p), rollback, out)
		}
		if g, ok := e["stepGroup"].(map[string]any); ok {
			steps, _ := g["steps"].([]any)
			out = flatten(maps(steps), rollback, out)
		}
	}
	return out
}

func maps(list []any) []map[string]any {
	out := make([]map[string]any, 0, len(list))
	for _, e := range list {
		if m, ok := e.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

var productionGates = resourcePolicy("production-pipeline-gates",
	"Production deployments wait for an approval from the owning team and one from the platform team (the executor excluded), "+
		"pass the change-window Policy step, and can roll back.",
	policyx.EnforcementLevelMandatory,
	&policyx.ConfigSchema{Properties: map[string]map[string]any{
		"productionEnvironments": {"type": "array", "items": map[string]any{"type": "string"}, "default": []any{"prod"},
			"description": "Harness environment identifiers whose deployments are Production."},
		"platformGroup": {"type": "string", "default": "platform_team", "description": "The platform team's user group."},
		"minApprovers":  {"type": "number", "default": 1, "description": "Least approvals each approval step requires."},
		"upstreamEnvironments": {"type": "object", "default": map[string]any{"prod": "pre_stable"},
			"description": "For each Production environment, the environment its runs deploy the same image tag to first."},
	}},
	func(r policyx.AnalyzerResource, cfg config) []string {
		envs := cfg.strings("productionEnvironments")
		platformGroup, minApprovers := cfg.string("platformGroup"), int(cfg.number("minApprovers"))
		if t, ok, err := readTemplate(r); ok || err != nil {
			if err != nil {
				return []string{fmt.Sprintf("template YAML does not parse (%v); generate it from the plan", err)}
			}
			if t.Type != "Deployment" || !slices.Contains(envs, t.Environment) {
				return nil
			}
			_, upstream := cfg.stringMap("upstreamEnvironments")[t.Environment]
			return checkTemplateGates(t, upstream, platformGroup, minApprovers)
		}
		p, ok, err := readPipeline(r)
		if err != nil {
			return []string{fmt.Sprintf("pipeline YAML does not parse (%v); generate it from the plan", err)}
		}
		if !ok {
			return nil
		}
		var out []string
		production := false
		for i, s := range p.Stages {
			env := s.Environment
			if s.Template != "" && !deployTemplateRef.MatchString(s.Template) {
				out = append(out, fmt.Sprintf("stage %s is built from template %s, which is not one of the platform's deploy templates (deploy_<archetype>_<environment>_<strategy>); deploy stages come from the catalog's archetypes", s.Identifier, s.Template))
				continue
			}
			if s.Template != "" {
				env = templateEnvironment(s.Template, envs)
			} else if s.Type != "Deployment" {
				continue
			}
			if !slices.Contains(envs, env) {
				continue
			}
			production = true
			if s.Template == "" {
				out = append(out, fmt.Sprintf("stage %s deploys to Production (%s) but is not built from the platform's deploy template (deploy_<archetype>_%s_<strategy>); deploy stages come from the catalog's archetypes: change the archetype, not the pipeline", s.Identifier, env, env))
			}
			out = append(out, checkGates(s, platformGroup, minApprovers)...)
			if upstream, ok := cfg.stringMap("upstreamEnvironments")[env]; ok && !testedFirst(p.Stages[:i], s, upstream) {
				out = append(out, fmt.Sprintf("stage %s deploys to Production (%s) without deploying the same image tag to %s first; "+
					"keep the Pipeline stage that runs %s_%s with imageTag <+pipeline.variables.imageTag> before it, and when: pipelineStatus: Success on it",
					s.Identifier, env, upstream, s.Service, upstream))
			}
		}
		if production && (p.AllowStageExecutions == nil || *p.AllowStageExecutions) {
			out = append(out, "a pipeline that deploys to Production must set allowStageExecutions: false; otherwise a run can pick the Production stage alone")
		}
		return out
	})

// checkTemplateGates checks a Production deploy-stage template for the
// gates it holds for every pipeline built from it: two approval steps
// that exclude the executor, the change-window Policy step, rollback
// steps, and with an upstream environment the condition that the stage
// runs only after the upstream stage succeeded. Who approves and how many
// are each pipeline's inputs, checked on the pipelines.
func checkTemplateGates(t stage, upstream bool, platformGroup string, minApprovers int) []string {
	var out []string
	approvals, platform, policyStep, rollback := 0, false, false, false
	for _, st := range t.Steps {
		switch {
		case st.Rollback:
			rollback = true
		case st.Type == "HarnessApproval":
			approvals++
			approvers, _ := st.Spec["approvers"].(map[string]any)
			if groups, ok := approvers["userGroups"].([]any); ok && slices.Contains(groups, any(platformGroup)) {
				platform = true
			}
			if n, _ := approvers["minimumCount"].(int); n < minApprovers {
				out = append(out, fmt.Sprintf("template %s: approval step %s: approvers.minimumCount is %d; require at least %d", t.Identifier, st.Identifier, n, minApprovers))
			}
			if exclude, _ := approvers["disallowPipelineExecutor"].(bool); !exclude {
				out = append(out, fmt.Sprintf("template %s: approval step %s lets the pipeline's executor approve; set approvers.disallowPipelineExecutor: true", t.Identifier, st.Identifier))
			}
		case st.Type == "Policy":
			if sets, _ := st.Spec["policySets"].([]any); len(sets) > 0 {
				policyStep = true
			}
		}
	}
	if approvals < 2 {
		out = append(out, fmt.Sprintf("template %s deploys to Production (%s) with %d approval steps; it needs the owning team's and the platform team's (HarnessApproval)", t.Identifier, t.Environment, approvals))
	}
	if !platform {
		out = append(out, fmt.Sprintf("template %s deploys to Production (%s) without an approval step of the platform group %s; add one (HarnessApproval)", t.Identifier, t.Environment, platformGroup))
	}
	if !policyStep {
		out = append(out, fmt.Sprintf("template %s deploys to Production (%s) without the change-window Policy step; add a Policy step with the environment's policy set", t.Identifier, t.Environment))
	}
	if !rollback {
		out = append(out, fmt.Sprintf("template %s deploys to Production (%s) without rollback steps; add rollbackSteps", t.Identifier, t.Environment))
	}
	if upstream && t.When != "Success" {
		out = append(out, fmt.Sprintf("template %s deploys to Production (%s) without when: pipelineStatus: Success; the stage must run only after the upstream stage deployed the tag", t.Identifier, t.Environment))
	}
	return out
}

// testedFirst reports whether one of the stages before s runs the
// service's upstream pipeline with the run's image tag, and s runs only on
// its success (the same rule as policy/rego/pipeline_rules.rego).
func testedFirst(before []stage, s stage, upstream string) bool {
	// A template stage's condition is its template's (checkTemplateGates).
	if s.Template == "" && s.When != "Success" {
		return false
	}
	for _, b := range before {
		if b.Type == "Pipeline" && b.Child == s.Service+"_"+upstream && b.ImageTag == "<+pipeline.variables.imageTag>" {
			return true
		}
	}
	return false
}

func checkGates(s stage, platformGroup string, minApprovers int) []string {
	var out []string
	team, platform, policyStep, rollback := false, false, false, false
	for _, st := range s.Steps {
		switch {
		case st.Rollback:
			rollback = true
		case st.Type == "HarnessApproval":
			approvers, _ := st.Spec["approvers"].(map[string]any)
			var names []string
			if list, ok := approvers["userGroups"].([]any); ok {
				for _, g := range list {
					names = append(names, fmt.Sprint(g))
				}
			}
			if slices.Contains(names, platformGroup) {
				platform = true
			} else if len(names) > 0 {
				team = true
			}
			if exclude, _ := approvers["disallowPipelineExecutor"].(bool); !exclude && s.Template == "" {
				out = append(out, fmt.Sprintf("stage %s: approval step %s lets the pipeline's executor approve; set approvers.disallowPipelineExecutor: true", s.Identifier, st.Identifier))
			}
			if n, _ := approvers["minimumCount"].(int); n < minApprovers && s.Template == "" {
				out = append(out, fmt.Sprintf("stage %s: approval step %s: approvers.minimumCount is %d; require at least %d", s.Identifier, st.Identifier, n, minApprovers))
			}
		case st.Type == "Policy":
			if sets, _ := st.Spec["policySets"].([]any); len(sets) > 0 {
				policyStep = true
			}
		}
	}
	if !team {
		out = append(out, fmt.Sprintf("stage %s deploys to Production without an approval step of the owning team's group; add one (HarnessApproval)", s.Identifier))
	}
	if !platform && s.Template == "" {
		out = append(out, fmt.Sprintf("stage %s deploys to Production without an approval step of the platform group %s; add one (HarnessApproval)", s.Identifier, platformGroup))
	}
	if s.Template != "" {
		// The steps, the Policy step and rollback are the template's
		// (checkTemplateGates); the approvers are the pipeline's inputs.
		return out
	}
	if !policyStep {
		out = append(out, fmt.Sprintf("stage %s deploys to Production without the change-window Policy step; add a Policy step with the environment's policy set", s.Identifier))
	}
	if !rollback {
		out = append(out, fmt.Sprintf("stage %s deploys to Production without rollback steps; add rollbackSteps", s.Identifier))
	}
	return out
}

var noScriptSteps = resourcePolicy("no-script-steps",
	"Deployment pipelines run no ShellScript or other script steps: what a deployment does is reviewed in the catalog, not in a script.",
	policyx.EnforcementLevelMandatory, nil,
	func(r policyx.AnalyzerResource, _ config) []string {
		stages, ok, err := pipelineStages(r)
		if t, isTemplate, terr := readTemplate(r); isTemplate {
			// A deploy-stage template's steps run in every pipeline built
			// from it.
			stages, ok, err = []stage{t}, true, terr
		}
		if !ok || err != nil {
			return nil // production-pipeline-gates reports YAML that does not parse
		}
		var out []string
		for _, s := range stages {
			if s.Type == "CI" {
				// A build stage runs scripts by nature, on the build
				// infrastructure; it deploys nothing (the pipeline that
				// runs this program: previews and ups, reviewed here).
				continue
			}
			for _, st := range s.Steps {
				if slices.Contains(scriptSteps, st.Type) {
					out = append(out, fmt.Sprintf("stage %s: step %s is a %s step; deployment pipelines may not run scripts: use a Harness step type, or change the archetype", s.Identifier, st.Identifier, st.Type))
				}
			}
		}
		return out
	})
