// Package document holds the Harness YAML documents this project
// generates, as typed Go values: pipelines, triggers, the input sets a
// trigger carries, services and infrastructure definitions. Marshal encodes
// them canonically (struct fields in declaration order, map keys sorted,
// two-space indentation), so the same values always give the same bytes.
//
// The types cover the part of Harness's YAML the project uses; field order
// is output order.
package document

import "gopkg.in/yaml.v3"

// Document is a pipeline YAML document.
type Document struct {
	Pipeline Pipeline `yaml:"pipeline"`
}

// Pipeline is the top-level pipeline.
type Pipeline struct {
	Name              string            `yaml:"name"`
	Identifier        string            `yaml:"identifier"`
	ProjectIdentifier string            `yaml:"projectIdentifier"`
	OrgIdentifier     string            `yaml:"orgIdentifier"`
	Description       string            `yaml:"description,omitempty"`
	Tags              map[string]string `yaml:"tags"`
	// Properties hold a CI pipeline's codebase.
	Properties        *CIProperties      `yaml:"properties,omitempty"`
	Variables         []Variable         `yaml:"variables,omitempty"`
	Stages            []StageElement     `yaml:"stages"`
	NotificationRules []NotificationRule `yaml:"notificationRules,omitempty"`
	// AllowStageExecutions false: a run runs every stage, none can be
	// picked alone.
	AllowStageExecutions *bool `yaml:"allowStageExecutions,omitempty"`
}

// NotificationRule tells one channel of a pipeline's events.
// https://developer.harness.io/docs/continuous-delivery/x-platform-cd-features/cd-steps/notify-users-of-pipeline-events/
type NotificationRule struct {
	Name               string             `yaml:"name"`
	Identifier         string             `yaml:"identifier"`
	PipelineEvents     []PipelineEvent    `yaml:"pipelineEvents"`
	NotificationMethod NotificationMethod `yaml:"notificationMethod"`
	Enabled            bool               `yaml:"enabled"`
}

// PipelineEvent is an event a rule notifies of: PipelineFailed,
// WaitingForUserAction (an approval or a manual intervention waits), ...
type PipelineEvent struct {
	Type string `yaml:"type"`
}

// NotificationMethod is a channel: Slack (SlackChannel) or PagerDuty
// (PagerDutyChannel).
type NotificationMethod struct {
	Type string `yaml:"type"`
	Spec any    `yaml:"spec"`
}

// SlackChannel posts to an incoming webhook; the URL may be an expression,
// such as a secret's <+secrets.getValue("...")>, but not a runtime input.
type SlackChannel struct {
	UserGroups []string `yaml:"userGroups"`
	WebhookURL string   `yaml:"webhookUrl"`
}

// PagerDutyChannel raises an incident through an integration key.
type PagerDutyChannel struct {
	UserGroups     []string `yaml:"userGroups"`
	IntegrationKey string   `yaml:"integrationKey"`
}

// Variable is a pipeline variable; Value "<+input>" makes it a runtime input.
type Variable struct {
	Name        string `yaml:"name"`
	Type        string `yaml:"type"`
	Description string `yaml:"description,omitempty"`
	Required    bool   `yaml:"required"`
	Value       string `yaml:"value"`
}

// StageElement wraps a stage.
type StageElement struct {
	Stage Stage `yaml:"stage"`
}

// Stage is a stage: a Deployment stage (Spec is a DeploymentSpec), a
// Pipeline stage, which runs another pipeline (Spec is a ChainedPipeline),
// a CI stage (CIStageSpec) or an Approval stage (ApprovalStageSpec).
type Stage struct {
	Name              string            `yaml:"name"`
	Identifier        string            `yaml:"identifier"`
	Description       string            `yaml:"description,omitempty"`
	Type              string            `yaml:"type,omitempty"`
	Spec              any               `yaml:"spec,omitempty"`
	FailureStrategies []FailureStrategy `yaml:"failureStrategies,omitempty"`
	// When runs the stage only if the pipeline so far has the status
	// (Success: every stage before it succeeded).
	When *StageWhen `yaml:"when,omitempty"`
	// DelegateSelectors pick the delegates a CI stage runs on (a stage's
	// own selectors take precedence over the pipeline's).
	DelegateSelectors []string `yaml:"delegateSelectors,omitempty"`
	// Template makes the stage a stage template's: it has no type or spec
	// of its own, only the template's reference and inputs.
	Template *TemplateLink `yaml:"template,omitempty"`
}

// TemplateLink references a template: its stable version when
// VersionLabel is empty. TemplateInputs mirror the template's spec at
// the places of its runtime inputs (<+input>).
// https://developer.harness.io/docs/platform/templates/use-a-template
type TemplateLink struct {
	TemplateRef    string         `yaml:"templateRef"`
	VersionLabel   string         `yaml:"versionLabel,omitempty"`
	TemplateInputs map[string]any `yaml:"templateInputs,omitempty"`
}

// DeploymentSpec decodes the spec of a Deployment stage read back from
// YAML (where Spec is a map).
func (s Stage) DeploymentSpec() (DeploymentSpec, error) {
	if d, ok := s.Spec.(DeploymentSpec); ok {
		return d, nil
	}
	var d DeploymentSpec
	b, err := yaml.Marshal(s.Spec)
	if err != nil {
		return d, err
	}
	return d, yaml.Unmarshal(b, &d)
}

// Deployment is the spec of the pipeline's Deployment stage, decoded; ok is
// false when it has none.
func (p Pipeline) Deployment() (spec DeploymentSpec, ok bool, err error) {
	for _, s := range p.Stages {
		if s.Stage.Type == "Deployment" {
			spec, err = s.Stage.DeploymentSpec()
			return spec, true, err
		}
	}
	return spec, false, nil
}

// ChainedPipeline is a Pipeline stage's spec: the child pipeline, run to
// its end as this stage, with its runtime inputs. Harness does not chain a
// pipeline that itself has a Pipeline stage.
// https://developer.harness.io/docs/platform/pipelines/pipeline-chaining/
type ChainedPipeline struct {
	Org      string        `yaml:"org"`
	Project  string        `yaml:"project"`
	Pipeline string        `yaml:"pipeline"`
	Inputs   RuntimeInputs `yaml:"inputs"`
}

// DeploymentSpec is what a Deployment stage deploys, where and how.
type DeploymentSpec struct {
	DeploymentType string      `yaml:"deploymentType"`
	Service        ServiceRef  `yaml:"service"`
	Environment    Environment `yaml:"environment"`
	Execution      Execution   `yaml:"execution"`
}

// ServiceRef names the Harness service.
type ServiceRef struct {
	ServiceRef string `yaml:"serviceRef"`
}

// Environment names the environment and the infrastructure definition.
type Environment struct {
	EnvironmentRef            string     `yaml:"environmentRef"`
	DeployToAll               bool       `yaml:"deployToAll"`
	InfrastructureDefinitions []InfraRef `yaml:"infrastructureDefinitions"`
}

// InfraRef names an infrastructure definition.
type InfraRef struct {
	Identifier string `yaml:"identifier"`
}

// Execution holds the steps and the rollback steps.
type Execution struct {
	Steps         []StepElement `yaml:"steps"`
	RollbackSteps []StepElement `yaml:"rollbackSteps"`
}

// StepElement wraps a step, or a step group (Step is then zero).
type StepElement struct {
	Step      Step       `yaml:"step,omitempty"`
	StepGroup *StepGroup `yaml:"stepGroup,omitempty"`
}

// Step is one step; Spec is one of the *Spec types below.
type Step struct {
	Type              string            `yaml:"type"`
	Name              string            `yaml:"name"`
	Identifier        string            `yaml:"identifier"`
	Spec              any               `yaml:"spec"`
	Timeout           string            `yaml:"timeout"`
	FailureStrategies []FailureStrategy `yaml:"failureStrategies,omitempty"`
}

// DecodeSpec decodes the spec of a step read back from YAML (a generic
// value) into one of the *Spec types.
func (s Step) DecodeSpec(into any) error {
	var node yaml.Node
	if err := node.Encode(s.Spec); err != nil {
		return err
	}
	return node.Decode(into)
}

// FailureStrategy maps errors to an action.
type FailureStrategy struct {
	OnFailure OnFailure `yaml:"onFailure"`
}

// OnFailure lists errors and the action taken on them.
type OnFailure struct {
	Errors []string `yaml:"errors"`
	Action Action   `yaml:"action"`
}

// Action is a failure action such as StageRollback or Abort.
type Action struct {
	Type string `yaml:"type"`
}

// HarnessApprovalSpec is the spec of a HarnessApproval step.
type HarnessApprovalSpec struct {
	ApprovalMessage                 string          `yaml:"approvalMessage"`
	IncludePipelineExecutionHistory bool            `yaml:"includePipelineExecutionHistory"`
	Approvers                       Approvers       `yaml:"approvers"`
	ApproverInputs                  []ApproverInput `yaml:"approverInputs"`
}

// QueueSpec is the spec of a Queue step: executions holding the same key
// (account-wide) run one at a time, first come first served, each
// releasing the key when its scope (Pipeline or Stage) completes.
// https://developer.harness.io/docs/continuous-delivery/manage-deployments/control-resource-usage-with-queue-steps/
type QueueSpec struct {
	Key   string `yaml:"key"`
	Scope string `yaml:"scope"`
}

// Approvers are who may approve.
type Approvers struct {
	UserGroups               []string `yaml:"userGroups"`
	MinimumCount             int      `yaml:"minimumCount"`
	DisallowPipelineExecutor bool     `yaml:"disallowPipelineExecutor"`
}

// ApproverInput is a value the approver must give.
type ApproverInput struct {
	Name         string `yaml:"name"`
	DefaultValue string `yaml:"defaultValue"`
	Description  string `yaml:"description,omitempty"`
	Required     bool   `yaml:"required,omitempty"`
}

// PolicySpec is the spec of a Policy step.
type PolicySpec struct {
	PolicySets []string         `yaml:"policySets"`
	Type       string           `yaml:"type"`
	PolicySpec CustomPolicySpec `yaml:"policySpec"`
}

// CustomPolicySpec carries the JSON payload a Custom policy evaluates.
type CustomPolicySpec struct {
	Payload string `yaml:"payload"`
}

// K8sRollingDeploySpec is the spec of K8sRollingDeploy.
type K8sRollingDeploySpec struct {
	SkipDryRun     bool `yaml:"skipDryRun"`
	PruningEnabled bool `yaml:"pruningEnabled"`
}

// K8sRollingRollbackSpec is the spec of K8sRollingRollback.
type K8sRollingRollbackSpec struct {
	PruningEnabled bool `yaml:"pruningEnabled"`
}

// K8sCanaryDeploySpec is the spec of K8sCanaryDeploy.
type K8sCanaryDeploySpec struct {
	SkipDryRun        bool              `yaml:"skipDryRun"`
	InstanceSelection InstanceSelection `yaml:"instanceSelection"`
}

// InstanceSelection sizes a canary.
type InstanceSelection struct {
	Type string           `yaml:"type"`
	Spec PercentageOfPods `yaml:"spec"`
}

// PercentageOfPods is a canary size.
type PercentageOfPods struct {
	Percentage int `yaml:"percentage"`
}

// K8sCanaryDeleteSpec is the spec of K8sCanaryDelete.
type K8sCanaryDeleteSpec struct{}

// VerifySpec is the spec of a Verify step.
type VerifySpec struct {
	Type             string           `yaml:"type"`
	MonitoredService MonitoredService `yaml:"monitoredService"`
	Spec             VerifyParams     `yaml:"spec"`
}

// MonitoredService selects the service's default monitored service.
type MonitoredService struct {
	Type string   `yaml:"type"`
	Spec struct{} `yaml:"spec"`
}

// VerifyParams tune continuous verification.
type VerifyParams struct {
	Sensitivity   string `yaml:"sensitivity"`
	Duration      string `yaml:"duration"`
	DeploymentTag string `yaml:"deploymentTag"`
}
