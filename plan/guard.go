package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/company/harness-platform/catalog"
)

// Deployed is what a deployed stack's output contract says: the program
// reads it once, before anything is registered, for the upstream stack
// (promotion) and for the stack itself (decommissioning).
type Deployed struct {
	Stack string
	// Scope is the organization and project its foundation uses.
	Scope    Scope
	Services []string
	Retired  []string
}

// Guards.
const (
	GuardIdentifiers  = "identifiers"
	GuardFoundation   = "foundation"
	GuardPromotion    = "promotion"
	GuardDecommission = "decommission"
)

// Violation is a guard's refusal of a plan.
type Violation struct {
	Guard   string
	Message string
	// Blocking refuses a preview too. The others refuse an update and only
	// warn on a preview, so that a pull request that onboards a service
	// previews cleanly in every stack before it deploys in chain order.
	Blocking bool
}

func (v Violation) String() string { return v.Guard + " check failed: " + v.Message }

// Guard checks p against what is deployed: upstream is the upstream's
// contract (nil for the root stack), previous is this stack's own last
// contract (nil before its first deployment), downstream the contracts of
// the chain's other stacks, read by the foundation stack when services
// leave the catalog. Violations are in a stable order.
func Guard(p *Plan, upstream, previous *Deployed, downstream ...*Deployed) []Violation {
	var out []Violation
	out = append(out, uniqueIdentifiers(p)...)
	if upstream != nil {
		if upstream.Scope != p.Scope {
			out = append(out, Violation{Guard: GuardFoundation, Blocking: true, Message: fmt.Sprintf(
				"upstream stack %q deploys into org %q project %q, but the foundation stack file says org %q project %q; deploy the chain from its first stack after changing the foundation",
				upstream.Stack, upstream.Scope.OrgID, upstream.Scope.ProjectID, p.Scope.OrgID, p.Scope.ProjectID)})
		}
		upstreamDeploys := setOf(upstream.Services)
		for _, svc := range p.Services() {
			if !upstreamDeploys[svc] {
				out = append(out, Violation{Guard: GuardPromotion, Message: fmt.Sprintf(
					"service %q is not deployed in upstream stack %q yet; run `pulumi up --stack %s` first (services are promoted through the chain)",
					svc, upstream.Stack, upstream.Stack)})
			}
		}
	}
	if previous != nil && p.Production {
		if removed := RemovedWithoutRetiring(previous, p.Services()); len(removed) > 0 {
			out = append(out, Violation{Guard: GuardDecommission, Message: fmt.Sprintf(
				"%s would delete the Production pipeline of %s, not retired in its last deployment: set `retired: true` in %s and deploy, then remove the entry",
				p.Stack, strings.Join(removed, ", "), catalog.ServicesFile)})
		}
	}
	if p.Foundation != nil {
		out = append(out, stillDeployed(p, downstream)...)
	}
	return out
}

// stillDeployed refuses to delete, with the foundation, a service another
// stack still deploys: Harness refuses to delete a service a pipeline
// references, so the update would fail halfway. Decommissioning removes a
// service from every other environment first (README).
func stillDeployed(p *Plan, downstream []*Deployed) []Violation {
	inCatalog := p.Foundation.serviceNames()
	var out []Violation
	for _, d := range downstream {
		if d == nil {
			continue
		}
		for _, svc := range d.Services {
			if !inCatalog[svc] {
				out = append(out, Violation{Guard: GuardDecommission, Blocking: true, Message: fmt.Sprintf(
					"service %q leaves the catalog, but stack %q still deploys it, and Harness refuses to delete a service a pipeline references: "+
						"first set `environments: [%s]` on it in %s and deploy the chain, then remove the entry",
					svc, d.Stack, p.Stack, catalog.ServicesFile)})
			}
		}
	}
	return out
}

// RemovedFromCatalog lists the services previous deployed that the
// foundation of p no longer declares.
func RemovedFromCatalog(p *Plan, previous *Deployed) []string {
	if p.Foundation == nil || previous == nil {
		return nil
	}
	inCatalog := p.Foundation.serviceNames()
	var out []string
	for _, svc := range previous.Services {
		if !inCatalog[svc] {
			out = append(out, svc)
		}
	}
	return out
}

// serviceNames is the set of the catalog services f declares.
func (f *Foundation) serviceNames() map[string]bool {
	names := make(map[string]bool, len(f.Services))
	for _, s := range f.Services {
		names[s.Name] = true
	}
	return names
}

// setOf is names as a set: the guards compare thousands of services with
// thousands, so not by linear search.
func setOf(names []string) map[string]bool {
	set := make(map[string]bool, len(names))
	for _, n := range names {
		set[n] = true
	}
	return set
}

// RemovedWithoutRetiring lists the services of the previous deployment
// that current no longer has and that were not retired there first.
func RemovedWithoutRetiring(previous *Deployed, current []string) []string {
	kept, retired := setOf(current), setOf(previous.Retired)
	var removed []string
	for _, svc := range previous.Services {
		if !kept[svc] && !retired[svc] {
			removed = append(removed, svc)
		}
	}
	slices.Sort(removed)
	return removed
}

// uniqueIdentifiers refuses two objects of one kind with one identifier in
// the same scope: Harness would refuse the second, mid-update.
func uniqueIdentifiers(p *Plan) []Violation {
	seen := map[Ref]bool{}
	var out []Violation
	add := func(kind Kind, scope, id string) {
		r := Ref{Kind: kind, Identifier: scope + "/" + id}
		if seen[r] {
			out = append(out, Violation{Guard: GuardIdentifiers, Blocking: true, Message: fmt.Sprintf(
				"two %s objects have the identifier %q in stack %q; rename one of the catalog entries they come from", kind, id, p.Stack)})
		}
		seen[r] = true
	}
	if f := p.Foundation; f != nil {
		for _, g := range f.UserGroups {
			add(KindUserGroup, "", g.Identifier)
		}
		for _, r := range f.RoleAssignments {
			add(KindRoleAssignment, "", r.Identifier)
		}
		for _, g := range f.ResourceGroups {
			add(KindResourceGroup, "", g.Identifier)
		}
		for _, s := range f.Services {
			add(KindService, "", s.Identifier)
			add(KindFile, "", s.Values.Identifier)
		}
	}
	for _, c := range p.Clusters {
		add(KindKubernetesConnector, "", c.Connector.Identifier)
		add(KindInfrastructure, c.Infrastructure.EnvID, c.Infrastructure.Identifier)
	}
	for _, d := range p.Deployments {
		add(KindPipeline, "", d.Pipeline.Identifier)
		add(KindTrigger, d.Trigger.TargetID, d.Trigger.Identifier)
	}
	return out
}
