package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optrefresh"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"

	"github.com/company/harness-platform/engine/createid"
)

// Recover settles what an interrupted up left behind. The engine records
// each step before it asks the provider, and keeps that record (a
// pending operation) in the state until someone settles it, because the
// provider may or may not have done it. A pending create is the costly
// one: the object may exist, and the next up creating it again is refused
// (Harness, an organisation variable, a Kubernetes object, an EKS
// cluster...) or makes a second one (a VPC).
//
// Recover computes the id each pending create would have, as its
// provider sets it (package createid; offline, the simulation says),
// moves the pending creates into the state as resources with those ids,
// and refreshes the stack: the refresh reads each one back, keeps those
// that exist with what the cloud holds and drops those that do not, so
// the next up creates only what is missing. A create whose id the
// service makes up (an AWS VPC, subnet, NAT gateway, KMS key...) cannot
// be found that way: it is dropped and reported (a warning naming the
// object, its tags and how to find and delete it). A pending update or
// delete is dropped and the refresh reads what the cloud holds (an
// object the delete removed leaves the state). settlePending says what
// becomes of each kind.
//
// This is what `pulumi refresh --import-pending-creates URN ID` is meant
// to do; the pinned CLI (v3.256.0) turns those into pending imports that
// no operation completes and then drops them, so Recover edits the state
// itself, as `pulumi stack export` / `import` would.
//
// It returns the pending operations it settled (none: nothing to
// recover).
func (s *Session) Recover(ctx context.Context, name string, opts RepairOptions) ([]optrefresh.PendingCreate, error) {
	if err := s.checkDelivery(name); err != nil {
		return nil, err
	}
	o := s.paced(opts.run())
	defer s.flush()
	stacks, err := s.stacksOf(ctx, name)
	if err != nil {
		return nil, err
	}
	// A killed up of an environment can leave pending operations in
	// several of its stacks (service stacks run two at once): each is
	// settled.
	var settled []optrefresh.PendingCreate
	for _, stack := range stacks {
		got, err := s.recoverStack(ctx, stack, o, opts.DryRun)
		settled = append(settled, got...)
		if err != nil {
			return settled, fmt.Errorf("%s: %w", stack, err)
		}
	}
	return settled, nil
}

// stacksOf are the stacks name stands for that exist: an environment's,
// in dependency order, or one stack. A killed run leaves nothing in a
// stack it never created.
func (s *Session) stacksOf(ctx context.Context, name string) ([]string, error) {
	waves, err := Waves(s.Catalog, name)
	if err != nil {
		return nil, err
	}
	waves = WithCredentials(waves, name)
	existing, err := s.existingStacks(ctx)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, w := range waves {
		for _, stack := range w {
			if _, ok := existing[stack]; ok || stack == name {
				out = append(out, stack)
			}
		}
	}
	return out, nil
}

// recoverStack settles one stack's pending operations (settlePending
// says how), reports the pending creates it drops of objects that may
// exist, and refreshes the stack.
func (s *Session) recoverStack(ctx context.Context, name string, o runOptions, dryRun bool) ([]optrefresh.PendingCreate, error) {
	stack, err := s.stack(ctx, name, true) // a refresh runs no program: its upstream need not be deployed
	if err != nil {
		return nil, err
	}
	var settled []optrefresh.PendingCreate
	var dropped []droppedCreate
	err = s.editState(ctx, stack, func(deployment map[string]any) (bool, error) {
		var err error
		settled, dropped, err = settlePending(deployment, s.pendingID)
		return len(settled) > 0 && !dryRun, err
	})
	if err != nil || len(settled) == 0 || dryRun {
		return settled, err
	}
	stdout, stderr := o.streams(s)
	for _, d := range dropped {
		if d.Kind == createid.Generated {
			fmt.Fprintf(stderr, "warning: %s: dropped the pending create of %s: %s\n", name, d.URN, d.Note)
		} else {
			fmt.Fprintf(stdout, "%s: dropped the pending create of %s: %s\n", name, d.URN, d.Note)
		}
	}
	_, err = stack.Refresh(ctx,
		optrefresh.ProgressStreams(stdout), optrefresh.ErrorProgressStreams(stderr),
		optrefresh.Parallel(o.parallel()))
	return settled, err
}

// droppedCreate is a pending create settled by dropping it: the next up
// creates the object, over one that exists (createid.Retaken), or beside
// one that may exist and nothing can find by its id (createid.Generated,
// Note says how to find it).
type droppedCreate struct {
	URN  string
	Kind createid.Kind
	Note string
}

// pendingIDFunc is the id a pending create of typ, named name, with these
// inputs would have, created with a provider of these inputs.
type pendingIDFunc func(typ, name string, inputs, provider resource.PropertyMap) createid.Result

// settlePending settles the pending operations of a deployment (a
// stack's state, as `pulumi stack export` writes it), in place:
//   - a create of a cloud object whose id idOf knows: moved into the
//     state with that id, for the refresh to keep (it exists) or drop
//     (it does not);
//   - a create whose id the service makes up (createid.Generated), or
//     whose next create takes an existing object over
//     (createid.Retaken): dropped, and returned in dropped with what to
//     tell;
//   - a create of a component resource, which has no cloud object:
//     moved into the state as created (it holds nothing but its
//     children), before the first resource that names it;
//   - a create of a provider resource, which has no cloud object either
//     and which nothing can use before its create ends: dropped, for the
//     next up to make;
//   - a create of a resource the state already holds (a later run
//     created it): the stale record is dropped;
//   - an update, a delete, a read or an import: the resource is in the
//     state already (or, for an import, the next up imports it again);
//     the record is dropped and the refresh reads what the cloud holds
//     (an object a delete removed leaves the state).
//
// A create of a type idOf has no rule for (createid.Unknown) refuses the
// whole deployment, unchanged. settled lists every operation settled
// (dropped ones with no id).
func settlePending(deployment map[string]any, idOf pendingIDFunc) (settled []optrefresh.PendingCreate, dropped []droppedCreate, err error) {
	ops, _ := deployment["pending_operations"].([]any)
	resources, _ := deployment["resources"].([]any)
	inState := map[string]bool{}
	providers := map[string]map[string]any{} // "urn::id": inputs
	for _, r := range resources {
		if r, ok := r.(map[string]any); ok {
			inState[fmt.Sprint(r["urn"])] = true
			if strings.HasPrefix(fmt.Sprint(r["type"]), "pulumi:providers:") {
				inputs, _ := r["inputs"].(map[string]any)
				providers[fmt.Sprint(r["urn"])+"::"+fmt.Sprint(r["id"])] = inputs
			}
		}
	}
	var unknown []string
	for _, raw := range ops {
		op, _ := raw.(map[string]any)
		res, _ := op["resource"].(map[string]any)
		if res == nil {
			continue
		}
		urn := resource.URN(fmt.Sprint(res["urn"]))
		id, _ := res["id"].(string)
		switch {
		case op["type"] != string(apitype.OperationTypeCreating):
			// An update, a delete, a read or an import: the refresh
			// settles it.
			settled = append(settled, optrefresh.PendingCreate{URN: string(urn), ID: id})
			continue
		case inState[string(urn)]:
			// A later up created it: the record is stale.
			settled = append(settled, optrefresh.PendingCreate{URN: string(urn), ID: id})
			continue
		case strings.HasPrefix(fmt.Sprint(res["type"]), "pulumi:providers:"):
			// A provider: nothing in any cloud (its id is the
			// engine's own), and nothing can have been created with
			// it before its create finished; the next up makes it.
			settled = append(settled, optrefresh.PendingCreate{URN: string(urn)})
			continue
		case res["custom"] != true:
			// A component: nothing in any cloud, only its children.
			res["outputs"] = map[string]any{}
			resources = insertBeforeUsers(resources, res)
			inState[string(urn)] = true
			settled = append(settled, optrefresh.PendingCreate{URN: string(urn)})
			continue
		}
		inputs, _ := res["inputs"].(map[string]any)
		got := idOf(fmt.Sprint(res["type"]), urn.Name(), resource.NewPropertyMapFromMap(inputs),
			resource.NewPropertyMapFromMap(providers[fmt.Sprint(res["provider"])]))
		switch got.Kind {
		case createid.Known:
			res["id"] = got.ID
			res["outputs"] = inputs
			resources = insertBeforeUsers(resources, res)
			inState[string(urn)] = true
			settled = append(settled, optrefresh.PendingCreate{URN: string(urn), ID: got.ID})
		case createid.Retaken, createid.Generated:
			dropped = append(dropped, droppedCreate{URN: string(urn), Kind: got.Kind, Note: got.Note})
			settled = append(settled, optrefresh.PendingCreate{URN: string(urn)})
		default:
			why := ""
			if got.Note != "" {
				why = " (" + got.Note + ")"
			}
			unknown = append(unknown, string(urn)+why)
		}
	}
	if len(unknown) > 0 {
		return nil, nil, fmt.Errorf("cannot tell the id of %d pending create(s): %s; find each object in its cloud, "+
			"then `pulumi stack export`, move it from pending_operations to resources with its id, and `pulumi stack import`",
			len(unknown), strings.Join(unknown, "; "))
	}
	deployment["pending_operations"] = []any{}
	deployment["resources"] = resources
	return settled, dropped, nil
}

// insertBeforeUsers puts res into resources before the first resource
// whose parent, provider or dependencies name it (the state lists a
// resource before those that refer to it), or at the end.
func insertBeforeUsers(resources []any, res map[string]any) []any {
	urn := fmt.Sprint(res["urn"])
	for i, r := range resources {
		m, _ := r.(map[string]any)
		if m == nil {
			continue
		}
		if fmt.Sprint(m["parent"]) == urn || strings.HasPrefix(fmt.Sprint(m["provider"]), urn+"::") {
			return slices.Insert(resources, i, any(res))
		}
		deps, _ := m["dependencies"].([]any)
		for _, d := range deps {
			if fmt.Sprint(d) == urn {
				return slices.Insert(resources, i, any(res))
			}
		}
	}
	return append(resources, res)
}

// pendingID is the id the provider gives a new object: online, as the
// real provider sets it (package createid, from the providers' sources);
// offline, as the simulated provider does.
func (s *Session) pendingID(typ, name string, inputs, provider resource.PropertyMap) createid.Result {
	if s.cloud != nil {
		if id, ok := s.cloud.ID(typ, name, inputs); ok {
			return createid.Result{Kind: createid.Known, ID: id}
		}
		return createid.Result{Kind: createid.Unknown, Note: "no simulated provider serves " + typ}
	}
	return createid.ID(typ, inputs, provider)
}

// Unlock removes the lock a killed run left on the stack (`pulumi cancel`):
// with a self-managed backend the lock outlives the process that took it,
// and every later operation is refused until it is removed. Only for a run
// known to be dead: it also cancels a run still in progress. It returns
// the stacks it cancelled the update of: a self-managed backend does not
// say whether one held a lock.
func (s *Session) Unlock(ctx context.Context, name string) ([]string, error) {
	stacks, err := s.stacksOf(ctx, name)
	if err != nil {
		return nil, err
	}
	var cancelled []string
	for _, name := range stacks {
		if _, err := s.stack(ctx, name, true); err != nil {
			return cancelled, err
		}
		// Cancel needs the LocalWorkspace itself.
		stack, err := auto.SelectStack(ctx, name, s.local)
		if err != nil {
			return cancelled, err
		}
		// A DIY backend cancels a stack with no lock silently; the
		// service backend refuses one never updated ("stack ... has
		// never been updated", httpstate's CancelCurrentUpdate).
		if err := stack.Cancel(ctx); err != nil && !strings.Contains(err.Error(), "has never been updated") {
			return cancelled, fmt.Errorf("%s: %w", name, err)
		}
		cancelled = append(cancelled, name)
	}
	return cancelled, nil
}
