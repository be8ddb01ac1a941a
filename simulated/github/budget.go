package github

import (
	"time"

	"github.com/company/harness-platform/apibudget"
	"github.com/company/harness-platform/preflight"
)

// Backoff is how the GitHub provider meets a spent budget: it sleeps
// until the limit resets (or for the Retry-After of a secondary limit)
// and retries, however long.
func (*Behavior) Backoff(_ string, _ apibudget.Op, _ int, _ apibudget.Budget, wait time.Duration) (time.Duration, error) {
	return wait, nil
}

// Pause is the GitHub provider's transport's: one request at a time, and
// a pause after each write (apibudget.GitHubWriteDelay).
func (*Behavior) Pause(last apibudget.Calls) time.Duration {
	if last.GitHubWrites > 0 {
		return apibudget.GitHubWriteDelay
	}
	return 0
}

// RateLimit is what GitHub's /rate_limit says of meter's primary budget
// (the first of its budgets that counts every call); unlimited when it
// enforces none.
func RateLimit(meter *apibudget.Meter) preflight.RateLimit {
	for _, b := range meter.Budgets() {
		if b.Counts(apibudget.Calls{GitHubReads: 1}) == 1 {
			left, reset, _ := meter.Remaining(b.Name)
			return preflight.RateLimit{Limit: b.Limit, Remaining: left, Reset: reset}
		}
	}
	return preflight.RateLimit{}
}
