package ghrunner

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/rhysd/actionlint"
)

// Action stands in for an action a step uses: it does the action's
// work with the step's inputs, or fails the step with an error.
type Action func(s *StepContext) error

// StepContext is one step being run.
type StepContext struct {
	Runner *Runner
	Job    *Job
	Step   *actionlint.Step
	// Name is the step's name as GitHub shows it; Uses the action it
	// uses (owner/name@ref), "" for a run: step.
	Name, Uses string
	// With are the action's inputs, interpolated, by lower-case name.
	With map[string]string
	// Env is the step's environment (the machine's, GitHub's variables,
	// env: of the workflow, job and step, $GITHUB_ENV's, PATH).
	Env map[string]string
	// Workspace is GITHUB_WORKSPACE; Temp is RUNNER_TEMP.
	Workspace, Temp string
	// Outputs are the step's outputs (steps.<id>.outputs).
	Outputs map[string]string
	// Log receives the step's output.
	Log io.Writer

	job *jobContext
}

// SetEnv sets a variable for the job's later steps ($GITHUB_ENV).
func (s *StepContext) SetEnv(name, value string) { s.job.env[name] = value }

// AddPath puts dir first on PATH for the job's later steps ($GITHUB_PATH).
func (s *StepContext) AddPath(dir string) { s.job.path = append([]string{dir}, s.job.path...) }

// jobContext is what a job's steps share.
type jobContext struct {
	job       *Job
	dir       string
	workspace string
	temp      string
	env       map[string]string // $GITHUB_ENV's
	path      []string          // $GITHUB_PATH's, first first
	steps     map[string]any    // the steps context
	failed    bool
	// deadline is when the job's timeout-minutes run out; timedOut, that
	// a step met it.
	deadline time.Time
	timedOut bool
}

// DefaultTimeoutMinutes is a job's timeout-minutes when it sets none
// (docs.github.com, Workflow syntax, jobs.<job_id>.timeout-minutes: "The
// maximum number of minutes to let a job run before GitHub automatically
// cancels it. Default: 360").
const DefaultTimeoutMinutes = 360

// minutes is a timeout-minutes value (an expression evaluated in s); def
// when it is not set.
func minutes(s *Scope, f *actionlint.Float, def float64) (time.Duration, error) {
	v := def
	if f != nil {
		v = f.Value
		if f.Expression != nil {
			x, err := s.Value(f.Expression.Value)
			if err != nil {
				return 0, err
			}
			v = number(x)
		}
	}
	return time.Duration(v * float64(time.Minute)), nil
}

// execute runs a started job's steps, in a new directory: its workspace
// ($GITHUB_WORKSPACE, the repository's name under work/) with the
// Beside directories next to it, and RUNNER_TEMP.
func (r *Runner) execute(j *Job) error {
	dir := r.jobDir(j)
	_, name, _ := strings.Cut(r.Origin.Repo, "/")
	jc := &jobContext{job: j, dir: dir, workspace: filepath.Join(dir, "work", name), temp: filepath.Join(dir, "temp"),
		env: map[string]string{}, steps: map[string]any{}}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := mkdirs(jc.workspace, jc.temp); err != nil {
		return err
	}
	for name, target := range r.Beside {
		if err := os.Symlink(target, filepath.Join(dir, "work", name)); err != nil {
			return err
		}
	}
	r.logf(j, "job started (attempt %d)%s", j.Run.Attempt, map[bool]string{true: ", environment " + j.Environment + " approved", false: ""}[j.Environment != ""])
	timeout, err := minutes(r.jobScope(j), j.Def.TimeoutMinutes, DefaultTimeoutMinutes)
	if err != nil {
		return fmt.Errorf("%s: job %s: timeout-minutes: %w", j.Workflow.Path, j.Name, err)
	}
	jc.deadline = time.Now().Add(timeout)
	j.Steps = nil
	for i, step := range j.Def.Steps {
		if jc.timedOut || time.Now().After(jc.deadline) {
			// GitHub cancels the job: its steps left do not run, and
			// its result is cancelled.
			r.logf(j, "The job has exceeded the maximum execution time of %v", timeout)
			r.timedOut(j)
			return nil
		}
		res, err := r.step(jc, i, step)
		if err != nil {
			return fmt.Errorf("%s: job %s, step %d: %w", j.Workflow.Path, j.Name, i+1, err)
		}
		j.Steps = append(j.Steps, res)
		if id := str(step.ID); id != "" {
			jc.steps[id] = map[string]any{"outputs": stringMap(res.Outputs), "outcome": res.Outcome, "conclusion": res.Conclusion}
		}
		if res.Conclusion == Failure {
			jc.failed = true
		}
	}
	if jc.timedOut {
		r.logf(j, "The job has exceeded the maximum execution time of %v", timeout)
		r.timedOut(j)
		return nil
	}
	j.Outputs = map[string]string{}
	s := r.stepScope(jc)
	for _, o := range j.Def.Outputs {
		v, err := s.Interpolate(str(o.Value))
		if err != nil {
			return err
		}
		j.Outputs[str(o.Name)] = v
	}
	result := Success
	if jc.failed {
		result = Failure
	}
	r.logf(j, "job %s", result)
	r.end(j, result)
	if result == Failure && j.Matrix != nil {
		if ff := j.Def.Strategy.FailFast; ff == nil || ff.Value {
			for _, sib := range j.Parent.Children {
				if sib.state != done && sib.state != running {
					r.cancel(sib, fmt.Sprintf("%s: cancelled by fail-fast after %s failed", describe(sib), j.Name))
				}
			}
		}
	}
	return nil
}

// stepScope is what a step's expressions see.
func (r *Runner) stepScope(jc *jobContext) *Scope {
	j := jc.job
	s := r.jobScope(j)
	s.Contexts["steps"] = jc.steps
	s.Workspace = jc.workspace
	s.Contexts["job"] = map[string]any{"status": map[bool]string{true: Failure, false: Success}[jc.failed]}
	env := map[string]any{}
	for _, e := range []*actionlint.Env{j.Workflow.Env, j.Def.Env} {
		if e != nil {
			for _, v := range e.Vars {
				env[str(v.Name)] = str(v.Value)
			}
		}
	}
	for k, v := range jc.env {
		env[k] = v
	}
	s.Contexts["env"] = env
	s.Status = Status{
		Success:   func() bool { return !jc.failed && !j.cancelled },
		Failure:   func() bool { return jc.failed },
		Cancelled: func() bool { return j.cancelled },
	}
	return s
}

// step runs one step: its if:, then its run: script or its action's
// stand-in. An error is the runner's own (a step that fails is a
// result).
func (r *Runner) step(jc *jobContext, i int, step *actionlint.Step) (StepResult, error) {
	j := jc.job
	s := r.stepScope(jc)
	res := StepResult{ID: str(step.ID), Outputs: map[string]string{}}
	uses := ""
	var run *actionlint.ExecRun
	switch e := step.Exec.(type) {
	case *actionlint.ExecRun:
		run = e
		first, _, _ := strings.Cut(strings.TrimSpace(str(e.Run)), "\n")
		res.Name = "Run " + first
	case *actionlint.ExecAction:
		uses = str(e.Uses)
		res.Name = "Run " + uses
	}
	if step.Name != nil {
		name, err := s.Interpolate(str(step.Name))
		if err != nil {
			return res, err
		}
		res.Name = name
	}
	ok, err := s.Condition(str(step.If))
	if err != nil {
		return res, fmt.Errorf("if: %w", err)
	}
	if !ok {
		res.Outcome, res.Conclusion = Skipped, Skipped
		r.logf(j, "step %q skipped", res.Name)
		return res, nil
	}
	env, err := r.stepEnv(jc, s, step)
	if err != nil {
		return res, err
	}
	sc := &StepContext{Runner: r, Job: j, Step: step, Name: res.Name, Uses: uses, Env: env, Workspace: jc.workspace, Temp: jc.temp,
		Outputs: res.Outputs, job: jc, With: map[string]string{}}
	lw := &lineWriter{r: r, j: j}
	sc.Log = lw
	if a, ok := step.Exec.(*actionlint.ExecAction); ok {
		for name, in := range a.Inputs {
			v, err := s.Interpolate(str(in.Value))
			if err != nil {
				return res, err
			}
			sc.With[name] = v
		}
	}
	r.logf(j, "step %q", res.Name)
	var stepErr error
	handled := false
	if r.Intercept != nil {
		handled, stepErr = r.Intercept(sc)
	}
	if !handled {
		if run != nil {
			stepErr = r.runScript(jc, s, sc, run)
		} else {
			stepErr = r.runAction(sc)
		}
	}
	lw.flush()
	res.Annotations = lw.annotations
	res.Err = stepErr
	res.Outcome, res.Conclusion = Success, Success
	if stepErr != nil {
		r.logf(j, "step %q failed: %v", res.Name, stepErr)
		res.Outcome, res.Conclusion = Failure, Failure
		if coe, err := boolOf(s, step.ContinueOnError); err == nil && coe {
			res.Conclusion = Success
			res.ContinuedOnFailure = true
		}
	}
	return res, nil
}

// stepEnv is a step's environment: the machine's, GitHub's default
// variables, the workflow's, job's and step's env:, and $GITHUB_ENV's.
func (r *Runner) stepEnv(jc *jobContext, s *Scope, step *actionlint.Step) (map[string]string, error) {
	j := jc.job
	env := maps.Clone(r.Env)
	if env == nil {
		env = map[string]string{}
	}
	for _, e := range []*actionlint.Env{j.Workflow.Env, j.Def.Env} {
		if err := addEnv(env, s, e); err != nil {
			return nil, err
		}
	}
	maps.Copy(env, jc.env)
	if err := addEnv(env, s, step.Env); err != nil {
		return nil, err
	}
	g := r.github(j.Run, j)
	for k, v := range map[string]string{
		"CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": jc.workspace, "RUNNER_TEMP": jc.temp, "RUNNER_OS": "Linux",
		"RUNNER_ARCH": "X64", "GITHUB_REPOSITORY": r.Origin.Repo, "GITHUB_REPOSITORY_OWNER": ToString(g["repository_owner"]),
		"GITHUB_RUN_ID": ToString(g["run_id"]), "GITHUB_RUN_NUMBER": ToString(g["run_number"]), "GITHUB_RUN_ATTEMPT": ToString(g["run_attempt"]),
		"GITHUB_SHA": j.Run.Event.SHA, "GITHUB_REF": j.Run.Event.Ref, "GITHUB_REF_NAME": ToString(g["ref_name"]),
		"GITHUB_EVENT_NAME": j.Run.Event.Name, "GITHUB_JOB": j.ID, "GITHUB_ACTOR": "ghrunner", "GITHUB_SERVER_URL": "https://github.com",
		"GITHUB_API_URL": "https://api.github.com", "GITHUB_WORKFLOW": str(j.Run.Workflow.Name),
		"GITHUB_BASE_REF": ToString(g["base_ref"]), "GITHUB_HEAD_REF": ToString(g["head_ref"]),
	} {
		env[k] = v
	}
	if len(jc.path) > 0 {
		env["PATH"] = strings.Join(jc.path, string(os.PathListSeparator)) + string(os.PathListSeparator) + env["PATH"]
	}
	return env, nil
}

func addEnv(env map[string]string, s *Scope, e *actionlint.Env) error {
	if e == nil {
		return nil
	}
	if e.Expression != nil {
		return fmt.Errorf("env: %s: an expression for the whole env is not supported", e.Expression.Value)
	}
	for _, v := range e.Vars {
		val, err := s.Interpolate(str(v.Value))
		if err != nil {
			return err
		}
		env[str(v.Name)] = val
	}
	return nil
}

// runScript runs a run: step as GitHub's Linux runners do: the script,
// its ${{ }} replaced, in a file run by the step's shell: bash -e {0}
// when none is named, bash --noprofile --norc -eo pipefail {0} for
// shell: bash, sh -e {0} for sh. $GITHUB_OUTPUT, $GITHUB_ENV,
// $GITHUB_PATH and $GITHUB_STEP_SUMMARY are files of the step's, read
// back when it ends.
func (r *Runner) runScript(jc *jobContext, s *Scope, sc *StepContext, run *actionlint.ExecRun) error {
	j := jc.job
	script, err := s.Interpolate(str(run.Run))
	if err != nil {
		return err
	}
	shell := str(run.Shell)
	wd := str(run.WorkingDirectory)
	for _, d := range []*actionlint.Defaults{j.Def.Defaults, j.Workflow.Defaults} {
		if d != nil && d.Run != nil {
			if shell == "" {
				shell = str(d.Run.Shell)
			}
			if wd == "" {
				wd = str(d.Run.WorkingDirectory)
			}
		}
	}
	if wd, err = s.Interpolate(wd); err != nil {
		return err
	}
	r.seq++
	file := filepath.Join(jc.temp, fmt.Sprintf("step-%d.sh", r.seq))
	if err := os.WriteFile(file, []byte(script+"\n"), 0o644); err != nil {
		return err
	}
	var argv []string
	switch shell {
	case "":
		argv = []string{"bash", "-e", file}
	case "bash":
		argv = []string{"bash", "--noprofile", "--norc", "-eo", "pipefail", file}
	case "sh":
		argv = []string{"sh", "-e", file}
	default:
		return fmt.Errorf("shell %q is not supported by this runner", shell)
	}
	files := map[string]string{}
	for _, name := range []string{"GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH", "GITHUB_STEP_SUMMARY"} {
		f := filepath.Join(jc.temp, fmt.Sprintf("%s-%d", strings.ToLower(name), r.seq))
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			return err
		}
		files[name] = f
		sc.Env[name] = f
	}
	path, err := lookPath(argv[0], sc.Env["PATH"])
	if err != nil {
		return err
	}
	// A step's timeout-minutes kills its process ("The maximum number of
	// minutes to run the step before killing the process", Workflow
	// syntax, jobs.<job_id>.steps[*].timeout-minutes), as the job's does
	// at its own deadline.
	stepTimeout, err := minutes(s, sc.Step.TimeoutMinutes, 0)
	if err != nil {
		return fmt.Errorf("timeout-minutes: %w", err)
	}
	deadline := jc.deadline
	if stepTimeout > 0 && time.Now().Add(stepTimeout).Before(deadline) {
		deadline = time.Now().Add(stepTimeout)
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, argv[1:]...)
	cmd.Dir = filepath.Join(jc.workspace, wd)
	cmd.Env = environ(sc.Env)
	cmd.Stdout, cmd.Stderr = sc.Log, sc.Log
	cmd.WaitDelay = time.Second // a killed script's children must not hold its output open
	runErr := cmd.Run()
	if err := readCommandFiles(jc, sc, files); err != nil {
		return err
	}
	if ctx.Err() == context.DeadlineExceeded {
		if !time.Now().Before(jc.deadline) {
			jc.timedOut = true
			return fmt.Errorf("the job's timeout-minutes ran out")
		}
		return fmt.Errorf("The action has timed out after %v (timeout-minutes)", stepTimeout)
	}
	if runErr != nil {
		if ee, ok := runErr.(*exec.ExitError); ok {
			return fmt.Errorf("Process completed with exit code %d", ee.ExitCode())
		}
		return runErr
	}
	return nil
}

// timedOut ends j as GitHub ends a job past its timeout-minutes: it
// "automatically cancels it" (Workflow syntax,
// jobs.<job_id>.timeout-minutes).
func (r *Runner) timedOut(j *Job) { r.end(j, Cancelled) }

// end finishes a job that ran (or waited for a review) with result, and
// releases the concurrency group it holds.
func (r *Runner) end(j *Job, result string) {
	j.finish(result)
	if j.Group != "" {
		if g := r.groups[j.Group]; g != nil && g.holder == j {
			r.release(j.Group)
		}
	}
}

// readCommandFiles reads what a step wrote to its command files.
func readCommandFiles(jc *jobContext, sc *StepContext, files map[string]string) error {
	out, err := parseKeyValues(files["GITHUB_OUTPUT"])
	if err != nil {
		return err
	}
	maps.Copy(sc.Outputs, out)
	env, err := parseKeyValues(files["GITHUB_ENV"])
	if err != nil {
		return err
	}
	maps.Copy(jc.env, env)
	if data, err := os.ReadFile(files["GITHUB_PATH"]); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if line = strings.TrimSpace(line); line != "" {
				jc.path = append([]string{line}, jc.path...)
			}
		}
	}
	if data, err := os.ReadFile(files["GITHUB_STEP_SUMMARY"]); err == nil {
		jc.job.Run.Summary.Write(data)
	}
	return nil
}

// parseKeyValues reads $GITHUB_OUTPUT's and $GITHUB_ENV's format:
// name=value lines, and name<<DELIMITER ... DELIMITER blocks.
func parseKeyValues(file string) (map[string]string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if line == "" {
			continue
		}
		if name, delim, ok := strings.Cut(line, "<<"); ok && !strings.Contains(name, "=") {
			var value []string
			end := -1
			for k := i + 1; k < len(lines); k++ {
				if lines[k] == delim {
					end = k
					break
				}
				value = append(value, lines[k])
			}
			if end < 0 {
				return nil, fmt.Errorf("%s: %s<<%s has no closing delimiter", filepath.Base(file), name, delim)
			}
			out[name] = strings.Join(value, "\n")
			i = end
			continue
		}
		name, value, ok := strings.Cut(line, "=")
		if !ok {
			return nil, fmt.Errorf("%s: invalid line %q (want name=value)", filepath.Base(file), line)
		}
		out[name] = value
	}
	return out, nil
}

// runAction runs the stand-in of the action a step uses.
func (r *Runner) runAction(sc *StepContext) error {
	ref := sc.Uses
	if strings.HasPrefix(ref, "./") || strings.HasPrefix(ref, "docker://") {
		return fmt.Errorf("uses %q: local and Docker actions are not supported by this runner", ref)
	}
	name, _, _ := strings.Cut(ref, "@")
	a, ok := r.Actions[name]
	if !ok {
		known := slices.Sorted(maps.Keys(r.Actions))
		return fmt.Errorf("uses %q: no stand-in for %s (this runner has %v)", ref, name, known)
	}
	return a(sc)
}

func environ(env map[string]string) []string {
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// lookPath finds name on path (the step's PATH, not the test's).
func lookPath(name, path string) (string, error) {
	if strings.Contains(name, "/") {
		return name, nil
	}
	for _, dir := range filepath.SplitList(path) {
		p := filepath.Join(dir, name)
		if info, err := os.Stat(p); err == nil && !info.IsDir() && info.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: not found on the step's PATH", name)
}

// lineWriter writes a step's output to its job's log and the runner's,
// a line at a time, and keeps the workflow commands that annotate
// (::error::, ::warning::, ::notice::).
type lineWriter struct {
	r           *Runner
	j           *Job
	buf         bytes.Buffer
	annotations []string
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.buf.Write(p)
	for {
		line, err := w.buf.ReadString('\n')
		if err != nil {
			// An incomplete line waits for the rest.
			rest := []byte(line)
			w.buf.Reset()
			w.buf.Write(rest)
			return len(p), nil
		}
		w.line(strings.TrimSuffix(line, "\n"))
	}
}

func (w *lineWriter) flush() {
	if w.buf.Len() > 0 {
		w.line(w.buf.String())
		w.buf.Reset()
	}
}

func (w *lineWriter) line(line string) {
	for _, kind := range []string{"error", "warning", "notice"} {
		if strings.HasPrefix(line, "::"+kind+" ") || strings.HasPrefix(line, "::"+kind+"::") {
			w.annotations = append(w.annotations, line)
		}
	}
	w.r.logf(w.j, "  %s", line)
}
