# The template rules Harness evaluates on every save of a template in the
# project (a policy set of type template, action onsave): the stage rules
# the pipeline rules hold (stage_rules.rego), on a stage template, so a
# template edited in the Harness UI or through the API is refused before
# any pipeline uses it, as a pipeline is on its save and run.
#
# Harness gives the policy the template as input.template (its YAML as
# JSON), as in its template samples
# (developer.harness.io/docs/platform/governance/policy-as-code/policy-as-code-for-templates:
# input.template.spec...). Harness evaluates template policies only in
# accounts with the feature flag OPA_TEMPLATE_GOVERNANCE (harness-core
# GovernanceServiceImpl.evaluateGovernancePoliciesForTemplate; Harness
# Support turns it on): docs/delivery.md, Policy.
#
# Rego v0 syntax, as Harness's samples. The program appends the stage
# rules and the settings.
package template_rules

# A stage template's stage is its spec, named by the template.
stages[stage] {
	input.template.type == "Stage"
	stage := object.union(input.template.spec, {"identifier": input.template.identifier})
}

# The archetype a platform deploy template is for: its identifier is
# deploy_<archetype>_<environment>_<strategy>[_verified].
archetype(stage) := name {
	match := regex.find_all_string_submatch_n(sprintf("^deploy_([a-z0-9_]+)_%s_(rolling|canary)(_verified)?$", [environment(stage)]), input.template.identifier, 1)
	name := match[0][1]
}
