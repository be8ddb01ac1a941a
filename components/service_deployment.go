package components

import (
	"fmt"
	"slices"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/harness/platform"
	"github.com/company/harness-platform/internal/pipeline"
)

// Promotion is what a downstream stack knows of its upstream: its name and
// the services deployed there. The zero value means "no upstream".
type Promotion struct {
	UpstreamStack    string
	UpstreamServices pulumi.StringArrayOutput
}

// ServiceDeploymentArgs are the inputs of a ServiceDeployment.
type ServiceDeploymentArgs struct {
	Deployment catalog.Deployment
	Refs       ProjectRefs
	Promotion  Promotion
	// Environment is the environment the pipeline deploys to; the pipeline
	// depends on it (and on the infrastructures) being there.
	Environment *EnvironmentSlice
}

// ServiceDeployment is one catalog service in one environment: its pipeline
// and the custom webhook trigger that starts it.
type ServiceDeployment struct {
	pulumi.ResourceState

	PipelineID pulumi.StringOutput `pulumi:"pipelineId"`
	TriggerID  pulumi.StringOutput `pulumi:"triggerId"`
	WebhookURL pulumi.StringOutput `pulumi:"webhookUrl"`
}

// NewServiceDeployment declares the pipeline and trigger of a deployment.
func NewServiceDeployment(ctx *pulumi.Context, name string, args *ServiceDeploymentArgs, opts ...pulumi.ResourceOption) (*ServiceDeployment, error) {
	sd := &ServiceDeployment{}
	if err := ctx.RegisterComponentResource(ServiceDeploymentType, name, sd, opts...); err != nil {
		return nil, err
	}
	d := args.Deployment
	child := []pulumi.ResourceOption{pulumi.Parent(sd)}
	if args.Environment != nil {
		child = append(child, pulumi.DependsOn([]pulumi.Resource{args.Environment}))
	}

	refs := args.Refs.resolved()
	promoted := pulumi.ToOutput(true)
	if p := args.Promotion; p.UpstreamStack != "" {
		promoted = p.UpstreamServices.ApplyT(func(upstream []string) (bool, error) {
			return checkPromotion(ctx, d, p.UpstreamStack, upstream)
		})
	}
	rendered := pulumi.All(refs, promoted).ApplyT(func(v []any) (pipeline.Rendered, error) {
		return pipeline.Render(d, v[0].(pipeline.Refs))
	})
	pipelineYAML := rendered.ApplyT(func(r any) string { return string(r.(pipeline.Rendered).PipelineYAML) }).(pulumi.StringOutput)
	triggerYAML := rendered.ApplyT(func(r any) string { return string(r.(pipeline.Rendered).TriggerYAML) }).(pulumi.StringOutput)
	tags := tagList(pipeline.Tags(d))

	pipelineID := catalog.PipelineIdentifier(d.Service, d.Stack)
	p, err := platform.NewPipeline(ctx, pipelineID, &platform.PipelineArgs{
		Identifier:  pulumi.String(pipelineID),
		Name:        pulumi.String(pipeline.PipelineName(d)),
		Description: pulumi.String(fmt.Sprintf("Deploys %s to %s", d.Service.Name, d.Stack.Environment.Name)),
		OrgId:       args.Refs.OrgID,
		ProjectId:   args.Refs.ProjectID,
		Tags:        tags,
		Yaml:        pipelineYAML,
	}, child...)
	if err != nil {
		return nil, err
	}
	triggerID := catalog.TriggerIdentifier(d.Service, d.Stack)
	t, err := platform.NewTriggers(ctx, triggerID, &platform.TriggersArgs{
		Identifier: pulumi.String(triggerID),
		Name:       pulumi.String(pipeline.PipelineName(d) + "-webhook"),
		OrgId:      args.Refs.OrgID,
		ProjectId:  args.Refs.ProjectID,
		TargetId:   p.Identifier,
		Tags:       tags,
		Yaml:       triggerYAML,
	}, child...)
	if err != nil {
		return nil, err
	}

	sd.PipelineID = p.Identifier
	sd.TriggerID = t.Identifier
	sd.WebhookURL = t.WebhookUrl
	return sd, ctx.RegisterResourceOutputs(sd, pulumi.Map{
		"pipelineId": sd.PipelineID,
		"triggerId":  sd.TriggerID,
		"webhookUrl": sd.WebhookURL,
	})
}

// checkPromotion enforces that a service reaches an environment only after
// its upstream environment has it: an error on up, a warning on preview, so
// that an onboarding pull request still previews cleanly everywhere.
func checkPromotion(ctx *pulumi.Context, d catalog.Deployment, upstream string, deployed []string) (bool, error) {
	if slices.Contains(deployed, d.Service.Name) {
		return true, nil
	}
	msg := fmt.Sprintf("service %q is not deployed in upstream stack %q yet; run `pulumi up --stack %s` first (services are promoted through the chain)",
		d.Service.Name, upstream, upstream)
	if ctx.DryRun() {
		if err := ctx.Log.Warn(msg, nil); err != nil {
			return false, err
		}
		return false, nil
	}
	return false, fmt.Errorf("promotion check failed: %s", msg)
}
