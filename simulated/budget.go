package simulated

import (
	"time"

	"github.com/company/harness-platform/apibudget"
	"github.com/company/harness-platform/simulated/core"
)

// Budgets are the API limits the simulated Harness and GitHub enforce,
// at Scale simulated seconds per real second. By default they enforce
// none and only count: an offline run is how the project measures what a
// real one needs (apibudget.Calls.Needs), and waiting the real limits
// out offline would only make it as slow as the real one.
type Budgets struct {
	Harness, GitHub []apibudget.Budget
	Scale           float64
}

// SetBudgets makes the simulated Harness and GitHub enforce b from now
// on, counting afresh.
func (s *Servers) SetBudgets(b Budgets) {
	s.harnessCalls.Store(apibudget.NewMeter(b.Harness, b.Scale))
	s.githubCalls.Store(apibudget.NewMeter(b.GitHub, b.Scale))
}

// metered are the budgeted services' meters.
func (s *Servers) metered() []*core.Meters { return []*core.Meters{s.harnessCalls, s.githubCalls} }

// Calls are the calls the simulated Harness and GitHub answered since the
// last ResetCalls (as the real providers would have sent them: package
// apibudget), in all and by resource URN.
func (s *Servers) Calls() (apibudget.Calls, map[string]apibudget.Calls) {
	var total apibudget.Calls
	byURN := map[string]apibudget.Calls{}
	for _, m := range s.metered() {
		t, by := m.Load().Used()
		total.Add(t)
		for urn, c := range by {
			sum := byURN[urn]
			sum.Add(c)
			byURN[urn] = sum
		}
	}
	return total, byURN
}

// Waited is the simulated time the simulated GitHub's and Harness's
// providers spent waiting out their budgets since the last ResetCalls.
func (s *Servers) Waited() (github, harness time.Duration) {
	return s.githubCalls.Load().Waited(), s.harnessCalls.Load().Waited()
}

// ResetCalls starts counting afresh (the budgets' windows go on).
func (s *Servers) ResetCalls() {
	for _, m := range s.metered() {
		m.Load().Reset()
	}
}

// Remaining is what is left, now, of the GitHub budget named name and
// the simulated time until it resets: what GitHub's /rate_limit says.
func (s *Servers) Remaining(name string) (int, time.Duration, bool) {
	return s.githubCalls.Load().Remaining(name)
}
