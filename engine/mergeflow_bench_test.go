package engine_test

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/company/harness-platform/apibudget"
	"github.com/company/harness-platform/internal/ghrunner"
)

// BenchmarkMergeToProduction measures a one-service merge from its
// trigger to production's up done (issue 61, item 3): on a chain
// deployed offline with a synthetic catalog of n services, every stack
// recording main's commit (outside the timer), a pull request changing
// one service's image is merged and .github/workflows/up.yml runs
// through internal/ghrunner, the environments' reviews granted at once
// (the runner's platform-reviewer). The timer covers the workflow only.
//
// It reports the wall time here (merge-s: ghrunner runs one job at a
// time, as the workflow's jobs run one after another anyway), the
// Harness and GitHub calls every platformctl of the run reported
// ("API calls of the ..." lines: what the real providers would have
// sent), the least real time those calls need under the APIs' budgets,
// and the stacks the merge applied (those whose recorded commit is now
// the merge's). It fails unless every job succeeds and exactly the
// platform stacks and the service's stacks moved to the merge's commit.
//
//	make bench-merge
func BenchmarkMergeToProduction(b *testing.B) {
	for _, n := range []int{100, 300, 1000} {
		b.Run(fmt.Sprintf("services=%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				mergeToProduction(b, n)
			}
		})
	}
}

// callsLine is the line platformctl prints offline after each run
// (reportCalls).
var callsLine = regexp.MustCompile(`API calls of the [^:]+: Harness [0-9]+ \(([0-9]+) reads, ([0-9]+) writes\); GitHub [0-9]+ \(([0-9]+) reads, ([0-9]+) writes, ([0-9]+) content-generating\)`)

func mergeToProduction(b *testing.B, n int) {
	b.StopTimer()
	w := newOfflineRunner(b)
	c, base := w.commitSynthetic(b, n)
	// The chain, every stack deployed at main's commit, as the merges
	// before this one left it.
	deploy, _ := w.deployChain(b, c, base)

	// The merge of a pull request changing one service's image.
	svc := c.Services[0]
	_, want := w.openServicePullRequest(b, c, 1, svc.Name)
	sha, err := w.Origin.Merge("change-1", "Merge pull request #1")
	if err != nil {
		b.Fatal(err)
	}

	b.StartTimer()
	start := time.Now()
	run, err := w.Trigger(".github/workflows/up.yml", push(sha))
	if err != nil {
		b.Fatal(err)
	}
	if err := w.Wait(); err != nil {
		b.Fatal(err)
	}
	took := time.Since(start)
	b.StopTimer()
	w.reset()

	// Production exists: no first step, its plan and its up.
	results := run.Results()
	for job, want := range map[string]string{"paths": ghrunner.Success, "dev / up": ghrunner.Success, "staging / up": ghrunner.Success,
		"plan-production / plan": ghrunner.Success, "production / up": ghrunner.Success,
		"plan-production-rest": ghrunner.Skipped, "production-rest": ghrunner.Skipped} {
		if results[job] != want {
			log := ""
			if j := run.Job(job); j != nil {
				log = tail(j.Log.String(), 80)
			}
			b.Fatalf("job %q %q, want %s (every job: %v); its log:\n%s", job, results[job], want, results, log)
		}
	}

	// Every platformctl's calls, summed over the jobs.
	var calls apibudget.Calls
	for name := range results {
		j := run.Job(name)
		if j == nil {
			continue // a caller of a reusable workflow: its jobs are listed
		}
		for _, m := range callsLine.FindAllStringSubmatch(j.Log.String(), -1) {
			num := func(i int) int { v, _ := strconv.Atoi(m[i]); return v }
			calls.HarnessReads += num(1)
			calls.HarnessWrites += num(2)
			calls.GitHubReads += num(3)
			calls.GitHubWrites += num(4)
			calls.GitHubContent += num(5)
		}
	}

	if calls.IsZero() {
		b.Fatalf("no job reported its API calls; dev's up:\n%s", tail(run.Job("dev / up").Log.String(), 60))
	}

	// The stacks the merge applied: those now at its commit.
	s := w.session(b, c, io.Discard)
	var applied []string
	for _, stack := range c.AllStacks() {
		commit, err := s.DeployedCommit(context.Background(), stack)
		if err != nil {
			s.Close()
			b.Fatal(err)
		}
		if commit == sha {
			applied = append(applied, stack)
		}
	}
	s.Close()
	slices.Sort(applied)
	slices.Sort(want)
	if !slices.Equal(applied, want) {
		b.Errorf("the merge applied %v, want %v (of %d stacks)", applied, want, len(c.AllStacks()))
	}
	b.Logf("services=%d: chain deployed in %s; the merge %s, %s, on %v", n, deploy.Round(time.Second), took.Round(100*time.Millisecond),
		strings.Join(apibudget.Lines(calls.Needs(apibudget.Budgets)), "; "), applied)

	b.ReportMetric(took.Seconds(), "merge-s")
	b.ReportMetric(float64(calls.Harness()), "harness-calls")
	b.ReportMetric(float64(calls.GitHub()), "github-calls")
	b.ReportMetric(apibudget.Least(calls.Needs(apibudget.Budgets)).Minutes(), "least-min")
	b.ReportMetric(float64(len(applied)), "stacks-applied")
	b.ReportMetric(float64(len(c.AllStacks())), "stacks")
	b.ReportMetric(deploy.Seconds(), "deploy-s")
}
