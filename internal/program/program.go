// Package program is the Pulumi program: for the current stack it declares
// the foundation (when the stack has no upstream), the environment slice
// and one ServiceDeployment per catalog service enabled there, and exports
// the versioned output contract. main.go and the Automation API run the
// same function.
package program

import (
	"fmt"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/components"
)

// New returns the program for a validated catalog. Validation happens
// before this, so invalid input never reaches the engine.
func New(c *catalog.Catalog) pulumi.RunFunc {
	return func(ctx *pulumi.Context) error { return run(ctx, c) }
}

func run(ctx *pulumi.Context, c *catalog.Catalog) error {
	st, err := c.Stack(ctx.Stack())
	if err != nil {
		return err
	}
	var (
		refs       components.ProjectRefs
		foundation pulumi.Output
		promotion  components.Promotion
		upstream   pulumi.Output = pulumi.ToOutput(nil)
	)
	if st.OwnsFoundation() {
		f, err := components.NewFoundation(ctx, "foundation", &components.FoundationArgs{
			Catalog:     c,
			Stack:       st,
			GithubToken: config.RequireSecret(ctx, catalog.Namespace+":githubToken"),
		})
		if err != nil {
			return err
		}
		refs = components.ProjectRefs{OrgID: f.OrgID, ProjectID: f.ProjectID}
		foundation = pulumi.StringMap{
			FoundationOrgID:           f.OrgID,
			FoundationProjectID:       f.ProjectID,
			FoundationGithubConnector: f.GithubConnectorID,
			FoundationOwnerStack:      pulumi.String(st.Name),
		}.ToStringMapOutput()
	} else {
		ref, err := pulumi.NewStackReference(ctx, st.Upstream, nil)
		if err != nil {
			return fmt.Errorf("reading upstream stack %q: %w", st.Upstream, err)
		}
		contract := ref.Outputs.ApplyT(func(out map[string]any) (upstreamContract, error) {
			return readUpstream(st.Upstream, out)
		})
		field := func(k string) pulumi.StringOutput {
			return contract.ApplyT(func(v any) string { return v.(upstreamContract).Foundation[k] }).(pulumi.StringOutput)
		}
		refs = components.ProjectRefs{OrgID: field(FoundationOrgID), ProjectID: field(FoundationProjectID)}
		// Re-export what was read, so the chain works from its end.
		foundation = contract.ApplyT(func(v any) map[string]string { return v.(upstreamContract).Foundation })
		promotion = components.Promotion{
			UpstreamStack:    st.Upstream,
			UpstreamServices: contract.ApplyT(func(v any) []string { return v.(upstreamContract).Services }).(pulumi.StringArrayOutput),
		}
		upstream = contract.ApplyT(func(v any) map[string]any {
			return map[string]any{"stack": st.Upstream, OutEnvironment: v.(upstreamContract).Env}
		})
	}

	env, err := components.NewEnvironmentSlice(ctx, st.Environment.Identifier, &components.EnvironmentSliceArgs{Stack: st, Refs: refs})
	if err != nil {
		return err
	}
	pipelines, webhooks := pulumi.StringMap{}, pulumi.StringMap{}
	var services, retired []string
	for _, d := range c.Deployments(st) {
		sd, err := components.NewServiceDeployment(ctx, d.Service.Name, &components.ServiceDeploymentArgs{
			Deployment:  d,
			Refs:        refs,
			Promotion:   promotion,
			Environment: env,
		})
		if err != nil {
			return err
		}
		pipelines[d.Service.Name] = sd.PipelineID
		webhooks[d.Service.Name] = sd.WebhookURL
		services = append(services, d.Service.Name)
		if d.Service.Retired {
			retired = append(retired, d.Service.Name)
		}
	}

	ctx.Export(OutContractVersion, pulumi.String(ContractVersion))
	ctx.Export(OutStack, pulumi.String(st.Name))
	ctx.Export(OutFoundation, foundation)
	ctx.Export(OutEnvironment, pulumi.Map{
		"identifier": env.EnvironmentID,
		"name":       pulumi.String(st.Environment.Name),
		"type":       pulumi.String(st.Environment.Type),
		"stack":      pulumi.String(st.Name),
	})
	ctx.Export(OutInfrastructures, env.Infrastructures)
	ctx.Export(OutConnectors, env.Connectors)
	ctx.Export(OutDelegates, env.Delegates)
	ctx.Export(OutPipelines, pipelines)
	ctx.Export(OutWebhooks, webhooks)
	ctx.Export(OutServices, pulumi.ToStringArray(services))
	ctx.Export(OutRetired, pulumi.ToStringArray(retired))
	ctx.Export(OutUpstream, upstream)
	return nil
}
