package program

import (
	"fmt"
	"sort"
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

// upstreamContract is what a downstream stack reads of its upstream.
type upstreamContract struct {
	Foundation map[string]string
	Services   []string
	Env        map[string]any
}

// readUpstream checks the upstream's contract version and decodes what
// downstream stacks use. A stack that was never deployed has no outputs.
func readUpstream(stack string, outputs map[string]any) (upstreamContract, error) {
	deployFirst := fmt.Sprintf("run `pulumi up --stack %s` first: stacks deploy in chain order", stack)
	if len(outputs) == 0 {
		return upstreamContract{}, fmt.Errorf("upstream stack %q has no outputs; %s", stack, deployFirst)
	}
	if v, _ := outputs[OutContractVersion].(string); v != ContractVersion {
		return upstreamContract{}, fmt.Errorf("upstream stack %q exports contract version %q, this program needs %q; %s",
			stack, v, ContractVersion, deployFirst)
	}
	var c upstreamContract
	c.Foundation = map[string]string{}
	f, _ := outputs[OutFoundation].(map[string]any)
	for _, k := range []string{FoundationOrgID, FoundationProjectID, FoundationGithubConnector, FoundationOwnerStack} {
		s, ok := f[k].(string)
		if !ok || s == "" {
			return upstreamContract{}, fmt.Errorf("upstream stack %q: output foundation.%s is missing; %s", stack, k, deployFirst)
		}
		c.Foundation[k] = s
	}
	services, _ := outputs[OutServices].([]any)
	for _, s := range services {
		if name, ok := s.(string); ok {
			c.Services = append(c.Services, name)
		}
	}
	sort.Strings(c.Services)
	c.Env, _ = outputs[OutEnvironment].(map[string]any)
	return c, nil
}
