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

	"github.com/company/harness-platform/harness/importid"
)

// Recover settles what an interrupted up left behind. The engine records a
// create before it asks the provider, and keeps that record (a "pending
// create") in the state until someone settles it, because the object may or
// may not exist. Harness refuses a second object with the same identifier,
// so rerunning up fails on each one that exists.
//
// Recover computes the id each pending create would have (a Harness
// object's id is its identifier), moves the pending creates into the state
// as resources with those ids, and refreshes them: the refresh reads each
// one back, keeps those that exist with what the cloud holds and drops
// those that do not, so the next up creates only what is missing. This is
// what `pulumi refresh --import-pending-creates URN ID` is meant to do; the
// pinned CLI (v3.256.0) turns those into pending imports that no operation
// completes and then drops them, so Recover edits the state itself, as
// `pulumi stack export` / `import` would.
//
// It returns the pending creates it settled (none: nothing to recover).
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
		got, err := s.recoverStack(ctx, stack, o)
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

// recoverStack settles one stack's pending operations:
//   - a create of a Harness (or other cloud) object: moved into the
//     state with the id the provider gives it, then refreshed (kept if it
//     exists, dropped if not);
//   - a create of a component resource, which has no cloud object: moved
//     into the state as created (it holds nothing but its children),
//     before the first resource that names it;
//   - a create of a provider resource, which has no cloud object either
//     and which nothing can use before its create ends: dropped, for the
//     next up to make;
//   - an update or a delete: the resource is in the state already;
//     the refresh reads what the cloud holds (an object a delete removed
//     leaves the state), and the record is dropped.
func (s *Session) recoverStack(ctx context.Context, name string, o runOptions) ([]optrefresh.PendingCreate, error) {
	stack, err := s.stack(ctx, name, true) // a refresh runs no program: its upstream need not be deployed
	if err != nil {
		return nil, err
	}
	var settled []optrefresh.PendingCreate
	err = editState(ctx, stack, func(deployment map[string]any) (bool, error) {
		ops, _ := deployment["pending_operations"].([]any)
		resources, _ := deployment["resources"].([]any)
		inState := map[string]bool{}
		for _, r := range resources {
			if r, ok := r.(map[string]any); ok {
				inState[fmt.Sprint(r["urn"])] = true
			}
		}
		var kept []any
		var unknown []string
		for _, raw := range ops {
			op, _ := raw.(map[string]any)
			res, _ := op["resource"].(map[string]any)
			if res == nil {
				kept = append(kept, raw)
				continue
			}
			urn := resource.URN(fmt.Sprint(res["urn"]))
			switch {
			case op["type"] != string(apitype.OperationTypeCreating):
				// An update or a delete: the refresh below settles it.
				settled = append(settled, optrefresh.PendingCreate{URN: string(urn), ID: fmt.Sprint(res["id"])})
				continue
			case inState[string(urn)]:
				// A later up created it: the record is stale.
				settled = append(settled, optrefresh.PendingCreate{URN: string(urn), ID: fmt.Sprint(res["id"])})
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
			id, ok := s.providerID(fmt.Sprint(res["type"]), urn.Name(), resource.NewPropertyMapFromMap(inputs))
			if !ok {
				unknown = append(unknown, string(urn))
				kept = append(kept, raw)
				continue
			}
			res["id"] = id
			res["outputs"] = inputs
			resources = insertBeforeUsers(resources, res)
			inState[string(urn)] = true
			settled = append(settled, optrefresh.PendingCreate{URN: string(urn), ID: id})
		}
		if len(unknown) > 0 {
			return false, fmt.Errorf("cannot tell the id of %d pending create(s): %s; find each object in its cloud, "+
				"then `pulumi stack export`, move it from pending_operations to resources with its id, and `pulumi stack import`",
				len(unknown), strings.Join(unknown, ", "))
		}
		deployment["pending_operations"] = kept
		deployment["resources"] = resources
		return len(settled) > 0, nil
	})
	if err != nil || len(settled) == 0 {
		return nil, err
	}
	_, err = stack.Refresh(ctx,
		optrefresh.ProgressStreams(s.opts.Stdout), optrefresh.ErrorProgressStreams(s.opts.Stderr),
		optrefresh.Parallel(o.parallel()))
	return settled, err
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

// providerID is the id the provider gives a new object with these inputs:
// a Harness object's identifier, a delegate token's name (package
// importid: the Terraform provider's Create calls d.SetId with them);
// offline, the simulated providers say.
func (s *Session) providerID(typ, name string, inputs resource.PropertyMap) (string, bool) {
	if s.cloud != nil {
		return s.cloud.ID(typ, name, inputs)
	}
	if !importid.Known(typ) {
		return "", false
	}
	strs := map[string]string{}
	for k, v := range inputs {
		if v.IsString() {
			strs[string(k)] = v.StringValue()
		}
	}
	id := importid.ResourceID(typ, strs)
	return id, id != ""
}

// Unlock removes the lock a killed run left on the stack (`pulumi cancel`):
// with a self-managed backend the lock outlives the process that took it,
// and every later operation is refused until it is removed. Only for a run
// known to be dead: it also cancels a run still in progress.
func (s *Session) Unlock(ctx context.Context, name string) error {
	stacks, err := s.stacksOf(ctx, name)
	if err != nil {
		return err
	}
	for _, name := range stacks {
		if _, err := s.stack(ctx, name, true); err != nil {
			return err
		}
		// Cancel needs the LocalWorkspace itself.
		stack, err := auto.SelectStack(ctx, name, s.local)
		if err != nil {
			return err
		}
		// A DIY backend cancels a stack with no lock silently; the
		// service backend refuses one never updated ("stack ... has
		// never been updated", httpstate's CancelCurrentUpdate).
		if err := stack.Cancel(ctx); err != nil && !strings.Contains(err.Error(), "has never been updated") {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}
