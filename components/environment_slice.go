package components

import (
	"maps"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/harness/sdk/platform"
	"github.com/company/harness-platform/plan"
)

// EnvironmentSliceArgs are the inputs of an EnvironmentSlice.
type EnvironmentSliceArgs struct {
	Scope        plan.Scope
	Environment  plan.Environment
	Clusters     []plan.Cluster
	Prometheus   *plan.PrometheusConnector
	ChangeWindow *plan.ChangeWindow
	// Templates are the environment's deploy-stage templates, which its
	// service stacks' pipelines reference.
	Templates []plan.StageTemplate
	// Selectors are the delegates' selectors by delegate name, from the
	// Delegate components: a connector waits for its delegate.
	Selectors map[string]pulumi.StringOutput
	// Needs resolves what the slice's objects need outside it (the
	// foundation's project, in the root stack).
	Needs Resources
}

// EnvironmentSlice is one stack's environment: the Harness environment, and
// per region a Kubernetes connector that inherits its credentials from the
// cluster's delegate and an infrastructure definition, and the Prometheus
// connector of its monitored services. A Production
// environment also owns its change-window policy and policy set, so that a
// change to the window rolls out with the environment it governs; and
// the deploy-stage templates of the environment's pipelines, so that an
// archetype's change rolls out environment by environment too.
type EnvironmentSlice struct {
	pulumi.ResourceState

	// Resources are the declared objects, for what other objects need.
	Resources Resources
}

// NewEnvironmentSlice declares the environment slice.
func NewEnvironmentSlice(ctx *pulumi.Context, name string, args *EnvironmentSliceArgs, opts ...pulumi.ResourceOption) (*EnvironmentSlice, error) {
	e := &EnvironmentSlice{Resources: Resources{}}
	if err := ctx.RegisterComponentResource(EnvironmentSliceType, name, e, opts...); err != nil {
		return nil, err
	}
	// What the slice's objects need: what it was given and what it declares.
	res := maps.Clone(args.Needs)
	if res == nil {
		res = Resources{}
	}
	declared := func(kind plan.Kind, id string, r pulumi.Resource) {
		res.add(kind, id, r)
		e.Resources.add(kind, id, r)
	}
	child := func(needs []plan.Ref) []pulumi.ResourceOption {
		return []pulumi.ResourceOption{pulumi.Parent(e), res.dependsOn(needs)}
	}
	org, proj := pulumi.String(args.Scope.OrgID), pulumi.String(args.Scope.ProjectID)
	env := args.Environment
	environment, err := platform.NewEnvironment(ctx, env.Identifier, &platform.EnvironmentArgs{
		Identifier:  pulumi.String(env.Identifier),
		Name:        pulumi.String(env.Name),
		Description: pulumi.String(env.Description),
		Type:        pulumi.String(env.Type),
		OrgId:       org,
		ProjectId:   proj,
		Tags:        stringArray(env.Tags),
	}, child(env.Needs)...)
	if err != nil {
		return nil, err
	}
	declared(plan.KindEnvironment, env.Identifier, environment)
	for _, c := range args.Clusters {
		k := c.Connector
		conn, err := platform.NewKubernetesConnector(ctx, k.Identifier, &platform.KubernetesConnectorArgs{
			Identifier:  pulumi.String(k.Identifier),
			Name:        pulumi.String(k.Name),
			Description: pulumi.String(k.Description),
			OrgId:       org,
			ProjectId:   proj,
			// Credentials come from the delegate's service account: the
			// selectors live in inheritFromDelegate only (the provider
			// refuses the top-level delegateSelectors beside it).
			InheritFromDelegate: &platform.KubernetesConnectorInheritFromDelegateArgs{
				DelegateSelectors: selectors(k.DelegateSelectors, args.Selectors),
			},
			Tags: stringArray(k.Tags),
		}, child(k.Needs)...)
		if err != nil {
			return nil, err
		}
		declared(plan.KindKubernetesConnector, k.Identifier, conn)
		i := c.Infrastructure
		infra, err := platform.NewInfrastructure(ctx, i.Identifier, &platform.InfrastructureArgs{
			Identifier:     pulumi.String(i.Identifier),
			Name:           pulumi.String(i.Name),
			EnvId:          pulumi.String(i.EnvID),
			OrgId:          org,
			ProjectId:      proj,
			Type:           pulumi.String(i.Type),
			DeploymentType: pulumi.String(i.DeploymentType),
			Yaml:           pulumi.String(i.YAML),
			Tags:           stringArray(i.Tags),
		}, child(i.Needs)...)
		if err != nil {
			return nil, err
		}
		declared(plan.KindInfrastructure, i.Identifier, infra)
	}
	if pc := args.Prometheus; pc != nil {
		conn, err := platform.NewPrometheusConnector(ctx, pc.Identifier, &platform.PrometheusConnectorArgs{
			Identifier:  pulumi.String(pc.Identifier),
			Name:        pulumi.String(pc.Name),
			Description: pulumi.String(pc.Description),
			OrgId:       org,
			ProjectId:   proj,
			Url:         pulumi.String(pc.URL),
			Tags:        stringArray(pc.Tags),
		}, child(pc.Needs)...)
		if err != nil {
			return nil, err
		}
		declared(plan.KindPrometheusConnector, pc.Identifier, conn)
	}
	if w := args.ChangeWindow; w != nil {
		if err := declarePolicies(ctx, args.Scope, w.Policy, []plan.PolicySet{w.PolicySet}, child, declared); err != nil {
			return nil, err
		}
	}
	// One resource per template version, named by it, saved stable: a
	// new version is created (and made stable) before the old one is
	// deleted, and pipelines, which reference the stable version, follow
	// it without being written. A version whose runtime inputs differ is
	// saved non-stable beside the stable one until every pipeline pins
	// it (plan.TemplateVersions); making it stable is an update of it.
	// Harness then unmarks the previous stable version, which is deleted
	// in the same update.
	for _, t := range args.Templates {
		tmpl, err := platform.NewTemplate(ctx, t.Identifier+"-"+t.Version, &platform.TemplateArgs{
			Identifier: pulumi.String(t.Identifier),
			Name:       pulumi.String(t.Name),
			Version:    pulumi.String(t.Version),
			IsStable:   pulumi.Bool(!t.Candidate),
			OrgId:      org,
			ProjectId:  proj,
			// Its tags are in TemplateYaml: the provider neither sends
			// nor reads the resource's tags (plan.StageTemplate).
			TemplateYaml: pulumi.String(t.YAML),
			GitDetails:   &platform.TemplateGitDetailsArgs{StoreType: pulumi.String(plan.StoreType)},
			Comments:     pulumi.String("generated by harness-platform from the catalog's archetypes"),
		}, child(t.Needs)...)
		if err != nil {
			return nil, err
		}
		if !t.Candidate {
			declared(plan.KindTemplate, t.Identifier, tmpl)
		}
	}
	return e, ctx.RegisterResourceOutputs(e, pulumi.Map{})
}

// selectors are the planned delegate selectors, each the Delegate's output
// where this stack declares that delegate.
func selectors(names []string, declared map[string]pulumi.StringOutput) pulumi.StringArray {
	out := make(pulumi.StringArray, len(names))
	for i, n := range names {
		if s, ok := declared[n]; ok {
			out[i] = s
		} else {
			out[i] = pulumi.String(n)
		}
	}
	return out
}
