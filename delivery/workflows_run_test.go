package delivery

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"

	"github.com/company/harness-platform/internal/ghrunner"
)

// The workflows' scheduling, run by internal/ghrunner with every step
// stood in for (dry: no platformctl, no Pulumi): the jobs, their needs,
// if:, reusable workflows, concurrency groups and artifacts as GitHub
// runs them. The steps themselves run offline in the engine's
// TestWorkflowsOffline.

// dryRunner runs the repository's workflows, edited by edit (nil: as
// they are), each step stood in for by dryStep.
func dryRunner(t *testing.T, firstStep bool, edit func(name, text string) string) (*ghrunner.Runner, string) {
	t.Helper()
	files := map[string]string{}
	paths, _ := filepath.Glob(filepath.Join(workflows, "*.yml"))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		if edit != nil {
			text = edit(filepath.Base(p), text)
		}
		files[".github/workflows/"+filepath.Base(p)] = text
	}
	root := t.TempDir()
	o, err := ghrunner.OriginOf("company/harness-platform", filepath.Join(root, "origin"), files)
	if err != nil {
		t.Fatal(err)
	}
	sha, err := o.Head("main")
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	r := &ghrunner.Runner{Origin: o, Root: filepath.Join(root, "runs"), Log: &log,
		Env:     map[string]string{"PATH": os.Getenv("PATH"), "HOME": os.Getenv("HOME")},
		Actions: map[string]ghrunner.Action{"actions/upload-artifact": ghrunner.UploadArtifact, "actions/download-artifact": ghrunner.DownloadArtifact},
		Intercept: func(s *ghrunner.StepContext) (bool, error) {
			return dryStep(s, firstStep)
		}}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("runner log:\n%s", log.String())
		}
	})
	return r, sha
}

// dryStep stands in for every step but the artifacts' (whose stand-ins
// run): the delivery paths are github-actions; a plan is saved (a first
// step when firstStep); an up leaves a state backup, as an up of a
// stack that exists does.
func dryStep(s *ghrunner.StepContext, firstStep bool) (bool, error) {
	if strings.HasPrefix(s.Uses, "actions/upload-artifact@") || strings.HasPrefix(s.Uses, "actions/download-artifact@") {
		return false, nil
	}
	id := ""
	if s.Step.ID != nil {
		id = s.Step.ID.Value
	}
	write := func(name, text string) error {
		p := filepath.Join(s.Workspace, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		return os.WriteFile(p, []byte(text), 0o644)
	}
	switch {
	case id == "paths":
		for _, env := range []string{"dev", "staging", "production"} {
			s.Outputs[env] = "github-actions"
		}
	case id == "plan" && s.Job.ID == "plan":
		stack := s.Job.Inputs["stack"].(string)
		if err := write("plans/"+stack+".plan.json", "{}"); err != nil {
			return true, err
		}
		// A first step only in the first round.
		first := firstStep && s.Job.Inputs["round"] == "1"
		if first {
			if err := write("plans/"+stack+".first.json", "{}"); err != nil {
				return true, err
			}
		}
		s.Outputs["first-step"] = fmt.Sprint(first)
	case strings.HasPrefix(s.Name, "Up every stack of "):
		stack := strings.TrimPrefix(s.Name, "Up every stack of ")
		if err := write(".backups/"+stack+"/20260101T000000.000000000Z.json", "{}"); err != nil {
			return true, err
		}
	case id == "check":
		s.Outputs["result"] = "clean"
	case id == "newest":
		s.Outputs["newest"] = "true" // every run here is of main's newest commit
	}
	return true, nil
}

func push(sha string) ghrunner.Event {
	return ghrunner.Event{Name: "push", Ref: "refs/heads/main", SHA: sha, Payload: map[string]any{}}
}

// The nightly drift check queued behind a pending up: a drift check run
// by hand holds dev's group, a merge's dev up waits behind it, then the
// scheduled check arrives. With the workflows' queue: max all three run
// in order and nothing is cancelled; without it (GitHub's default of one
// pending run) the merge's up is cancelled and the rest of its chain
// does not run.
func TestWorkflowsQueueInOrder(t *testing.T) {
	for _, queue := range []bool{true, false} {
		t.Run(fmt.Sprintf("queue-max-%v", queue), func(t *testing.T) {
			var edit func(string, string) string
			if !queue {
				edit = func(_, text string) string {
					return strings.ReplaceAll(text, "\n      queue: max\n", "\n")
				}
			}
			r, sha := dryRunner(t, false, edit)
			var up, scheduled *ghrunner.Run
			r.Hold = func(j *ghrunner.Job) bool { return j.Name == "drift (dev)" && j.Run.Event.Name == "workflow_dispatch" }
			r.OnStart = func(j *ghrunner.Job) {
				if j.Name == "drift (dev)" && j.Run.Event.Name == "workflow_dispatch" && up == nil {
					var err error
					if up, err = r.Trigger(".github/workflows/up.yml", push(sha)); err != nil {
						t.Fatal(err)
					}
				}
			}
			r.OnPending = func(j *ghrunner.Job) {
				if up != nil && j.Run == up && j.Name == "dev / up" && scheduled == nil {
					var err error
					if scheduled, err = r.Trigger(".github/workflows/drift.yml", ghrunner.Event{Name: "schedule", Ref: "refs/heads/main", SHA: sha}); err != nil {
						t.Fatal(err)
					}
				}
			}
			byHand, err := r.Trigger(".github/workflows/drift.yml", ghrunner.Event{Name: "workflow_dispatch", Ref: "refs/heads/main", SHA: sha})
			if err != nil {
				t.Fatal(err)
			}
			if err := r.Wait(); err != nil {
				t.Fatal(err)
			}
			if up == nil || scheduled == nil {
				t.Fatalf("the up (%v) or the scheduled check (%v) never queued", up != nil, scheduled != nil)
			}
			var dev []string
			for _, s := range r.Started {
				if strings.HasSuffix(s, " drift (dev)") || strings.HasSuffix(s, " dev / up") {
					dev = append(dev, s)
				}
			}
			checks := func(run *ghrunner.Run) {
				for _, env := range []string{"dev", "staging", "production"} {
					if got := run.Job("drift (" + env + ")").Result; got != ghrunner.Success {
						t.Errorf("run #%d: drift (%s) %s", run.ID, env, got)
					}
				}
			}
			checks(byHand)
			checks(scheduled)
			results := up.Results()
			if queue {
				want := []string{fmt.Sprintf("#%d.1 drift (dev)", byHand.ID), fmt.Sprintf("#%d.1 dev / up", up.ID), fmt.Sprintf("#%d.1 drift (dev)", scheduled.ID)}
				if !slices.Equal(dev, want) {
					t.Errorf("stack-dev's jobs started %q, want %q", dev, want)
				}
				if len(r.Cancellations) != 0 {
					t.Errorf("cancelled: %q", r.Cancellations)
				}
				for _, job := range []string{"dev / up", "staging / up", "plan-production / plan", "production / up"} {
					if results[job] != ghrunner.Success {
						t.Errorf("the merge's %s: %s (%v)", job, results[job], results)
					}
				}
			} else {
				if results["dev / up"] != ghrunner.Cancelled || results["staging"] != ghrunner.Skipped || results["production"] != ghrunner.Skipped {
					t.Errorf("without queue: max the merge's up: %v, want dev's up cancelled and the rest skipped", results)
				}
				if len(r.Cancellations) != 1 || !strings.Contains(r.Cancellations[0], "dev / up: cancelled while pending in group stack-dev") {
					t.Errorf("cancelled: %q", r.Cancellations)
				}
			}
		})
	}
}

// A new region in a production that exists: its plan is a first step, so
// production and production-rest both update production in the same
// attempt, each backing it up first; each round's backups are an
// artifact of their own (upload-artifact@v4 refuses a second artifact
// of one name in a run). With the round left out of the name, the second
// up's upload fails.
func TestFirstStepRoundsKeepTheirBackups(t *testing.T) {
	for _, withRound := range []bool{true, false} {
		t.Run(fmt.Sprintf("round-in-name-%v", withRound), func(t *testing.T) {
			var edit func(string, string) string
			if !withRound {
				edit = func(_, text string) string {
					return strings.ReplaceAll(text, "${{ github.run_id }}-${{ inputs.round }}-${{ github.run_attempt }}", "${{ github.run_id }}-${{ github.run_attempt }}")
				}
			}
			r, sha := dryRunner(t, true, edit)
			run, err := r.Trigger(".github/workflows/up.yml", push(sha))
			if err != nil {
				t.Fatal(err)
			}
			if err := r.Wait(); err != nil {
				t.Fatal(err)
			}
			results := run.Results()
			if withRound {
				for _, job := range []string{"production / up", "plan-production-rest / plan", "production-rest / up"} {
					if results[job] != ghrunner.Success {
						t.Errorf("%s: %s (%v)", job, results[job], results)
					}
				}
				for _, name := range []string{"state-backups-production-%d-1-1", "state-backups-production-%d-2-1", "plans-production-%d-1", "plans-production-%d-2"} {
					if a := run.Artifacts[fmt.Sprintf(name, run.ID)]; a == nil || len(a.Files) == 0 {
						t.Errorf("artifact %s: %+v", fmt.Sprintf(name, run.ID), a)
					}
				}
				// The backups are hidden (.backups/): uploaded with
				// include-hidden-files.
				if a := run.Artifacts[fmt.Sprintf("state-backups-dev-%d-1-1", run.ID)]; a == nil || !slices.Equal(a.Files, []string{"dev/20260101T000000.000000000Z.json"}) {
					t.Errorf("dev's backups: %+v", a)
				}
			} else {
				j := run.Job("production-rest / up")
				last := j.Steps[len(j.Steps)-1]
				if j.Result != ghrunner.Failure || !strings.Contains(fmt.Sprint(last.Err), "an artifact with this name already exists on the workflow run") {
					t.Errorf("production-rest without the round in the backups' name: %s, %v", j.Result, last.Err)
				}
			}
		})
	}
}

// up-stack.yml applies only main's newest commit: its own step, run as
// GitHub runs it (a real checkout and git fetch of the runner's origin),
// says newest=true for main's head and false for a commit main has moved
// past, and the preflight and up steps then do not run. GitHub does not
// promise the order a concurrency group's waiting runs start in.
func TestOnlyMainsNewestCommitIsApplied(t *testing.T) {
	w := upStack(t)
	script := stepScript(t, w, "newest")
	after := map[string]string{}
	for _, j := range w.Jobs {
		for _, s := range j.Steps {
			if s.Name != nil && s.If != nil {
				after[s.Name.Value] = s.If.Value
			}
		}
	}
	for name, cond := range after {
		if (strings.HasPrefix(name, "Preflight of ") || strings.HasPrefix(name, "Up every stack of ")) && cond != "steps.newest.outputs.newest == 'true'" {
			t.Errorf("%q runs if %q, not only for main's newest commit", name, cond)
		}
	}
	if len(after) < 2 {
		t.Errorf("the preflight and up steps are not gated: %v", after)
	}
	test := `on: push
jobs:
  up:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - id: newest
        shell: bash
        run: |
` + indent(script, "          ") + `
      - if: steps.newest.outputs.newest == 'true'
        run: echo "applied $GITHUB_SHA" >> "$SHARED/applied"
`
	root := t.TempDir()
	o, err := ghrunner.OriginOf("company/harness-platform", filepath.Join(root, "origin"), map[string]string{".github/workflows/up.yml": test})
	if err != nil {
		t.Fatal(err)
	}
	older, err := o.Head("main")
	if err != nil {
		t.Fatal(err)
	}
	newer, err := o.Commit("main", "a newer merge", func(dir string) error { return os.WriteFile(filepath.Join(dir, "x"), []byte("x"), 0o644) })
	if err != nil {
		t.Fatal(err)
	}
	shared := filepath.Join(root, "shared")
	if err := os.MkdirAll(shared, 0o755); err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	r := &ghrunner.Runner{Origin: o, Root: filepath.Join(root, "runs"), Log: &log,
		Env:     map[string]string{"PATH": os.Getenv("PATH"), "HOME": os.Getenv("HOME"), "SHARED": shared},
		Actions: map[string]ghrunner.Action{"actions/checkout": ghrunner.Checkout}}
	for _, sha := range []string{newer, older} {
		if _, err := r.Trigger(".github/workflows/up.yml", push(sha)); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Wait(); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	got, _ := os.ReadFile(filepath.Join(shared, "applied"))
	if string(got) != "applied "+newer+"\n" {
		t.Errorf("applied %q; want main's newest %s only (the older %s is superseded)\n%s", got, newer, older, log.String())
	}
}

// upStack is .github/workflows/up-stack.yml, parsed.
func upStack(t *testing.T) *ghrunner.Workflow {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(workflows, "up-stack.yml"))
	if err != nil {
		t.Fatal(err)
	}
	w, err := ghrunner.ParseWorkflow("up-stack.yml", data)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// stepScript is the run: script of w's step id.
func stepScript(t *testing.T, w *ghrunner.Workflow, id string) string {
	t.Helper()
	for _, j := range w.Jobs {
		for _, s := range j.Steps {
			if s.ID != nil && s.ID.Value == id {
				return s.Exec.(*actionlint.ExecRun).Run.Value
			}
		}
	}
	t.Fatalf("%s has no step %s", w.Path, id)
	return ""
}

func indent(s, by string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = by + l
	}
	return strings.Join(lines, "\n")
}

// Production's plans made stale between the plan and its up (another
// merge's up of production landing in between, GitHub not promising the
// order a concurrency group's runs start in): the up applies nothing,
// production is planned again from the state as it now is and approved
// again, and that plan is applied; the first-step path does not run.
// Stood in for by savedPlans.
func TestStalePlansArePlannedAgain(t *testing.T) {
	r, sha := dryRunner(t, false, nil)
	// Another up of production lands before the first plan's.
	p := newSavedPlans(func(_ *ghrunner.StepContext, round string) bool { return round == "1" })
	r.Intercept = p.step
	run, err := r.Trigger(".github/workflows/up.yml", push(sha))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Wait(); err != nil {
		t.Fatal(err)
	}
	results := run.Results()
	for job, want := range map[string]string{
		"production / up": ghrunner.Success, "plan-production-again / plan": ghrunner.Success, "production-again / up": ghrunner.Success,
		"plan-production-rest": ghrunner.Skipped,
	} {
		if results[job] != want {
			t.Errorf("%s: %s, want %s (%v)", job, results[job], want, results)
		}
	}
	if want := []string{fmt.Sprintf("%d/3", run.ID)}; !slices.Equal(p.applied, want) {
		t.Errorf("production applied in rounds %v, want only the new plan's (%v)", p.applied, want)
	}
}

// The up step's own script (up-stack.yml), run with a platformctl that
// exits as told: exit 4 with plans in round 1 is a stale plan, reported
// as stale=true and no failure; in another round, or any other failure,
// the step fails with platformctl's code.
func TestUpStepTellsStalePlans(t *testing.T) {
	script := stepScript(t, upStack(t), "up")
	bin := t.TempDir()
	// go build -o OUT ./cmd/platformctl makes a platformctl exiting $CODE.
	goStub := "#!/usr/bin/env bash\nif [ \"$1\" = build ] && [ \"$2\" = -o ]; then printf '#!/bin/sh\\nexit %s\\n' \"$CODE\" > \"$3\"; chmod +x \"$3\"; exit 0; fi\nexit 1\n"
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(goStub), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		code, plan, round string
		exit              int
		stale             bool
	}{
		{"0", "true", "1", 0, false},
		{"4", "true", "1", 0, true},
		{"4", "true", "3", 4, false},
		{"4", "false", "1", 4, false},
		{"1", "true", "1", 1, false},
	} {
		tmp := t.TempDir()
		output := filepath.Join(tmp, "output")
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script)
		cmd.Env = []string{"PATH=" + bin + ":" + os.Getenv("PATH"), "CODE=" + c.code, "PLAN=" + c.plan, "ROUND=" + c.round,
			"STACK=production", "PACK=/pack", "RUNNER_TEMP=" + tmp, "GITHUB_OUTPUT=" + output}
		out, _ := cmd.CombinedOutput()
		got, _ := os.ReadFile(output)
		if cmd.ProcessState.ExitCode() != c.exit || strings.Contains(string(got), "stale=true") != c.stale {
			t.Errorf("platformctl exit %s, plan %s, round %s: step exit %d, outputs %q; want exit %d, stale %v\n%s",
				c.code, c.plan, c.round, cmd.ProcessState.ExitCode(), got, c.exit, c.stale, out)
		}
	}
}

// Production's reviewers, as GitHub holds a job for them: until one
// answers, the production job waits (dev and staging are done, nothing
// of production has run); a rejection fails it and the run, and nothing
// after it runs. Reviewers and self-review are the program's
// (plan.RepositoryEnvironment); here one team reviews.
func TestUnapprovedProductionWaitsAndRejectedStops(t *testing.T) {
	r, sha := dryRunner(t, false, nil)
	r.Protections = map[string]ghrunner.Protection{"production": {Reviewers: []string{"platform-team"}, PreventSelfReview: true}}
	var decision *ghrunner.Decision
	r.Review = func(*ghrunner.Job) *ghrunner.Decision { return decision }
	run, err := r.Trigger(".github/workflows/up.yml", ghrunner.Event{Name: "push", Ref: "refs/heads/main", SHA: sha, Actor: "author", Payload: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Wait(); err != nil {
		t.Fatal(err)
	}
	if j := run.Job("production / up"); j == nil || !j.Waiting || j.Result != "" {
		t.Fatalf("unanswered: production / up %+v, want waiting", j)
	}
	if res := run.Results(); res["staging / up"] != ghrunner.Success || res["plan-production / plan"] != ghrunner.Success {
		t.Errorf("before production: %v", res)
	}
	// The run's author may not approve it; a reviewer rejects it.
	decision = &ghrunner.Decision{User: "author", Team: "platform-team"}
	if err := r.Wait(); err != nil {
		t.Fatal(err)
	}
	if j := run.Job("production / up"); !j.Waiting {
		t.Errorf("self-approved: production / up ran (%s)", j.Result)
	}
	decision = &ghrunner.Decision{User: "reviewer", Team: "platform-team", Reject: true}
	if err := r.Wait(); err != nil {
		t.Fatal(err)
	}
	res := run.Results()
	if res["production / up"] != ghrunner.Failure || run.Result() != ghrunner.Failure ||
		res["plan-production-again"] != ghrunner.Skipped || res["plan-production-rest"] != ghrunner.Skipped {
		t.Errorf("rejected: run %s, jobs %v", run.Result(), res)
	}
	if j := run.Job("production / up"); len(j.Steps) != 0 {
		t.Errorf("the rejected job ran %d steps", len(j.Steps))
	}
}

// Two merges back to back, each run going through dev, staging and
// production as GitHub schedules them (each stack's concurrency group,
// no order promised among waiting runs): every up applies only main's
// newest commit (an older run's up stops at its first step), and no
// production up applies a plan made before another production update
// (stale plans are refused and planned again: here a person's up lands
// between the newer merge's plan and its up). Production ends at the
// newer merge, which holds both changes, and no run fails.
// Stood in for by savedPlans.
func TestTwoMergesBackToBackReachProduction(t *testing.T) {
	r, first := dryRunner(t, false, nil)
	second, err := r.Origin.Commit("main", "the second merge", func(dir string) error {
		return os.WriteFile(filepath.Join(dir, "second"), []byte("x"), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	// A person's up of production (break glass) lands between the newer
	// merge's plan and its up.
	p := newSavedPlans(func(s *ghrunner.StepContext, round string) bool {
		return s.Job.Run.Event.SHA == second && round == "1"
	})
	r.Intercept = func(s *ghrunner.StepContext) (bool, error) {
		if s.Step.ID != nil && s.Step.ID.Value == "newest" {
			s.Outputs["newest"] = fmt.Sprint(s.Job.Run.Event.SHA == second)
			return true, nil
		}
		return p.step(s)
	}
	runs := []*ghrunner.Run{}
	for _, sha := range []string{first, second} {
		run, err := r.Trigger(".github/workflows/up.yml", push(sha))
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, run)
	}
	if err := r.Wait(); err != nil {
		t.Fatal(err)
	}
	for _, run := range runs {
		if run.Result() != ghrunner.Success {
			t.Errorf("run #%d (%s): %s %v", run.ID, run.Event.SHA[:7], run.Result(), run.Results())
		}
	}
	for _, stack := range []string{"dev", "staging", "production"} {
		if p.at[stack] != second || p.updates[stack] == 0 {
			t.Errorf("%s last applied %q (%d updates), want the second merge %s", stack, p.at[stack], p.updates[stack], second[:7])
		}
	}
	if want := fmt.Sprintf("%d/1", runs[1].ID); !slices.Equal(p.stale, []string{want}) {
		t.Errorf("stale plans refused: %v, want the newer merge's first plan only (%s), made before the person's up", p.stale, want)
	}
	t.Logf("production: %d updates; stale plans refused and planned again: %v; started: %v", p.updates["production"], p.stale, r.Started)
}

// savedPlans stands in for what platformctl does with production's saved
// plans, over the dry steps: each stack's update count and the commit
// it last applied; a plan records production's count, and an up with
// plans refuses one whose count is not the stack's (platformctl's exit 4),
// which up-stack.yml's script reports as stale=true in round 1 and a
// failure after (TestUpStepTellsStalePlans runs that script).
type savedPlans struct {
	updates map[string]int    // stack: its updates
	at      map[string]string // stack: the commit it last applied
	bases   map[string]int    // run/round: production's count its plan saw
	stale   []string          // run/round: plans refused as stale
	applied []string          // run/round: production's ups applied
	// landsAfter says whether another up of production lands just after
	// the plan of s (round).
	landsAfter func(s *ghrunner.StepContext, round string) bool
}

func newSavedPlans(landsAfter func(*ghrunner.StepContext, string) bool) *savedPlans {
	return &savedPlans{updates: map[string]int{}, at: map[string]string{}, bases: map[string]int{}, landsAfter: landsAfter}
}

// step is a runner's Intercept: the plan and up steps as above, every
// other step dryStep's.
func (p *savedPlans) step(s *ghrunner.StepContext) (bool, error) {
	id := ""
	if s.Step.ID != nil {
		id = s.Step.ID.Value
	}
	stack, _ := s.Job.Inputs["stack"].(string)
	round, _ := s.Job.Inputs["round"].(string)
	key := fmt.Sprintf("%d/%s", s.Job.Run.ID, round)
	switch {
	case stack == "production" && id == "plan" && s.Job.ID == "plan":
		p.bases[key] = p.updates[stack]
		if p.landsAfter(s, round) {
			p.updates[stack]++
		}
	case id == "up":
		if plan, _ := s.Job.Inputs["plan"].(bool); plan && p.bases[key] != p.updates[stack] {
			p.stale = append(p.stale, key)
			if round != "1" {
				return true, fmt.Errorf("platformctl exit 4: stale plan")
			}
			s.Outputs["stale"] = "true"
			return true, nil
		}
		p.updates[stack]++
		p.at[stack] = s.Job.Run.Event.SHA
		if stack == "production" {
			p.applied = append(p.applied, key)
		}
	}
	return dryStep(s, false)
}
