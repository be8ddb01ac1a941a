package components

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/harness/platform"
	"github.com/company/harness-platform/internal/harnessyaml"
	"github.com/company/harness-platform/internal/pipeline"
	"github.com/company/harness-platform/policy/rego"
)

// EnvironmentSliceArgs are the inputs of an EnvironmentSlice.
type EnvironmentSliceArgs struct {
	Stack *catalog.Stack
	Refs  ProjectRefs
}

// EnvironmentSlice is one stack's environment: the Harness environment, and
// per region a Kubernetes connector that inherits its credentials from the
// cluster's delegate and an infrastructure definition. A Production
// environment also owns its change-window policy and policy set, so that a
// change to the window rolls out with the environment it governs.
type EnvironmentSlice struct {
	pulumi.ResourceState

	EnvironmentID   pulumi.StringOutput    `pulumi:"environmentId"`
	Infrastructures pulumi.StringMapOutput `pulumi:"infrastructures"`
	Connectors      pulumi.StringMapOutput `pulumi:"connectors"`
	Delegates       pulumi.StringMapOutput `pulumi:"delegates"`
}

// NewEnvironmentSlice declares the environment slice.
func NewEnvironmentSlice(ctx *pulumi.Context, name string, args *EnvironmentSliceArgs, opts ...pulumi.ResourceOption) (*EnvironmentSlice, error) {
	e := &EnvironmentSlice{}
	if err := ctx.RegisterComponentResource(EnvironmentSliceType, name, e, opts...); err != nil {
		return nil, err
	}
	st := args.Stack
	env := st.Environment
	child := pulumi.Parent(e)
	org, proj := args.Refs.OrgID.ToStringPtrOutput(), args.Refs.ProjectID.ToStringPtrOutput()
	tags := map[string]string{"environment": env.Name, "managed-by": pipeline.ManagedBy}

	environment, err := platform.NewEnvironment(ctx, env.Identifier, &platform.EnvironmentArgs{
		Identifier:  pulumi.String(env.Identifier),
		Name:        pulumi.String(env.Name),
		Description: pulumi.String(env.Description),
		Type:        pulumi.String(env.Type),
		OrgId:       org,
		ProjectId:   proj,
		Tags:        tagList(tags),
	}, child)
	if err != nil {
		return nil, err
	}

	infras, connectors, delegates := pulumi.StringMap{}, pulumi.StringMap{}, pulumi.StringMap{}
	for _, region := range st.RegionNames() {
		delegate := catalog.DelegateName(st, region)
		regionTags := tagList(map[string]string{"environment": env.Name, "region": region, "managed-by": pipeline.ManagedBy})
		connID := catalog.ConnectorIdentifier(st, region)
		conn, err := platform.NewKubernetesConnector(ctx, connID, &platform.KubernetesConnectorArgs{
			Identifier:        pulumi.String(connID),
			Name:              pulumi.String(env.Name + "-" + region),
			Description:       pulumi.String("Cluster " + env.Name + "/" + region + " through delegate " + delegate),
			OrgId:             org,
			ProjectId:         proj,
			DelegateSelectors: pulumi.StringArray{pulumi.String(delegate)},
			InheritFromDelegate: &platform.KubernetesConnectorInheritFromDelegateArgs{
				DelegateSelectors: pulumi.StringArray{pulumi.String(delegate)},
			},
			Tags: regionTags,
		}, child)
		if err != nil {
			return nil, err
		}
		infraID := catalog.InfrastructureIdentifier(st, region)
		body := pulumi.All(args.Refs.resolved(), conn.Identifier, environment.Identifier).ApplyT(func(v []any) (string, error) {
			refs := v[0].(pipeline.Refs)
			y, err := pipeline.Marshal(harnessyaml.BuildInfrastructure(st, region, refs.OrgID, refs.ProjectID))
			return string(y), err
		}).(pulumi.StringOutput)
		infra, err := platform.NewInfrastructure(ctx, infraID, &platform.InfrastructureArgs{
			Identifier:     pulumi.String(infraID),
			Name:           pulumi.String(env.Name + "-" + region),
			EnvId:          environment.Identifier,
			OrgId:          org,
			ProjectId:      proj,
			Type:           pulumi.String("KubernetesDirect"),
			DeploymentType: pulumi.String("Kubernetes"),
			Yaml:           body,
			Tags:           regionTags,
		}, child)
		if err != nil {
			return nil, err
		}
		infras[region] = infra.Identifier
		connectors[region] = conn.Identifier
		delegates[region] = pulumi.String(delegate).ToStringOutput()
	}

	if w := st.ChangeWindow; w != nil {
		policyID := catalog.ChangeWindowPolicy(st)
		policy, err := platform.NewPolicy(ctx, policyID, &platform.PolicyArgs{
			Identifier:  pulumi.String(policyID),
			Name:        pulumi.String("Change window " + env.Name),
			Description: pulumi.String("Deployments to " + env.Name + " run only inside the change window"),
			OrgId:       org,
			ProjectId:   proj,
			Rego:        pulumi.String(rego.ChangeWindow(w)),
			Tags:        tagList(tags),
		}, child)
		if err != nil {
			return nil, err
		}
		setID := catalog.ChangeWindowPolicySet(st)
		if _, err := platform.NewPolicySet(ctx, setID, &platform.PolicySetArgs{
			Identifier: pulumi.String(setID),
			Name:       pulumi.String("Change window " + env.Name),
			Action:     pulumi.String("onstep"),
			Type:       pulumi.String("custom"),
			Enabled:    pulumi.Bool(true),
			OrgId:      org,
			ProjectId:  proj,
			Policies: platform.PolicySetPolicyArray{platform.PolicySetPolicyArgs{
				Identifier: policy.Identifier,
				Severity:   pulumi.String("error"),
			}},
			Tags: tagList(tags),
		}, child); err != nil {
			return nil, err
		}
	}

	e.EnvironmentID = environment.Identifier
	e.Infrastructures = infras.ToStringMapOutput()
	e.Connectors = connectors.ToStringMapOutput()
	e.Delegates = delegates.ToStringMapOutput()
	return e, ctx.RegisterResourceOutputs(e, pulumi.Map{
		"environmentId":   e.EnvironmentID,
		"infrastructures": e.Infrastructures,
		"connectors":      e.Connectors,
		"delegates":       e.Delegates,
	})
}
