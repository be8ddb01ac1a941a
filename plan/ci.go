package plan

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/harness/document"
	"github.com/company/harness-platform/ident"
)

// CI is the Harness CI pipeline that runs this program (seed 000), which
// the foundation stack declares when the catalog names this program's
// repository: a connector to that repository (the pipeline's codebase),
// the pipeline, and its triggers (pull requests to main preview every
// stack; pushes to main run each environment's up in chain order).
type CI struct {
	Connector GithubConnector
	Pipeline  Pipeline
	Triggers  []Trigger
}

// The CI pipeline's runtime: the local runners (a Harness Docker Runner
// and delegate on each self-hosted runner host, harness-platform:runner),
// whose fixed addresses the clusters' public endpoints allow; Harness
// Cloud machines have none. https://developer.harness.io/docs/continuous-integration/use-ci/set-up-build-infrastructure/define-a-docker-build-infrastructure/
const ciRuntime = "Docker"

// PolicyConfigFile is the organisation's config of the project's policy
// pack, relative to the project directory.
const PolicyConfigFile = "policy/config.json"

// PreviewTokenSecret and DeployerTokenSecret are the Harness secrets
// holding the Pulumi Cloud team tokens the CI pipeline's stages log in
// with (made by hand: Pulumi Cloud issues them; nothing here knows their
// values): the preview team's for the pull requests' preview, each
// environment's deployer team's for its up (esc/pulumi/access.yaml,
// package trust). Harness runs a trigger's execution as its system
// principal, which may resolve any secret of the project, so the
// boundary is what each stage's YAML names, and that YAML is this
// program's (stored inline by the foundation's up of main), never the
// pull request's.
// https://developer.harness.io/docs/platform/triggers/trigger-executor-identity/
const PreviewTokenSecret = "pulumi_preview_token"

// DeployerTokenSecret is environment env's deployer token secret.
func DeployerTokenSecret(env string) string { return "pulumi_deployer_token_" + env }

// CIImage is the container the preview stage's step runs in, so that a
// pull request's code writes nothing into the runner host's home, caches
// or binaries; harnessImage is the account's built-in connector to
// Docker Hub. A container is not the boundary: the Harness Docker runner
// mounts the host's Docker socket into every step by default
// (harness-docker-runner handler/step.go), which is root on the host. The
// boundary is the preview runners' own hosts, which no up selects
// (catalog's checkPreviewRunners).
// https://developer.harness.io/docs/continuous-integration/use-ci/run-step-settings/
const (
	CIImage          = "golang:1.26.8-bookworm"
	CIImageConnector = "account.harnessImage"
)

// The CI pipeline's waits: an environment's approval, its up, and the
// queue that holds a run of main until the run before it ends (at worst
// every approval and up of the chain).
const (
	ciApprovalTimeout = "1d"
	ciUpTimeout       = "4h"
)

func ciQueueTimeout(environments int) string {
	h := environments * (24 + 4)
	return fmt.Sprintf("%dd%dh", h/24, h%24)
}

// StartedBy names who or what started a run, in every case: the user of
// a run by hand (MANUAL), the sender's login of a Git webhook (WEBHOOK),
// the trigger of a custom webhook (WEBHOOK_CUSTOM). The executor's email
// is empty for every webhook run, so it names no one there.
// https://developer.harness.io/docs/platform/variables-and-expressions/harness-expressions-reference/
// (pipeline.triggeredBy.name, pipeline.triggerType); harness-core
// TriggerExecutionHelper.generateTriggerdBy.
const StartedBy = "<+pipeline.triggeredBy.name> (<+pipeline.triggerType>)"

// CIConditions are when the CI pipeline's stages run, from the codebase's
// build, which every run has as its runtime input: a pull-request trigger
// sets PR, a push trigger the branch main, a run by hand whatever build
// its runner picks. onMain (approvals and ups) holds for a build of main,
// pushed or run by hand; onOther (the preview) for every other build.
// <+trigger.event> is null in a run by hand, so it cannot tell them apart.
// https://developer.harness.io/docs/continuous-integration/use-ci/codebase-configuration/built-in-cie-codebase-variables-reference/
func CIConditions() (onMain, onOther string) {
	const buildType, branch = "<+pipeline.properties.ci.codebase.build.type>", "<+pipeline.properties.ci.codebase.build.spec.branch>"
	return buildType + ` == "branch" && ` + branch + ` == "` + MainBranch + `"`,
		buildType + ` != "branch" || ` + branch + ` != "` + MainBranch + `"`
}

// buildCI is the CI pipeline of the catalog's repository (owner/name).
func buildCI(c *catalog.Catalog, f *catalog.Foundation, scope Scope, app GithubApp) (*CI, error) {
	_, name, ok := strings.Cut(f.Repository, "/")
	if !ok {
		return nil, fmt.Errorf("foundation repository %q is not owner/name", f.Repository)
	}
	id := ident.From(name)
	tags := map[string]string{"managed-by": ManagedBy, "team": c.PlatformTeam, "service": name}
	connector := GithubConnector{
		Identifier:        ident.Join("github", id),
		Name:              "github-" + name,
		Description:       "This program's repository, the codebase of pipeline " + id,
		URL:               "https://github.com/" + f.Repository,
		ConnectionType:    "Repo",
		App:               app,
		ExecuteOnDelegate: true,
		Tags:              TagList(tags),
		Needs:             []Ref{{KindProject, scope.ProjectID}, {KindSecret, app.PrivateKeyRef}},
	}
	// ESC environments are <organisation>/<project>/<environment>, in the
	// Pulumi organisation of esc/pulumi/access.yaml, whose name need not
	// be the GitHub owner's.
	if c.PulumiOrganization == "" {
		return nil, fmt.Errorf("the Pulumi organisation is not known: the CI pipeline opens the ESC environments in the organization %s names", catalog.AccessFile)
	}
	esc := func(env string) string { return c.PulumiOrganization + "/" + catalog.Namespace + "/" + env }
	team, _ := c.Team(c.PlatformTeam)
	prelude := "set -euo pipefail\n" +
		"# The pinned CLI; credentials from Pulumi ESC (OIDC inside ESC, no key here).\n" +
		"curl -fsSL https://get.pulumi.com | sh -s -- --version 3.256.0\n" +
		"export PATH=\"$HOME/.pulumi/bin:$PATH\"\n"
	run := func(stepID, stepName, command, timeout, token string, env map[string]string) document.StepElement {
		vars := map[string]string{"PULUMI_ACCESS_TOKEN": secretValue(token)}
		maps.Copy(vars, env)
		return document.StepElement{Step: document.Step{Type: "Run", Name: stepName, Identifier: stepID, Timeout: timeout,
			Spec: document.RunSpec{Shell: "Bash", Command: prelude + command, EnvVariables: vars}}}
	}
	ciStage := func(stageID, stageName, description, condition string, selectors []string, steps ...document.StepElement) document.StageElement {
		return document.StageElement{Stage: document.Stage{Name: stageName, Identifier: stageID, Description: description, Type: "CI",
			Spec: document.CIStageSpec{CloneCodebase: true, Platform: document.Platform{OS: "Linux", Arch: "Amd64"},
				Runtime: document.Runtime{Type: ciRuntime, Spec: map[string]any{}}, Execution: document.CIExecution{Steps: steps}},
			When: &document.StageWhen{PipelineStatus: "Success", Condition: condition}, DelegateSelectors: selectors}}
	}
	onMain, onOther := CIConditions()
	// Each up runs on its environment's runners, whose addresses its
	// clusters' API admits; the preview, of every stack in one step, on
	// the preview runners' delegates, which no up selects (catalog's
	// checkCIRunners and checkPreviewRunners).
	selectors := func(env string) []string { return c.Stacks[env].Runner.DelegateSelectors }
	previewSelectors := slices.Clone(c.Stacks[c.Chain[0]].Runner.PreviewDelegateSelectors)
	var previews strings.Builder
	previews.WriteString("pack=\"$(go run ./cmd/platformctl policy-pack)\"\n")
	previews.WriteString("for env in " + strings.Join(c.Chain, " ") + "; do   # chain order\n")
	fmt.Fprintf(&previews, "  pulumi env run %q -- go run ./cmd/platformctl preflight --stack \"$env\" --read-only\n", esc("$env-preview"))
	previews.WriteString("done\n")
	previews.WriteString("for stack in $(go run ./cmd/platformctl stacks); do\n")
	previews.WriteString("  env=\"${stack%%.*}\"\n")
	previews.WriteString("  # The preview token cannot create a stack: the up of main creates it.\n")
	previews.WriteString("  pulumi stack select \"$stack\" 2>/dev/null || { echo \"stack $stack does not exist yet: the up of main creates it\"; continue; }\n")
	fmt.Fprintf(&previews, "  pulumi env run %q -- pulumi preview --stack \"$stack\" \\\n", esc("$env-preview"))
	fmt.Fprintf(&previews, "    --override-env %q \\\n", name+"/$env="+name+"/$env-preview")
	previews.WriteString("    --policy-pack \"$pack\" --policy-pack-config " + PolicyConfigFile + " --parallel 8 --diff\ndone\n")
	preview := run("preview", "Preflight and preview", previews.String(), "2h", PreviewTokenSecret, nil)
	spec := preview.Step.Spec.(document.RunSpec)
	spec.ConnectorRef, spec.Image = CIImageConnector, CIImage
	preview.Step.Spec = spec
	stages := []document.StageElement{ciStage("preview", "Preview", "Preflight, then preview every stack with the policy pack, on pull requests and on runs of any build but main's, on the preview runners in a container", onOther,
		previewSelectors, preview)}
	first := true
	for _, envName := range c.Chain {
		// One delivery path per environment (harness-platform:delivery):
		// this pipeline approves and applies only those that name it, so
		// it never races the merge workflow or the operator.
		if c.Stacks[envName].Delivery != catalog.DeliveryHarnessCI {
			continue
		}
		production := c.Stacks[envName].Environment.Type == "Production"
		var steps []document.StepElement
		if first {
			first = false
			// One up of the chain at a time: a run of main holds the
			// queue's key from its first approval until it ends
			// (succeeded, failed or aborted), so a second merge, or a
			// rerun by hand, waits its turn instead of running up on
			// the same stacks at once. The key is account-wide.
			steps = append(steps, document.StepElement{Step: document.Step{
				Type: "Queue", Name: "One up at a time", Identifier: "one_up_at_a_time", Timeout: ciQueueTimeout(len(c.Chain)),
				Spec: document.QueueSpec{Key: ident.Join(scope.OrgID, scope.ProjectID, id, "up"), Scope: "Pipeline"}}})
		}
		steps = append(steps, document.StepElement{Step: document.Step{
			Type: "HarnessApproval", Name: "Platform approval", Identifier: ident.Join("platform_approval", envName), Timeout: ciApprovalTimeout,
			Spec: document.HarnessApprovalSpec{
				ApprovalMessage: "Apply " + MainBranch + " to " + envName + "? Read the pull request's preview first.\n" +
					"Started by " + StartedBy + ".\n",
				IncludePipelineExecutionHistory: true,
				Approvers:                       document.Approvers{UserGroups: []string{team.UserGroup}, MinimumCount: 1, DisallowPipelineExecutor: production},
				ApproverInputs:                  []document.ApproverInput{},
			}}})
		stages = append(stages, document.StageElement{Stage: document.Stage{
			Name: "Approve " + envName, Identifier: ident.Join("approve", envName), Type: "Approval",
			Description: "The platform team approves the up of " + envName,
			Spec:        document.ApprovalStageSpec{Execution: document.CIExecution{Steps: steps}},
			When:        &document.StageWhen{PipelineStatus: "Success", Condition: onMain}}})
		up := fmt.Sprintf("pulumi env run %q -- go run ./cmd/platformctl preflight --stack %s\n", esc(envName), envName) +
			fmt.Sprintf("pulumi env run %q -- go run ./cmd/platformctl up --stack %s --yes --parallel 2 --stack-parallel 2 --diff\n", esc(envName), envName)
		stages = append(stages, ciStage(ident.Join("up", envName), "Up "+envName, "Preflight, then up every stack of "+envName+" with the policy pack", onMain,
			selectors(envName), run(ident.Join("up", envName), "Preflight and up "+envName, up, ciUpTimeout, DeployerTokenSecret(envName),
				map[string]string{catalog.DeliveryEnv: catalog.DeliveryHarnessCI})))
	}
	doc := document.Document{Pipeline: document.Pipeline{
		Name: name, Identifier: id, ProjectIdentifier: scope.ProjectID, OrgIdentifier: scope.OrgID,
		Description: "Runs " + f.Repository + ": preview on pull requests; " + upsDescription(c),
		Tags:        tags,
		Properties:  &document.CIProperties{CI: document.CIProperty{Codebase: document.Codebase{ConnectorRef: connector.Identifier, Build: "<+input>"}}},
		Stages:      stages,
		// The platform team runs this pipeline and approves its ups.
		NotificationRules: notificationRules([]catalog.Team{team}, false),
	}}
	y, err := document.MarshalString(doc)
	if err != nil {
		return nil, fmt.Errorf("CI pipeline: %w", err)
	}
	ci := &CI{Connector: connector, Pipeline: Pipeline{Identifier: id, Name: name, Description: doc.Pipeline.Description, Tags: TagList(tags), YAML: y,
		Needs: []Ref{{KindProject, scope.ProjectID}, {KindGithubConnector, connector.Identifier}}}}
	for _, t := range []struct {
		event, suffix, description string
		actions                    []string
		build                      document.Build
	}{
		{"PullRequest", "pr", "Pull requests to " + MainBranch + ": preview every stack", []string{"Open", "Reopen", "Edit", "Synchronize"},
			document.Build{Type: "PR", Spec: map[string]string{"number": "<+trigger.prNumber>"}}},
		{"Push", "main", "Pushes to " + MainBranch + ": up each environment in chain order", nil,
			document.Build{Type: "branch", Spec: map[string]string{"branch": "<+trigger.branch>"}}},
	} {
		input, err := document.MarshalString(document.CIInputSetDocument{Pipeline: document.CIRuntimeInputs{Identifier: id,
			Properties: document.CIBuildProperties{CI: document.CIBuildProperty{Codebase: document.CodebaseBuild{Build: t.build}}}}})
		if err != nil {
			return nil, err
		}
		tid := ident.Join(id, t.suffix)
		y, err := document.MarshalString(document.TriggerDocument{Trigger: document.Trigger{
			Name: tid, Identifier: tid, Enabled: true, Description: t.description, Tags: tags,
			OrgIdentifier: scope.OrgID, ProjectIdentifier: scope.ProjectID, PipelineIdentifier: id,
			Source: document.TriggerSource{Type: "Webhook", Spec: document.WebhookSource{Type: "Github", Spec: document.GithubEvent{Type: t.event,
				Spec: document.GithubEventSpec{ConnectorRef: connector.Identifier, AutoAbortPreviousExecutions: t.event == "PullRequest",
					PayloadConditions: []document.Condition{{Key: "targetBranch", Operator: "Equals", Value: MainBranch}},
					HeaderConditions:  []document.Condition{}, Actions: t.actions}}}},
			InputYaml: input,
		}})
		if err != nil {
			return nil, err
		}
		ci.Triggers = append(ci.Triggers, Trigger{Identifier: tid, Name: tid, TargetID: id, Tags: TagList(tags), YAML: y,
			Needs: []Ref{{KindPipeline, id}}})
	}
	return ci, nil
}

// upsDescription says which environments the pipeline applies on merge:
// those whose delivery path it is.
func upsDescription(c *catalog.Catalog) string {
	var ours []string
	for _, env := range c.Chain {
		if c.Stacks[env].Delivery == catalog.DeliveryHarnessCI {
			ours = append(ours, env)
		}
	}
	if len(ours) == 0 {
		return "no up (no environment names harness-ci in harness-platform:delivery)"
	}
	return "up on merge, in chain order " + strings.Join(ours, ", ")
}
