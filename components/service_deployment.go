package components

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/harness/platform"
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

// ServiceDeployment is one catalog service in one environment: its pipeline,
// the custom webhook trigger that starts it, and, when it verifies, the
// monitored service its Verify steps analyse.
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
	pp := d.Pipeline
	p, err := platform.NewPipeline(ctx, pp.Identifier, &platform.PipelineArgs{
		Identifier:  pulumi.String(pp.Identifier),
		Name:        pulumi.String(pp.Name),
		Description: pulumi.String(pp.Description),
		OrgId:       org,
		ProjectId:   proj,
		Tags:        stringArray(pp.Tags),
		Yaml:        pulumi.String(pp.YAML),
	}, pulumi.Parent(sd), pulumi.DependsOn(append(args.Needs.lookup(pp.Needs), own.lookup(pp.Needs)...)), pulumi.Protect(d.Protected))
	if err != nil {
		return nil, err
	}
	own.add(plan.KindPipeline, pp.Identifier, p)
	tp := d.Trigger
	t, err := platform.NewTriggers(ctx, tp.Identifier, &platform.TriggersArgs{
		Identifier: pulumi.String(tp.Identifier),
		Name:       pulumi.String(tp.Name),
		OrgId:      org,
		ProjectId:  proj,
		TargetId:   pulumi.String(tp.TargetID),
		Tags:       stringArray(tp.Tags),
		Yaml:       pulumi.String(tp.YAML),
	}, pulumi.Parent(sd), own.dependsOn(tp.Needs), pulumi.Protect(d.Protected))
	if err != nil {
		return nil, err
	}
	sd.WebhookURL = t.WebhookUrl
	return sd, ctx.RegisterResourceOutputs(sd, pulumi.Map{"webhookUrl": sd.WebhookURL})
}
