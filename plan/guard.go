package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/company/harness-platform/calendar"
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
	GuardMove         = "move"
	GuardUpgrade      = "upgrade"
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

// Observed is what the program reads of deployed stacks before it
// registers anything.
type Observed struct {
	// Upstream is the upstream environment as one contract: its platform
	// stack's scope and the services of all its service stacks (nil for
	// the root environment). Promotion holds across service stacks: a
	// service moved between them upstream is still deployed there.
	Upstream *Deployed
	// Previous is this stack's own last contract (nil before its first
	// deployment).
	Previous *Deployed
	// Siblings are the last contracts of the environment's other service
	// stacks, read when services arrive in this stack or leave it.
	Siblings []*Deployed
	// Downstream are the last contracts of the other environments'
	// stacks, read by the root environment's service stacks when services
	// leave the catalog.
	Downstream []*Deployed
	// KubernetesVersions are the versions a platform stack's EKS clusters
	// run, by region, as its last contract says (nil before its first
	// deployment).
	KubernetesVersions map[string]string
}

// Guard checks p against what is deployed. Violations are in a stable
// order.
func Guard(c *catalog.Catalog, p *Plan, o Observed) []Violation {
	var out []Violation
	out = append(out, uniqueIdentifiers(p)...)
	if upstream := o.Upstream; upstream != nil {
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
	out = append(out, moves(c, p, o)...)
	out = append(out, upgrades(c, p, o.KubernetesVersions)...)
	if o.Previous != nil && p.Production {
		if removed := RemovedWithoutRetiring(o.Previous, p.Services()); len(removed) > 0 {
			removed = slices.DeleteFunc(removed, func(svc string) bool { return movedAway(c, p, svc) != "" })
			if len(removed) > 0 {
				out = append(out, Violation{Guard: GuardDecommission, Message: fmt.Sprintf(
					"%s would delete the Production pipeline of %s, not retired in its last deployment: set `retired: true` in %s and deploy, then remove the entry",
					p.Stack, strings.Join(removed, ", "), catalog.ServicesFile)})
			}
		}
	}
	if !p.IsPlatform() && p.Platform == c.Root().Name {
		// The root environment's service stacks own the Harness services.
		out = append(out, stillDeployed(c, p, o.Downstream)...)
	}
	return out
}

// movedAway is the stack the catalog now puts svc in, when svc left p's
// stack for another service stack of the same environment; "" otherwise.
func movedAway(c *catalog.Catalog, p *Plan, svc string) string {
	s, ok := c.Service(svc)
	if !ok || !s.EnabledIn(p.Platform) || p.IsPlatform() || s.Stack == p.Shard {
		return ""
	}
	return catalog.ServiceStackName(p.Platform, s.Stack)
}

// moves refuses an update that would move a service between service
// stacks by deleting it from one and creating it in the other: the old
// stack would delete its pipeline, trigger and history, and the new
// stack's creates would be refused by Harness while the old objects exist.
// A move is a state move (platformctl move), never a delete and create.
func moves(c *catalog.Catalog, p *Plan, o Observed) []Violation {
	var out []Violation
	fix := fmt.Sprintf("run `platformctl move --stack %s` first: it moves the objects' state, deleting and creating nothing", p.Platform)
	if o.Previous != nil {
		kept := setOf(p.Services())
		for _, svc := range o.Previous.Services {
			if to := movedAway(c, p, svc); to != "" && !kept[svc] {
				out = append(out, Violation{Guard: GuardMove, Blocking: true, Message: fmt.Sprintf(
					"service %q moved from stack %q to %q in the catalog, but its objects are still in %q; %s", svc, p.Stack, to, p.Stack, fix)})
			}
		}
	}
	for _, sib := range o.Siblings {
		if sib == nil || sib.Stack == p.Stack {
			continue
		}
		there := setOf(sib.Services)
		for _, svc := range p.Services() {
			if there[svc] {
				out = append(out, Violation{Guard: GuardMove, Blocking: true, Message: fmt.Sprintf(
					"service %q moved to stack %q in the catalog, but stack %q still holds its objects; %s", svc, p.Stack, sib.Stack, fix)})
			}
		}
	}
	return out
}

// stillDeployed refuses to delete, with its Harness service, a service
// another stack still deploys: Harness refuses to delete a service a
// pipeline references, so the update would fail halfway. Decommissioning
// removes a service from every other environment first (docs/contributing.md).
func stillDeployed(c *catalog.Catalog, p *Plan, downstream []*Deployed) []Violation {
	var out []Violation
	for _, d := range downstream {
		if d == nil {
			continue
		}
		for _, svc := range d.Services {
			if _, inCatalog := c.Service(svc); !inCatalog {
				out = append(out, Violation{Guard: GuardDecommission, Blocking: true, Message: fmt.Sprintf(
					"service %q leaves the catalog, but stack %q still deploys it, and Harness refuses to delete a service a pipeline references: "+
						"first set `environments: [%s]` on it in %s and deploy the chain, then remove the entry",
					svc, d.Stack, p.Platform, catalog.ServicesFile)})
			}
		}
	}
	return out
}

// RemovedFromCatalog lists the services previous deployed that the
// catalog no longer has.
func RemovedFromCatalog(c *catalog.Catalog, previous *Deployed) []string {
	if previous == nil {
		return nil
	}
	var out []string
	for _, svc := range previous.Services {
		if _, ok := c.Service(svc); !ok {
			out = append(out, svc)
		}
	}
	return out
}

// Arrived lists the services p deploys that its last deployment did not:
// onboarded, or moved here from another service stack.
func Arrived(p *Plan, previous *Deployed) []string {
	var had map[string]bool
	if previous != nil {
		had = setOf(previous.Services)
	}
	var out []string
	for _, svc := range p.Services() {
		if !had[svc] {
			out = append(out, svc)
		}
	}
	return out
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
	for _, s := range p.CatalogServices {
		add(KindService, "", s.Identifier)
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
	}
	for _, c := range p.Clusters {
		add(KindKubernetesConnector, "", c.Connector.Identifier)
		add(KindInfrastructure, c.Infrastructure.EnvID, c.Infrastructure.Identifier)
	}
	for _, d := range p.Deployments {
		add(KindFile, "", d.Values.Identifier)
		add(KindPipeline, "", d.Pipeline.Identifier)
		add(KindTrigger, d.Trigger.TargetID, d.Trigger.Identifier)
	}
	return out
}

// upgrades refuses, before anything changes, a cluster version change EKS
// would refuse halfway through an up (UpdateClusterVersion: one minor
// version up at a time, never down), with the version to go through.
func upgrades(c *catalog.Catalog, p *Plan, deployed map[string]string) []Violation {
	var out []Violation
	for _, cl := range p.Clusters {
		from := deployed[cl.Region]
		if cl.EKS == nil || from == "" {
			continue
		}
		to := cl.EKS.KubernetesVersion
		if err := calendar.UpgradeRefusal(from, to); err != nil {
			fix := fmt.Sprintf("set kubernetesVersion \"1.%d\", up, and repeat until %s", calendar.Minor(from)+1, to)
			if calendar.Newer(from, to) {
				fix = fmt.Sprintf("EKS never downgrades: keep kubernetesVersion %q", from)
			}
			out = append(out, Violation{Guard: GuardUpgrade, Blocking: true, Message: fmt.Sprintf(
				"cluster %s runs Kubernetes %s, and %s (%s) asks for %s: EKS would refuse the update (%v); %s",
				cl.EKS.Name, from, c.Stacks[p.Platform].Origin(catalog.Namespace+":cluster"), p.Platform, to, err, fix)})
		}
	}
	return out
}
