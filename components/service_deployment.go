package components

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/harness/sdk/platform"
	"github.com/company/harness-platform/plan"
)

// ServiceDeploymentArgs are the inputs of a ServiceDeployment.
type ServiceDeploymentArgs struct {
	Scope      plan.Scope
	Deployment plan.Deployment
	// Needs resolves what the pipeline needs in this stack: its service
	// (in the root stack), environment, infrastructures, policy set.
	Needs Resources
}

// ServiceDeployment is one catalog service in one environment: the Values
// file of its manifests here, its pipeline, the custom webhook trigger that
// starts it, and, when it verifies, the monitored service its Verify steps
// analyse.
type ServiceDeployment struct {
	pulumi.ResourceState

	// WebhookURL is where a build calls the trigger; Harness computes it.
	WebhookURL pulumi.StringOutput `pulumi:"webhookUrl"`
}

// NewServiceDeployment declares the pipeline and trigger of a deployment.
func NewServiceDeployment(ctx *pulumi.Context, name string, args *ServiceDeploymentArgs, opts ...pulumi.ResourceOption) (*ServiceDeployment, error) {
	sd := &ServiceDeployment{}
	if err := ctx.RegisterComponentResource(ServiceDeploymentType, name, sd, opts...); err != nil {
		return nil, err
	}
	org, proj := pulumi.String(args.Scope.OrgID), pulumi.String(args.Scope.ProjectID)
	d := args.Deployment
	// What the pipeline needs: what it was given (shared by every
	// deployment, so never copied) and its own monitored service.
	own := Resources{}
	v := d.Values
	file, err := platform.NewFileStoreFile(ctx, v.Identifier, &platform.FileStoreFileArgs{
		Identifier:       pulumi.String(v.Identifier),
		Name:             pulumi.String(v.Name),
		Description:      pulumi.String(v.Description),
		OrgId:            org,
		ProjectId:        proj,
		ParentIdentifier: pulumi.String(v.Parent),
		Content:          pulumi.String(v.Content),
		MimeType:         pulumi.String(v.MimeType),
		FileUsage:        pulumi.String(v.Usage),
		Tags:             stringArray(v.Tags),
	}, pulumi.Parent(sd), args.Needs.dependsOn(v.Needs))
	if err != nil {
		return nil, err
	}
	own.add(plan.KindFile, v.Identifier, file)
	if m := d.Monitored; m != nil {
		ms, err := platform.NewMonitoredService(ctx, m.Identifier, &platform.MonitoredServiceArgs{
			Identifier: pulumi.String(m.Identifier),
			OrgId:      org,
			ProjectId:  proj,
			Request: &platform.MonitoredServiceRequestArgs{
				Name:           pulumi.String(m.Name),
				Description:    pulumi.String(m.Description),
				Type:           pulumi.String(m.Type),
				ServiceRef:     pulumi.String(m.ServiceRef),
				EnvironmentRef: pulumi.String(m.EnvironmentRef),
				Tags:           stringArray(m.Tags),
				HealthSources: platform.MonitoredServiceRequestHealthSourceArray{platform.MonitoredServiceRequestHealthSourceArgs{
					Identifier: pulumi.String(m.HealthSource.Identifier),
					Name:       pulumi.String(m.HealthSource.Name),
					Type:       pulumi.String(m.HealthSource.Type),
					Spec:       pulumi.String(m.HealthSource.Spec),
				}},
			},
		}, pulumi.Parent(sd), args.Needs.dependsOn(m.Needs))
		if err != nil {
			return nil, err
		}
		own.add(plan.KindMonitoredService, m.Identifier, ms)
	}
	pp, tp := d.Pipeline, d.Trigger
	p, err := newPipeline(ctx, pp, args.Scope, pulumi.Parent(sd), pulumi.DependsOn(append(args.Needs.lookup(pp.Needs), own.lookup(pp.Needs)...)), pulumi.Protect(d.Protected))
	if err != nil {
		return nil, err
	}
	own.add(plan.KindPipeline, pp.Identifier, p)
	t, err := newTrigger(ctx, tp, args.Scope, pulumi.Parent(sd), own.dependsOn(tp.Needs), pulumi.Protect(d.Protected))
	if err != nil {
		return nil, err
	}
	sd.WebhookURL = t.WebhookUrl
	return sd, ctx.RegisterResourceOutputs(sd, pulumi.Map{"webhookUrl": sd.WebhookURL})
}

// newPipeline declares a planned pipeline in scope.
func newPipeline(ctx *pulumi.Context, p plan.Pipeline, scope plan.Scope, opts ...pulumi.ResourceOption) (*platform.Pipeline, error) {
	return platform.NewPipeline(ctx, p.Identifier, &platform.PipelineArgs{
		Identifier:  pulumi.String(p.Identifier),
		Name:        pulumi.String(p.Name),
		Description: pulumi.String(p.Description),
		OrgId:       pulumi.String(scope.OrgID),
		ProjectId:   pulumi.String(scope.ProjectID),
		Tags:        stringArray(p.Tags),
		Yaml:        pulumi.String(p.YAML),
		// Saved in Harness, never in Git: said, not left to the account's
		// default_store_type_for_entities (plan.StoreType).
		GitDetails: &platform.PipelineGitDetailsArgs{StoreType: pulumi.String(plan.StoreType)},
	}, opts...)
}

// newTrigger declares a planned trigger of a pipeline in scope.
func newTrigger(ctx *pulumi.Context, t plan.Trigger, scope plan.Scope, opts ...pulumi.ResourceOption) (*platform.Triggers, error) {
	return platform.NewTriggers(ctx, t.Identifier, &platform.TriggersArgs{
		Identifier: pulumi.String(t.Identifier),
		Name:       pulumi.String(t.Name),
		OrgId:      pulumi.String(scope.OrgID),
		ProjectId:  pulumi.String(scope.ProjectID),
		TargetId:   pulumi.String(t.TargetID),
		Tags:       stringArray(t.Tags),
		Yaml:       pulumi.String(t.YAML),
	}, opts...)
}
