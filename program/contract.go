package program

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/plan"
)

// ContractVersion is the version of the outputs every stack exports.
// Downstream stacks refuse an upstream with another version: bump it on any
// change that removes or renames an output (see docs/contributing.md, "Output contract").
//
// Version 2: environments are split into a platform stack and service
// stacks; pipelines, webhooks, services and retired are the service
// stacks' (empty on a platform stack), and a platform stack exports its
// clusters' kubeconfigs and its service stacks.
const ContractVersion = "2"

// Output names of the contract.
const (
	OutContractVersion = "contractVersion"
	OutStack           = "stack"
	OutFoundation      = "foundation"
	OutEnvironment     = "environment"
	OutInfrastructures = "infrastructures"
	OutConnectors      = "connectors"
	OutDelegates       = "delegates"
	OutPipelines       = "pipelines"
	OutWebhooks        = "webhooks"
	OutServices        = "services"
	OutRetired         = "retired"
	OutUpstream        = "upstream"
	// OutKubeconfigs (platform stacks) are the clusters' kubeconfigs by
	// region, a secret: what the service stacks reach them with.
	OutKubeconfigs = "kubeconfigs"
	// OutKubernetesVersions (platform stacks with EKS clusters) are the
	// Kubernetes versions of the clusters by region, read back by the
	// next run to refuse an upgrade EKS would refuse.
	OutKubernetesVersions = "kubernetesVersions"
	// OutServiceStacks (platform stacks) lists the environment's service
	// stacks; OutPlatform (service stacks) names the platform stack.
	OutServiceStacks = "serviceStacks"
	// OutDelegateTokens (platform stacks) names, by delegate, the token
	// its pods run with: the credentials stack keeps a token until no
	// delegate runs with it. Names only, not secrets.
	OutDelegateTokens = "delegateTokens"
	OutPlatform       = "platform"
	// OutTemplates (platform stacks) are the deploy-stage template
	// versions the stack declares: the stable one by identifier, one
	// saved non-stable (in flight) by "identifier@version"; each one's
	// version, name, tags and YAML. The service stacks pin their
	// pipelines to a version in flight, and the next run keeps a
	// version while a service stack's pipelines still use it
	// (plan.TemplateVersions).
	OutTemplates = "templates"
	// OutTemplatesUsed (service stacks) are the templates the stack's
	// pipelines reference: the identifier, with "@version" when pinned.
	OutTemplatesUsed = "templatesUsed"
	// OutRepositoryIDs (service stacks) are the GitHub ids of the
	// repositories the stack's webhook variables select, by
	// "owner/name": read by the next run of the stack itself, which looks
	// up only repositories it has no id for (components.GitHubArgs).
	OutRepositoryIDs = "repositoryIds"
)

// Keys of the foundation output.
const (
	FoundationOrgID           = "orgId"
	FoundationProjectID       = "projectId"
	FoundationGithubConnector = "githubConnectorId"
	FoundationOwnerStack      = "ownerStack"
)

// contract is what the program reads of a deployed stack's outputs.
type contract struct {
	Stack       string
	Foundation  map[string]string
	Services    []string
	Retired     []string
	Env         map[string]any
	Kubeconfigs map[string]string
	// KubernetesVersions are the EKS clusters' versions by region.
	KubernetesVersions map[string]string
	// Templates are a platform stack's templates.
	Templates []plan.StageTemplate
	// RepositoryIDs are a service stack's repositories' GitHub ids, by
	// "owner/name".
	RepositoryIDs map[string]int
	// planned is set on the contract a platform stack not deployed yet
	// will export (plannedPlatform): its kubeconfigs are unknown.
	planned bool
}

// services are the services c deploys; none for nil.
func (c *contract) services() []string {
	if c == nil {
		return nil
	}
	return c.Services
}

// kubeconfig is the kubeconfig of region's cluster, as a secret.
func (c *contract) kubeconfig(ctx *pulumi.Context, region string) (pulumi.StringOutput, error) {
	if c.planned {
		// Known once the platform stack's clusters exist; a preview shows
		// the resources inside them with this unknown, as it would for a
		// cluster created in the same stack. (An unknown holds nothing
		// to keep secret; the update reads the deployed secret.)
		return pulumi.UnsafeUnknownOutput(nil).ApplyT(func(any) string { return "" }).(pulumi.StringOutput), nil
	}
	k, ok := c.Kubeconfigs[region]
	if !ok || k == "" {
		return pulumi.StringOutput{}, fmt.Errorf("platform stack %q exports no kubeconfig for region %q; run `pulumi up --stack %s` first", c.Stack, region, c.Stack)
	}
	return pulumi.ToSecret(pulumi.String(k)).(pulumi.StringOutput), nil
}

func (c *contract) deployed() *plan.Deployed {
	if c == nil {
		return nil
	}
	return &plan.Deployed{
		Stack:    c.Stack,
		Scope:    plan.Scope{OrgID: c.Foundation[FoundationOrgID], ProjectID: c.Foundation[FoundationProjectID]},
		Services: c.Services,
		Retired:  c.Retired,
	}
}

// readStackOutputs is the engine's built-in invoke behind stack
// references. As an invoke it registers nothing: the outputs are read once,
// synchronously, before any resource, and a refresh has nothing to re-read
// (a StackReference resource of a stack to itself would differ after every
// update, and the drift check would never be quiet).
const readStackOutputs = "pulumi:pulumi:readStackOutputs"

func stackOutputs(ctx *pulumi.Context, stack string) (map[string]any, error) {
	name := stack
	if org := ctx.Organization(); org != "" {
		name = org + "/" + ctx.Project() + "/" + stack
	}
	var result struct {
		Outputs map[string]any `pulumi:"outputs"`
	}
	// The raw invoke, because a platform stack's outputs hold a secret
	// (its kubeconfigs), which the plain one refuses to return; the
	// program keeps that value a secret (contract.kubeconfig).
	if _, err := ctx.InvokePackageRaw(readStackOutputs, map[string]any{"name": name}, &result, ""); err != nil {
		return nil, fmt.Errorf("reading the outputs of stack %q: %w", stack, err)
	}
	return result.Outputs, nil
}

// readUpstream reads and checks the contract of a platform stack this one
// depends on: its upstream, or its own environment's. A stack that was
// never deployed has no outputs.
func readUpstream(ctx *pulumi.Context, stack string) (*contract, error) {
	outputs, err := stackOutputs(ctx, stack)
	if err != nil {
		return nil, err
	}
	return checkContract(stack, outputs)
}

// checkContract decodes the outputs of a platform stack this one depends
// on, refusing them unless they are a complete contract of this version.
func checkContract(stack string, outputs map[string]any) (*contract, error) {
	deployFirst := fmt.Sprintf("run `pulumi up --stack %s` first: stacks deploy in chain order", stack)
	if len(outputs) == 0 {
		return nil, fmt.Errorf("stack %q has no outputs; %s", stack, deployFirst)
	}
	if v, _ := outputs[OutContractVersion].(string); v != ContractVersion {
		return nil, fmt.Errorf("stack %q exports contract version %q, this program needs %q; %s",
			stack, v, ContractVersion, deployFirst)
	}
	c := decode(stack, outputs)
	for _, k := range []string{FoundationOrgID, FoundationProjectID, FoundationGithubConnector, FoundationOwnerStack} {
		if c.Foundation[k] == "" {
			return nil, fmt.Errorf("stack %q: output foundation.%s is missing; %s", stack, k, deployFirst)
		}
	}
	return c, nil
}

// readPlatform reads the contract of p's platform stack (p a service
// stack). A preview of a service stack whose platform stack has not been
// deployed yet (a new environment, or a pull request that splits an
// environment) is made against the contract that platform stack will
// export (plannedPlatform), so that the pull request shows every stack's
// changes; an update needs the platform stack deployed.
func readPlatform(ctx *pulumi.Context, c *catalog.Catalog, p *plan.Plan) (*contract, error) {
	if !ctx.DryRun() {
		return readUpstream(ctx, p.Platform)
	}
	outputs, err := deployedOutputs(ctx, p.Platform)
	if err != nil {
		return nil, err
	}
	if len(outputs) > 0 {
		return checkContract(p.Platform, outputs)
	}
	if err := ctx.Log.Info(fmt.Sprintf("platform stack %q is not deployed yet: this preview uses the identifiers it will export, and its clusters' kubeconfigs are unknown until `platformctl up --stack %s` deploys it", p.Platform, p.Platform), nil); err != nil {
		return nil, err
	}
	return plannedPlatform(c, p), nil
}

// deployedOutputs are stack's outputs; none for a stack never created.
func deployedOutputs(ctx *pulumi.Context, stack string) (map[string]any, error) {
	outputs, err := stackOutputs(ctx, stack)
	if err != nil && strings.Contains(err.Error(), "unknown stack") {
		return nil, nil // never created
	}
	return outputs, err
}

// plannedPlatform is the contract p's platform stack will export once
// deployed, from the catalog: the foundation's identifiers are
// deterministic (DESIGN: no lookup names a thing).
func plannedPlatform(c *catalog.Catalog, p *plan.Plan) *contract {
	root := c.Stacks[c.Chain[0]]
	return &contract{
		Stack: p.Platform,
		Foundation: map[string]string{
			FoundationOrgID:           p.Scope.OrgID,
			FoundationProjectID:       p.Scope.ProjectID,
			FoundationGithubConnector: root.Foundation.Github.ConnectorIdentifier,
			FoundationOwnerStack:      root.Name,
		},
		planned: true,
	}
}

// readPrevious reads this stack's own last contract, or nil before its
// first deployment.
func readPrevious(ctx *pulumi.Context) (*contract, error) {
	outputs, err := stackOutputs(ctx, ctx.Stack())
	if err != nil || len(outputs) == 0 {
		return nil, err
	}
	return decode(ctx.Stack(), outputs), nil
}

// readEnvironment reads, as one contract, the environment whose platform
// stack is env: the platform's scope and the services of all its service
// stacks, named after stack (the upstream of the stack reading it).
// Promotion holds across service stacks: a service moved between them
// upstream is still deployed there. Service stacks never deployed add
// nothing.
func readEnvironment(ctx *pulumi.Context, c *catalog.Catalog, env, stack string, through OutputsReader) (*plan.Deployed, error) {
	platform, err := readUpstream(ctx, env)
	if err != nil {
		return nil, err
	}
	out := platform.deployed()
	out.Stack = stack
	all, err := readStacks(ctx, c.StacksOf(env)[1:], through)
	if err != nil {
		return nil, err
	}
	for _, d := range all {
		out.Services = append(out.Services, d.Services...)
		out.Retired = append(out.Retired, d.Retired...)
	}
	return out, nil
}

// readSiblings reads the last contracts of the other service stacks of
// p's environment.
func readSiblings(ctx *pulumi.Context, c *catalog.Catalog, p *plan.Plan, through OutputsReader) ([]*plan.Deployed, error) {
	var names []string
	for _, name := range c.StacksOf(p.Platform)[1:] {
		if name != p.Stack {
			names = append(names, name)
		}
	}
	return readStacks(ctx, names, through)
}

// readDownstream reads the last contracts of the service stacks of every
// environment after the root.
func readDownstream(ctx *pulumi.Context, c *catalog.Catalog, through OutputsReader) ([]*plan.Deployed, error) {
	var names []string
	for _, env := range c.Chain[1:] {
		names = append(names, c.StacksOf(env)[1:]...)
	}
	return readStacks(ctx, names, through)
}

// readStacks reads the last contracts of stacks, through the caller's
// OutputsReader; a stack never created or never deployed has none.
func readStacks(ctx *pulumi.Context, stacks []string, through OutputsReader) ([]*plan.Deployed, error) {
	var out []*plan.Deployed
	for _, stack := range stacks {
		outputs, err := through(stack, func() (map[string]any, error) { return deployedOutputs(ctx, stack) })
		if err != nil {
			return nil, err
		}
		if len(outputs) > 0 {
			out = append(out, decode(stack, outputs).deployed())
		}
	}
	return out, nil
}

func decode(stack string, outputs map[string]any) *contract {
	c := &contract{Stack: stack, Foundation: map[string]string{}}
	f, _ := outputs[OutFoundation].(map[string]any)
	for k, v := range f {
		if s, ok := v.(string); ok {
			c.Foundation[k] = s
		}
	}
	c.Services = stringList(outputs[OutServices])
	c.Retired = stringList(outputs[OutRetired])
	c.Env, _ = outputs[OutEnvironment].(map[string]any)
	c.KubernetesVersions = byRegion(outputs[OutKubernetesVersions])
	c.Kubeconfigs = byRegion(outputs[OutKubeconfigs])
	templates, _ := outputs[OutTemplates].(map[string]any)
	for key, v := range templates {
		m, _ := v.(map[string]any)
		// A candidate's key is "identifier@version" (export).
		id, _, candidate := strings.Cut(key, "@")
		t := plan.StageTemplate{Identifier: id, Tags: stringList(m["tags"]), Candidate: candidate}
		t.Version, _ = m["version"].(string)
		t.Name, _ = m["name"].(string)
		t.YAML, _ = m["yaml"].(string)
		c.Templates = append(c.Templates, t)
	}
	plan.SortTemplateVersions(c.Templates)
	ids, _ := outputs[OutRepositoryIDs].(map[string]any)
	for repo, v := range ids {
		if n, ok := v.(float64); ok && n > 0 && n == float64(int(n)) {
			if c.RepositoryIDs == nil {
				c.RepositoryIDs = map[string]int{}
			}
			c.RepositoryIDs[repo] = int(n)
		}
	}
	return c
}

// repositoryIDs are the repository ids c kept; none for nil.
func (c *contract) repositoryIDs() map[string]int {
	if c == nil {
		return nil
	}
	return c.RepositoryIDs
}

// templateVersions are the template versions a platform stack declares
// (plan.TemplateVersions), from its plan, its last contract and, when they
// matter, its service stacks' uses of them; what is in flight is logged.
func templateVersions(ctx *pulumi.Context, c *catalog.Catalog, p *plan.Plan, previous *contract, through OutputsReader) ([]plan.StageTemplate, error) {
	var deployed []plan.StageTemplate
	if previous != nil {
		deployed = previous.Templates
	}
	matter, err := plan.UsesMatter(p.Templates, deployed)
	if err != nil {
		return nil, err
	}
	var uses []plan.TemplateUse
	if matter {
		for _, stack := range c.StacksOf(p.Platform)[1:] {
			outputs, err := through(stack, func() (map[string]any, error) { return deployedOutputs(ctx, stack) })
			if err != nil {
				return nil, err
			}
			for _, u := range stringList(outputs[OutTemplatesUsed]) {
				uses = append(uses, plan.ParseTemplateUse(stack, u))
			}
		}
	}
	templates, notes, err := plan.TemplateVersions(p.Templates, deployed, uses)
	if err != nil {
		return nil, err
	}
	for _, n := range notes {
		if err := ctx.Log.Info(n, nil); err != nil {
			return nil, err
		}
	}
	return templates, nil
}

// byRegion decodes an output of strings by region (nil when absent).
func byRegion(v any) map[string]string {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	out := make(map[string]string, len(m))
	for region, s := range m {
		out[region], _ = s.(string)
	}
	return out
}

func stringList(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, e := range list {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

// export writes the contract: plain values from the plan, and what only
// the provider knows (webhook URLs) as outputs. upstream is the contract
// of the upstream platform stack (platform stacks) or of the environment's
// platform stack (service stacks), whose foundation is re-exported.
func export(ctx *pulumi.Context, p *plan.Plan, upstream *contract, webhooks pulumi.StringMap, declared []plan.StageTemplate) {
	foundation := pulumi.StringMap{}
	if p.Foundation != nil {
		foundation = pulumi.StringMap{
			FoundationOrgID:           pulumi.String(p.Scope.OrgID),
			FoundationProjectID:       pulumi.String(p.Scope.ProjectID),
			FoundationGithubConnector: pulumi.String(p.Foundation.GithubConnector.Identifier),
			FoundationOwnerStack:      pulumi.String(p.Stack),
		}
	} else {
		// Re-export what was read, so the chain works from its end.
		for k, v := range upstream.Foundation {
			foundation[k] = pulumi.String(v)
		}
	}
	infras, connectors, delegates := pulumi.StringMap{}, pulumi.StringMap{}, pulumi.StringMap{}
	for _, c := range p.Clusters {
		if !p.IsPlatform() {
			break // the platform stack's
		}
		infras[c.Region] = pulumi.String(c.Infrastructure.Identifier)
		connectors[c.Region] = pulumi.String(c.Connector.Identifier)
		delegates[c.Region] = pulumi.String(c.Delegate.Name)
	}
	pipelines := pulumi.StringMap{}
	for _, d := range p.Deployments {
		pipelines[d.Service] = pulumi.String(d.Pipeline.Identifier)
	}
	var up pulumi.Input = pulumi.ToOutput(nil)
	switch {
	case p.IsPlatform() && upstream != nil:
		up = pulumi.ToMap(map[string]any{"stack": upstream.Stack, OutEnvironment: upstream.Env})
	case !p.IsPlatform() && p.Upstream != "":
		up = pulumi.ToMap(map[string]any{"stack": p.Upstream})
	}
	if !p.IsPlatform() {
		ctx.Export(OutPlatform, pulumi.String(p.Platform))
	}
	ctx.Export(OutContractVersion, pulumi.String(ContractVersion))
	ctx.Export(OutStack, pulumi.String(p.Stack))
	ctx.Export(OutFoundation, foundation)
	ctx.Export(OutEnvironment, pulumi.StringMap{
		"identifier": pulumi.String(p.Environment.Identifier),
		"name":       pulumi.String(p.Environment.Name),
		"type":       pulumi.String(p.Environment.Type),
		"stack":      pulumi.String(p.Stack),
	})
	ctx.Export(OutInfrastructures, infras)
	ctx.Export(OutConnectors, connectors)
	ctx.Export(OutDelegates, delegates)
	ctx.Export(OutPipelines, pipelines)
	ctx.Export(OutWebhooks, webhooks)
	ctx.Export(OutServices, pulumi.ToStringArray(p.Services()))
	ctx.Export(OutRetired, pulumi.ToStringArray(p.Retired()))
	ctx.Export(OutUpstream, up)
	if p.IsPlatform() {
		templates := pulumi.Map{}
		for _, t := range declared {
			key := t.Identifier
			if t.Candidate {
				key += "@" + t.Version
			}
			templates[key] = pulumi.Map{
				"version": pulumi.String(t.Version),
				"name":    pulumi.String(t.Name),
				"tags":    pulumi.ToStringArray(t.Tags),
				"yaml":    pulumi.String(t.YAML),
			}
		}
		ctx.Export(OutTemplates, templates)
	} else {
		var used []string
		for _, d := range p.Deployments {
			u := plan.TemplateUse{Template: d.Pipeline.Template, Version: d.Pipeline.TemplateVersion}.String()
			if d.Pipeline.Template != "" && !slices.Contains(used, u) {
				used = append(used, u)
			}
		}
		slices.Sort(used)
		ctx.Export(OutTemplatesUsed, pulumi.ToStringArray(used))
	}
}
