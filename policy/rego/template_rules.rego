# The template rules of the project's template policy set (type
# template, action onsave): the stage rules the pipeline rules hold
# (stage_rules.rego), on a stage template, so a template edited in the
# Harness UI is refused before any pipeline uses it, where Harness's
# template service evaluates template sets (enableOpaEvaluation). Saves
# through the provider's OpenAPI template endpoints are never evaluated
# (harness-core TemplateResourceApiHelper): CrossGuard gates those
# (docs/delivery.md, Policy).
#
# Harness gives the policy the template as input.template (its YAML as
# JSON), as in its template samples
# (developer.harness.io/docs/platform/governance/policy-as-code/policy-as-code-for-templates:
# input.template.spec...).
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
