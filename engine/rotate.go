package engine

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/ident"
	"github.com/company/harness-platform/plan"
	"github.com/company/harness-platform/preflight"
)

// Rotating a delegate token. The provider deletes a token by revoking it,
// and Harness keeps a revoked name 30 days, so a rotation is a new token
// under the next generation's name (ident.TokenName), which the stack file
// names (delegateTokenGeneration). The tokens live in the environment's
// credentials stack (catalog.CredentialsStackName), which keeps a token
// as long as the platform stack's delegates run with it. A plain up of
// the change creates the new token and its Secrets Manager copy, then
// rolls the delegates onto it (a new ExternalSecret, a new pod template);
// the next up of the credentials stack revokes the old one.
// RotateDelegateTokens does it at once, and waits for Harness to hear
// from the delegates before it revokes:
//
//  1. an up of the credentials stack (the new tokens; the old ones kept),
//     then of the platform stack (the delegates rolled);
//  2. the delegates report in: Harness lists each delegate among the
//     groups using its new token, connected (GET
//     /ng/api/delegate-token-ng/delegate-groups);
//  3. an up of the credentials stack: the old tokens, which no delegate
//     runs with any more, are revoked and their secrets deleted.
//
// Each up takes its backup first, as every up does. Killed or failed
// after step 1, the credentials stack holds both tokens and the delegates
// run with the new one: running it again (or a plain up) finishes it.

// RotateOptions configure RotateDelegateTokens.
type RotateOptions struct {
	// ReportTimeout is how long the delegates have to report in with
	// their new token (default 15 minutes: the release's own wait plus
	// the delegates' first heartbeats); Poll how often Harness is asked
	// (default 15 s).
	ReportTimeout, Poll time.Duration
	Stdout, Stderr      io.Writer
}

// Rotation is what RotateDelegateTokens did.
type Rotation struct {
	// Created are the new tokens, Revoked the old ones.
	Created, Revoked []string
	// Reported are the delegates Harness heard from with their new token.
	Reported []preflight.DelegateGroup
	// Backups are the state backups the ups took.
	Backups []string
}

// delegateTokenType is the delegate token's resource type.
const delegateTokenType = "harness:platform/delegatetoken:Delegatetoken"

// RotateDelegateTokens moves the delegates of stack name (an
// environment's platform stack) from the tokens its state holds to those
// its configuration names now (after delegateTokenGeneration was raised),
// revoking the old ones only after the delegates report in with the new.
func (s *Session) RotateDelegateTokens(ctx context.Context, name string, o RotateOptions) (Rotation, error) {
	var out Rotation
	if err := s.checkDelivery(name); err != nil {
		return out, err
	}
	want, err := s.delegateTokens(name)
	if err != nil {
		return out, err
	}
	stale, created, err := s.staleTokens(ctx, name, want)
	if err != nil {
		return out, err
	}
	for _, r := range stale {
		out.Revoked = append(out.Revoked, r.URN.Name())
	}
	out.Created = created
	if len(stale) == 0 {
		return out, fmt.Errorf("stack %s already runs the tokens its configuration names (%s): raise a region's delegateTokenGeneration first (`platformctl rotate-delegate-token --stack %s --region <region>` does)",
			name, strings.Join(slices.Sorted(maps.Keys(want)), ", "), name)
	}

	creds := catalog.CredentialsStackName(name)
	run := s.paced(runOptions{Stdout: o.Stdout, Stderr: o.Stderr})
	for _, stack := range []string{creds, name} {
		if _, err := s.upStack(ctx, stack, run); err != nil {
			return out, fmt.Errorf("rotation of %s, step 1 (new tokens, delegates rolled; the old tokens still valid), %s: %w", name, stack, err)
		}
		out.Backups = append(out.Backups, s.lastBackup(stack)...)
	}

	// Every delegate reports in with its token: a new one, or one kept.
	reported, err := s.awaitDelegates(ctx, name, want, o)
	out.Reported = reported
	if err != nil {
		return out, fmt.Errorf("rotation of %s, step 2: %w; the old tokens (%s) stay valid: find why the delegates do not connect (kubectl -n %s logs deploy/<delegate>), then run the rotation again",
			name, err, strings.Join(out.Revoked, ", "), plan.DelegateNamespace)
	}

	if _, err := s.upStack(ctx, creds, s.paced(runOptions{Stdout: o.Stdout, Stderr: o.Stderr})); err != nil {
		return out, fmt.Errorf("rotation of %s, step 3 (revoking %s): %w", name, strings.Join(out.Revoked, ", "), err)
	}
	out.Backups = append(out.Backups, s.lastBackup(creds)...)
	return out, nil
}

// delegateTokens are the tokens stack name declares: token name, delegate.
func (s *Session) delegateTokens(name string) (map[string]string, error) {
	p, err := plan.Build(s.Catalog, name)
	if err != nil {
		return nil, err
	}
	if !p.IsPlatform() {
		return nil, fmt.Errorf("stack %s declares no delegate: rotate the tokens of its environment's platform stack", name)
	}
	want := map[string]string{}
	for _, cl := range p.Clusters {
		want[cl.Delegate.Token] = cl.Delegate.Name
	}
	return want, nil
}

// staleTokens are the delegate tokens the credentials stack of platform
// stack name holds that the configuration no longer names, and the names
// of those it names and the state does not hold yet.
func (s *Session) staleTokens(ctx context.Context, name string, want map[string]string) (stale []stateResource, created []string, err error) {
	existing, err := s.existingStacks(ctx)
	if err != nil {
		return nil, nil, err
	}
	creds := catalog.CredentialsStackName(name)
	if _, ok := existing[creds]; !ok {
		return nil, nil, fmt.Errorf("stack %s is not deployed: the first up of %s creates the delegate tokens its configuration names, so there is nothing to rotate", creds, name)
	}
	state, err := s.stateOf(ctx, creds)
	if err != nil {
		return nil, nil, err
	}
	held := map[string]bool{}
	for _, r := range state {
		if string(r.Type) != delegateTokenType {
			continue
		}
		held[r.URN.Name()] = true
		if _, ok := want[r.URN.Name()]; !ok {
			stale = append(stale, r)
		}
	}
	for token := range want {
		if !held[token] {
			created = append(created, token)
		}
	}
	slices.SortFunc(stale, func(a, b stateResource) int { return strings.Compare(string(a.URN), string(b.URN)) })
	slices.Sort(created)
	return stale, created, nil
}

// StaleDelegateTokens are the names of the delegate tokens the
// credentials stack of platform stack name holds that the configuration
// no longer names: a rotation under
// way (RotateDelegateTokens finishes it).
func (s *Session) StaleDelegateTokens(ctx context.Context, name string) ([]string, error) {
	want, err := s.delegateTokens(name)
	if err != nil {
		return nil, err
	}
	stale, _, err := s.staleTokens(ctx, name, want)
	var out []string
	for _, r := range stale {
		out = append(out, r.URN.Name())
	}
	return out, err
}

// awaitDelegates waits until Harness lists each delegate of want (token:
// delegate) as connected among the groups using its token, with every
// replica the stack runs: revoking a token "immediately disconnects and
// stops" every delegate still using it (developer.harness.io, "Secure
// delegates with tokens", Revoke a delegate token), so one replica on
// the old token would stop at step 3.
func (s *Session) awaitDelegates(ctx context.Context, name string, want map[string]string, o RotateOptions) ([]preflight.DelegateGroup, error) {
	timeout, poll := cmpOr(o.ReportTimeout, 15*time.Minute), cmpOr(o.Poll, 15*time.Second)
	st, _, err := s.Catalog.EnvironmentOf(name)
	if err != nil {
		return nil, err
	}
	replicas := max(st.Delegate.Replicas, 1)
	svc := s.services(name)
	deadline := time.Now().Add(timeout)
	for {
		var reported []preflight.DelegateGroup
		var missing []string
		for _, token := range slices.Sorted(maps.Keys(want)) {
			groups, err := svc.DelegateGroups(ctx, s.account(), token)
			if err != nil {
				return nil, err
			}
			i := slices.IndexFunc(groups, func(g preflight.DelegateGroup) bool { return g.Name == want[token] && g.Connected })
			if i < 0 || groups[i].Instances < replicas {
				heard := 0
				if i >= 0 {
					heard = groups[i].Instances
				}
				missing = append(missing, fmt.Sprintf("%s (token %s: %d of %d replicas)", want[token], token, heard, replicas))
				continue
			}
			reported = append(reported, groups[i])
		}
		if len(missing) == 0 {
			return reported, nil
		}
		if time.Now().After(deadline) {
			return reported, fmt.Errorf("Harness has not heard from %s within %s", strings.Join(missing, ", "), timeout)
		}
		select {
		case <-ctx.Done():
			return reported, ctx.Err()
		case <-time.After(poll):
		}
	}
}

func cmpOr(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// NextTokenGeneration is the generation a rotation of region's token
// moves to: the first after the current one whose name Harness does not
// hold, active or revoked (it keeps a revoked name 30 days).
func (s *Session) NextTokenGeneration(ctx context.Context, env, region string, current int) (int, error) {
	st, _, err := s.Catalog.EnvironmentOf(env)
	if err != nil {
		return 0, err
	}
	tokens, err := s.services(st.Name).DelegateTokens(ctx, s.account())
	if err != nil {
		return 0, err
	}
	return preflight.NextGeneration(ident.DelegateName(st.Environment.Name, region), current, tokens), nil
}

// lastBackup is the newest backup of stack name (none when backups are
// off).
func (s *Session) lastBackup(name string) []string {
	b, err := s.Backups(name)
	if err != nil || len(b) == 0 {
		return nil
	}
	return b[len(b)-1:]
}
