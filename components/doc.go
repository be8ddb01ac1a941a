// Package components holds the Pulumi component resources that declare a
// plan (package plan): Foundation (the stack with no upstream),
// EnvironmentSlice (one per stack) and ServiceDeployment (one per catalog
// service enabled in the stack). Each takes its part of the plan, in
// Harness terms, registers one resource per planned object with the
// plan's inputs, parents them to itself, and turns what an object needs
// into DependsOn, so that create and delete order follow the plan.
// Outputs are used only for values the provider computes (webhook URLs).
package components

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/plan"
)

// Type tokens of the components.
const (
	FoundationType        = "harness-platform:index:Foundation"
	EnvironmentSliceType  = "harness-platform:index:EnvironmentSlice"
	ServiceDeploymentType = "harness-platform:index:ServiceDeployment"
	ClusterType           = "harness-platform:index:Cluster"
	DelegateType          = "harness-platform:index:Delegate"
	GitHubType            = "harness-platform:index:GitHub"
	DelegateTokenType     = "harness-platform:index:DelegateToken"
)

// Resources maps planned objects to the resources that declare them.
type Resources map[plan.Ref]pulumi.Resource

// dependsOn is the option that orders a resource after what it needs,
// among the resources of this stack; what another stack of the chain
// declares exists already, by the chain's order.
func (r Resources) dependsOn(needs []plan.Ref) pulumi.ResourceOption {
	return pulumi.DependsOn(r.lookup(needs))
}

// lookup lists the resources of needs that r holds.
func (r Resources) lookup(needs []plan.Ref) []pulumi.Resource {
	var deps []pulumi.Resource
	for _, n := range needs {
		if res, ok := r[n]; ok {
			deps = append(deps, res)
		}
	}
	return deps
}

func (r Resources) add(kind plan.Kind, id string, res pulumi.Resource) {
	r[plan.Ref{Kind: kind, Identifier: id}] = res
}

func stringArray(list []string) pulumi.StringArray { return pulumi.ToStringArray(list) }
