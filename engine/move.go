package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/plan"
	"github.com/company/harness-platform/program"
)

// Move is one `pulumi state move`: the objects of Services that stack
// From holds and the catalog puts in stack To, or the delegate tokens
// (Tokens) a platform stack held before they moved to its credentials
// stack.
type Move struct {
	From, To string
	Services []string
	Tokens   []string
	// URNs are the moved resources whose parent stays in From (or is the
	// stack): the CLI moves each with its children, and copies the
	// providers they use.
	URNs []string
}

// PlanMoves lists the state moves that put every object of the stacks of
// env (a platform stack) where the catalog says: the objects of a
// service whose service stack changed, and, the first time, those of an
// environment that was one stack (its platform stack held everything).
// It reads the stacks' state and changes nothing.
func (s *Session) PlanMoves(ctx context.Context, env string) ([]Move, error) {
	if _, err := s.Catalog.Stack(env); err != nil {
		return nil, err
	}
	// Which stack holds the resource named n, and for which service.
	type home struct{ stack, service string }
	homes := map[string]home{}
	for _, name := range s.Catalog.StacksOf(env)[1:] {
		p, err := plan.Build(s.Catalog, name)
		if err != nil {
			return nil, err
		}
		for n, svc := range p.Owners() {
			homes[n] = home{name, svc}
		}
	}
	existing, err := s.existingStacks(ctx)
	if err != nil {
		return nil, err
	}
	byPair := map[[2]string]*Move{}
	for _, from := range s.Catalog.StacksOf(env) {
		if _, ok := existing[from]; !ok {
			continue
		}
		resources, err := s.stateOf(ctx, from)
		if err != nil {
			return nil, err
		}
		moving := map[resource.URN]bool{}
		for _, r := range resources {
			h, ok := homes[r.URN.Name()]
			if !ok || h.stack == from || strings.HasPrefix(string(r.Type), "pulumi:providers:") || r.Type == resource.RootStackType {
				continue
			}
			moving[r.URN] = true
			if moving[r.Parent] {
				continue // moves with its parent
			}
			key := [2]string{from, h.stack}
			m := byPair[key]
			if m == nil {
				m = &Move{From: from, To: h.stack}
				byPair[key] = m
			}
			m.URNs = append(m.URNs, string(r.URN))
			if !slices.Contains(m.Services, h.service) {
				m.Services = append(m.Services, h.service)
			}
		}
	}
	out := make([]Move, 0, len(byPair))
	for _, m := range byPair {
		sort.Strings(m.Services)
		out = append(out, *m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].From+out[i].To < out[j].From+out[j].To })
	if _, ok := existing[env]; ok {
		resources, err := s.stateOf(ctx, env)
		if err != nil {
			return nil, err
		}
		if m := tokenMove(env, resources); m != nil {
			out = append([]Move{*m}, out...)
		}
	}
	return out, nil
}

// tokenMove is the move of the delegate tokens platform stack env holds
// (as this program did before each environment had a credentials stack)
// to its credentials stack; nil when it holds none. The tokens arrive at
// the credentials stack's root, where the program's alias finds them.
func tokenMove(env string, resources []stateResource) *Move {
	m := &Move{From: env, To: catalog.CredentialsStackName(env)}
	for _, r := range resources {
		if string(r.Type) == delegateTokenType {
			m.URNs = append(m.URNs, string(r.URN))
			m.Tokens = append(m.Tokens, r.URN.Name())
		}
	}
	if len(m.URNs) == 0 {
		return nil
	}
	return m
}

// ApplyMove runs the move with the CLI's `pulumi state move`: the
// resources keep their ids, inputs and outputs, and nothing in the cloud
// is deleted or created. The destination stack is created if needed.
func (s *Session) ApplyMove(ctx context.Context, m Move) error {
	if err := s.checkDelivery(m.From); err != nil {
		return err
	}
	if _, err := s.upsert(ctx, m.To); err != nil {
		return err
	}
	args := append([]string{"state", "move", "--source", m.From, "--dest", m.To, "--yes"}, m.URNs...)
	stdout, stderr, _, err := s.cli.Run(ctx, s.workspace.WorkDir(), nil, nil, nil, s.env, args...)
	if err != nil {
		return fmt.Errorf("moving %s from %s to %s: %w: %s%s", strings.Join(append(slices.Clone(m.Services), m.Tokens...), ", "), m.From, m.To, err, stdout, stderr)
	}
	if len(m.Services) == 0 {
		return nil // delegate tokens: no contract names them
	}
	// The stacks' contracts say what each holds (the guards read them):
	// the moved services leave the source's and join the destination's,
	// as the next update of each would write.
	defer s.deployedOutputs(m.From, nil)
	defer s.deployedOutputs(m.To, nil)
	if err := s.editContract(ctx, m.From, m.Services, false); err != nil {
		return err
	}
	return s.editContract(ctx, m.To, m.Services, true)
}

// editContract removes services from (or adds them to) the contract
// outputs a stack's state holds: services, retired, pipelines, webhooks.
// Every other output, secrets included, is kept as it is.
func (s *Session) editContract(ctx context.Context, name string, services []string, add bool) error {
	stack, err := s.selected(ctx, name)
	if err != nil {
		return err
	}
	return s.editState(ctx, stack, func(d map[string]any) (bool, error) {
		resources, _ := d["resources"].([]any)
		edited := false
		for _, r := range resources {
			r, _ := r.(map[string]any)
			if r == nil || r["type"] != string(resource.RootStackType) {
				continue
			}
			outputs, _ := r["outputs"].(map[string]any)
			if outputs == nil {
				if !add {
					return false, nil
				}
				outputs = map[string]any{}
				r["outputs"] = outputs
			}
			moved := func(v any) bool { svc, _ := v.(string); return slices.Contains(services, svc) }
			// Those moved out, then (adding) all of them at the end.
			kept, _ := outputs[program.OutServices].([]any)
			kept = slices.DeleteFunc(slices.Clone(kept), moved)
			if add {
				for _, svc := range services {
					kept = append(kept, svc)
				}
			} else {
				for _, key := range []string{program.OutPipelines, program.OutWebhooks} {
					if m, ok := outputs[key].(map[string]any); ok {
						for _, svc := range services {
							delete(m, svc)
						}
					}
				}
				if retired, ok := outputs[program.OutRetired].([]any); ok {
					outputs[program.OutRetired] = slices.DeleteFunc(retired, moved)
				}
			}
			if kept == nil {
				kept = []any{}
			}
			outputs[program.OutServices] = kept
			edited = true
		}
		return edited, nil
	})
}

// stateResource is what a move needs of a resource in the state.
type stateResource struct {
	URN    resource.URN `json:"urn"`
	Type   tokens.Type  `json:"type"`
	Parent resource.URN `json:"parent"`
}

func (s *Session) stateOf(ctx context.Context, name string) ([]stateResource, error) {
	return s.readState(ctx, name, false)
}

// readState is stateOf; with pending true, a state with pending
// operations is read too.
func (s *Session) readState(ctx context.Context, name string, pending bool) ([]stateResource, error) {
	stack, err := s.selected(ctx, name)
	if err != nil {
		return nil, err
	}
	// The URNs and pending operations only: no secret is decrypted.
	exported, err := s.exportEncrypted(ctx, stack.Name())
	if err != nil {
		return nil, err
	}
	var d struct {
		Resources []stateResource `json:"resources"`
		Pending   []any           `json:"pending_operations"`
	}
	if err := json.Unmarshal(exported.Deployment, &d); err != nil {
		return nil, fmt.Errorf("reading the state of %s: %w", name, err)
	}
	if len(d.Pending) > 0 && !pending {
		return nil, fmt.Errorf("stack %s has %d pending operations from an interrupted update; run `platformctl recover --stack %s%s --yes` first", name, len(d.Pending), name, s.mode())
	}
	return d.Resources, nil
}
