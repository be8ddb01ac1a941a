package preflight

import (
	"context"
	"fmt"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/diag"
	"github.com/company/harness-platform/ident"
)

// checkDelegateTokens reports every delegate token the platform stack
// would create under a name Harness still holds revoked: Harness refuses
// it ("Token with given name already exists for given account, org and
// project") until 30 days after the revocation. A token listed active is
// the stack's own, or one to adopt (platformctl import).
func checkDelegateTokens(ctx context.Context, svc Services, account string, planned []PlannedToken) []Problem {
	if len(planned) == 0 {
		return nil
	}
	held, err := svc.DelegateTokens(ctx, account)
	if err != nil {
		return []Problem{{Check: "Harness delegate tokens of account " + account, Err: err,
			Fix: "give the Harness key view access to the account's delegates (Account Viewer)"}}
	}
	revoked := map[string]bool{}
	for _, t := range held {
		if t.Status == "REVOKED" {
			revoked[t.Name] = true
		}
	}
	var out []Problem
	for _, p := range planned {
		if !revoked[p.Name] {
			continue
		}
		delegate, gen := ident.TokenGeneration(p.Name)
		next := NextGeneration(delegate, gen, held)
		out = append(out, Problem{
			Check: fmt.Sprintf("delegate token %s of region %s", p.Name, p.Region),
			Err:   fmt.Errorf("%s: the token was revoked within the last 30 days (Harness keeps a revoked token's name that long, and does not list since when), and Harness refuses a new token of that name: Token with given name already exists for given account, org and project", p.Pos),
			Fix:   fmt.Sprintf("set delegateTokenGeneration: %d on region %s (%s), or run platformctl rotate-delegate-token, which picks it", next, p.Region, p.Pos),
		})
	}
	return out
}

// NextGeneration is the generation a new token of delegate takes, moving
// from current: the first after current and after every generation
// Harness holds, active or revoked (a region removed and added again
// within 30 days comes back past its revoked names).
func NextGeneration(delegate string, current int, held []DelegateToken) int {
	next := current + 1
	for _, t := range held {
		if d, g := ident.TokenGeneration(t.Name); d == delegate && g >= next {
			next = g + 1
		}
	}
	return next
}

// regionPos is where st's entry of region is.
func regionPos(st *catalog.Stack, region string) diag.Pos {
	for _, r := range st.Regions {
		if r.Name == region {
			return r.Pos
		}
	}
	return diag.Pos{File: st.File}
}
