package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/company/harness-platform/apibudget"
	exampletest "github.com/company/harness-platform/internal/example"
	"github.com/company/harness-platform/preflight"
	"github.com/company/harness-platform/simulated"
)

// The drift check of a deployed dev, under budgets far tighter than the
// real ones (an hour of simulated time passes in a real second): the
// simulated GitHub allows 2 calls an hour, and its provider waits for
// each reset, as the real one sleeps until the limit's reset and tries
// again; the simulated Harness allows 100 calls a minute, and its
// provider backs off and retries, as go-retryablehttp does. The run
// waits and succeeds, it reads every Harness and GitHub object once, and
// it takes at least the time the budgets impose.
//
// Preflight, asked about that drift check, refuses it with the numbers
// when it may take two hours, and lets it run when it may take a day.
func TestDriftCheckUnderATightBudgetWaitsAndSucceeds(t *testing.T) {
	t.Parallel()
	state := deployedDev(t)
	tight := simulated.Budgets{
		Scale:   3600,
		Harness: []apibudget.Budget{{Name: "tight Harness key", Limit: 100, Window: time.Minute, Counts: apibudget.Calls.Harness}},
		GitHub:  []apibudget.Budget{{Name: "tight GitHub token", Limit: 2, Window: time.Hour, Counts: apibudget.Calls.GitHub}},
	}
	out := &syncBuffer{}
	QuietCLILog(t, state)
	s, err := Open(context.Background(), Options{ProjectDir: "..", Offline: true, Simulation: simulated.Simulation{Budgets: &tight}, StateDir: state, Stdout: out, Stderr: out, Catalog: example(t), Env: testEnv})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// Preflight first: the drift check's reads, against GitHub's
	// remaining budget, need more than two hours; they fit in a day.
	problems, err := s.PreflightWith(context.Background(), "dev", PreflightOptions{Drift: true, MaxRunTime: 2 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) != 1 || !strings.Contains(problems[0].Error(), "the API budgets of this run of dev") ||
		!strings.Contains(problems[0].Error(), exampletest.L(t, "GitHub credential on company: 2 of 2 calls remain this hour")) {
		t.Fatalf("preflight did not refuse the drift check with the numbers: %v", problems)
	}
	t.Logf("preflight: %v", problems[0])
	if problems, err := s.PreflightWith(context.Background(), "dev", PreflightOptions{Drift: true, MaxRunTime: 24 * time.Hour}); err != nil || len(problems) != 0 {
		t.Fatalf("preflight refused a drift check that fits a day: %v %v", problems, err)
	}
	start := time.Now()
	if err := s.Refresh(context.Background(), "dev", RefreshOptions{PreviewOnly: true, ExpectNoChanges: true}); err != nil {
		t.Fatalf("the drift check under a tight budget failed: %v\n%s", err, out)
	}
	took := time.Since(start)
	calls, err := s.APICalls()
	if err != nil {
		t.Fatal(err)
	}
	// Each object read once, at what its provider's Read costs (an
	// organisation variable's lists its repositories too), but the
	// delegate tokens: they are the credentials stack's, which the drift
	// check's identity cannot read (preflight asks Harness their status
	// instead).
	harness, github := 0, 0
	for _, r := range providerRecords(t, state, "harness") {
		if r.Type != delegateTokenType {
			harness++
		}
	}
	for _, r := range providerRecords(t, state, "github") {
		github += apibudget.Of(r.Type, apibudget.Read).GitHubReads
	}
	if calls.Total.HarnessReads != harness || calls.Total.GitHubReads != github || calls.Total.HarnessWrites+calls.Total.GitHubWrites != 0 {
		t.Fatalf("the drift check made %s; the clouds hold %d Harness objects and %d GitHub reads' worth", calls.Total, harness, github)
	}
	if github <= 4 {
		t.Fatalf("dev's drift check reads GitHub %d times: the budget is not tight", github)
	}
	// The GitHub provider waited for the budget's windows: the platform
	// stack's reads come together, more than 2 in an hour. How long it
	// waited depends on the machine: the stacks' refreshes are separate
	// processes, and a loaded machine spreads reads over seconds, hours
	// of simulated time, so a window often resets by itself (an idle run
	// waits about an hour, a loaded one, under CI, five minutes). Either
	// way the run spans at least what the budget imposes on its reads.
	if calls.WaitedGitHub <= 0 {
		t.Errorf("the simulated GitHub provider did not wait for %d reads at 2 an hour", github)
	}
	if least, span := tight.GitHub[0].LeastTime(github), took*time.Duration(tight.Scale); span < least {
		t.Errorf("%d GitHub reads at 2 an hour took %s of simulated time, under the %s the budget imposes", github, span, least)
	}
	t.Logf("%s in %s; waited %s for GitHub, %s for Harness", calls.Total, took.Round(time.Millisecond), calls.WaitedGitHub, calls.WaitedHarness)

	// The up of an approved plan (preview --save-plan, then preflight
	// --plan): nothing to change, but the program still looks up every
	// repository of its webhook variables and every reviewing team, more
	// than two hours of this GitHub budget: refused with the numbers;
	// within a day, let run.
	plans := t.TempDir()
	if _, err := s.Preview(context.Background(), "dev", PreviewOptions{PlanDir: plans}); err != nil {
		t.Fatalf("preview saving plans: %v\n%s", err, out)
	}
	req, err := preflight.Require(s.Catalog, simulated.Account, "dev", nil)
	if err != nil {
		t.Fatal(err)
	}
	lookups := fmt.Sprintf("GitHub %d (%d reads, 0 writes, 0 content-generating)", req.Lookups.GitHub(), req.Lookups.GitHub())
	problems, err = s.PreflightWith(context.Background(), "dev", PreflightOptions{PlanDir: plans, MaxRunTime: 2 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) != 1 || !strings.Contains(problems[0].Error(), "the API budgets of this run of dev") || !strings.Contains(problems[0].Error(), lookups) {
		t.Fatalf("preflight --plan did not refuse the up with its lookups (%s): %v", lookups, problems)
	}
	t.Logf("preflight --plan: %v", problems[0])
	if problems, err := s.PreflightWith(context.Background(), "dev", PreflightOptions{PlanDir: plans, MaxRunTime: 24 * time.Hour}); err != nil || len(problems) != 0 {
		t.Fatalf("preflight --plan refused an up that fits a day: %v %v", problems, err)
	}
}

// Against the real services a run is paced within one Harness key's
// budget unless --parallel says otherwise; offline it is not.
func TestRunsArePacedWithinTheHarnessBudget(t *testing.T) {
	for stacks, want := range map[int]int{0: 2, 1: 4, 2: 2, 4: 1, 8: 1} {
		if got := PacedParallel(stacks); got != want {
			t.Errorf("%d stacks at once: --parallel %d, want %d", stacks, got, want)
		}
		if stacks > 0 && PacedParallel(stacks)*stacks*CallsPerSlot > apibudget.HarnessKey.Limit && PacedParallel(stacks) > 1 {
			t.Errorf("%d stacks at --parallel %d exceed the key's budget", stacks, PacedParallel(stacks))
		}
	}
	online := &Session{opts: Options{}}
	if got := online.paced(runOptions{StackParallel: 2}).Parallel; got != 2 {
		t.Errorf("online: --parallel %d, want 2", got)
	}
	if got := online.paced(runOptions{Parallel: 6}).Parallel; got != 6 {
		t.Errorf("online with --parallel 6: %d", got)
	}
	offline := &Session{opts: Options{Offline: true}}
	if got := offline.paced(runOptions{}).parallel(); got != DefaultParallel {
		t.Errorf("offline: --parallel %d, want %d", got, DefaultParallel)
	}
}
