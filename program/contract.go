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
// change that removes or renames an output (see README, "Output contract").
const ContractVersion = "1"

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
	Stack      string
	Foundation map[string]string
	Services   []string
	Retired    []string
	Env        map[string]any
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
	if err := ctx.Invoke(readStackOutputs, map[string]any{"name": name}, &result); err != nil {
		return nil, fmt.Errorf("reading the outputs of stack %q: %w", stack, err)
	}
	return result.Outputs, nil
}

// readUpstream reads and checks the upstream's contract. A stack that was
// never deployed has no outputs.
func readUpstream(ctx *pulumi.Context, stack string) (*contract, error) {
	outputs, err := stackOutputs(ctx, stack)
	if err != nil {
		return nil, err
	}
	deployFirst := fmt.Sprintf("run `pulumi up --stack %s` first: stacks deploy in chain order", stack)
	if len(outputs) == 0 {
		return nil, fmt.Errorf("upstream stack %q has no outputs; %s", stack, deployFirst)
	}
	if v, _ := outputs[OutContractVersion].(string); v != ContractVersion {
		return nil, fmt.Errorf("upstream stack %q exports contract version %q, this program needs %q; %s",
			stack, v, ContractVersion, deployFirst)
	}
	c := decode(stack, outputs)
	for _, k := range []string{FoundationOrgID, FoundationProjectID, FoundationGithubConnector, FoundationOwnerStack} {
		if c.Foundation[k] == "" {
			return nil, fmt.Errorf("upstream stack %q: output foundation.%s is missing; %s", stack, k, deployFirst)
		}
	}
	return c, nil
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

// readDownstream reads the last contracts of the chain's other stacks;
// a stack never deployed has none.
func readDownstream(ctx *pulumi.Context, c *catalog.Catalog) ([]*plan.Deployed, error) {
	var out []*plan.Deployed
	for _, stack := range c.Chain {
		if stack == ctx.Stack() {
			continue
		}
		outputs, err := stackOutputs(ctx, stack)
		if err != nil && strings.Contains(err.Error(), "unknown stack") {
			continue // never created
		}
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
	return c
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
// the provider knows (webhook URLs) as outputs.
func export(ctx *pulumi.Context, p *plan.Plan, upstream *contract, webhooks pulumi.StringMap) {
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
		infras[c.Region] = pulumi.String(c.Infrastructure.Identifier)
		connectors[c.Region] = pulumi.String(c.Connector.Identifier)
		delegates[c.Region] = pulumi.String(c.Delegate.Name)
	}
	pipelines := pulumi.StringMap{}
	for _, d := range p.Deployments {
		pipelines[d.Service] = pulumi.String(d.Pipeline.Identifier)
	}
	var up pulumi.Input = pulumi.ToOutput(nil)
	if upstream != nil {
		up = pulumi.ToMap(map[string]any{"stack": upstream.Stack, OutEnvironment: upstream.Env})
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
}
