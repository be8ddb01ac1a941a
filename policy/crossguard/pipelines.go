package crossguard

import (
	"fmt"
	"slices"

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

// stage is a Deployment stage: its environment and its steps.
type stage struct {
	Identifier, Environment string
	// Type is the stage type: Deployment, CI, Approval, Custom, ...
	Type  string
	Steps []step
}

// pipelineStages reads a pipeline resource's YAML; ok is false when the
// resource is not a pipeline or its YAML is not known yet.
func pipelineStages(r policyx.AnalyzerResource) (stages []stage, ok bool, err error) {
	if r.Type != pipelineType {
		return nil, false, nil
	}
	y, known := stringAt(r.Properties, "yaml")
	if !known {
		return nil, false, nil
	}
	var doc struct {
		Pipeline struct {
			Stages []struct {
				Stage struct {
					Identifier string `yaml:"identifier"`
					Type       string `yaml:"type"`
					Spec       struct {
						Environment struct {
							EnvironmentRef string `yaml:"environmentRef"`
						} `yaml:"environment"`
						Execution struct {
							Steps         []map[string]any `yaml:"steps"`
							RollbackSteps []map[string]any `yaml:"rollbackSteps"`
						} `yaml:"execution"`
					} `yaml:"spec"`
				} `yaml:"stage"`
			} `yaml:"stages"`
		} `yaml:"pipeline"`
	}
	if err := yaml.Unmarshal([]byte(y), &doc); err != nil {
		return nil, true, err
	}
	for _, s := range doc.Pipeline.Stages {
		st := stage{Identifier: s.Stage.Identifier, Type: s.Stage.Type, Environment: s.Stage.Spec.Environment.EnvironmentRef}
		st.Steps = flatten(s.Stage.Spec.Execution.Steps, false, st.Steps)
		st.Steps = flatten(s.Stage.Spec.Execution.RollbackSteps, true, st.Steps)
		stages = append(stages, st)
	}
	return stages, true, nil
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
	}},
	func(r policyx.AnalyzerResource, cfg config) []string {
		stages, ok, err := pipelineStages(r)
		if err != nil {
			return []string{fmt.Sprintf("pipeline YAML does not parse (%v); generate it from the plan", err)}
		}
		if !ok {
			return nil
		}
		var out []string
		for _, s := range stages {
			if !slices.Contains(cfg.strings("productionEnvironments"), s.Environment) {
				continue
			}
			out = append(out, checkGates(s, cfg.string("platformGroup"), int(cfg.number("minApprovers")))...)
		}
		return out
	})

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
			if exclude, _ := approvers["disallowPipelineExecutor"].(bool); !exclude {
				out = append(out, fmt.Sprintf("stage %s: approval step %s lets the pipeline's executor approve; set approvers.disallowPipelineExecutor: true", s.Identifier, st.Identifier))
			}
			if n, _ := approvers["minimumCount"].(int); n < minApprovers {
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
	if !platform {
		out = append(out, fmt.Sprintf("stage %s deploys to Production without an approval step of the platform group %s; add one (HarnessApproval)", s.Identifier, platformGroup))
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
