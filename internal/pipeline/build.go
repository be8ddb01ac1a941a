package pipeline

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/company/harness-platform/catalog"
)

// ManagedBy is the value of the managed-by tag on everything generated.
const ManagedBy = "harness-platform"

// Refs are the foundation identifiers a pipeline refers to. In the root
// stack they are the foundation's own; downstream they come from the stack
// reference.
type Refs struct {
	OrgID     string
	ProjectID string
}

// Names of the runtime inputs every pipeline has.
const (
	ImageTagInput     = "imageTag"
	TargetRegionInput = "targetRegion"
)

// ServiceTags are the tags of everything generated for s: its catalog tags
// plus team, service, archetype and managed-by, which win.
func ServiceTags(s *catalog.Service) map[string]string {
	tags := maps.Clone(s.Tags)
	if tags == nil {
		tags = map[string]string{}
	}
	tags["team"] = s.Team
	tags["service"] = s.Name
	tags["archetype"] = s.Archetype
	tags["managed-by"] = ManagedBy
	return tags
}

// Tags are the tags of d's pipeline and trigger: the service's tags plus
// its environment, and lifecycle: retired once it is.
func Tags(d catalog.Deployment) map[string]string {
	tags := ServiceTags(d.Service)
	tags["environment"] = d.Stack.Environment.Name
	if d.Service.Retired {
		tags["lifecycle"] = "retired"
	}
	return tags
}

// TagList is the provider's form of tags: sorted "key:value" strings.
func TagList(tags map[string]string) []string {
	out := make([]string, 0, len(tags))
	for _, k := range slices.Sorted(maps.Keys(tags)) {
		out = append(out, k+":"+tags[k])
	}
	return out
}

// Build returns the pipeline of d.
func Build(d catalog.Deployment, refs Refs) Document {
	st, s := d.Stack, d.Service
	timeout := d.Archetype.StepTimeout
	var steps, rollback []StepElement
	if st.IsProduction() {
		steps = append(steps, approvalStep(d), changeWindowStep(d))
	}
	if d.Strategy == "canary" {
		steps = append(steps, canaryStep("canary_10", "Canary 10 percent", 10, timeout))
		if d.Verification {
			steps = append(steps, verifyStep("verify_canary_10", "Verify canary 10 percent", "5m"))
		}
		steps = append(steps, canaryStep("canary_50", "Canary 50 percent", 50, timeout))
		if d.Verification {
			steps = append(steps, verifyStep("verify_canary_50", "Verify canary 50 percent", "10m"))
		}
		steps = append(steps,
			step("K8sCanaryDelete", "Delete canary", "canary_delete", K8sCanaryDeleteSpec{}, timeout),
			step("K8sRollingDeploy", "Full rollout", "full_rollout", K8sRollingDeploySpec{}, timeout))
		rollback = append(rollback, step("K8sCanaryDelete", "Delete canary", "rollback_canary_delete", K8sCanaryDeleteSpec{}, timeout))
	} else {
		steps = append(steps, step("K8sRollingDeploy", "Rolling deployment", "rolling_deploy", K8sRollingDeploySpec{}, timeout))
	}
	rollback = append(rollback, step("K8sRollingRollback", "Rolling rollback", "rolling_rollback", K8sRollingRollbackSpec{}, timeout))

	return Document{Pipeline: Pipeline{
		Name:              PipelineName(d),
		Identifier:        catalog.PipelineIdentifier(s, st),
		ProjectIdentifier: refs.ProjectID,
		OrgIdentifier:     refs.OrgID,
		Description:       fmt.Sprintf("Deploys %s to %s. Generated from the catalog by %s; edit the catalog, not this pipeline.", s.Name, st.Environment.Name, ManagedBy),
		Tags:              Tags(d),
		Variables: []Variable{
			{Name: ImageTagInput, Type: "String", Description: "Image tag of " + s.Image + " to deploy", Required: true, Value: "<+input>"},
			{Name: TargetRegionInput, Type: "String", Description: "Region to deploy to", Required: true, Value: "<+input>.allowedValues(" + strings.Join(d.Regions, ",") + ")"},
		},
		Stages: []StageElement{{Stage: Stage{
			Name:       "Deploy to " + st.Environment.Name,
			Identifier: "deploy",
			Type:       "Deployment",
			Spec: DeploymentSpec{
				DeploymentType: "Kubernetes",
				Service:        ServiceRef{ServiceRef: catalog.ServiceIdentifier(s)},
				Environment: Environment{
					EnvironmentRef: st.Environment.Identifier,
					InfrastructureDefinitions: []InfraRef{{
						// The cluster follows the region chosen at run time.
						Identifier: st.Environment.Identifier + "_<+pipeline.variables." + TargetRegionInput + ">_k8s",
					}},
				},
				Execution: Execution{Steps: steps, RollbackSteps: rollback},
			},
			FailureStrategies: []FailureStrategy{onFailure("StageRollback", "AllErrors")},
		}}},
	}}
}

// PipelineName is the display name of d's pipeline.
func PipelineName(d catalog.Deployment) string {
	return d.Service.Name + "-" + d.Stack.Environment.Name
}

func step(typ, name, id string, spec any, timeout string) StepElement {
	return StepElement{Step: Step{Type: typ, Name: name, Identifier: id, Spec: spec, Timeout: timeout}}
}

func onFailure(action string, errors ...string) FailureStrategy {
	return FailureStrategy{OnFailure: OnFailure{Errors: errors, Action: Action{Type: action}}}
}

func canaryStep(id, name string, percent int, timeout string) StepElement {
	return step("K8sCanaryDeploy", name, id, K8sCanaryDeploySpec{
		InstanceSelection: InstanceSelection{Type: "Percentage", Spec: PercentageOfPods{Percentage: percent}},
	}, timeout)
}

func verifyStep(id, name, duration string) StepElement {
	return step("Verify", name, id, VerifySpec{
		Type:             "Canary",
		MonitoredService: MonitoredService{Type: "Default"},
		Spec: VerifyParams{
			Sensitivity:   "MEDIUM",
			Duration:      duration,
			DeploymentTag: "<+pipeline.variables." + ImageTagInput + ">",
		},
	}, duration)
}

// approvalStep needs one approver from the owning team and one from the
// platform team: both groups, a minimum of two, and never the executor.
func approvalStep(d catalog.Deployment) StepElement {
	a := d.Stack.Approval
	s := step("HarnessApproval", "Production approval", "production_approval", HarnessApprovalSpec{
		ApprovalMessage: fmt.Sprintf("Deploy %s <+pipeline.variables.%s> to %s (<+pipeline.variables.%s>).\n"+
			"Requested by <+pipeline.triggeredBy.email>. Approvals needed: %d, from %s and %s.\n"+
			"Give the change ticket and the rollback plan.\n",
			d.Service.Name, ImageTagInput, d.Stack.Environment.Name, TargetRegionInput,
			a.MinimumCount, d.Team.UserGroup, d.PlatformTeam.UserGroup),
		IncludePipelineExecutionHistory: true,
		Approvers: Approvers{
			UserGroups:               []string{d.Team.UserGroup, d.PlatformTeam.UserGroup},
			MinimumCount:             a.MinimumCount,
			DisallowPipelineExecutor: true,
		},
		ApproverInputs: []ApproverInput{{Name: "change_ticket"}, {Name: "rollback_plan"}},
	}, a.Timeout)
	s.Step.FailureStrategies = []FailureStrategy{onFailure("Abort", "Timeout")}
	return s
}

// ChangeWindowPayload is what the change-window policy evaluates. Harness
// policies cannot read <+...> expressions, so the step resolves them into
// this JSON before the policy sees it.
type ChangeWindowPayload struct {
	Environment string `json:"environment"`
	Service     string `json:"service"`
	Pipeline    string `json:"pipeline"`
	// StartTs is the execution's start, epoch milliseconds.
	StartTs string `json:"startTs"`
}

func changeWindowStep(d catalog.Deployment) StepElement {
	var payload strings.Builder
	enc := json.NewEncoder(&payload)
	enc.SetEscapeHTML(false) // keep <+...> expressions readable for Harness
	enc.SetIndent("", "  ")
	if err := enc.Encode(ChangeWindowPayload{
		Environment: d.Stack.Environment.Name,
		Service:     d.Service.Name,
		Pipeline:    catalog.PipelineIdentifier(d.Service, d.Stack),
		StartTs:     "<+pipeline.startTs>",
	}); err != nil {
		panic(err) // a struct of strings always encodes
	}
	s := step("Policy", "Change window", "change_window", PolicySpec{
		PolicySets: []string{catalog.ChangeWindowPolicySet(d.Stack)},
		Type:       "Custom",
		PolicySpec: CustomPolicySpec{Payload: payload.String()},
	}, "2m")
	s.Step.FailureStrategies = []FailureStrategy{onFailure("Abort", "PolicyEvaluationFailure")}
	return s
}
