package components

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/harness/sdk/platform"
	"github.com/company/harness-platform/plan"
)

// declarePolicies declares a policy and the policy sets that evaluate it,
// in scope, each with opts(its needs); add records each declared object.
func declarePolicies(ctx *pulumi.Context, scope plan.Scope, p plan.Policy, sets []plan.PolicySet,
	opts func([]plan.Ref) []pulumi.ResourceOption, add func(plan.Kind, string, pulumi.Resource)) error {
	org, proj := pulumi.String(scope.OrgID), pulumi.String(scope.ProjectID)
	policy, err := platform.NewPolicy(ctx, p.Identifier, &platform.PolicyArgs{
		Identifier:  pulumi.String(p.Identifier),
		Name:        pulumi.String(p.Name),
		Description: pulumi.String(p.Description),
		OrgId:       org,
		ProjectId:   proj,
		Rego:        pulumi.String(p.Rego),
		Tags:        stringArray(p.Tags),
	}, opts(p.Needs)...)
	if err != nil {
		return err
	}
	add(plan.KindPolicy, p.Identifier, policy)
	for _, s := range sets {
		policies := platform.PolicySetPolicyArray{}
		for _, id := range s.Policies {
			policies = append(policies, platform.PolicySetPolicyArgs{Identifier: pulumi.String(id), Severity: pulumi.String(s.Severity)})
		}
		set, err := platform.NewPolicySet(ctx, s.Identifier, &platform.PolicySetArgs{
			Identifier: pulumi.String(s.Identifier),
			Name:       pulumi.String(s.Name),
			Action:     pulumi.String(s.Action),
			Type:       pulumi.String(s.Type),
			Enabled:    pulumi.Bool(s.Enabled),
			OrgId:      org,
			ProjectId:  proj,
			Policies:   policies,
			Tags:       stringArray(s.Tags),
		}, opts(s.Needs)...)
		if err != nil {
			return err
		}
		add(plan.KindPolicySet, s.Identifier, set)
	}
	return nil
}
