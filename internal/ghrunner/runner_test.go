package ghrunner

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/company/harness-platform/internal/example"
	"github.com/company/harness-platform/trust"
)

// repo is this program's repository, as the files name it.
var repo = example.Value("company/harness-platform")

// newRunner is a runner of a repository holding files, its steps run
// with the test's PATH and HOME.
func newRunner(t *testing.T, files map[string]string) (*Runner, string) {
	t.Helper()
	root := t.TempDir()
	o, err := OriginOf(repo, filepath.Join(root, "origin"), files)
	if err != nil {
		t.Fatal(err)
	}
	sha, err := git(o.Dir, "rev-parse", "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	r := &Runner{Origin: o, Root: filepath.Join(root, "runs"), Log: &log,
		Env:     map[string]string{"PATH": os.Getenv("PATH"), "HOME": os.Getenv("HOME"), "SHARED": filepath.Join(root, "shared")},
		Actions: map[string]Action{"actions/checkout": Checkout, "actions/upload-artifact": UploadArtifact, "actions/download-artifact": DownloadArtifact}}
	if err := os.MkdirAll(filepath.Join(root, "shared"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("runner log:\n%s", log.String())
		}
	})
	return r, sha
}

func push(sha string) Event {
	return Event{Name: "push", Ref: "refs/heads/main", SHA: sha, Payload: map[string]any{}}
}

func trigger(t *testing.T, r *Runner, path string, ev Event) *Run {
	t.Helper()
	run, err := r.Trigger(path, ev)
	if err != nil {
		t.Fatal(err)
	}
	return run
}

func wait(t *testing.T, r *Runner) {
	t.Helper()
	if err := r.Wait(); err != nil {
		t.Fatal(err)
	}
}

func wantResults(t *testing.T, run *Run, want map[string]string) {
	t.Helper()
	got := run.Results()
	for job, w := range want {
		if got[job] != w {
			t.Errorf("run #%d: job %s %q, want %q (all: %v)", run.ID, job, got[job], w, got)
		}
	}
}

// Jobs run in dependency order; if: sees needs' results and outputs; a
// job whose if: calls no status function is skipped after a skipped or
// failed need, one with !failure() && !cancelled() runs after a skipped
// one; a reusable workflow's jobs run with its inputs and give its
// outputs.
func TestJobsNeedsAndReusableWorkflows(t *testing.T) {
	r, sha := newRunner(t, map[string]string{
		".github/workflows/main.yml": `
name: main
on: push
jobs:
  paths:
    runs-on: ubuntu-latest
    outputs:
      dev: ${{ steps.p.outputs.dev }}
      prod: ${{ steps.p.outputs.prod }}
    steps:
      - id: p
        run: |
          echo "dev=skip" >> "$GITHUB_OUTPUT"
          echo "prod=go" >> "$GITHUB_OUTPUT"
  dev:
    needs: paths
    if: needs.paths.outputs.dev == 'go'
    uses: ./.github/workflows/called.yml
    with:
      stack: dev
  after-dev:
    needs: dev
    runs-on: ubuntu-latest
    steps:
      - run: echo never
  prod:
    needs: [paths, dev]
    if: ${{ !failure() && !cancelled() && needs.paths.outputs.prod == 'go' }}
    uses: ./.github/workflows/called.yml
    with:
      stack: prod
      flag: true
  report:
    needs: prod
    runs-on: ubuntu-latest
    env:
      GOT: ${{ needs.prod.outputs.answer }}
    steps:
      - run: test "$GOT" = "prod:true:1" && echo "$GOT" > "$SHARED/report"
`,
		".github/workflows/called.yml": `
name: called
on:
  workflow_call:
    inputs:
      stack:
        type: string
        required: true
      flag:
        type: boolean
        default: false
    outputs:
      answer:
        value: ${{ jobs.work.outputs.answer }}
jobs:
  work:
    runs-on: ubuntu-latest
    outputs:
      answer: ${{ steps.a.outputs.answer }}
    steps:
      - id: a
        env:
          STACK: ${{ inputs.stack }}
          FLAG: ${{ inputs.flag }}
        run: echo "answer=$STACK:$FLAG:${{ github.run_attempt }}" >> "$GITHUB_OUTPUT"
`,
	})
	run := trigger(t, r, ".github/workflows/main.yml", push(sha))
	wait(t, r)
	wantResults(t, run, map[string]string{"paths": Success, "dev": Skipped, "after-dev": Skipped, "prod": Success, "prod / work": Success, "report": Success})
	if got := run.Job("prod").Outputs["answer"]; got != "prod:true:1" {
		t.Errorf("the caller's output %q", got)
	}
	if data, _ := os.ReadFile(filepath.Join(r.Env["SHARED"], "report")); string(data) != "prod:true:1\n" {
		t.Errorf("the report step wrote %q", data)
	}
	if run.Result() != Success {
		t.Errorf("run %s", run.Result())
	}
}

// GitHub's default bash has no pipefail; shell: bash has.
func TestShells(t *testing.T) {
	r, sha := newRunner(t, map[string]string{
		".github/workflows/w.yml": `
on: push
jobs:
  default:
    runs-on: ubuntu-latest
    steps:
      - run: false | cat
  bash:
    runs-on: ubuntu-latest
    steps:
      - shell: bash
        run: false | cat
      - if: failure()
        id: after
        run: echo "ran=yes" >> "$GITHUB_OUTPUT"
      - run: echo never
`,
	})
	run := trigger(t, r, ".github/workflows/w.yml", push(sha))
	wait(t, r)
	wantResults(t, run, map[string]string{"default": Success, "bash": Failure})
	steps := run.Job("bash").Steps
	if len(steps) != 3 || steps[1].Outputs["ran"] != "yes" || steps[2].Outcome != Skipped {
		t.Errorf("steps after a failure: %+v", steps)
	}
}

// timeout-minutes as GitHub documents them (Workflow syntax): a step's
// kills its process and fails the step ("The maximum number of minutes
// to run the step before killing the process"), so a later step with
// if: failure() runs; a job's cancels the job ("before GitHub
// automatically cancels it"): its result is cancelled and its steps left
// do not run; a job that needs it is skipped.
func TestTimeoutMinutes(t *testing.T) {
	r, sha := newRunner(t, map[string]string{
		".github/workflows/w.yml": `
on: push
jobs:
  step:
    runs-on: ubuntu-latest
    steps:
      - timeout-minutes: 0.02
        run: sleep 30
      - if: failure()
        id: after
        run: echo "ran=yes" >> "$GITHUB_OUTPUT"
  job:
    runs-on: ubuntu-latest
    timeout-minutes: 0.02
    steps:
      - run: sleep 30
      - if: always()
        run: echo never
  next:
    needs: job
    runs-on: ubuntu-latest
    steps:
      - run: echo never
`,
	})
	start := time.Now()
	run := trigger(t, r, ".github/workflows/w.yml", push(sha))
	wait(t, r)
	if took := time.Since(start); took > 20*time.Second {
		t.Errorf("the timeouts killed nothing: %v", took)
	}
	wantResults(t, run, map[string]string{"step": Failure, "job": Cancelled, "next": Skipped})
	steps := run.Job("step").Steps
	if len(steps) != 2 || steps[0].Outcome != Failure || steps[1].Outputs["ran"] != "yes" {
		t.Errorf("a step past its timeout: %+v", steps)
	}
	if got := run.Job("job").Steps; len(got) != 1 {
		t.Errorf("a job past its timeout ran %d steps, want the one it was killed in", len(got))
	}
}

// Environments with required reviewers (Protection's citations): a job
// waits until one of the reviewers approves it, and Wait returns with
// it waiting; a reviewer who started the run cannot approve where
// self-review is prevented, nor can someone who is not a reviewer; a
// rejected job fails, and what needs it is skipped. An environment
// without reviewers deploys at once.
func TestEnvironmentReviews(t *testing.T) {
	workflow := `
on: push
jobs:
  dev:
    runs-on: ubuntu-latest
    environment: dev
    steps:
      - run: echo dev
  production:
    needs: dev
    runs-on: ubuntu-latest
    environment: production
    steps:
      - run: echo production
  after:
    needs: production
    runs-on: ubuntu-latest
    steps:
      - run: echo after
`
	protections := map[string]Protection{"production": {Reviewers: []string{"platform"}, PreventSelfReview: true, WaitTimer: 5 * time.Minute}}
	var answer *Decision
	r, sha := newRunner(t, map[string]string{".github/workflows/w.yml": workflow})
	r.Protections = protections
	r.Review = func(j *Job) *Decision { return answer }
	ev := push(sha)
	ev.Actor = "alice" // of the platform team: she merged
	run := trigger(t, r, ".github/workflows/w.yml", ev)
	wait(t, r)
	if j := run.Job("production"); !j.Waiting || j.Result != "" {
		t.Fatalf("production without a review: waiting %v, result %q", j.Waiting, j.Result)
	}
	// Not a reviewer; the reviewer who started the run.
	for _, d := range []*Decision{{User: "mallory", Team: "checkout"}, {User: "alice", Team: "platform"}} {
		answer = d
		wait(t, r)
		if j := run.Job("production"); !j.Waiting {
			t.Fatalf("%s approved production", d.User)
		}
	}
	answer = &Decision{User: "bob", Team: "platform"}
	wait(t, r)
	wantResults(t, run, map[string]string{"dev": Success, "production": Success, "after": Success})
	if n := len(r.Approvals); n != 2 || r.Approvals[0].Environment != "dev" || r.Approvals[0].Reviewer != "" ||
		r.Approvals[1].Reviewer != "bob" || r.Approvals[1].Waited != 5*time.Minute {
		t.Errorf("approvals %+v", r.Approvals)
	}

	r, sha = newRunner(t, map[string]string{".github/workflows/w.yml": workflow})
	r.Protections = protections
	r.Review = func(j *Job) *Decision { return &Decision{User: "bob", Team: "platform", Reject: true} }
	run = trigger(t, r, ".github/workflows/w.yml", push(sha))
	wait(t, r)
	wantResults(t, run, map[string]string{"dev": Success, "production": Failure, "after": Skipped})
}

// The queue scenario: a run holds a group; a second run's job and a
// third's arrive while it does. With queue: max both wait and run in
// order; without it the second is cancelled when the third arrives
// (GitHub keeps one pending), and the jobs after it do not run, but for
// one gated on !failure() && !cancelled(): the job's cancellation is not
// the run's, so cancelled() is false there (GitHub's "Returns true if the
// workflow was canceled"); a gate on the need's result holds.
func TestConcurrencyQueue(t *testing.T) {
	for _, queue := range []bool{true, false} {
		t.Run(fmt.Sprintf("queue-max-%v", queue), func(t *testing.T) {
			q := ""
			if queue {
				q = "\n      queue: max"
			}
			r, sha := newRunner(t, map[string]string{
				".github/workflows/up.yml": `
on: push
jobs:
  up:
    runs-on: ubuntu-latest
    concurrency:
      group: stack-${{ github.event_name == 'push' && 'dev' || 'x' }}
      cancel-in-progress: false` + q + `
    steps:
      - run: echo "up ${{ github.run_id }}" >> "$SHARED/order"
  next:
    needs: up
    runs-on: ubuntu-latest
    steps:
      - run: echo "next ${{ github.run_id }}" >> "$SHARED/order"
  gate:
    needs: up
    if: ${{ !failure() && !cancelled() }}
    runs-on: ubuntu-latest
    steps:
      - run: echo "gate ${{ github.run_id }}" >> "$SHARED/gates"
  strict:
    needs: up
    if: ${{ !cancelled() && needs.up.result == 'success' }}
    runs-on: ubuntu-latest
    steps:
      - run: echo "strict ${{ github.run_id }}" >> "$SHARED/gates"
`,
				".github/workflows/drift.yml": `
on:
  schedule:
    - cron: "17 5 * * *"
jobs:
  drift:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        stack: [dev]
    concurrency:
      group: stack-${{ matrix.stack }}
      cancel-in-progress: false` + q + `
    steps:
      - run: echo "drift ${{ github.run_id }}" >> "$SHARED/order"
`,
			})
			var second, third *Run
			r.Hold = func(j *Job) bool { return j.Run.ID == 1001 && j.Name == "up" }
			r.OnStart = func(j *Job) {
				if j.Run.ID == 1001 && j.Name == "up" {
					second = trigger(t, r, ".github/workflows/up.yml", push(sha))
					third = trigger(t, r, ".github/workflows/drift.yml", Event{Name: "schedule", Ref: "refs/heads/main", SHA: sha})
				}
			}
			first := trigger(t, r, ".github/workflows/up.yml", push(sha))
			wait(t, r)
			data, _ := os.ReadFile(filepath.Join(r.Env["SHARED"], "order"))
			// The group's jobs, in the order they ran.
			var order []string
			for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
				if !strings.HasPrefix(line, "next") {
					order = append(order, line)
				}
			}
			wantResults(t, first, map[string]string{"up": Success, "next": Success, "gate": Success, "strict": Success})
			wantResults(t, third, map[string]string{"drift (dev)": Success})
			if queue {
				wantResults(t, second, map[string]string{"up": Success, "next": Success, "gate": Success, "strict": Success})
				if want := []string{"up 1001", "up 1002", "drift 1003"}; !slices.Equal(order, want) {
					t.Errorf("order %q, want %q", order, want)
				}
				if len(r.Cancellations) != 0 {
					t.Errorf("cancelled: %v", r.Cancellations)
				}
			} else {
				wantResults(t, second, map[string]string{"up": Cancelled, "next": Skipped, "gate": Success, "strict": Skipped})
				if want := []string{"up 1001", "drift 1003"}; !slices.Equal(order, want) {
					t.Errorf("order %q, want %q", order, want)
				}
				if len(r.Cancellations) != 1 || !strings.Contains(r.Cancellations[0], "#1002.1 up: cancelled while pending in group stack-dev: #1003.1 drift (dev) arrived") {
					t.Errorf("cancelled: %v", r.Cancellations)
				}
			}
		})
	}
}

// A workflow-level group with cancel-in-progress cancels the run that
// holds it; its always() and cancelled() jobs still run.
func TestCancelInProgress(t *testing.T) {
	r, sha := newRunner(t, map[string]string{
		".github/workflows/pr.yml": `
on: pull_request
concurrency:
  group: preview-${{ github.event.pull_request.number }}
  cancel-in-progress: true
jobs:
  a:
    runs-on: ubuntu-latest
    steps:
      - run: echo a
  b:
    needs: a
    runs-on: ubuntu-latest
    steps:
      - run: echo b
  cleanup:
    needs: a
    if: always()
    runs-on: ubuntu-latest
    steps:
      - run: echo cleanup
  report:
    needs: a
    if: cancelled()
    runs-on: ubuntu-latest
    steps:
      - run: echo report
  ship:
    needs: a
    if: ${{ !cancelled() }}
    runs-on: ubuntu-latest
    steps:
      - run: echo ship
`,
	})
	ev := Event{Name: "pull_request", Ref: "refs/pull/3/merge", SHA: sha, Payload: map[string]any{"pull_request": map[string]any{"number": float64(3)}}}
	var second *Run
	r.Hold = func(j *Job) bool { return j.Run.ID == 1001 && j.Name == "a" }
	r.OnStart = func(j *Job) {
		if j.Run.ID == 1001 && j.Name == "a" {
			second = trigger(t, r, ".github/workflows/pr.yml", ev)
		}
	}
	first := trigger(t, r, ".github/workflows/pr.yml", ev)
	wait(t, r)
	if first.Result() != Cancelled || second.Result() != Success {
		t.Errorf("first %s %v, second %s %v", first.Result(), first.Results(), second.Result(), second.Results())
	}
	// The cancelled run's jobs as GitHub decides them ("Canceling a
	// workflow run": if: conditions re-evaluated, always() and
	// cancelled() true, no condition being success()).
	want := map[string]string{"a": Cancelled, "b": Cancelled, "cleanup": Success, "report": Success, "ship": Cancelled}
	if got := first.Results(); !maps.Equal(got, want) {
		t.Errorf("the cancelled run's jobs: %v, want %v", got, want)
	}
}

// upload-artifact@v4 refuses a name the run holds unless told to
// overwrite, skips hidden files unless told not to, and keeps its
// artifacts across a rerun of failed jobs, which runs them and what
// needs them in a new attempt and leaves the rest.
func TestArtifactsAndReruns(t *testing.T) {
	r, sha := newRunner(t, map[string]string{
		".github/workflows/w.yml": `
on: push
jobs:
  make:
    runs-on: ubuntu-latest
    steps:
      - run: |
          mkdir -p plans .backups
          echo "plan of ${{ github.run_attempt }}" > plans/dev.plan.json
          echo backup > .backups/dev.json
          echo "make $GITHUB_RUN_ATTEMPT" >> "$SHARED/ran"
      - uses: actions/upload-artifact@v4
        with:
          name: plans-${{ github.run_id }}
          path: plans/
      - uses: actions/upload-artifact@v4
        with:
          name: hidden
          path: .backups/
          if-no-files-found: ignore
      - uses: actions/upload-artifact@v4
        with:
          name: shown
          path: .backups/
          include-hidden-files: true
  apply:
    needs: make
    runs-on: ubuntu-latest
    steps:
      - uses: actions/download-artifact@v4
        with:
          name: plans-${{ github.run_id }}
          path: plans/
      - run: |
          echo "apply $GITHUB_RUN_ATTEMPT $(cat plans/dev.plan.json)" >> "$SHARED/ran"
          test "$GITHUB_RUN_ATTEMPT" != 1
      - uses: actions/upload-artifact@v4
        if: always()
        with:
          name: log
          path: plans/
          overwrite: true
  again:
    needs: make
    runs-on: ubuntu-latest
    steps:
      - run: mkdir -p out && date > out/x
      - uses: actions/upload-artifact@v4
        with:
          name: once
          path: out/
  report:
    needs: apply
    runs-on: ubuntu-latest
    steps:
      - run: echo "report $GITHUB_RUN_ATTEMPT" >> "$SHARED/ran"
`,
	})
	run := trigger(t, r, ".github/workflows/w.yml", push(sha))
	wait(t, r)
	wantResults(t, run, map[string]string{"make": Success, "apply": Failure, "again": Success, "report": Skipped})
	if _, ok := run.Artifacts["hidden"]; ok {
		t.Error("a hidden directory was uploaded without include-hidden-files")
	}
	if a := run.Artifacts["shown"]; a == nil || !slices.Equal(a.Files, []string{"dev.json"}) {
		t.Errorf("include-hidden-files: %+v", a)
	}
	if a := run.Artifacts["plans-1001"]; a == nil || !slices.Equal(a.Files, []string{"dev.plan.json"}) {
		t.Errorf("plans: %+v", a)
	}
	r.RerunFailed(run)
	wait(t, r)
	wantResults(t, run, map[string]string{"make": Success, "apply": Success, "again": Success, "report": Success})
	ran, _ := os.ReadFile(filepath.Join(r.Env["SHARED"], "ran"))
	if want := "make 1\napply 1 plan of 1\napply 2 plan of 1\nreport 2\n"; string(ran) != want {
		t.Errorf("ran:\n%s\nwant:\n%s", ran, want)
	}
	if a := run.Artifacts["log"]; a == nil || a.Attempt != 2 {
		t.Errorf("the overwritten artifact: %+v", a)
	}
	// Run again, the job that uploads without overwrite fails: the name
	// is the run's.
	run.Job("again").Result = Failure
	r.RerunFailed(run)
	wait(t, r)
	again := run.Job("again")
	if again.Result != Failure || len(again.Steps) != 2 || !strings.Contains(fmt.Sprint(again.Steps[1].Err), "an artifact with this name already exists on the workflow run") {
		t.Errorf("a second upload of one name: %s %+v", again.Result, again.Steps)
	}
}

// The checkout fetches the run's commit at fetch-depth: a shallow one
// has no history, fetch-depth: 0 has it.
func TestCheckoutDepth(t *testing.T) {
	r, base := newRunner(t, map[string]string{".github/workflows/w.yml": `
on: pull_request
jobs:
  shallow:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: git diff --name-only "${{ github.event.pull_request.base.sha }}" HEAD
  deep:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0
      - id: diff
        run: echo "files=$(git diff --name-only "${{ github.event.pull_request.base.sha }}" HEAD)" >> "$GITHUB_OUTPUT"
`, "README": "one\n"})
	head, err := r.Origin.Commit("change", "a change", func(dir string) error { return os.WriteFile(filepath.Join(dir, "README"), []byte("two\n"), 0o644) })
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Origin.SetRef("refs/pull/1/merge", head); err != nil {
		t.Fatal(err)
	}
	run := trigger(t, r, ".github/workflows/w.yml", Event{Name: "pull_request", Ref: "refs/pull/1/merge", SHA: head,
		Payload: map[string]any{"pull_request": map[string]any{"number": float64(1), "base": map[string]any{"sha": base}}}})
	wait(t, r)
	wantResults(t, run, map[string]string{"shallow": Failure, "deep": Success})
	if got := run.Job("deep").Steps[1].Outputs["files"]; got != "README" {
		t.Errorf("changed files %q", got)
	}
}

// The token stand-ins answer as esc/pulumi/access.yaml's policies do: a
// pull request gets the preview team only, a job of main in the dev
// environment the dev deployers, a job without id-token: write nothing;
// ESC opens only what the token's team may open.
func TestPulumiTokens(t *testing.T) {
	m, err := trust.Load()
	if err != nil {
		t.Fatal(err)
	}
	auth := func(team string) string {
		return example.L(t, `
      - uses: pulumi/auth-actions@v1
        with:
          organization: company
          requested-token-type: urn:pulumi:token-type:access_token:team
          scope: team:`) + team
	}
	esc := func(env string) string {
		return example.L(t, `
      - uses: pulumi/esc-action@v1
        with:
          environment: company/harness-platform/`) + env
	}
	r, sha := newRunner(t, map[string]string{".github/workflows/w.yml": `
on: push
permissions:
  id-token: write
jobs:
  preview:
    runs-on: x
    steps:` + auth("harness-platform-preview") + esc("dev-preview") + `
      - run: test -n "$AWS_SESSION_TOKEN"
  deployer-outside-environment:
    runs-on: x
    steps:` + auth("harness-platform-dev") + `
  deployer:
    runs-on: x
    environment: dev
    steps:` + auth("harness-platform-dev") + esc("dev") + `
  wrong-environment:
    runs-on: x
    environment: dev
    steps:` + auth("harness-platform-production") + `
  preview-opens-deployers:
    runs-on: x
    steps:` + auth("harness-platform-preview") + esc("production") + `
  no-id-token:
    runs-on: x
    permissions:
      contents: read
    steps:` + auth("harness-platform-preview") + `
`})
	r.Actions["pulumi/auth-actions"] = AuthActions(m)
	r.Actions["pulumi/esc-action"] = EscAction(m)
	run := trigger(t, r, ".github/workflows/w.yml", push(sha))
	wait(t, r)
	wantResults(t, run, map[string]string{"preview": Success, "deployer-outside-environment": Failure, "deployer": Success,
		"wrong-environment": Failure, "preview-opens-deployers": Failure, "no-id-token": Failure})
	if len(r.Approvals) != 2 || r.Approvals[0].Environment != "dev" {
		t.Errorf("approvals %+v", r.Approvals)
	}
	for job, want := range map[string]string{"deployer-outside-environment": example.L(t, "no policy of issuer github-actions allows a team token of team harness-platform-dev to repo:company/harness-platform:ref:refs/heads/main"),
		"no-id-token": "Unable to get ACTIONS_ID_TOKEN_REQUEST_URL", "preview-opens-deployers": "You do not have permission"} {
		if got := fmt.Sprint(run.Job(job).Steps[len(run.Job(job).Steps)-1].Err); !strings.Contains(got, want) {
			t.Errorf("%s: %s, want %q", job, got, want)
		}
	}
}

// github-script's stand-in runs the script with Node.js against the
// recorded issues: a comment needs a token that may write it.
func TestGitHubScript(t *testing.T) {
	script := `
      - uses: actions/github-script@v7
        with:
          script: |
            const { owner, repo } = context.repo;
            const comments = await github.paginate(github.rest.issues.listComments, { owner, repo, issue_number: context.issue.number });
            const body = 'run ' + process.env.N + ' saw ' + comments.length;
            if (comments.length) {
              await github.rest.issues.updateComment({ owner, repo, comment_id: comments[0].id, body });
            } else {
              await github.rest.issues.createComment({ owner, repo, issue_number: context.issue.number, body });
            }`
	r, sha := newRunner(t, map[string]string{".github/workflows/w.yml": `
on: pull_request
permissions: {}
jobs:
  allowed:
    runs-on: x
    permissions:
      pull-requests: write
    env:
      N: ${{ github.run_id }}
    steps:` + script + `
  refused:
    needs: allowed
    runs-on: x
    permissions:
      contents: read
    steps:` + script + `
`})
	r.Actions["actions/github-script"] = GitHubScript
	r.GitHub = &GitHubAPI{Issues: []Issue{{Number: 5, Title: "a change", State: "open", PullRequest: true}}}
	ev := Event{Name: "pull_request", Ref: "refs/pull/5/merge", SHA: sha, Payload: map[string]any{"pull_request": map[string]any{"number": float64(5)}}}
	for i := 0; i < 2; i++ {
		run := trigger(t, r, ".github/workflows/w.yml", ev)
		wait(t, r)
		wantResults(t, run, map[string]string{"allowed": Success, "refused": Failure})
	}
	comments := r.GitHub.CommentsOn(5)
	if len(comments) != 1 || comments[0].Body != "run 1002 saw 1" {
		t.Errorf("comments %+v", comments)
	}
	if len(r.GitHub.Calls) != 2 || r.GitHub.Calls[0].Method != "createComment" || r.GitHub.Calls[1].Method != "updateComment" {
		t.Errorf("calls %+v", r.GitHub.Calls)
	}
}

// A fork goes on from the runner as it stands: the runs' record and the
// GitHub API copied, the origin copied (a commit to one is not in the
// other), run numbers going on; what either does next is its own. While
// a job is unfinished the runner is not forked.
func TestFork(t *testing.T) {
	r, sha := newRunner(t, map[string]string{
		".github/workflows/up.yml": `
on: push
jobs:
  up:
    runs-on: ubuntu-latest
    steps:
      - run: echo up
`,
	})
	r.GitHub = &GitHubAPI{Issues: []Issue{{Number: 1, Title: "one", Labels: []string{"drift"}}}}
	var forkErr error
	r.OnStart = func(j *Job) { _, forkErr = r.Fork(filepath.Join(t.TempDir(), "origin"), t.TempDir()) }
	first := trigger(t, r, ".github/workflows/up.yml", push(sha))
	wait(t, r)
	if forkErr == nil || !strings.Contains(forkErr.Error(), `run #1001's job "up" has not finished`) {
		t.Errorf("a fork while a job runs: %v", forkErr)
	}
	r.OnStart = nil
	f, err := r.Fork(filepath.Join(t.TempDir(), "origin"), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(f.Started, []string{"#1001.1 up"}) || len(f.Runs()) != 0 {
		t.Errorf("the fork's record %q, runs %d", f.Started, len(f.Runs()))
	}
	// Each goes on alone: the fork's commit and issue are not the
	// runner's, its run is numbered as the runner's next would be.
	head, err := f.Origin.Commit("main", "only in the fork", func(dir string) error {
		return os.WriteFile(filepath.Join(dir, "fork.txt"), []byte("fork\n"), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	f.GitHub.Issues[0].Labels[0] = "changed"
	second := trigger(t, f, ".github/workflows/up.yml", push(head))
	wait(t, f)
	wantResults(t, first, map[string]string{"up": Success})
	wantResults(t, second, map[string]string{"up": Success})
	if second.ID != 1002 || !slices.Equal(f.Started, []string{"#1001.1 up", "#1002.1 up"}) || len(r.Started) != 1 {
		t.Errorf("the fork's run #%d, started %q; the runner's %q", second.ID, f.Started, r.Started)
	}
	if main, _ := r.Origin.Head("main"); main != sha {
		t.Errorf("the fork's commit moved the runner's main to %s", main)
	}
	if _, err := r.Origin.ReadFile(head, "fork.txt"); err == nil {
		t.Error("the runner's origin holds the fork's commit")
	}
	if r.GitHub.Issues[0].Labels[0] != "drift" {
		t.Error("the fork's GitHub API is the runner's")
	}
}

// queue: max keeps up to 100 waiting; one arriving at a full queue is
// cancelled itself, not the oldest waiting ("When the queue is full, any
// additional jobs or workflow runs are canceled"); and queue: max beside
// cancel-in-progress: true is a workflow error.
func TestFullQueueCancelsTheArrival(t *testing.T) {
	r, sha := newRunner(t, map[string]string{
		".github/workflows/up.yml": `
on: push
concurrency:
  group: stack-dev
  cancel-in-progress: false
  queue: max
jobs:
  up:
    runs-on: ubuntu-latest
    steps:
      - run: "true"
`,
	})
	var runs []*Run
	r.Hold = func(j *Job) bool { return j.Run.ID == 1001 }
	r.OnStart = func(j *Job) {
		if j.Run.ID == 1001 {
			for range maxQueue + 1 {
				runs = append(runs, trigger(t, r, ".github/workflows/up.yml", push(sha)))
			}
		}
	}
	first := trigger(t, r, ".github/workflows/up.yml", push(sha))
	wait(t, r)
	if first.Result() != Success || len(runs) != maxQueue+1 {
		t.Fatalf("first %s, %d more", first.Result(), len(runs))
	}
	for i, run := range runs[:maxQueue] {
		if run.Result() != Success {
			t.Errorf("waiting run %d: %s", i, run.Result())
		}
	}
	if last := runs[maxQueue]; last.Result() != Cancelled || len(r.Cancellations) != 1 || !strings.Contains(r.Cancellations[0], "cancelled on arrival in group stack-dev: the queue is full") {
		t.Errorf("the arrival at a full queue: %s, %v", last.Result(), r.Cancellations)
	}

	_, err := ParseWorkflow("w.yml", []byte("on: push\nconcurrency:\n  group: g\n  cancel-in-progress: true\n  queue: max\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: \"true\"\n"))
	if err == nil || !strings.Contains(err.Error(), "queue: max cannot be used with cancel-in-progress: true") {
		t.Errorf("queue: max with cancel-in-progress: %v", err)
	}
}
