# The rules of one stage: the pipeline rules (pipeline_rules.rego) and the
# template rules (template_rules.rego) are each their document's part (how
# it finds its stages: stages, and the archetype a stage is for:
# archetype) followed by these and the settings (rules), one policy text
# each: Harness evaluates every policy on its own, so they share text, not
# an import. No package line: the part before gives it.

# Steps that run arbitrary commands. A CI stage runs them by nature (it
# builds, on the build infrastructure, and deploys nothing).
script_steps := {"ShellScript", "ShellScriptProvision", "Run", "Background", "Container", "Plugin"}

deny[msg] {
	stage := stages[_]
	stage.type != "CI"
	step := all_steps(stage)[_]
	script_steps[step.type]
	msg := sprintf("stage %s: step %s is a %s step; deployment pipelines may not run scripts: use a Harness step type, or change the archetype in the catalog", [stage.identifier, step.identifier, step.type])
}

deny[msg] {
	stage := production_stages[_]
	not has_team_approval(stage)
	msg := sprintf("stage %s deploys to Production (%s) without an approval step of the owning team's group; add a HarnessApproval step", [stage.identifier, environment(stage)])
}

deny[msg] {
	stage := production_stages[_]
	not has_platform_approval(stage)
	msg := sprintf("stage %s deploys to Production (%s) without an approval step of the platform group %s; add a HarnessApproval step", [stage.identifier, environment(stage), rules.platformGroup])
}

deny[msg] {
	stage := production_stages[_]
	step := approvals(stage)[_]
	not executor_excluded(step)
	msg := sprintf("stage %s: approval step %s lets the pipeline's executor approve; set approvers.disallowPipelineExecutor: true", [stage.identifier, step.identifier])
}

deny[msg] {
	stage := production_stages[_]
	step := approvals(stage)[_]
	not enough_approvers(step)
	msg := sprintf("stage %s: approval step %s needs approvers.minimumCount of at least %d", [stage.identifier, step.identifier, rules.minApprovers])
}

deny[msg] {
	stage := production_stages[_]
	not has_change_window(stage)
	msg := sprintf("stage %s deploys to Production (%s) without the change-window Policy step; add a Policy step with the policy set %s", [stage.identifier, environment(stage), object.get(rules.changeWindowSets, environment(stage), "of the environment")])
}

deny[msg] {
	stage := production_stages[_]
	count(steps(stage, "rollbackSteps")) == 0
	msg := sprintf("stage %s deploys to Production (%s) without rollback steps; add rollbackSteps", [stage.identifier, environment(stage)])
}

# The image scan gate: before the rollout, a Production stage scans the
# image it deploys (the service's primary artifact as the run resolved
# it) with a Harness STO scanner step that fails on the archetype's
# severity or a lower one (its threshold stricter), and a failed scan
# stops the run. The archetype is the one the stage's deploy template
# names (deploy_<archetype>_<env>_<strategy>); a stage on no platform
# template is held to the default. docs/delivery.md, The image scan gate.
deny[msg] {
	stage := production_stages[_]
	count(scans(stage)) == 0
	msg := sprintf("stage %s deploys to Production (%s) without scanning its image first; keep the platform's image scan before the rollout (a Harness STO Wiz step in a containerized step group, scanning %s:%s and failing on %s): deploy stages come from the catalog's archetypes", [stage.identifier, environment(stage), image_path, image_tag, required_severity(stage)])
}

deny[msg] {
	stage := production_stages[_]
	not gated(stage)
	scan := scans(stage)[_]
	problem := scan_problems(stage, scan)[_]
	msg := sprintf("stage %s deploys to Production (%s), and its image scan step %s %s", [stage.identifier, environment(stage), scan.step.identifier, problem])
}

# The STO scanner steps Harness's pipeline schema accepts in a Deployment
# stage that scan an image themselves (Custom Ingest only reads a file).
scan_types := {"Wiz"}

# The steps that change what runs in the cluster.
rollout_types := {"K8sRollingDeploy", "K8sCanaryDeploy", "K8sBlueGreenDeploy", "K8sApply", "HelmDeploy"}

# Harness STO's fail_on_severity, the laxest first; none never fails.
severity_rank := {"critical": 1, "high": 2, "medium": 3, "low": 4}

# Failure strategies under which a failed scan would not stop the stage.
ignoring_failure := {"Ignore", "MarkAsSuccess"}

image_path := "<+artifacts.primary.imagePath>"

image_tag := "<+artifacts.primary.tag>"

gated(stage) {
	scan := scans(stage)[_]
	count(scan_problems(stage, scan)) == 0
}

# scans are a stage's scanner steps, each with the position of the element
# of execution.steps that holds it (a step, a step group, a parallel block)
# and the step groups around it.
scans(stage) := {{"at": i, "step": node.step, "groups": enclosing(element, path)} |
	element := stage.spec.execution.steps[i]
	walk(element, [path, node])
	is_object(node.step)
	scan_types[node.step.type]
}

rollouts(stage) := {{"at": i, "step": node.step} |
	element := stage.spec.execution.steps[i]
	walk(element, [path, node])
	is_object(node.step)
	rollout_types[node.step.type]
}

enclosing(element, path) := [group |
	path[k] == "stepGroup"
	group := object.get(element, array.slice(path, 0, k + 1), {})
]

scan_problems(stage, scan) := ((((target_problems(scan) | severity_problems(stage, scan)) | order_problems(stage, scan)) | failure_problems(scan)) | condition_problems(scan))

target_problems(scan) := {p |
	not scans_deployed_image(scan.step)
	p := sprintf("does not scan the image the stage deploys; set spec.mode: orchestration, spec.target type: container, name: %s, variant: %s, and spec.image name: %s, tag: %s", [image_path, image_tag, image_path, image_tag])
}

scans_deployed_image(step) {
	step.spec.mode == "orchestration"
	step.spec.target.type == "container"
	step.spec.target.name == image_path
	step.spec.target.variant == image_tag
	step.spec.image.name == image_path
	step.spec.image.tag == image_tag
}

severity_problems(stage, scan) := {p |
	required := required_severity(stage)
	not strict_enough(scan.step, required)
	p := sprintf("fails on %v, and the archetype's scan fails on %s; set spec.advanced.fail_on_severity: %s (or a lower severity: the catalog's archetypes.yaml imageScan sets it)", [object.get(scan.step, ["spec", "advanced", "fail_on_severity"], "nothing"), required, required])
}

strict_enough(step, required) {
	severity_rank[step.spec.advanced.fail_on_severity] >= severity_rank[required]
}

order_problems(stage, scan) := {p |
	late := sort([rollout.step.identifier | rollout := rollouts(stage)[_]; rollout.at <= scan.at])
	count(late) > 0
	p := sprintf("does not run before the rollout (%s); move the scan before the rollout steps", [concat(", ", late)])
}

failure_problems(scan) := {p |
	holder := array.concat([scan.step], scan.groups)[_]
	strategy := holder.failureStrategies[_]
	ignoring_failure[strategy.onFailure.action.type]
	p := sprintf("would not stop the run: %s has failure strategy %s; a failed scan must fail the stage (Abort)", [holder.identifier, strategy.onFailure.action.type])
}

condition_problems(scan) := {p |
	holder := array.concat([scan.step], scan.groups)[_]
	holder.when
	p := sprintf("may be skipped: %s has a when condition; the scan must run on every deployment", [holder.identifier])
}

# required_severity is what the stage's archetype's scan fails on.
required_severity(stage) = severity {
	severity := rules.imageScan.failOnSeverity[archetype(stage)]
} else = rules.imageScan.default {
	true
}

environment(stage) := stage.spec.environment.environmentRef

production_stages[stage] {
	stage := stages[_]
	stage.type == "Deployment"
	rules.productionEnvironments[_] == environment(stage)
}

# steps lists the steps of one list of a stage's execution, through
# parallel blocks and step groups.
steps(stage, list) := {step |
	walk(stage.spec.execution[list], [_, node])
	step := node.step
	is_object(step)
}

all_steps(stage) := steps(stage, "steps") | steps(stage, "rollbackSteps")

approvals(stage) := {step |
	step := steps(stage, "steps")[_]
	step.type == "HarnessApproval"
}

has_platform_approval(stage) {
	platform_step(approvals(stage)[_])
}

# A step that lists the platform group is the platform's, whatever else it
# lists: Harness counts a step's minimumCount across all its groups, so two
# platform members would pass it alone.
has_team_approval(stage) {
	step := approvals(stage)[_]
	count(step.spec.approvers.userGroups) > 0
	not platform_step(step)
}

platform_step(step) {
	step.spec.approvers.userGroups[_] == rules.platformGroup
}

has_change_window(stage) {
	step := steps(stage, "steps")[_]
	step.type == "Policy"
	step.spec.policySets[_] == rules.changeWindowSets[environment(stage)]
}

executor_excluded(step) {
	step.spec.approvers.disallowPipelineExecutor == true
}

enough_approvers(step) {
	step.spec.approvers.minimumCount >= rules.minApprovers
}
