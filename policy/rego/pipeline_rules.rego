# The pipeline rules Harness evaluates itself, on every save and every run
# of a pipeline in the project (two policy sets, actions onsave and onrun,
# type pipeline), so that a pipeline edited in the Harness UI or through the
# API keeps them as well as one this program generates. They are the
# CrossGuard rules no-script-steps and production-pipeline-gates, which only
# see Pulumi runs.
#
# On pipeline events Harness gives the policy the pipeline document as
# input.pipeline (its YAML as JSON), as in Harness's samples
# (developer.harness.io/docs/platform/governance/policy-as-code/sample-policy-use-case:
# "Prevent users from leveraging steps that are not allowed"). The
# program appends the rules' settings as a Rego value:
#   rules = {"productionEnvironments": ["prod"], "changeWindowSets": {"prod": "prod_change_window"},
#            "upstreamEnvironments": {"prod": "pre_stable"}, "platformGroup": "platform_team", "minApprovers": 1,
#            "imageScan": {"failOnSeverity": {"cron": "high"}, "default": "critical"}}
#
# Rego v0 syntax, as Harness's samples. A pipeline it cannot read is denied.
# The program appends the stage rules (stage_rules.rego, shared with the
# template rules) and the settings.
package pipeline_rules

# A test of a value that may be undefined is its own rule: "not" over a
# built-in or a comparison with an undefined operand is not true in OPA.
deny[msg] {
	not has_stages
	msg := "the pipeline has no stages list; a pipeline document has pipeline.stages"
}

# A stage whose template was not applied shows none of what it runs: the
# rules fail closed on it rather than pass what they cannot see.
deny[msg] {
	stage := stages[_]
	stage.template
	not stage.type
	msg := sprintf("stage %s references template %s, which was not applied to it; the rules check a pipeline with its templates applied", [stage.identifier, object.get(stage.template, "templateRef", "")])
}

# A tag reaches Production only in a run that deployed it to the upstream
# environment first: a Pipeline stage before the Production stage runs the
# service's upstream pipeline with this run's imageTag, and the Production
# stage runs only on its success.
deny[msg] {
	stage := production_stages[_]
	upstream := rules.upstreamEnvironments[environment(stage)]
	not tested_first(stage, upstream)
	msg := sprintf("stage %s deploys to Production (%s) without deploying the same image tag to %s first; keep the Pipeline stage that runs %s_%s with imageTag <+pipeline.variables.imageTag> before it, and when: pipelineStatus: Success on it", [stage.identifier, environment(stage), upstream, stage.spec.service.serviceRef, upstream])
}

deny[msg] {
	count(production_stages) > 0
	not stage_executions_disallowed
	msg := "a pipeline that deploys to Production must set allowStageExecutions: false; otherwise a run can pick the Production stage alone"
}

# A Production stage is the platform's deploy-stage template, applied to
# the pipeline's inputs: a copy edited by hand, inline or on another
# template, is refused even when it keeps every gate above. Harness gives
# on-save and on-run policies the pipeline with each template applied and
# its reference kept beside it (stage.template.templateRef: harness-core's
# mergedPipelineYamlWithTemplateRef), so the gates above are checked on
# what runs and this rule on where it comes from.
deny[msg] {
	stage := production_stages[_]
	not platform_template(stage)
	msg := sprintf("stage %s deploys to Production (%s) but is not built from the platform's deploy template (deploy_<archetype>_%s_<strategy>); deploy stages come from the catalog's archetypes: change the archetype, not the pipeline", [stage.identifier, environment(stage), environment(stage)])
}

archetype(stage) := name {
	match := regex.find_all_string_submatch_n(sprintf("^deploy_([a-z0-9_]+)_%s_(rolling|canary)(_verified)?$", [environment(stage)]), stage.template.templateRef, 1)
	name := match[0][1]
}

has_stages {
	is_array(input.pipeline.stages)
}

stages[stage] {
	stage := input.pipeline.stages[_].stage
}

# Stages inside a parallel block.
stages[stage] {
	stage := input.pipeline.stages[_].parallel[_].stage
}

tested_first(stage, upstream) {
	input.pipeline.stages[j].stage == stage
	chained := input.pipeline.stages[i].stage
	i < j
	chained.type == "Pipeline"
	chained.spec.pipeline == sprintf("%s_%s", [stage.spec.service.serviceRef, upstream])
	tag := chained.spec.inputs.variables[_]
	tag.name == "imageTag"
	tag.value == "<+pipeline.variables.imageTag>"
	stage.when.pipelineStatus == "Success"
}

platform_template(stage) {
	regex.match(sprintf("^deploy_[a-z0-9_]+_%s_(rolling|canary)(_verified)?$", [environment(stage)]), stage.template.templateRef)
}

stage_executions_disallowed {
	input.pipeline.allowStageExecutions == false
}
