package preflight

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/company/harness-platform/apibudget"
)

// RateLimit is what GitHub's GET /rate_limit says of the credential's
// primary budget: resources.core's limit and remaining, and the time to
// its reset.
type RateLimit struct {
	Limit, Remaining int
	Reset            time.Duration
}

// DefaultMaxRunTime is what a run may take: a GitHub Actions job on a
// self-hosted runner is cancelled after its timeout-minutes, 360 by
// default (docs.github.com, "Workflow syntax": jobs.<job_id>.timeout-minutes),
// and the up and drift workflows set none; the stacks' locks are held
// the while.
const DefaultMaxRunTime = 6 * time.Hour

// checkBudget refuses a run whose calls cannot be made within what it
// may take: the least time under each API budget (apibudget), with the
// GitHub credential's primary budget as GitHub says it remains now (a
// run needing more than remains first waits for its reset).
func checkBudget(ctx context.Context, svc Services, r Requirements) []Problem {
	if r.Calls.IsZero() {
		return nil
	}
	maxTime := r.MaxRunTime
	if maxTime == 0 {
		maxTime = DefaultMaxRunTime
	}
	needs := r.Calls.Needs(apibudget.Budgets)
	least := apibudget.Least(needs)
	lines := apibudget.Lines(needs)
	if n := r.Calls.GitHub(); n > 0 {
		for _, owner := range slices.Sorted(maps.Keys(r.GitHub)) {
			rl, err := svc.GitHubRateLimit(ctx, owner)
			if err != nil || rl.Limit == 0 {
				continue // unreadable: the credential check says why
			}
			wait := time.Duration(0)
			if n > rl.Remaining {
				// What remains goes now, the rest from the reset on.
				wait = rl.Reset + apibudget.Budget{Limit: rl.Limit, Window: time.Hour}.LeastTime(n-rl.Remaining)
			}
			lines = append(lines, fmt.Sprintf("GitHub credential on %s: %d of %d calls remain this hour, reset in %s; %d needed, at least %s",
				owner, rl.Remaining, rl.Limit, apibudget.Duration(rl.Reset), n, apibudget.Duration(wait)))
			least = max(least, wait)
			break // one credential for every owner
		}
	}
	if least <= maxTime {
		return nil
	}
	return []Problem{{
		Check: fmt.Sprintf("the API budgets of this run of %s", r.Environment),
		Err: fmt.Errorf("its %s need at least %s, and a run may take %s:\n  %s",
			r.Calls, apibudget.Duration(least), apibudget.Duration(maxTime), strings.Join(lines, "\n  ")),
		Fix: "split the run into runs that fit (docs/operating.md, Onboarding at scale: add services in batches, one environment's service stacks at a time with --stack), or wait for the GitHub budget's reset",
	}}
}
