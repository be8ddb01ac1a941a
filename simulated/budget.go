package simulated

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/company/harness-platform/apibudget"
	"github.com/company/harness-platform/preflight"
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

// HarnessRetries is how often the Harness provider's client retries a
// 429 before it fails the step: go-retryablehttp with RetryMax 10, its
// default backoff (1 s doubling to 30 s, or the Retry-After Harness
// sends, which its Cloud Armor front does not).
const HarnessRetries = 10

// methods are the HTTP methods of the steps, for messages.
var methods = map[apibudget.Op]string{apibudget.Create: "POST", apibudget.Update: "PUT", apibudget.Replace: "POST",
	apibudget.Delete: "DELETE", apibudget.Read: "GET"}

// meters are a provider's: nil for providers not budgeted.
type meters struct {
	meter atomic.Pointer[apibudget.Meter]
	// The GitHub provider's transport sends one request at a time and
	// pauses after each write.
	serial    sync.Mutex
	lastWrite bool
}

// SetBudgets makes the simulated Harness and GitHub enforce b from now
// on, counting afresh.
func (s *Servers) SetBudgets(b Budgets) {
	s.meters["harness"].meter.Store(apibudget.NewMeter(b.Harness, b.Scale))
	s.meters["github"].meter.Store(apibudget.NewMeter(b.GitHub, b.Scale))
}

// Calls are the calls the simulated Harness and GitHub answered since the
// last ResetCalls (as the real providers would have sent them: package
// apibudget), in all and by resource URN.
func (s *Servers) Calls() (apibudget.Calls, map[string]apibudget.Calls) {
	var total apibudget.Calls
	byURN := map[string]apibudget.Calls{}
	for _, name := range []string{"harness", "github"} {
		t, by := s.meters[name].meter.Load().Used()
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
	return s.meters["github"].meter.Load().Waited(), s.meters["harness"].meter.Load().Waited()
}

// ResetCalls starts counting afresh (the budgets' windows go on).
func (s *Servers) ResetCalls() {
	for _, name := range []string{"harness", "github"} {
		s.meters[name].meter.Load().Reset()
	}
}

// Remaining is what is left, now, of the GitHub budget named name and
// the simulated time until it resets: what GitHub's /rate_limit says.
func (s *Servers) Remaining(name string) (int, time.Duration, bool) {
	return s.meters["github"].meter.Load().Remaining(name)
}

// spend spends, before the provider of p answers op on a resource of
// typ, the calls the real provider would send, waiting as it would when
// a budget is spent: the Harness provider backs off and retries, then
// fails the step; the GitHub provider sleeps until the limit resets (or
// for the Retry-After of a secondary limit) and retries, however long.
func (p *Provider) spend(typ string, op apibudget.Op, urn string) error {
	if p.meters == nil {
		return nil
	}
	m := p.meters.meter.Load()
	c := apibudget.Of(typ, op)
	if m == nil || c.IsZero() {
		return nil
	}
	if len(m.Budgets()) == 0 {
		_, _ = m.Spend(urn, c) // counting only: nothing is refused
		return nil
	}
	if p.name == "github" {
		p.meters.serial.Lock()
		defer p.meters.serial.Unlock()
		if p.meters.lastWrite {
			m.Sleep(apibudget.GitHubWriteDelay)
		}
		p.meters.lastWrite = c.GitHubWrites > 0
	}
	for attempt := 0; ; attempt++ {
		over, wait := m.Spend(urn, c)
		if over == nil {
			return nil
		}
		if p.name == "github" {
			m.Sleep(wait)
			continue
		}
		if attempt == HarnessRetries {
			return fmt.Errorf("%s %s: giving up after %d attempt(s): 429 Too Many Requests (%s: %d requests per %s; %s)",
				methods[op], typ, attempt+1, over.Name, over.Limit, over.Window, over.Source)
		}
		m.Sleep(min(time.Second<<attempt, 30*time.Second))
	}
}

// GitHubRateLimit: what the simulated GitHub's primary budget (the first
// of its budgets that counts every call) has left, as GET /rate_limit
// says it; unlimited when it enforces none.
func (s *Servers) GitHubRateLimit(context.Context, string) (preflight.RateLimit, error) {
	m := s.meters["github"].meter.Load()
	for _, b := range m.Budgets() {
		if b.Counts(apibudget.Calls{GitHubReads: 1}) == 1 {
			left, reset, _ := m.Remaining(b.Name)
			return preflight.RateLimit{Limit: b.Limit, Remaining: left, Reset: reset}, nil
		}
	}
	return preflight.RateLimit{}, nil
}
