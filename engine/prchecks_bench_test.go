package engine_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/engine"
	"github.com/company/harness-platform/internal/catalogtest"
	"github.com/company/harness-platform/internal/ghrunner"
	"github.com/company/harness-platform/simulated"
)

// BenchmarkPullRequestChecks measures a pull request's checks at scale
// (issue 47, item 5): on a chain deployed offline with a synthetic
// catalog of n services (dev, staging and production, every stack, by
// an engine session outside the timer), a pull request changes one
// service's entry (its image) and .github/workflows/preview.yml
// runs through internal/ghrunner as in TestWorkflowsOffline (make, the
// test jobs' command, stood in for; the previews through the pinned CLI
// with the policy pack). The timer covers the checks only: from the
// trigger to the last job done.
//
// It reports the checks' wall time here (checks-s: ghrunner runs one job
// at a time), the critical path GitHub's runners would take with the
// same job times (critical-path-s: the longest chain of needs, jobs
// without one between them at once), each job's time, each stack's
// preview (from its event log) and how far the previews overlapped, the
// stacks previewed, and the comments and comment calls. It fails unless
// every job succeeds, exactly the platform stacks and the changed
// service's stacks are previewed, the one comment is created once and
// nothing else is written, and each stack's summary is clean.
//
//	make bench-pr   (services=1000; services=100 is the quick one)
func BenchmarkPullRequestChecks(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("services=%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				pullRequestChecks(b, n)
			}
		})
	}
}

// stepMark is when a step of a job started.
type stepMark struct {
	job, step string
	at        time.Time
}

func pullRequestChecks(b *testing.B, n int) {
	b.StopTimer()
	setup := time.Now()
	w := newOfflineRunner(b)
	c, _ := w.commitSynthetic(b, n)
	ready := time.Since(setup)

	// The chain the pull request previews against, as BenchmarkUp
	// deploys dev.
	deploy, ups := w.deployChain(b, c, "")
	// (Logs kept to a few lines: a benchmark's are cut after ten.)
	b.Logf("services=%d: runner ready (the repository copied) in %s; deployed in %s: up %s",
		n, ready.Round(time.Second), deploy.Round(time.Second), strings.Join(ups, ", "))

	// The pull request: one service's entry changed.
	svc := c.Services[0]
	ev, want := w.openServicePullRequest(b, c, 1, svc.Name)

	var marks []stepMark
	w.Intercept = func(s *ghrunner.StepContext) (bool, error) {
		marks = append(marks, stepMark{job: s.Job.Name, step: s.Name, at: time.Now()})
		return false, nil
	}
	b.StartTimer()
	start := time.Now()
	run, err := w.Trigger(".github/workflows/preview.yml", ev)
	if err != nil {
		b.Fatal(err)
	}
	if err := w.Wait(); err != nil {
		b.Fatal(err)
	}
	end := time.Now()
	b.StopTimer()
	checks := end.Sub(start)
	w.reset()

	// Every job passed.
	results := run.Results()
	for _, job := range []string{"test-fast", "test-engine", "stacks", "comment", "preview"} {
		if results[job] != ghrunner.Success {
			log := ""
			if j := run.Job(job); j != nil {
				log = tail(j.Log.String(), 80)
			}
			b.Fatalf("job %q %q, want success (every job: %v); its log:\n%s", job, results[job], results, log)
		}
	}
	if made, _ := os.ReadFile(w.made); string(made) != "test-fast\ntest-engine\n" {
		b.Errorf("the test jobs ran make %q, want test-fast then test-engine", made)
	}

	// Only the stacks the change touches: every environment's platform
	// stack and the changed service's stack in each.
	stacks := previewedStacks(b, run)
	if !slices.Equal(stacks, want) {
		b.Errorf("previewed %d stacks %v, want %v (of %d)", len(stacks), stacks, want, len(c.AllStacks()))
	}

	// One comment, created once; no other write.
	comments := w.GitHub.CommentsOn(1)
	var calls []string
	for _, call := range w.GitHub.Calls {
		calls = append(calls, fmt.Sprintf("%s #%d", call.Method, call.Issue))
	}
	if len(comments) != 1 || !slices.Equal(calls, []string{"createComment #1"}) {
		b.Fatalf("%d comments on the pull request, comment calls %q: want one comment, created once", len(comments), calls)
	}
	body := comments[0].Body
	if head := fmt.Sprintf("<!-- harness-platform preview -->\n## Preview of %d stack(s)\n", len(want)); !strings.HasPrefix(body, head) {
		b.Errorf("the comment does not start with %q:\n%s", head, tail(body, 40))
	}
	// Each stack previewed on the deployed chain: nothing to create,
	// replace or delete, no policy violation; the service's entry
	// updates something.
	updated := 0
	for _, stack := range want {
		line := regexp.MustCompile("(?m)^- ✅ `" + regexp.QuoteMeta(stack) + "`: 0 to create, ([0-9]+) to update, 0 to replace, 0 to delete; 0 policy violations \\(0 mandatory\\)$").FindStringSubmatch(body)
		if line == nil {
			b.Errorf("no clean summary line of %s in the comment:\n%s", stack, tail(body, 40))
			continue
		}
		if line[1] != "0" {
			updated++
		}
	}
	if updated == 0 {
		b.Errorf("the change of %s's entry updates nothing:\n%s", svc.Name, tail(body, 40))
	}
	if !strings.Contains(body, "<details><summary>") || !strings.Contains(body, "/actions/runs/") {
		b.Errorf("the comment folds no stack's summary in, or links no run:\n%s", tail(body, 40))
	}

	// Where the time went: each step from its start to the next one's
	// (jobs run one at a time here), each job the sum of its steps.
	stepTime := map[string]time.Duration{}
	jobTime := map[string]time.Duration{}
	for i, m := range marks {
		next := end
		if i+1 < len(marks) {
			next = marks[i+1].at
		}
		stepTime[m.job+" / "+m.step] += next.Sub(m.at)
		jobTime[m.job] += next.Sub(m.at)
	}
	critical := criticalPath(run, jobTime)
	spans := previewSpans(b, run, stacks)
	var longest, sum time.Duration
	var each, steps []string
	for _, stack := range stacks {
		d := spans[stack][1].Sub(spans[stack][0])
		sum += d
		longest = max(longest, d)
		each = append(each, fmt.Sprintf("%s %s", stack, d))
	}
	union := unionOf(spans)
	for _, m := range marks {
		if m.job == "stacks" {
			steps = append(steps, fmt.Sprintf("%q %s", m.step, stepTime[m.job+" / "+m.step].Round(100*time.Millisecond)))
		}
	}
	b.Logf("services=%d: each stack's preview, its engine events' first to last (whole seconds): %s; at once: %s for %s of previews",
		n, strings.Join(each, ", "), union, sum)
	b.Logf("services=%d: the stacks job's steps: %s", n, strings.Join(steps, ", "))
	b.Logf("services=%d: deploy %s; checks %s (critical path %s): jobs %v; %d stacks previewed of %d; %d comment, calls %q",
		n, deploy.Round(time.Second), checks.Round(time.Second), critical.Round(time.Second), rounded(jobTime), len(stacks), len(c.AllStacks()), len(comments), calls)

	b.ReportMetric(deploy.Seconds(), "deploy-s")
	b.ReportMetric(checks.Seconds(), "checks-s")
	b.ReportMetric(critical.Seconds(), "critical-path-s")
	b.ReportMetric(jobTime["stacks"].Seconds(), "stacks-job-s")
	b.ReportMetric(stepTime["stacks / Preview the stacks, several at once"].Seconds(), "previews-step-s")
	b.ReportMetric((jobTime["test-fast"] + jobTime["test-engine"]).Seconds(), "test-jobs-s")
	b.ReportMetric(jobTime["comment"].Seconds(), "comment-job-s")
	b.ReportMetric(longest.Seconds(), "stack-preview-max-s")
	if union > 0 {
		// 1: the previews ran one after the other; up to PREVIEWS when
		// they overlapped fully.
		b.ReportMetric(sum.Seconds()/union.Seconds(), "previews-at-once")
	}
	b.ReportMetric(float64(len(stacks)), "stacks-previewed")
	b.ReportMetric(float64(len(c.AllStacks())), "stacks-total")
	b.ReportMetric(float64(len(comments)), "comments")
	b.ReportMetric(float64(len(calls)), "comment-calls")
}

// commitSynthetic commits a synthetic catalog of n services to the
// runner's main, and returns it with main's commit.
func (w *offlineRunner) commitSynthetic(b *testing.B, n int) (*catalog.Catalog, string) {
	b.Helper()
	files, err := catalogtest.Synthetic("..", n)
	if err != nil {
		b.Fatal(err)
	}
	c, err := catalog.Parse(files)
	if err != nil {
		b.Fatalf("synthetic catalog of %d services: %v", n, err)
	}
	sha, err := w.Origin.Commit("main", fmt.Sprintf("a catalog of %d services", n), func(dir string) error {
		for name, data := range files {
			if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), data, 0o644); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return c, sha
}

// session opens an engine session of c on the runner's offline state,
// the one the workflows' stand-ins read (HARNESS_PLATFORM_OFFLINE).
func (w *offlineRunner) session(b *testing.B, c *catalog.Catalog, out io.Writer) *engine.Session {
	b.Helper()
	s, err := engine.Open(context.Background(), engine.Options{ProjectDir: "..", Offline: true, Simulation: simulated.Simulation{}, StateDir: w.state, Catalog: c,
		Stdout: out, Stderr: out, Env: map[string]string{"PULUMI_SKIP_CHECKPOINTS": "true"}})
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// deployChain deploys every stack of every environment of c in the
// runner's offline state, each up recording commit (none for ""). It
// returns how long that took, and each environment's up for the log.
func (w *offlineRunner) deployChain(b *testing.B, c *catalog.Catalog, commit string) (time.Duration, []string) {
	b.Helper()
	start := time.Now()
	progress := &lockedBuffer{}
	s := w.session(b, c, progress)
	defer s.Close()
	var ups []string
	for _, env := range c.Chain {
		t0 := time.Now()
		if _, err := s.Up(context.Background(), env, engine.UpOptions{Commit: commit}); err != nil {
			b.Fatalf("up --stack %s: %v\n%s", env, err, tail(progress.String(), 60))
		}
		ups = append(ups, fmt.Sprintf("%s (%d stacks) %s", env, len(c.StacksOf(env)), time.Since(t0).Round(time.Second)))
	}
	return time.Since(start), ups
}

// openServicePullRequest commits a change of service's entry in
// catalog/services.yaml (its image, edited in place) on a branch, opens
// pull request number for it, and returns its event with the stacks the
// change touches, in chain order: every environment's platform stack
// and the service's stack in each (internal/platformctl's affectedStacks).
//
// In place: a change that adds or removes a line (a description added)
// shifts the position of every later entry, which affectedStacks
// compares too (catalog.Service.Pos), and every stack holding a later
// service is previewed.
func (w *offlineRunner) openServicePullRequest(tb testing.TB, c *catalog.Catalog, number int, service string) (ghrunner.Event, []string) {
	tb.Helper()
	svc, ok := c.Service(service)
	if !ok {
		tb.Fatalf("no service %s", service)
	}
	var want []string
	for _, env := range c.Chain {
		want = append(want, env, catalog.ServiceStackName(env, svc.Stack))
	}
	base, err := w.Origin.Head("main")
	if err != nil {
		tb.Fatal(err)
	}
	branch := fmt.Sprintf("change-%d", number)
	head, err := w.Origin.Commit(branch, service+"'s image", func(dir string) error {
		file := filepath.Join(dir, filepath.FromSlash(catalog.ServicesFile))
		data, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		line := "    image: " + svc.Image + "\n"
		if bytes.Count(data, []byte(line)) != 1 {
			return fmt.Errorf("%s: no single line %q", catalog.ServicesFile, line)
		}
		changed := bytes.Replace(data, []byte(line), []byte(fmt.Sprintf("    image: %s-pr%d\n", svc.Image, number)), 1)
		return os.WriteFile(file, changed, 0o644)
	})
	if err != nil {
		tb.Fatal(err)
	}
	if err := w.Origin.SetRef(fmt.Sprintf("refs/pull/%d/merge", number), head); err != nil {
		tb.Fatal(err)
	}
	w.GitHub.Issues = append(w.GitHub.Issues, ghrunner.Issue{Number: number, Title: service + "'s image", State: "open", PullRequest: true})
	return pullRequest(number, base, head, branch), want
}

// previewedStacks are the stacks the run's preview job listed (its
// artifact's stacks.txt).
func previewedStacks(tb testing.TB, run *ghrunner.Run) []string {
	tb.Helper()
	a := run.Artifacts["preview"]
	if a == nil {
		tb.Fatalf("run #%d uploaded no preview artifact", run.ID)
	}
	data, err := os.ReadFile(filepath.Join(a.Dir, "stacks.txt"))
	if err != nil {
		tb.Fatal(err)
	}
	return strings.Fields(string(data))
}

// criticalPath is how long the run's jobs take when each starts as soon
// as the jobs it needs are done, as GitHub runs them: the longest chain
// of needs, with each job's time as measured.
func criticalPath(run *ghrunner.Run, took map[string]time.Duration) time.Duration {
	done := map[*ghrunner.Job]time.Duration{}
	var finish func(j *ghrunner.Job) time.Duration
	finish = func(j *ghrunner.Job) time.Duration {
		if d, ok := done[j]; ok {
			return d
		}
		var after time.Duration
		for _, need := range j.Needs {
			after = max(after, finish(need))
		}
		done[j] = after + took[j.Name]
		return done[j]
	}
	var out time.Duration
	for _, j := range run.Jobs {
		out = max(out, finish(j))
	}
	return out
}

// previewSpans are, by stack, the first and last engine event times of
// its preview (the artifact's events-<stack>.jsonl; whole seconds).
func previewSpans(tb testing.TB, run *ghrunner.Run, stacks []string) map[string][2]time.Time {
	tb.Helper()
	out := map[string][2]time.Time{}
	for _, stack := range stacks {
		f, err := os.Open(filepath.Join(run.Artifacts["preview"].Dir, "events-"+stack+".jsonl"))
		if err != nil {
			tb.Fatalf("the preview of %s left no event log: %v", stack, err)
		}
		var first, last int64
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			var e struct {
				Timestamp int64 `json:"timestamp"`
			}
			if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Timestamp == 0 {
				continue
			}
			if first == 0 {
				first = e.Timestamp
			}
			last = e.Timestamp
		}
		err = sc.Err()
		f.Close()
		if err != nil || first == 0 {
			tb.Fatalf("the event log of %s: no timed event (%v)", stack, err)
		}
		out[stack] = [2]time.Time{time.Unix(first, 0), time.Unix(last+1, 0)}
	}
	return out
}

// unionOf is how long at least one of spans was running.
func unionOf(spans map[string][2]time.Time) time.Duration {
	var all [][2]time.Time
	for _, s := range spans {
		all = append(all, s)
	}
	sort.Slice(all, func(i, j int) bool { return all[i][0].Before(all[j][0]) })
	var out time.Duration
	var cur [2]time.Time
	for i, s := range all {
		switch {
		case i == 0:
			cur = s
		case !s[0].After(cur[1]):
			if s[1].After(cur[1]) {
				cur[1] = s[1]
			}
		default:
			out += cur[1].Sub(cur[0])
			cur = s
		}
	}
	if len(all) > 0 {
		out += cur[1].Sub(cur[0])
	}
	return out
}

func rounded(m map[string]time.Duration) string {
	var out []string
	for k, d := range m {
		out = append(out, k+" "+strconv.FormatFloat(d.Seconds(), 'f', 1, 64)+"s")
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}
