package plan

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/harness/document"
	"github.com/company/harness-platform/ident"
)

// Names of the runtime inputs every pipeline has.
const (
	ImageTagInput     = "imageTag"
	TargetRegionInput = "targetRegion"
)

// Webhook payload keys the trigger reads.
const (
	PayloadServiceName  = "service_name"
	PayloadImageTag     = "image_tag"
	PayloadTargetRegion = "target_region"
)

// deploymentInput is what one service's pipeline and trigger are built
// from.
type deploymentInput struct {
	svc          *catalog.Service
	stack        *catalog.Stack
	scope        Scope
	teamGroup    string // the owning team's user group
	platformTeam string // the platform team's user group
	// notify are the teams told of the pipeline's events: the owner, and
	// in Production the platform team.
	notify []catalog.Team
	// testedIn is the environment a Production pipeline deploys the tag
	// to first (the stack's upstream); nil elsewhere.
	testedIn *catalog.Stack
	in       catalog.Placement // how the service runs in stack
	tags     map[string]string // deploymentTags, computed once
	// registry is the foundation's Docker registry, which a Production
	// stage's image scan pulls the image from.
	registry catalog.Registry
	names    deploymentNames
}

// deploymentNames are the identifiers and names of a deployment's objects
// and of what they refer to, computed once (package ident).
type deploymentNames struct {
	service, pipeline, pipelineName, trigger string
	valuesFile, valuesFileName, monitored    string
	changeWindowSet                          string
	infrastructures, namespaces              []string // by region, as in.Regions
	infrastructureExpr                       string   // of the run's target region
	testedPipeline                           string   // the chained upstream pipeline; "" without one
	tags                                     []string // the provider's form of the deployment's tags
}

func namesOf(d *deploymentInput) deploymentNames {
	s, env := d.svc.Name, d.stack.Environment
	n := deploymentNames{
		service: ident.Service(s), pipeline: ident.Pipeline(s, env.Identifier), pipelineName: ident.PipelineName(s, env.Name),
		trigger: ident.Trigger(s, env.Identifier), valuesFile: ident.ValuesFile(s, env.Identifier),
		valuesFileName: ident.ValuesFileName(s, env.Identifier), monitored: ident.MonitoredService(s, env.Identifier),
		changeWindowSet:    ident.ChangeWindowPolicySet(env.Identifier),
		infrastructureExpr: ident.InfrastructureExpr(env.Identifier, "pipeline.variables."+TargetRegionInput),
		tags:               TagList(d.tags),
	}
	for _, r := range d.in.Regions {
		n.infrastructures = append(n.infrastructures, ident.Infrastructure(env.Identifier, r))
		n.namespaces = append(n.namespaces, ident.Namespace(env.Name, s, r))
	}
	if d.testedIn != nil {
		n.testedPipeline = ident.Pipeline(s, d.testedIn.Environment.Identifier)
	}
	return n
}

// pipelineDocument is d's pipeline.
func pipelineDocument(d *deploymentInput) document.Document {
	st, s := d.stack, d.svc
	timeout := s.StepTimeout
	var steps, rollback []document.StepElement
	if st.IsProduction() {
		// The image is scanned first: no one is asked to approve, and
		// nothing rolls out, an image that fails its scan.
		steps = append(append(append(steps, imageScanGroup(d, d.registry)), approvalSteps(d)...), changeWindowStep(d))
	}
	if d.in.Strategy == catalog.Canary {
		steps = append(steps, canaryStep("canary_10", "Canary 10 percent", 10, timeout))
		if s.Verification {
			steps = append(steps, verifyStep("Canary", "verify_canary_10", "Verify canary 10 percent", 5*time.Minute))
		}
		steps = append(steps, canaryStep("canary_50", "Canary 50 percent", 50, timeout))
		if s.Verification {
			steps = append(steps, verifyStep("Canary", "verify_canary_50", "Verify canary 50 percent", 10*time.Minute))
		}
		steps = append(steps,
			step("K8sCanaryDelete", "Delete canary", "canary_delete", document.K8sCanaryDeleteSpec{}, timeout),
			step("K8sRollingDeploy", "Full rollout", "full_rollout", document.K8sRollingDeploySpec{}, timeout))
		rollback = append(rollback, step("K8sCanaryDelete", "Delete canary", "rollback_canary_delete", document.K8sCanaryDeleteSpec{}, timeout))
	} else {
		steps = append(steps, step("K8sRollingDeploy", "Rolling deployment", "rolling_deploy", document.K8sRollingDeploySpec{}, timeout))
		// A rolling deployment verifies too, in every environment, so a
		// tag reaches Production only from a pre-stable run that deployed
		// and verified it (testedStage), and every monitored service has
		// a Verify step reading it.
		if s.Verification {
			steps = append(steps, verifyStep("Rolling", "verify_rollout", "Verify rollout", 10*time.Minute))
		}
	}
	rollback = append(rollback, step("K8sRollingRollback", "Rolling rollback", "rolling_rollback", document.K8sRollingRollbackSpec{}, timeout))

	deploy := document.StageElement{Stage: document.Stage{
		Name:       "Deploy to " + st.Environment.Name,
		Identifier: "deploy",
		Type:       "Deployment",
		Spec: document.DeploymentSpec{
			DeploymentType: "Kubernetes",
			Service:        document.ServiceRef{ServiceRef: d.names.service},
			Environment: document.Environment{
				EnvironmentRef: st.Environment.Identifier,
				InfrastructureDefinitions: []document.InfraRef{{
					// The cluster follows the region chosen at run time.
					Identifier: d.names.infrastructureExpr,
				}},
			},
			Execution: document.Execution{Steps: steps, RollbackSteps: rollback},
		},
		FailureStrategies: []document.FailureStrategy{onFailure("StageRollback", "AllErrors")},
	}}
	stages := []document.StageElement{deploy}
	var allowStageExecutions *bool
	if t := d.testedIn; t != nil {
		stages = []document.StageElement{testedStage(d, t), deploy}
		stages[1].Stage.When = &document.StageWhen{PipelineStatus: "Success"}
		allowStageExecutions = new(bool)
	}
	return document.Document{Pipeline: document.Pipeline{
		Name:              d.names.pipelineName,
		Identifier:        d.names.pipeline,
		ProjectIdentifier: d.scope.ProjectID,
		OrgIdentifier:     d.scope.OrgID,
		Description:       fmt.Sprintf("Deploys %s to %s. Generated from the catalog by %s; edit the catalog, not this pipeline.", s.Name, st.Environment.Name, ManagedBy),
		Tags:              d.tags,
		Variables: []document.Variable{
			{Name: ImageTagInput, Type: "String", Description: "Image tag of " + s.Image + " to deploy", Required: true, Value: "<+input>"},
			{Name: TargetRegionInput, Type: "String", Description: "Region to deploy to", Required: true, Value: "<+input>.allowedValues(" + strings.Join(d.in.Regions, ",") + ")"},
		},
		NotificationRules:    notificationRules(d.notify, st.IsProduction()),
		Stages:               stages,
		AllowStageExecutions: allowStageExecutions,
	}}
}

// TeamApprovalID is the identifier of a Production pipeline's approval
// step of the owning team (the platform team's is platform_approval).
const TeamApprovalID = "team_approval"

// TestedStageID is the identifier of a Production pipeline's first stage,
// which runs the upstream environment's pipeline of the service.
const TestedStageID = "tested_upstream"

// testedStage deploys the run's tag to the upstream environment first, by
// running that environment's pipeline of the service as a Pipeline stage
// with the same imageTag and targetRegion; the deployment stage after it
// runs only when it succeeded (its rollout and verification). So a tag
// reaches Production only in a run that deployed it to pre-stable
// successfully, whoever starts the run and however; and the run cannot
// pick the Production stage alone (allowStageExecutions: false).
// https://developer.harness.io/docs/platform/pipelines/pipeline-chaining/
func testedStage(d *deploymentInput, upstream *catalog.Stack) document.StageElement {
	child := d.names.testedPipeline
	return document.StageElement{Stage: document.Stage{
		Name:        "Deploy to " + upstream.Environment.Name + " first",
		Identifier:  TestedStageID,
		Description: "Runs " + child + " with this run's image tag and region: Production deploys only a tag that " + upstream.Environment.Name + " has just deployed and verified.",
		Type:        "Pipeline",
		Spec: document.ChainedPipeline{
			Org:      d.scope.OrgID,
			Project:  d.scope.ProjectID,
			Pipeline: child,
			Inputs: document.RuntimeInputs{Identifier: child, Variables: []document.InputValue{
				{Name: ImageTagInput, Type: "String", Value: "<+pipeline.variables." + ImageTagInput + ">"},
				{Name: TargetRegionInput, Type: "String", Value: "<+pipeline.variables." + TargetRegionInput + ">"},
			}},
		},
		FailureStrategies: []document.FailureStrategy{onFailure("Abort", "AllErrors")},
	}}
}

func step(typ, name, id string, spec any, timeout string) document.StepElement {
	return document.StepElement{Step: document.Step{Type: typ, Name: name, Identifier: id, Spec: spec, Timeout: timeout}}
}

func onFailure(action string, errors ...string) document.FailureStrategy {
	return document.FailureStrategy{OnFailure: document.OnFailure{Errors: errors, Action: document.Action{Type: action}}}
}

func canaryStep(id, name string, percent int, timeout string) document.StepElement {
	return step("K8sCanaryDeploy", name, id, document.K8sCanaryDeploySpec{
		InstanceSelection: document.InstanceSelection{Type: "Percentage", Spec: document.PercentageOfPods{Percentage: percent}},
	}, timeout)
}

// verifyMargin is added to a Verify step's analysis duration for its
// timeout: a step whose timeout equals its duration times out, and rolls the
// stage back, as soon as the analysis runs its full length.
const verifyMargin = 15 * time.Minute

// verifyStep analyses the monitored service of the stage's service and
// environment for duration: kind Canary compares the canary's pods with
// the primary's, kind Rolling the new pods with the old ones ("Rolling
// Update" in Harness's verification types).
// https://developer.harness.io/docs/continuous-delivery/verify/verify-deployments-with-the-verify-step/
func verifyStep(kind, id, name string, duration time.Duration) document.StepElement {
	return step("Verify", name, id, document.VerifySpec{
		Type:             kind,
		MonitoredService: document.MonitoredService{Type: "Default"},
		Spec: document.VerifyParams{
			Sensitivity:   "MEDIUM",
			Duration:      harnessDuration(duration),
			DeploymentTag: "<+pipeline.variables." + ImageTagInput + ">",
		},
	}, harnessDuration(duration+verifyMargin))
}

// harnessDuration writes d as Harness does: 5m, 25m, 1h30m.
func harnessDuration(d time.Duration) string {
	h, m := int(d.Hours()), int(d.Minutes())%60
	switch {
	case h == 0:
		return fmt.Sprintf("%dm", m)
	case m == 0:
		return fmt.Sprintf("%dh", h)
	default:
		return fmt.Sprintf("%dh%dm", h, m)
	}
}

// approvalSteps need approvers from the owning team and from the platform
// team. Harness counts a step's minimumCount across every group the step
// lists, so one step with both groups and a minimum of two passes with two
// members of one group; hence one step per group, in sequence, each with
// its own minimum (developer.harness.io/docs/platform/approvals/adding-harness-approval-stages).
// The executor may approve neither. The messages name the service and
// its team (the template's inputs), not the minimums: those are the
// environment's, in the template, and a message that repeated them would
// make every change of them rewrite every Production pipeline. A run started by a trigger has a
// system principal as its executor, so there the exclusion excludes no
// one: the groups and minimums are what hold.
func approvalSteps(d *deploymentInput) []document.StepElement {
	a := d.stack.Approval
	release := fmt.Sprintf("%s <+pipeline.variables.%s> to %s (<+pipeline.variables.%s>)",
		d.svc.Name, ImageTagInput, d.stack.Environment.Name, TargetRegionInput)
	team := approval(TeamApprovalID, "Team approval", d.teamGroup, a.TeamApprovals, a.Timeout,
		fmt.Sprintf("Deploy %s.\nStarted by "+StartedBy+". Needs the approval of %s, then the platform team's.\n"+
			"Give the change ticket and the rollback plan.\n", release, d.teamGroup),
		[]document.ApproverInput{
			{Name: "change_ticket", Description: "The change ticket of this release.", Required: true},
			{Name: "rollback_plan", Description: "How to roll back if the release misbehaves.", Required: true},
		})
	platform := approval("platform_approval", "Platform approval", d.platformTeam, a.PlatformApprovals, a.Timeout,
		fmt.Sprintf("Deploy %s, approved by %s.\nChange ticket: <+execution.steps.team_approval.output.approverInputs.change_ticket>\n"+
			"Rollback plan: <+execution.steps.team_approval.output.approverInputs.rollback_plan>\n",
			release, d.teamGroup), nil)
	return []document.StepElement{team, platform}
}

func approval(id, name, group string, minimum int, timeout, message string, inputs []document.ApproverInput) document.StepElement {
	s := step("HarnessApproval", name, id, document.HarnessApprovalSpec{
		ApprovalMessage:                 message,
		IncludePipelineExecutionHistory: true,
		Approvers: document.Approvers{
			UserGroups:               []string{group},
			MinimumCount:             minimum,
			DisallowPipelineExecutor: true,
		},
		ApproverInputs: inputs,
	}, timeout)
	s.Step.FailureStrategies = []document.FailureStrategy{onFailure("Abort", "Timeout")}
	return s
}

// ChangeWindowPayload is what the change-window policy evaluates. Harness
// policies cannot read <+...> expressions, so the step resolves them into
// this JSON before the policy sees it.
// The policy reads the time itself, when the step runs.
type ChangeWindowPayload struct {
	Environment     string `json:"environment"`
	EnvironmentType string `json:"environmentType"`
	Service         string `json:"service"`
	Pipeline        string `json:"pipeline"`
}

func changeWindowStep(d *deploymentInput) document.StepElement {
	var payload strings.Builder
	enc := json.NewEncoder(&payload)
	enc.SetEscapeHTML(false) // keep <+...> expressions readable for Harness
	enc.SetIndent("", "  ")
	if err := enc.Encode(ChangeWindowPayload{
		Environment:     d.stack.Environment.Name,
		EnvironmentType: d.stack.Environment.Type,
		Service:         d.svc.Name,
		Pipeline:        d.names.pipeline,
	}); err != nil {
		panic(err) // a struct of strings always encodes
	}
	s := step("Policy", "Change window", "change_window", document.PolicySpec{
		PolicySets: []string{d.names.changeWindowSet},
		Type:       "Custom",
		PolicySpec: document.CustomPolicySpec{Payload: payload.String()},
	}, "2m")
	s.Step.FailureStrategies = []document.FailureStrategy{onFailure("Abort", "PolicyEvaluationFailure")}
	return s
}

// triggerDocument is the custom webhook trigger of d's pipeline: a call
// whose payload names the service starts the pipeline with the payload's
// image tag and region. A retired service's trigger is disabled.
func triggerDocument(d *deploymentInput) (document.TriggerDocument, error) {
	pipelineID := d.names.pipeline
	inputs, err := document.MarshalString(document.InputSetDocument{Pipeline: document.RuntimeInputs{
		Identifier: pipelineID,
		Variables: []document.InputValue{
			{Name: ImageTagInput, Type: "String", Value: "<+trigger.payload." + PayloadImageTag + ">"},
			{Name: TargetRegionInput, Type: "String", Value: "<+trigger.payload." + PayloadTargetRegion + ">"},
		},
	}})
	if err != nil {
		return document.TriggerDocument{}, err
	}
	return document.TriggerDocument{Trigger: document.Trigger{
		Name:               d.names.pipelineName + "-webhook",
		Identifier:         d.names.trigger,
		Enabled:            !d.svc.Retired,
		Description:        fmt.Sprintf("Starts %s when a build of %s calls the webhook with %s, %s and %s.", d.names.pipelineName, d.svc.Name, PayloadServiceName, PayloadImageTag, PayloadTargetRegion),
		Tags:               d.tags,
		OrgIdentifier:      d.scope.OrgID,
		ProjectIdentifier:  d.scope.ProjectID,
		PipelineIdentifier: pipelineID,
		Source: document.TriggerSource{Type: "Webhook", Spec: document.WebhookSource{Type: "Custom", Spec: document.CustomWebhook{
			PayloadConditions: []document.Condition{
				{Key: "<+trigger.payload." + PayloadServiceName + ">", Operator: "Equals", Value: d.svc.Name},
			},
			HeaderConditions: []document.Condition{},
		}}},
		InputYaml: inputs,
	}}, nil
}
