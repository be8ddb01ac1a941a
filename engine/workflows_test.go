package engine_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/company/harness-platform/engine"
	"github.com/company/harness-platform/internal/catalogtest"
	exampletest "github.com/company/harness-platform/internal/example"
	"github.com/company/harness-platform/internal/ghrunner"
	"github.com/company/harness-platform/internal/ghrunner/offlinepulumi"
	"github.com/company/harness-platform/internal/platformctl"
	"github.com/company/harness-platform/plan"
	"github.com/company/harness-platform/trust"
)

// The workflows' own steps, offline: .github/workflows run by
// internal/ghrunner in the order GitHub would run them, their run:
// steps with bash and platformctl through the real Pulumi CLI against
// the simulated cloud (HARNESS_PLATFORM_OFFLINE), each uses: action
// stood in for (ghrunner's doc comments say what each does not do).
//
// This test binary is also the `pulumi` pulumi/actions' stand-in puts on
// PATH (offlinepulumi), and the platformctl the workflows' `go run
// ./cmd/platformctl` runs (goShim): run under either name, it is that.
// Linking a platformctl of its own took the test a minute on 2 cores.
func init() {
	switch filepath.Base(os.Args[0]) {
	case "pulumi":
		os.Exit(offlinepulumi.Main(os.Args[1:]))
	case "platformctl":
		os.Exit(platformctl.Run(os.Args[1:], os.Stdout, os.Stderr))
	}
}

// offlineRunner is a ghrunner.Runner of a copy of the project, offline.
type offlineRunner struct {
	*ghrunner.Runner
	state string
	// made is the make stand-in's record: the test jobs' make targets.
	made string
	log  *lockedBuffer
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// goShim stands in for actions/setup-go's go with its cache warm: `go
// run ./cmd/platformctl ARGS` runs platformctl, this test binary under
// that name (cmd/platformctl is internal/platformctl.Run; the runs'
// commits change no Go source), failing with exit status 1 as go run
// does; `go build -o OUT ./cmd/platformctl` copies it (OUT must be named
// platformctl); anything else is the machine's go.
const goShim = `#!/usr/bin/env bash
if [ "$1" = run ] && [ "$2" = ./cmd/platformctl ]; then
  shift 2
  "@PLATFORMCTL@" "$@" && exit 0
  echo "exit status $?" >&2
  exit 1
fi
if [ "$1" = build ] && [ "$2" = -o ] && [ "$4" = ./cmd/platformctl ] && [ $# -eq 4 ]; then
  if [ "$(basename "$3")" != platformctl ]; then
    echo "go build -o $3: the stand-in's platformctl runs only under that name" >&2
    exit 1
  fi
  exec cp "@PLATFORMCTL@" "$3"
fi
exec "@GO@" "$@"
`

// makeShim stands in for make in the pull request's test jobs: make
// test-fast and make test-engine are the suites this test belongs to;
// it records the target and passes. Any other target fails.
const makeShim = `#!/usr/bin/env bash
case "$*" in
test-fast|test-engine) echo "$*" >> "@LOG@" ;;
*) echo "make $*: not stood in for" >&2; exit 2 ;;
esac
`

func writeScript(t testing.TB, path, text string, repl ...string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.NewReplacer(repl...).Replace(text)), 0o755); err != nil {
		t.Fatal(err)
	}
}

// newOfflineRunner makes the repository from the project's working tree
// (what git would commit), platformctl, the stand-ins, and an empty
// offline state.
func newOfflineRunner(t testing.TB) *offlineRunner {
	t.Helper()
	if _, err := engine.FindCLI(); err != nil {
		t.Fatalf("%v (make test installs it)", err)
	}
	root := t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(root, "bin")
	platformctl := filepath.Join(bin, "platformctl")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(self, platformctl); err != nil {
		t.Fatal(err)
	}
	realGo, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	goDir, pulumiDir, machineDir := filepath.Join(root, "setup-go"), filepath.Join(root, "pulumi"), filepath.Join(root, "machine")
	writeScript(t, filepath.Join(goDir, "go"), goShim, "@PLATFORMCTL@", platformctl, "@GO@", realGo)
	made := filepath.Join(root, "made")
	writeScript(t, filepath.Join(machineDir, "make"), makeShim, "@LOG@", made)
	if err := os.MkdirAll(pulumiDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(self, filepath.Join(pulumiDir, "pulumi")); err != nil {
		t.Fatal(err)
	}
	shared, err := filepath.Abs(filepath.Join("..", "..", "shared"))
	if err != nil {
		t.Fatal(err)
	}
	origin, err := ghrunner.NewOrigin(exampletest.L(t, "company/harness-platform"), "..", filepath.Join(root, "origin"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := trust.Load()
	if err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(root, "state")
	engine.QuietCLILog(t, state)
	env := map[string]string{
		"PATH": machineDir + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME": os.Getenv("HOME"), "LANG": "C.UTF-8",
		// The offline stand-in of the real services: platformctl runs
		// as with --offline --state, the pulumi stand-in on the same
		// state.
		"HARNESS_PLATFORM_OFFLINE": state,
		// Where the state backups go against the real backend (offline
		// they go beside the state): the workflows upload them.
		"HARNESS_PLATFORM_BACKUP_DIR": ".backups",
		// As in the engine's tests (testEnv): the CLI writes each
		// stack's state once per operation, half its time.
		"PULUMI_SKIP_CHECKPOINTS": "true",
	}
	for _, k := range []string{"GOPATH", "GOCACHE", "GOMODCACHE", "GOFLAGS", "GOPROXY", "GOTOOLCHAIN", "XDG_CACHE_HOME", "PULUMI_CLI_CACHE", "TMPDIR", "GOGC"} {
		if v := os.Getenv(k); v != "" {
			env[k] = v
		}
	}
	log := &lockedBuffer{}
	r := &ghrunner.Runner{
		Origin: origin,
		Root:   filepath.Join(root, "runs"),
		Env:    env,
		Repos:  map[string]string{exampletest.L(t, "company/harness-platform-shared"): shared},
		Beside: map[string]string{"shared": shared},
		Log:    log,
		GitHub: &ghrunner.GitHubAPI{},
		Actions: map[string]ghrunner.Action{
			"actions/checkout":          ghrunner.Checkout,
			"actions/setup-go":          ghrunner.SetupGo(goDir),
			"actions/cache":             ghrunner.Cache,
			"actions/upload-artifact":   ghrunner.UploadArtifact,
			"actions/download-artifact": ghrunner.DownloadArtifact,
			"actions/github-script":     ghrunner.GitHubScript,
			"pulumi/auth-actions":       ghrunner.AuthActions(m),
			"pulumi/esc-action":         ghrunner.EscAction(m),
			"pulumi/actions":            ghrunner.PulumiActions(engine.CLIVersion, pulumiDir),
		},
	}
	// The environments' protection rules are those the program declares
	// (plan.RepositoryEnvironment); a reviewer of the platform team who
	// did not start the run approves each job as it asks.
	r.Protections, r.Review = declaredProtections(t)
	w := &offlineRunner{Runner: r, state: state, made: made, log: log}
	keepLog(t, log, "")
	return w
}

// declaredProtections are the GitHub environments' protection rules the
// dev platform stack declares, and a review that approves as a member of
// their first reviewing team.
func declaredProtections(t testing.TB) (map[string]ghrunner.Protection, func(*ghrunner.Job) *ghrunner.Decision) {
	t.Helper()
	p, err := plan.Build(catalogtest.Example(t, ".."), "dev")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]ghrunner.Protection{}
	if p.GitHub == nil || p.GitHub.Repository == nil || len(p.GitHub.Repository.Environments) == 0 {
		t.Fatal("the dev platform stack declares no GitHub environment")
	}
	for _, e := range p.GitHub.Repository.Environments {
		out[e.Name] = ghrunner.Protection{Reviewers: e.ReviewerTeams, PreventSelfReview: e.PreventSelfReview}
	}
	return out, func(j *ghrunner.Job) *ghrunner.Decision {
		pr := out[j.Environment]
		return &ghrunner.Decision{User: "platform-reviewer", Team: pr.Reviewers[0]}
	}
}

// keepLog prints the end of a runner's log when t fails; GHRUNNER_LOG=FILE
// keeps all of it (every step's output) in FILE+suffix.
func keepLog(t testing.TB, log *lockedBuffer, suffix string) {
	file := os.Getenv("GHRUNNER_LOG")
	if file != "" {
		file += suffix
	}
	t.Cleanup(func() {
		if file != "" {
			_ = os.WriteFile(file, []byte(log.String()), 0o644)
		}
		if t.Failed() {
			t.Logf("the runner's log:\n%s", tail(log.String(), 400))
		}
	})
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = append([]string{fmt.Sprintf("... %d lines before", len(lines)-n)}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}

// fork is a runner that goes on from w as it stands, on a copy of its
// offline state: what either runs next is its own.
func (w *offlineRunner) fork(t *testing.T) *offlineRunner {
	t.Helper()
	root := t.TempDir()
	state := filepath.Join(root, "state")
	if err := os.CopyFS(state, os.DirFS(w.state)); err != nil {
		t.Fatal(err)
	}
	r, err := w.Runner.Fork(filepath.Join(root, "origin"), filepath.Join(root, "runs"))
	if err != nil {
		t.Fatal(err)
	}
	r.Env = maps.Clone(w.Env)
	r.Env["HARNESS_PLATFORM_OFFLINE"] = state
	f := &offlineRunner{Runner: r, state: state, made: w.made, log: &lockedBuffer{}}
	r.Log = f.log
	keepLog(t, f.log, ".fork")
	return f
}

// reset drops the hooks a scenario set.
func (w *offlineRunner) reset() {
	w.Intercept, w.OnStart, w.OnPending, w.Hold = nil, nil, nil, nil
}

func (w *offlineRunner) trigger(t *testing.T, path string, ev ghrunner.Event) *ghrunner.Run {
	t.Helper()
	run, err := w.Trigger(path, ev)
	if err != nil {
		t.Fatal(err)
	}
	return run
}

func (w *offlineRunner) wait(t *testing.T) {
	t.Helper()
	if err := w.Wait(); err != nil {
		t.Fatal(err)
	}
}

// wantResults fails unless the run's jobs ended as want says, with the
// logs of those that did not.
func wantResults(t *testing.T, run *ghrunner.Run, want map[string]string) {
	t.Helper()
	got := run.Results()
	for job, res := range want {
		if got[job] != res {
			log := ""
			if j := run.Job(job); j != nil {
				log = tail(j.Log.String(), 80)
			}
			t.Errorf("run #%d (%s): job %q %q, want %q; its log:\n%s", run.ID, run.Workflow.Path, job, got[job], res, log)
		}
	}
	if t.Failed() {
		t.Logf("every job: %v", got)
	}
}

func pullRequest(number int, base, head, branch string) ghrunner.Event {
	return ghrunner.Event{Name: "pull_request", Ref: fmt.Sprintf("refs/pull/%d/merge", number), SHA: head,
		Payload: map[string]any{"number": float64(number), "pull_request": map[string]any{"number": float64(number),
			"base": map[string]any{"sha": base, "ref": "main"}, "head": map[string]any{"sha": head, "ref": branch}}}}
}

func push(sha string) ghrunner.Event {
	return ghrunner.Event{Name: "push", Ref: "refs/heads/main", SHA: sha, Payload: map[string]any{"ref": "refs/heads/main", "after": sha}}
}

// openPullRequest commits a change of a service's description on a
// branch and opens pull request number for it.
func (w *offlineRunner) openPullRequest(t *testing.T, number int, description string) (ev ghrunner.Event, branch string) {
	t.Helper()
	base, err := w.Origin.Head("main")
	if err != nil {
		t.Fatal(err)
	}
	branch = fmt.Sprintf("change-%d", number)
	head, err := w.Origin.Commit(branch, "a service's description", func(dir string) error {
		file := filepath.Join(dir, "catalog", "services.yaml")
		data, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		re := regexp.MustCompile(`(?m)^(    description: ).*$`)
		loc := re.FindIndex(data)
		if loc == nil {
			return errors.New("catalog/services.yaml describes no service")
		}
		out := append(append(slices.Clone(data[:loc[0]]), []byte("    description: "+description)...), data[loc[1]:]...)
		return os.WriteFile(file, out, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Origin.SetRef(fmt.Sprintf("refs/pull/%d/merge", number), head); err != nil {
		t.Fatal(err)
	}
	w.GitHub.Issues = append(w.GitHub.Issues, ghrunner.Issue{Number: number, Title: description, State: "open", PullRequest: true})
	return pullRequest(number, base, head, branch), branch
}

// comment is the preview comment on pull request number: its only one.
func (w *offlineRunner) comment(t *testing.T, number int) string {
	t.Helper()
	cs := w.GitHub.CommentsOn(number)
	if len(cs) != 1 {
		t.Fatalf("pull request #%d has %d comments, want the preview's one: %+v", number, len(cs), cs)
	}
	return cs[0].Body
}

// started are the jobs started, in order, whose name is job.
func (w *offlineRunner) started(job string) []string {
	var out []string
	for _, s := range w.Started {
		if strings.HasSuffix(s, " "+job) {
			out = append(out, s)
		}
	}
	return out
}

func artifactNames(run *ghrunner.Run) []string {
	var out []string
	for name := range run.Artifacts {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

func stacksOf(t *testing.T, run *ghrunner.Run) []string {
	t.Helper()
	a := run.Artifacts["preview"]
	if a == nil {
		t.Fatalf("run #%d uploaded no preview artifact", run.ID)
	}
	data, err := os.ReadFile(filepath.Join(a.Dir, "stacks.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Fields(string(data))
}

// A pull request, a merge to a fresh chain, a pull request on the
// deployed chain, a rerun of a failed job in each of the first two, and
// a scheduled drift check queued behind a pending up: the workflows'
// jobs in the order GitHub would run them, each on this machine.
func TestWorkflowsOffline(t *testing.T) {
	t.Parallel()
	start := time.Now()
	w := newOfflineRunner(t)
	t.Logf("setup (the repository copied, the stand-ins written): %s", time.Since(start).Round(time.Second))
	lap := func(name string, t0 time.Time) { t.Logf("%s: %s", name, time.Since(t0).Round(time.Second)) }

	// (a) A pull request before anything is deployed: the tests' jobs
	// (make stood in for), the stack previews (none exists yet: the
	// merge's up creates them), the one comment. The preview job is lost
	// once after its upload; its rerun uploads the artifact again
	// (overwrite) and the comment is updated in place.
	pr1, branch1 := w.openPullRequest(t, 1, "Card and wallet payments, changed by pull request 1.")
	if !t.Run("pull request, its preview job rerun", func(t *testing.T) {
		t0 := time.Now()
		defer w.reset()
		defer lap("pull request before the chain exists, with a rerun", t0)
		w.Intercept = func(s *ghrunner.StepContext) (bool, error) {
			// A failing unit test: the required check fails, so the
			// branch protection the program declares blocks the merge.
			if s.Job.Name == "test-fast" && s.Job.Run.Attempt == 1 && strings.Contains(s.Name, "(make test-fast)") {
				return true, errors.New("injected: a unit test failed (make test-fast exited 2)")
			}
			if s.Job.Name == "stacks" && s.Job.Run.Attempt == 1 && strings.HasPrefix(s.Uses, "actions/upload-artifact@") {
				if err := ghrunner.UploadArtifact(s); err != nil {
					return true, err
				}
				return true, errors.New("injected: the runner lost its connection after the upload")
			}
			return false, nil
		}
		run := w.trigger(t, ".github/workflows/preview.yml", pr1)
		w.wait(t)
		wantResults(t, run, map[string]string{"test-fast": ghrunner.Failure, "test-engine": ghrunner.Skipped, "stacks": ghrunner.Failure,
			"comment": ghrunner.Success, "preview": ghrunner.Failure})
		// The failed check is the one main's protection requires: the
		// merge is blocked until a rerun passes.
		if p, err := plan.Build(catalogtest.Example(t, ".."), "dev"); err != nil || p.GitHub.Repository.RequiredCheck != plan.PreviewCheck+":"+plan.GitHubActionsAppID {
			t.Errorf("main's protection does not require the preview check: %v", err)
		}
		if log := run.Job("preview").Log.String(); !strings.Contains(log, "a job of the pull request's checks ended failure") {
			t.Errorf("the preview check's log:\n%s", tail(log, 20))
		}
		first := w.comment(t, 1)
		w.RerunFailed(run)
		w.wait(t)
		wantResults(t, run, map[string]string{"test-fast": ghrunner.Success, "test-engine": ghrunner.Success, "stacks": ghrunner.Success,
			"comment": ghrunner.Success, "preview": ghrunner.Success})
		if j := run.Job("test-fast"); j.Attempt != 2 {
			t.Errorf("the rerun did not run the failed test-fast again (attempt %d)", j.Attempt)
		}
		if made, _ := os.ReadFile(w.made); string(made) != "test-fast\ntest-engine\n" {
			t.Errorf("the test jobs ran make %q", made)
		}
		if a := run.Artifacts["preview"]; a == nil || a.Attempt != 2 {
			t.Errorf("the preview artifact after the rerun: %+v", a)
		}
		body := w.comment(t, 1)
		stacks := stacksOf(t, run)
		if !strings.HasPrefix(body, "<!-- harness-platform preview -->\n## Preview of "+fmt.Sprint(len(stacks))+" stack(s)\n") || len(stacks) < 6 {
			t.Errorf("the comment on %d stacks %v:\n%s", len(stacks), stacks, body)
		}
		for _, stack := range stacks {
			if !strings.Contains(body, "- ➕ `"+stack+"`: does not exist yet: the merge's up creates it\n") {
				t.Errorf("the comment does not say %s does not exist yet:\n%s", stack, body)
			}
		}
		var calls []string
		for _, c := range w.GitHub.Calls {
			calls = append(calls, fmt.Sprintf("%s #%d by run %d", c.Method, c.Issue, c.Run))
		}
		if want := []string{"createComment #1 by run 1001", "updateComment #1 by run 1001"}; !slices.Equal(calls, want) || first == "" {
			t.Errorf("comment calls %q, want %q", calls, want)
		}
	}) {
		return
	}

	// (b) The merge, to a fresh chain: dev, staging, production's plan
	// and, production being new, its first step applied, then the rest
	// planned and applied, each up after its environment's approval.
	// Production's up fails once before it changes anything; the rerun
	// applies the plan its first attempt's plan-production uploaded.
	if !t.Run("merge to a fresh chain, production rerun", func(t *testing.T) {
		t0 := time.Now()
		defer w.reset()
		defer lap("merge to a fresh chain, with a rerun", t0)
		sha, err := w.Origin.Merge(branch1, "Merge pull request #1")
		if err != nil {
			t.Fatal(err)
		}
		w.Intercept = func(s *ghrunner.StepContext) (bool, error) {
			if s.Job.Name == "production / up" && s.Job.Run.Attempt == 1 && s.Name == "Preflight of production" {
				return true, errors.New("injected: an expired credential")
			}
			return false, nil
		}
		run := w.trigger(t, ".github/workflows/up.yml", push(sha))
		w.wait(t)
		wantResults(t, run, map[string]string{"paths": ghrunner.Success, "dev / up": ghrunner.Success, "staging / up": ghrunner.Success,
			"plan-production / plan": ghrunner.Success, "production / up": ghrunner.Failure, "plan-production-rest": ghrunner.Skipped,
			"production-rest": ghrunner.Skipped})
		if t.Failed() {
			return
		}
		if got := run.Job("plan-production").Outputs["first-step"]; got != "true" {
			t.Errorf("plan-production's first-step %q, want true: production is new", got)
		}
		w.RerunFailed(run)
		w.wait(t)
		// production-rest's up applies the plan its plan job saved with
		// the read-only GitHub App's token, with the writing App's: the
		// token is no provider input (components.newGitHubProvider).
		wantResults(t, run, map[string]string{"production / up": ghrunner.Success, "plan-production-rest / plan": ghrunner.Success,
			"production-rest / up": ghrunner.Success})
		var approvals []string
		for _, a := range w.Approvals {
			approvals = append(approvals, fmt.Sprintf("%s.%d %s", a.Job, a.Attempt, a.Environment))
			// The environments the program protects wait for a
			// reviewer of the platform team; dev deploys at once.
			if want := map[bool]string{true: "", false: "platform-reviewer"}[a.Environment == "dev"]; a.Reviewer != want {
				t.Errorf("%s approved by %q, want %q", a.Job, a.Reviewer, want)
			}
		}
		if want := []string{"dev / up.1 dev", "staging / up.1 staging", "production / up.1 production", "production / up.2 production",
			"production-rest / up.2 production"}; !slices.Equal(approvals, want) {
			t.Errorf("approvals %q, want %q", approvals, want)
		}
		id := run.ID
		for name, attempt := range map[string]int{fmt.Sprintf("plans-production-%d-1", id): 1, fmt.Sprintf("plans-production-%d-2", id): 2} {
			if a := run.Artifacts[name]; a == nil || a.Attempt != attempt {
				t.Errorf("artifact %s: %+v, want attempt %d's", name, a, attempt)
			}
		}
		if a := run.Artifacts[fmt.Sprintf("plans-production-%d-1", id)]; a == nil || !slices.Contains(a.Files, "production.first.json") {
			t.Errorf("the first plan is not a first step: %+v", a)
		}
		// The production up of attempt 2 applied attempt 1's first step.
		if log := run.Job("production / up").Log.String(); !strings.Contains(log, "downloaded artifact plans-production-"+fmt.Sprint(id)+"-1 (attempt 1's)") ||
			!strings.Contains(log, "production: applying the plan's first step") {
			t.Errorf("production's rerun did not apply the first attempt's first step:\n%s", tail(log, 60))
		}
		// The first ups of dev and staging had nothing to back up; the
		// up of production's rest backed up its first step.
		if a := run.Artifacts[fmt.Sprintf("state-backups-production-%d-2-2", id)]; a == nil || len(a.Files) == 0 {
			t.Errorf("production's state backups were not uploaded: %+v (artifacts %v)", a, artifactNames(run))
		}
	}) {
		return
	}

	// (a') and (d) go on from the deployed chain side by side, (d) on a
	// fork of the runner and a copy of the state: (d) merges the pull
	// request (a') previews, which changes the chain (a') reads. Each
	// runs in a goroutine of this test's, not as a parallel subtest,
	// which would wait for a free slot of -parallel (150 s under make
	// test) though this test holds one.
	pr2, branch2 := w.openPullRequest(t, 2, "Card and wallet payments, changed by pull request 2.")
	queued := w.fork(t)
	drifted := w.fork(t)
	var sideBySide sync.WaitGroup
	defer func() {
		sideBySide.Wait()
		t.Logf("every scenario: %s", time.Since(start).Round(time.Second))
	}()

	// (a') A pull request on the deployed chain: every stack previewed
	// (through the pinned CLI, with the policy pack), the comment holds
	// each stack's summary.
	sideBySide.Go(func() {
		t.Run("pull request on the deployed chain", pullRequestOnTheDeployedChain(w, pr2, lap))
	})
	// (d) The nightly drift check queued behind a pending up: a drift
	// check run by hand holds dev's group; the merge of pull request 2
	// queues its dev up behind it; the scheduled check then queues
	// behind that. With queue: max all three run, in that order, and
	// nothing is cancelled (TestWorkflowsQueueInOrder, in delivery/,
	// shows the same runs without queue: max cancelling the up).
	sideBySide.Go(func() {
		t.Run("scheduled drift check queued behind a pending up", driftCheckQueuedBehindAnUp(queued, branch2, lap))
	})
	// (e) Drift found, still there, gone: the drift check opens its
	// environment's issue, updates it, and closes it.
	sideBySide.Go(func() {
		t.Run("drift opens, updates and closes its issue", driftIssueLifecycle(drifted, lap))
	})
}

// driftIssueLifecycle edits a Harness service in the simulated cloud
// (drift: a change made outside Pulumi), runs the drift check three
// times (drifted, still drifted, the edit undone) and follows the issue
// drift.yml keeps: opened with the drift label, updated in place, closed
// with a comment.
func driftIssueLifecycle(w *offlineRunner, lap func(string, time.Time)) func(*testing.T) {
	return func(t *testing.T) {
		t0 := time.Now()
		defer w.reset()
		defer lap("drift opens, updates and closes its issue", t0)
		path := filepath.Join(w.state, "cloud", "harness.json")
		original, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var records map[string]map[string]any
		if err := json.Unmarshal(original, &records); err != nil {
			t.Fatal(err)
		}
		edited := ""
		for _, id := range slices.Sorted(maps.Keys(records)) {
			if r := records[id]; r["type"] == "harness:platform/service:Service" {
				r["properties"].(map[string]any)["description"] = "edited in the Harness UI"
				edited = id
				break
			}
		}
		if edited == "" {
			t.Fatal("no Harness service in the simulated cloud")
		}
		data, _ := json.MarshalIndent(records, "", "  ")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		main, err := w.Origin.Head("main")
		if err != nil {
			t.Fatal(err)
		}
		check := func() *ghrunner.Run {
			run := w.trigger(t, ".github/workflows/drift.yml", ghrunner.Event{Name: "workflow_dispatch", Ref: "refs/heads/main", SHA: main, Payload: map[string]any{}})
			w.wait(t)
			return run
		}
		driftIssues := func() []ghrunner.Issue {
			var out []ghrunner.Issue
			for _, i := range w.GitHub.Issues {
				if slices.Contains(i.Labels, "drift") {
					out = append(out, i)
				}
			}
			return out
		}
		first := check()
		var failed []string
		for _, env := range []string{"dev", "staging", "production"} {
			if first.Job("drift ("+env+")").Result == ghrunner.Failure {
				failed = append(failed, env)
			}
		}
		issues := driftIssues()
		if len(failed) != 1 || len(issues) != 1 || issues[0].State != "open" || issues[0].Title != "Drift in stack "+failed[0] ||
			!strings.Contains(issues[0].Body, fmt.Sprint(first.ID)) {
			t.Fatalf("drift in %s (service %s): the check failed %v, issues %+v", failed, edited, failed, issues)
		}
		second := check()
		if issues := driftIssues(); len(issues) != 1 || issues[0].State != "open" || !strings.Contains(issues[0].Body, fmt.Sprint(second.ID)) {
			t.Errorf("still drifted: the issue is not the same one, updated: %+v", issues)
		}
		if err := os.WriteFile(path, original, 0o600); err != nil {
			t.Fatal(err)
		}
		third := check()
		wantResults(t, third, map[string]string{"drift (dev)": ghrunner.Success, "drift (staging)": ghrunner.Success, "drift (production)": ghrunner.Success})
		if issues := driftIssues(); len(issues) != 1 || issues[0].State != "closed" {
			t.Errorf("drift undone: the issue is not closed: %+v", issues)
		}
		closed := false
		for _, c := range w.GitHub.Comments {
			if c.IssueNumber == issues[0].Number && strings.Contains(c.Body, "No drift any more") && strings.Contains(c.Body, fmt.Sprint(third.ID)) {
				closed = true
			}
		}
		if !closed {
			t.Errorf("the closed issue has no comment of the clean run: %+v", w.GitHub.Comments)
		}
	}
}

func pullRequestOnTheDeployedChain(w *offlineRunner, pr2 ghrunner.Event, lap func(string, time.Time)) func(*testing.T) {
	return func(t *testing.T) {
		t0 := time.Now()
		defer w.reset()
		defer lap("pull request on the deployed chain", t0)
		run := w.trigger(t, ".github/workflows/preview.yml", pr2)
		w.wait(t)
		wantResults(t, run, map[string]string{"stacks": ghrunner.Success, "comment": ghrunner.Success, "preview": ghrunner.Success})
		body := w.comment(t, 2)
		updated := 0
		for _, stack := range stacksOf(t, run) {
			line := regexp.MustCompile("(?m)^- ✅ `" + regexp.QuoteMeta(stack) + "`: [0-9]+ to create, ([0-9]+) to update, 0 to replace, 0 to delete; 0 policy violations \\(0 mandatory\\)$").FindStringSubmatch(body)
			if line == nil {
				t.Errorf("no summary line of %s:\n%s", stack, body)
				continue
			}
			if line[1] != "0" {
				updated++
			}
		}
		if updated == 0 || !strings.Contains(body, "<details><summary>") {
			t.Errorf("a changed description updates nothing, or no stack's summary is folded in:\n%s", body)
		}
	}
}

func driftCheckQueuedBehindAnUp(w *offlineRunner, branch2 string, lap func(string, time.Time)) func(*testing.T) {
	return func(t *testing.T) {
		t0 := time.Now()
		defer w.reset()
		defer lap("drift check queued behind a pending up", t0)
		var up, scheduled *ghrunner.Run
		w.Hold = func(j *ghrunner.Job) bool { return j.Name == "drift (dev)" && j.Run.Event.Name == "workflow_dispatch" }
		w.OnStart = func(j *ghrunner.Job) {
			if j.Name == "drift (dev)" && j.Run.Event.Name == "workflow_dispatch" && up == nil {
				sha, err := w.Origin.Merge(branch2, "Merge pull request #2")
				if err != nil {
					t.Fatal(err)
				}
				up = w.trigger(t, ".github/workflows/up.yml", push(sha))
			}
		}
		w.OnPending = func(j *ghrunner.Job) {
			if up != nil && j.Run == up && j.Name == "dev / up" && scheduled == nil {
				scheduled = w.trigger(t, ".github/workflows/drift.yml", ghrunner.Event{Name: "schedule", Ref: "refs/heads/main", SHA: up.Event.SHA,
					Payload: map[string]any{"schedule": "17 5 * * *"}})
			}
		}
		main, err := w.Origin.Head("main")
		if err != nil {
			t.Fatal(err)
		}
		byHand := w.trigger(t, ".github/workflows/drift.yml", ghrunner.Event{Name: "workflow_dispatch", Ref: "refs/heads/main", SHA: main, Payload: map[string]any{}})
		w.wait(t)
		if up == nil || scheduled == nil {
			t.Fatalf("the up (%v) or the scheduled check (%v) never queued", up != nil, scheduled != nil)
		}
		for _, run := range []*ghrunner.Run{byHand, scheduled} {
			wantResults(t, run, map[string]string{"drift (dev)": ghrunner.Success, "drift (staging)": ghrunner.Success, "drift (production)": ghrunner.Success})
		}
		wantResults(t, up, map[string]string{"dev / up": ghrunner.Success, "staging / up": ghrunner.Success, "plan-production / plan": ghrunner.Success,
			"production / up": ghrunner.Success, "plan-production-rest": ghrunner.Skipped, "production-rest": ghrunner.Skipped})
		if a := up.Artifacts[fmt.Sprintf("state-backups-dev-%d-1-1", up.ID)]; a == nil || len(a.Files) == 0 {
			t.Errorf("dev's state backups were not uploaded: %+v (artifacts %v)", a, artifactNames(up))
		}
		var dev []string
		for _, s := range w.Started {
			if strings.HasSuffix(s, " drift (dev)") || strings.HasSuffix(s, " dev / up") {
				dev = append(dev, s)
			}
		}
		// The group's order: the merge's dev up from (a)'s run first, then
		// this scenario's.
		want := []string{fmt.Sprintf("#%d.1 drift (dev)", byHand.ID), fmt.Sprintf("#%d.1 dev / up", up.ID), fmt.Sprintf("#%d.1 drift (dev)", scheduled.ID)}
		if len(dev) < 3 || !slices.Equal(dev[len(dev)-3:], want) {
			t.Errorf("stack-dev's jobs started %q, want them to end with %q", dev, want)
		}
		if len(w.Cancellations) != 0 {
			t.Errorf("cancelled: %q", w.Cancellations)
		}
		if got := up.Job("plan-production").Outputs["first-step"]; got != "false" {
			t.Errorf("plan-production of a deployed production: first-step %q", got)
		}
		for _, i := range w.GitHub.Issues {
			if slices.Contains(i.Labels, "drift") {
				t.Errorf("a drift issue: %+v", i)
			}
		}
	}
}
