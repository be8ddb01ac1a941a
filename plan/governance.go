package plan

import (
	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/ident"
	"github.com/company/harness-platform/policy/rego"
)

// PipelineRules is the policy Harness evaluates on every save and every run
// of a pipeline in the project, and its policy sets (one per action: a
// policy set has one action). The CrossGuard pack holds the same rules for
// Pulumi runs; these hold for a pipeline edited in the Harness UI or
// through the API.
// developer.harness.io/docs/platform/governance/policy-as-code/harness-governance-overview
type PipelineRules struct {
	Policy Policy
	Sets   []PolicySet
	// Template and TemplateSet are the same stage rules on every template
	// of the project, evaluated when one is saved (a policy set of type
	// template, action onsave; Harness evaluates it where the account has
	// the feature flag OPA_TEMPLATE_GOVERNANCE). A template edited in the
	// Harness UI is refused on save, before any pipeline runs it.
	// developer.harness.io/docs/platform/governance/policy-as-code/policy-as-code-for-templates
	Template    Policy
	TemplateSet PolicySet
}

// PipelineRuleActions are the pipeline events the rules are evaluated on.
var PipelineRuleActions = []string{"onsave", "onrun"}

func buildPipelineRules(c *catalog.Catalog, tags []string, needs []Ref) *PipelineRules {
	platform, _ := c.Team(c.PlatformTeam)
	settings := rego.PipelineRulesSettings{PlatformGroup: platform.UserGroup, ChangeWindowSets: map[string]string{}, UpstreamEnvironments: map[string]string{},
		ImageScan: rego.ImageScanRules{FailOnSeverity: map[string]string{}, Default: catalog.DefaultFailOnSeverity}}
	for _, a := range c.Archetypes {
		settings.ImageScan.FailOnSeverity[ident.From(a.Name)] = a.FailOnSeverity
	}
	for _, name := range c.Chain {
		st := c.Stacks[name]
		if !st.IsProduction() {
			continue
		}
		env := st.Environment.Identifier
		settings.ProductionEnvironments = append(settings.ProductionEnvironments, env)
		if st.Upstream != "" {
			settings.UpstreamEnvironments[env] = c.Stacks[st.Upstream].Environment.Identifier
		}
		if st.ChangeWindow != nil {
			settings.ChangeWindowSets[env] = ident.ChangeWindowPolicySet(env)
		}
		// Every approval step needs at least what the laxest Production
		// environment asks of one group.
		for _, n := range []int{st.Approval.TeamApprovals, st.Approval.PlatformApprovals} {
			if settings.MinApprovers == 0 || n < settings.MinApprovers {
				settings.MinApprovers = n
			}
		}
	}
	r := &PipelineRules{Policy: Policy{
		Identifier: ident.PipelineRulesPolicy,
		Name:       "Pipeline rules",
		Description: "Every pipeline of the project: no script steps outside CI stages; Production stages scan their image before the rollout, " +
			"keep the team's and the platform team's approvals, the change-window step and rollback steps, and run after the same tag deployed upstream",
		Rego:  rego.PipelineRules(settings),
		Tags:  tags,
		Needs: needs,
	}}
	r.Template = Policy{
		Identifier:  ident.TemplateRulesPolicy,
		Name:        "Template rules",
		Description: "Every stage template of the project, on save: the stage rules of the pipeline rules",
		Rego:        rego.TemplateRules(settings),
		Tags:        tags,
		Needs:       needs,
	}
	r.TemplateSet = PolicySet{
		Identifier: ident.TemplateRulesPolicySet,
		Name:       "Template rules onsave",
		Action:     "onsave",
		Type:       "template",
		Enabled:    true,
		Policies:   []string{ident.TemplateRulesPolicy},
		Severity:   "error",
		Tags:       tags,
		Needs:      []Ref{{KindPolicy, ident.TemplateRulesPolicy}},
	}
	for _, action := range PipelineRuleActions {
		r.Sets = append(r.Sets, PolicySet{
			Identifier: ident.PipelineRulesPolicySet(action),
			Name:       "Pipeline rules " + action,
			Action:     action,
			Type:       "pipeline",
			Enabled:    true,
			Policies:   []string{ident.PipelineRulesPolicy},
			Severity:   "error",
			Tags:       tags,
			Needs:      []Ref{{KindPolicy, ident.PipelineRulesPolicy}},
		})
	}
	return r
}
