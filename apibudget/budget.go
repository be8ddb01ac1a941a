// Package apibudget models what Harness's and GitHub's APIs allow a run:
// the calls each engine step costs with the real providers, the budgets
// the services enforce, and the least real time a run's calls need under
// each. The simulated providers spend from the same model (package
// simulated), so what an offline run counts is what a real one would
// send, and preflight and the pull-request summary read the same figures.
package apibudget

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"
)

// Calls counts API calls by service and kind. GitHubContent counts the
// GitHub writes that are content-generating (all of them: see Of).
type Calls struct {
	HarnessReads, HarnessWrites              int
	GitHubReads, GitHubWrites, GitHubContent int
}

// Add adds o to c.
func (c *Calls) Add(o Calls) {
	c.HarnessReads += o.HarnessReads
	c.HarnessWrites += o.HarnessWrites
	c.GitHubReads += o.GitHubReads
	c.GitHubWrites += o.GitHubWrites
	c.GitHubContent += o.GitHubContent
}

// Harness is every Harness call; GitHub every GitHub call.
func (c Calls) Harness() int { return c.HarnessReads + c.HarnessWrites }
func (c Calls) GitHub() int  { return c.GitHubReads + c.GitHubWrites }

// IsZero reports whether c counts nothing.
func (c Calls) IsZero() bool { return c == Calls{} }

// String is c in one line.
func (c Calls) String() string {
	return fmt.Sprintf("Harness %d (%d reads, %d writes); GitHub %d (%d reads, %d writes, %d content-generating)",
		c.Harness(), c.HarnessReads, c.HarnessWrites, c.GitHub(), c.GitHubReads, c.GitHubWrites, c.GitHubContent)
}

// Budget is one limit a service enforces: at most Limit of the calls
// Counts counts in any Window.
type Budget struct {
	Name   string
	Limit  int
	Window time.Duration
	Counts func(Calls) int
	// Source is the page that states the limit.
	Source string
}

// The budgets of one Harness API key and one GitHub credential. The
// GitHub App's primary limit is the one that applies when the stacks use
// an App installation on GitHub Enterprise Cloud; a personal token has
// GitHubToken's.
var (
	// "API calls: Harness allows 1000 requests per API key per minute";
	// above it Harness answers 429 (Retry-After is not always sent).
	HarnessKey = Budget{Name: "Harness API key", Limit: 1000, Window: time.Minute,
		Counts: Calls.Harness, Source: "https://developer.harness.io/docs/platform/rate-limits/"}
	// Primary rate limit of a personal access token: 5,000 an hour.
	GitHubToken = Budget{Name: "GitHub token (primary)", Limit: 5000, Window: time.Hour,
		Counts: Calls.GitHub, Source: "https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api"}
	// Primary rate limit of a GitHub App installation owned by a GitHub
	// Enterprise Cloud organisation: 15,000 an hour.
	GitHubApp = Budget{Name: "GitHub App installation (primary)", Limit: 15000, Window: time.Hour,
		Counts: Calls.GitHub, Source: GitHubToken.Source}
	// Secondary limits: no more than 80 content-generating requests a
	// minute and 500 an hour.
	GitHubContentMinute = Budget{Name: "GitHub content-generating (per minute)", Limit: 80, Window: time.Minute,
		Counts: func(c Calls) int { return c.GitHubContent }, Source: GitHubToken.Source}
	GitHubContentHour = Budget{Name: "GitHub content-generating (per hour)", Limit: 500, Window: time.Hour,
		Counts: func(c Calls) int { return c.GitHubContent }, Source: GitHubToken.Source}
)

// Budgets are those a run with one Harness API key and one GitHub App
// installation meets, in the order reports list them.
var Budgets = []Budget{HarnessKey, GitHubApp, GitHubContentMinute, GitHubContentHour}

// GitHubWriteDelay is the GitHub provider's pause between two writes: its
// transport (RateLimitTransport) sends one request at a time and sleeps
// write_delay_ms (1,000 by default) after every POST, PATCH, PUT or
// DELETE, following GitHub's "wait at least one second between each"
// write. It bounds a run whatever the budgets.
const GitHubWriteDelay = time.Second

// LeastTime is the least real time n calls take under b: the first Limit
// go at once, each further Limit a Window later.
func (b Budget) LeastTime(n int) time.Duration {
	if n <= b.Limit {
		return 0
	}
	return time.Duration(math.Ceil(float64(n)/float64(b.Limit))-1) * b.Window
}

// Need is what a run's calls need of each budget.
type Need struct {
	Budget Budget
	Calls  int
	Least  time.Duration
}

// Needs are c's needs of every budget, then the GitHub provider's pace
// (as a budget of one write a second).
func (c Calls) Needs(budgets []Budget) []Need {
	out := make([]Need, 0, len(budgets)+1)
	for _, b := range budgets {
		n := b.Counts(c)
		out = append(out, Need{Budget: b, Calls: n, Least: b.LeastTime(n)})
	}
	out = append(out, Need{Budget: Budget{Name: "GitHub provider's write delay", Limit: 1, Window: GitHubWriteDelay,
		Counts: func(c Calls) int { return c.GitHubWrites }}, Calls: c.GitHubWrites, Least: time.Duration(c.GitHubWrites) * GitHubWriteDelay})
	return out
}

// Least is the longest of the needs: the least real time of the run.
func Least(needs []Need) time.Duration {
	var least time.Duration
	for _, n := range needs {
		least = max(least, n.Least)
	}
	return least
}

// Lines are the needs of the budgets the calls meet at all, a line each.
func Lines(needs []Need) []string {
	var out []string
	for _, n := range needs {
		if n.Calls > 0 {
			out = append(out, n.String())
		}
	}
	return out
}

// Costliest are by's keys (services), the most calls first, then by name.
func Costliest(by map[string]Calls) []string {
	keys := slices.Collect(maps.Keys(by))
	slices.SortFunc(keys, func(a, b string) int {
		ca, cb := by[a], by[b]
		return cmp.Or(cmp.Compare(cb.Harness()+cb.GitHub(), ca.Harness()+ca.GitHub()), cmp.Compare(a, b))
	})
	return keys
}

// String is the need in one line: "Harness API key (1000 a minute): 2,410 calls, at least 2m0s".
func (n Need) String() string {
	return fmt.Sprintf("%s (%d per %s): %d calls, at least %s", n.Budget.Name, n.Budget.Limit, per(n.Budget.Window), n.Calls, Duration(n.Least))
}

func per(d time.Duration) string {
	switch d {
	case time.Second:
		return "second"
	case time.Minute:
		return "minute"
	case time.Hour:
		return "hour"
	}
	return d.String()
}

// Duration is d rounded for people: "0s", "4m", "4h 0m".
func Duration(d time.Duration) string {
	switch {
	case d == 0:
		return "0s"
	case d < time.Minute:
		return d.Round(time.Second).String()
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Round(time.Minute)/time.Minute))
	}
	d = d.Round(time.Minute)
	return strings.TrimSuffix(fmt.Sprintf("%dh %dm", int(d/time.Hour), int(d%time.Hour/time.Minute)), " 0m")
}
