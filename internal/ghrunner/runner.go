package ghrunner

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rhysd/actionlint"
)

// Event is what starts a run: github.event_name, github.ref, github.sha
// and the event's payload (github.event).
type Event struct {
	Name    string // push, pull_request, schedule, workflow_dispatch
	Ref     string // refs/heads/main; a pull request's refs/pull/N/merge
	SHA     string
	Payload map[string]any
	// Actor is who triggered the run (github.actor); "" is "ghrunner".
	Actor string
}

// Job results, as needs.<id>.result gives them.
const (
	Success   = "success"
	Failure   = "failure"
	Cancelled = "cancelled"
	Skipped   = "skipped"
)

// A job's states.
type state int

const (
	waiting  state = iota // its needs have not all finished
	pending               // waiting in its concurrency group
	running               // started (holds its group); steps not yet run
	expanded              // a reusable workflow's caller or a matrix: its children run
	done
)

// Runner runs workflow runs of one repository, one job at a time, in an
// order GitHub could have run them (see doc.go).
type Runner struct {
	Origin *Origin
	// Root holds the jobs' directories (workspace, RUNNER_TEMP) and the
	// runs' artifacts.
	Root string
	// Env is the machine's environment, which every step starts from
	// (PATH, HOME, the Go caches...); GitHub's own variables are added.
	Env map[string]string
	// Actions are the stand-ins of the actions steps use, by owner/name.
	Actions map[string]Action
	// Repos are the other repositories a checkout may name
	// (with: repository), by owner/name: a directory the checkout links.
	Repos map[string]string
	// Beside are directories linked beside each job's workspace, by
	// name (the project's ../shared).
	Beside map[string]string
	// Vars and Secrets are the vars and secrets contexts.
	Vars, Secrets map[string]string
	// Apps are the GitHub Apps whose tokens CreateGitHubAppToken mints.
	Apps      []App
	appTokens *appTokens
	// Intercept, when set, is asked before each step whether it stands
	// in for it (handled): failure injection and dry runs.
	Intercept func(s *StepContext) (handled bool, err error)
	// OnStart is called when a job starts (it holds its concurrency
	// group, its steps not yet run): tests start other runs from it.
	OnStart func(j *Job)
	// OnPending is called when a job starts waiting in its concurrency
	// group.
	OnPending func(j *Job)
	// Hold, when it returns true for a job that starts, runs the job
	// only once nothing else can run: what arrives meanwhile queues
	// behind it in its concurrency group.
	Hold func(j *Job) bool
	// Log receives every step's output, prefixed with its job.
	Log io.Writer
	// GitHub is the repository's issues and comments, as
	// actions/github-script's stand-in reads and writes them.
	GitHub *GitHubAPI

	// Protections are the environments' deployment protection rules, by
	// name, as the program declares them (github.RepositoryEnvironment);
	// an environment without one deploys at once.
	Protections map[string]Protection
	// Review answers a job that waits for its environment's reviewers:
	// a decision, or nil while no reviewer has answered (the job keeps
	// waiting: Wait returns, and a later Wait asks again).
	Review func(j *Job) *Decision

	// Approvals are the environments whose protection rules jobs met,
	// in the order they met them.
	Approvals []Approval
	// Started are the jobs in the order they started, by run and
	// attempt: "#1001.1 dev / up".
	Started []string
	// Cancellations say which job or run a concurrency group cancelled,
	// and why.
	Cancellations []string

	runs   []*Run
	groups map[string]*group
	nextID int
	seq    int
}

// Approval is an environment's protection rule met by a job: the runner
// approves each in the order they are asked for.
type Approval struct {
	Run         int
	Attempt     int
	Job         string
	Environment string
	// Reviewer approved it ("" for an environment without reviewers);
	// Waited is its wait timer.
	Reviewer string
	Waited   time.Duration
}

// Protection is a GitHub environment's deployment protection rules
// (docs.github.com, "Managing environments for deployment", Deployment
// protection rules):
//   - Reviewers: "Only one of the required reviewers needs to approve
//     the job for it to proceed"; a job waits for that ("Jobs that
//     reference an environment configured with required reviewers will
//     wait for an approval before starting", "Reviewing deployments"),
//     and "If a job is rejected, the workflow will fail";
//   - PreventSelfReview: "you will not be able to approve a deployment
//     from a workflow run you initiated";
//   - WaitTimer: the job is delayed that long after it is triggered
//     (recorded; the runner does not sleep it).
type Protection struct {
	Reviewers         []string
	PreventSelfReview bool
	WaitTimer         time.Duration
}

// Decision is a reviewer's answer to a waiting job: User answers, as
// a member of Team ("" for none).
type Decision struct {
	User, Team string
	Reject     bool
}

// Run is one workflow run.
type Run struct {
	ID       int
	Attempt  int
	Workflow *Workflow
	Event    Event
	// Jobs are the run's top-level jobs, in the order of the file.
	Jobs []*Job
	// Artifacts are the run's artifacts by name, kept across attempts.
	Artifacts map[string]*Artifact
	// Summary is what the jobs wrote to $GITHUB_STEP_SUMMARY.
	Summary strings.Builder

	runner    *Runner
	cancelled bool
	started   bool // holds its workflow-level group, if any
	group     string
}

// Artifact is one uploaded artifact: its files under Dir.
type Artifact struct {
	Name    string
	Dir     string
	Job     string
	Attempt int
	Files   []string
}

// Job is one job of a run: a job with steps, a reusable workflow's
// caller (its jobs are Children) or a matrix (one child per
// combination).
type Job struct {
	Run *Run
	// ID is the job's id in its workflow; Name is how GitHub shows it:
	// "dev / up" for a called workflow's job, "drift (dev)" for a
	// matrix's.
	ID, Name string
	Def      *actionlint.Job
	Workflow *Workflow
	Parent   *Job
	Children []*Job
	Needs    []*Job
	Matrix   map[string]any
	// Inputs are the inputs context of the job's workflow.
	Inputs map[string]any
	// Environment and Group are the job's GitHub environment and
	// concurrency group, once it was queued.
	Environment, Group string
	// Permissions are the GITHUB_TOKEN's (and the OIDC token's)
	// permissions in the job.
	Permissions map[string]string
	Result      string
	Outputs     map[string]string
	// Attempt is the run attempt the job last ran in.
	Attempt int
	// Steps are the steps of its last attempt.
	Steps []StepResult
	// Log is the output of its steps, every attempt.
	Log strings.Builder

	state     state
	held      bool
	seq       int
	order     int
	cancelled bool
	// Waiting: for its environment's reviewers; approved: they did.
	Waiting  bool
	approved bool
}

// StepResult is how a step ended.
type StepResult struct {
	Name, ID           string
	Outcome            string // success, failure, skipped
	Conclusion         string
	Outputs            map[string]string
	Annotations        []string // ::error:: and ::notice:: lines
	Err                error
	ContinuedOnFailure bool
}

// group is a concurrency group: the job or run holding it and those
// pending, in order.
type group struct {
	holder  any // *Job or *Run
	pending []any
}

// maxQueue is how many runs or jobs queue: max lets wait in one group.
const maxQueue = 100

// Trigger starts a run of the workflow at path (in the event's commit)
// and returns it; Wait runs it.
func (r *Runner) Trigger(path string, ev Event) (*Run, error) {
	w, err := r.load(ev.SHA, path)
	if err != nil {
		return nil, err
	}
	if r.nextID == 0 {
		r.nextID = 1001
	}
	run := &Run{ID: r.nextID, Attempt: 1, Workflow: w, Event: ev, Artifacts: map[string]*Artifact{}, runner: r}
	r.nextID++
	run.Jobs, err = r.jobsOf(run, w, nil, nil)
	if err != nil {
		return nil, err
	}
	r.runs = append(r.runs, run)
	if c := w.Concurrency; c != nil {
		s := r.scope(run, nil)
		g, err := s.Interpolate(str(c.Group))
		if err != nil {
			return nil, err
		}
		cancel, err := boolOf(s, c.CancelInProgress)
		if err != nil {
			return nil, err
		}
		run.group = strings.ToLower(g)
		r.enter(run, run.group, cancel, w.Queue)
	} else {
		run.started = true
	}
	return run, nil
}

// Fork is a runner that goes on from r as it stands, in directories of
// its own: the origin repository copied into origin (a directory that
// does not exist yet), the jobs' directories under root; the GitHub API
// and the record (approvals, started jobs, cancellations) copied; run
// numbers going on from r's, as r's own would (the two are alternatives,
// not neighbours). The
// stand-ins, Env, Vars and Secrets are shared (maps, not copied): a
// directory Env names, an offline state say, is the caller's to copy and
// set. r's runs stay r's, and a fork is refused while one of them has a
// job unfinished: two runners would hold its concurrency group.
func (r *Runner) Fork(origin, root string) (*Runner, error) {
	for _, run := range r.runs {
		for _, j := range run.leaves() {
			if j.Result == "" {
				return nil, fmt.Errorf("forking the runner: run #%d's job %q has not finished", run.ID, j.Name)
			}
		}
	}
	if err := os.CopyFS(origin, os.DirFS(r.Origin.Dir)); err != nil {
		return nil, fmt.Errorf("forking the runner: copying the origin: %w", err)
	}
	f := *r
	f.Origin = &Origin{Repo: r.Origin.Repo, Dir: origin}
	f.Root = root
	f.Approvals = slices.Clone(r.Approvals)
	f.Started = slices.Clone(r.Started)
	f.Cancellations = slices.Clone(r.Cancellations)
	f.runs, f.groups = nil, nil
	if r.GitHub != nil {
		data, err := json.Marshal(r.GitHub)
		if err != nil {
			return nil, err
		}
		f.GitHub = &GitHubAPI{}
		if err := json.Unmarshal(data, f.GitHub); err != nil {
			return nil, err
		}
	}
	return &f, nil
}

func (r *Runner) load(sha, path string) (*Workflow, error) {
	data, err := r.Origin.ReadFile(sha, path)
	if err != nil {
		return nil, err
	}
	return ParseWorkflow(path, data)
}

// jobsOf are the jobs of workflow w in run, children of parent, with
// the workflow's inputs.
func (r *Runner) jobsOf(run *Run, w *Workflow, parent *Job, inputs map[string]any) ([]*Job, error) {
	var jobs []*Job
	byID := map[string]*Job{}
	for id, def := range w.Jobs {
		name := str(def.ID)
		if parent != nil {
			name = parent.Name + " / " + name
		}
		j := &Job{Run: run, ID: str(def.ID), Name: name, Def: def, Workflow: w, Parent: parent, Inputs: inputs, order: def.Pos.Line}
		jobs = append(jobs, j)
		byID[id] = j
	}
	slices.SortFunc(jobs, func(a, b *Job) int { return a.order - b.order })
	for _, j := range jobs {
		for _, n := range j.Def.Needs {
			need, ok := byID[strings.ToLower(n.Value)]
			if !ok {
				return nil, fmt.Errorf("%s: job %s needs unknown job %s", w.Path, j.ID, n.Value)
			}
			j.Needs = append(j.Needs, need)
		}
	}
	return jobs, nil
}

// Runs are the runs triggered so far.
func (r *Runner) Runs() []*Run { return r.runs }

// Wait runs every run until none can go on: each job whose needs have
// finished is queued (or skipped by its if:), takes its concurrency
// group or waits in it, and runs; a held job runs once nothing else can.
func (r *Runner) Wait() error {
	// Jobs that waited for a review are asked about again.
	for _, run := range r.runs {
		for _, j := range run.leaves() {
			j.Waiting = false
		}
	}
	for {
		progressed, err := r.admit()
		if err != nil {
			return err
		}
		if progressed {
			continue
		}
		j := r.next()
		if j == nil {
			return nil
		}
		if !r.reviewed(j) {
			continue
		}
		if err := r.execute(j); err != nil {
			return err
		}
	}
}

// reviewed says whether j may run: its environment has no required
// reviewers, or one of them approved it (not the run's actor where the
// environment prevents self-review). A job no reviewer answered waits;
// a rejected one fails (Protection's citations).
func (r *Runner) reviewed(j *Job) bool {
	p, protected := r.Protections[j.Environment]
	if j.Environment == "" || j.approved {
		return true
	}
	if !protected || len(p.Reviewers) == 0 {
		j.approved = true
		r.Approvals = append(r.Approvals, Approval{Run: j.Run.ID, Attempt: j.Run.Attempt, Job: j.Name, Environment: j.Environment, Waited: p.WaitTimer})
		return true
	}
	var d *Decision
	if r.Review != nil {
		d = r.Review(j)
	}
	actor := cmp.Or(j.Run.Event.Actor, "ghrunner")
	switch {
	case d == nil:
		r.logf(j, "waiting for a review of environment %s (reviewers: %s)", j.Environment, strings.Join(p.Reviewers, ", "))
	case !slices.Contains(p.Reviewers, d.User) && (d.Team == "" || !slices.Contains(p.Reviewers, d.Team)):
		r.logf(j, "%s may not review environment %s (reviewers: %s): still waiting", d.User, j.Environment, strings.Join(p.Reviewers, ", "))
	case p.PreventSelfReview && d.User == actor:
		r.logf(j, "%s started this run and environment %s prevents self-review: still waiting", d.User, j.Environment)
	case d.Reject:
		r.logf(j, "environment %s: rejected by %s", j.Environment, d.User)
		r.end(j, Failure)
		return false
	default:
		j.approved = true
		r.Approvals = append(r.Approvals, Approval{Run: j.Run.ID, Attempt: j.Run.Attempt, Job: j.Name, Environment: j.Environment, Reviewer: d.User, Waited: p.WaitTimer})
		return true
	}
	j.Waiting = true
	return false
}

// next is the started job to run: the first started that is not held,
// else the first held.
func (r *Runner) next() *Job {
	var first, firstHeld *Job
	for _, run := range r.runs {
		for _, j := range run.leaves() {
			if j.state != running || j.Waiting {
				continue
			}
			if j.held {
				if firstHeld == nil || j.seq < firstHeld.seq {
					firstHeld = j
				}
			} else if first == nil || j.seq < first.seq {
				first = j
			}
		}
	}
	if first != nil {
		return first
	}
	return firstHeld
}

// leaves are the run's jobs that have steps or may (every job, its
// children included).
func (run *Run) leaves() []*Job {
	var out []*Job
	var walk func(js []*Job)
	walk = func(js []*Job) {
		for _, j := range js {
			out = append(out, j)
			walk(j.Children)
		}
	}
	walk(run.Jobs)
	return out
}

// Job is the job shown as name ("dev / up", "drift (dev)"), or nil.
func (run *Run) Job(name string) *Job {
	for _, j := range run.leaves() {
		if j.Name == name {
			return j
		}
	}
	return nil
}

// Result is the run's conclusion: failure if a job failed, cancelled if
// one was cancelled (or the run), else success.
func (run *Run) Result() string {
	if run.cancelled {
		return Cancelled
	}
	res := Success
	for _, j := range run.Jobs {
		switch j.Result {
		case Failure:
			return Failure
		case Cancelled:
			res = Cancelled
		}
	}
	return res
}

// Results are the results of the run's jobs by name (children included).
func (run *Run) Results() map[string]string {
	out := map[string]string{}
	for _, j := range run.leaves() {
		out[j.Name] = j.Result
	}
	return out
}

// admit moves the jobs whose needs have finished on: skipped, expanded
// into their children, started or pending in their group. It reports
// whether anything changed.
func (r *Runner) admit() (bool, error) {
	progressed := false
	for _, run := range r.runs {
		if !run.started {
			continue
		}
		for _, j := range run.leaves() {
			switch j.state {
			case waiting:
				if !j.needsDone() {
					continue
				}
				if err := r.queue(j); err != nil {
					return false, err
				}
				progressed = true
			case expanded:
				if j.childrenDone() {
					if err := r.finishParent(j); err != nil {
						return false, err
					}
					progressed = true
				}
			}
		}
		if run.started && run.group != "" && run.allDone() {
			if g := r.groups[run.group]; g != nil && g.holder == run {
				r.release(run.group)
				progressed = true
			}
		}
	}
	return progressed, nil
}

func (run *Run) allDone() bool {
	for _, j := range run.Jobs {
		if j.state != done {
			return false
		}
	}
	return true
}

func (j *Job) needsDone() bool {
	for _, n := range j.Needs {
		if n.state != done {
			return false
		}
	}
	return true
}

func (j *Job) childrenDone() bool {
	for _, c := range j.Children {
		if c.state != done {
			return false
		}
	}
	return true
}

// queue decides a job whose needs have finished: its if:, then a
// caller's or matrix's children, or a job's concurrency group.
func (r *Runner) queue(j *Job) error {
	r.seq++
	j.seq = r.seq
	j.Attempt = j.Run.Attempt
	s := r.jobScope(j)
	cond := str(j.Def.If)
	ok, err := s.Condition(cond)
	if err != nil {
		return fmt.Errorf("%s: job %s: if: %w", j.Workflow.Path, j.Name, err)
	}
	switch {
	case !ok && j.Run.cancelled:
		// A cancelled run's job whose if: is false (no always() or
		// cancelled()) is cancelled, not skipped (cancel's citation).
		j.finish(Cancelled)
		return nil
	case !ok:
		j.finish(Skipped)
		return nil
	}
	if j.Parent != nil && j.Parent.Def.WorkflowCall != nil {
		j.Permissions = permissionsOf(j.Workflow, j.Def, j.Parent.Permissions)
	} else if j.Matrix != nil {
		j.Permissions = j.Parent.Permissions
	} else {
		j.Permissions = permissionsOf(j.Workflow, j.Def, nil)
	}
	if call := j.Def.WorkflowCall; call != nil && j.Children == nil {
		return r.expandCall(j, s)
	}
	if st := j.Def.Strategy; st != nil && st.Matrix != nil && j.Matrix == nil && j.Children == nil {
		return r.expandMatrix(j)
	}
	if j.Children != nil {
		// A rerun of a caller or matrix some of whose children failed.
		j.state = expanded
		return nil
	}
	if e := j.Def.Environment; e != nil {
		if j.Environment, err = s.Interpolate(str(e.Name)); err != nil {
			return err
		}
	}
	if c := j.Def.Concurrency; c != nil {
		g, err := s.Interpolate(str(c.Group))
		if err != nil {
			return err
		}
		cancel, err := boolOf(s, c.CancelInProgress)
		if err != nil {
			return err
		}
		j.Group = strings.ToLower(g)
		r.enter(j, j.Group, cancel, j.Workflow.JobQueues[strings.ToLower(j.ID)])
		return nil
	}
	r.start(j)
	return nil
}

func boolOf(s *Scope, b *actionlint.Bool) (bool, error) {
	if b == nil {
		return false, nil
	}
	if b.Expression != nil {
		v, err := s.Value(b.Expression.Value)
		return Truthy(v), err
	}
	return b.Value, nil
}

// enter puts a job or run into its concurrency group, as GitHub
// documents it: at most one holds the group; one arriving while it is
// held waits, and by default replaces (cancels) the one already
// waiting; with queue: max up to 100 wait, and one arriving at a full
// queue is cancelled itself ("When the queue is full, any additional
// jobs or workflow runs are canceled", Control the concurrency of
// workflows and jobs); with cancel-in-progress the holder is cancelled
// instead. GitHub does not promise the order in which waiting ones
// start; this runner starts them in the order they arrived, one of the
// orders GitHub may take.
func (r *Runner) enter(x any, name string, cancelInProgress bool, queue string) {
	if r.groups == nil {
		r.groups = map[string]*group{}
	}
	g := r.groups[name]
	if g == nil {
		g = &group{}
		r.groups[name] = g
	}
	if g.holder != nil && cancelInProgress {
		r.cancel(g.holder, fmt.Sprintf("%s: cancelled in progress by %s (cancel-in-progress)", describe(g.holder), describe(x)))
		g.holder = nil
	}
	if g.holder == nil {
		g.holder = x
		r.begin(x)
		return
	}
	if queue == "max" && !cancelInProgress && len(g.pending) >= maxQueue {
		r.cancel(x, fmt.Sprintf("%s: cancelled on arrival in group %s: the queue is full (%d pending)", describe(x), name, maxQueue))
		return
	}
	limit := 1
	if queue == "max" && !cancelInProgress {
		limit = maxQueue
	}
	for len(g.pending) >= limit {
		old := g.pending[0]
		g.pending = g.pending[1:]
		r.cancel(old, fmt.Sprintf("%s: cancelled while pending in group %s: %s arrived (%s)", describe(old), name, describe(x),
			map[bool]string{true: "the queue is full", false: "one pending run or job at most without queue: max"}[queue == "max"]))
	}
	g.pending = append(g.pending, x)
	switch x := x.(type) {
	case *Job:
		x.state = pending
		if r.OnPending != nil {
			r.OnPending(x)
		}
	case *Run:
		x.started = false
	}
}

// release hands the group to the first that waits in it.
func (r *Runner) release(name string) {
	g := r.groups[name]
	if g == nil {
		return
	}
	g.holder = nil
	for len(g.pending) > 0 {
		next := g.pending[0]
		g.pending = g.pending[1:]
		if j, ok := next.(*Job); ok && j.state == done {
			continue // cancelled while it waited
		}
		g.holder = next
		r.begin(next)
		return
	}
}

func (r *Runner) begin(x any) {
	switch x := x.(type) {
	case *Job:
		r.start(x)
	case *Run:
		x.started = true
	}
}

func describe(x any) string {
	switch x := x.(type) {
	case *Job:
		return fmt.Sprintf("#%d.%d %s", x.Run.ID, x.Run.Attempt, x.Name)
	case *Run:
		return fmt.Sprintf("run #%d (%s)", x.ID, x.Workflow.Path)
	}
	return fmt.Sprint(x)
}

func (r *Runner) cancel(x any, why string) {
	r.Cancellations = append(r.Cancellations, why)
	switch x := x.(type) {
	case *Job:
		x.cancelled = true
		x.finish(Cancelled)
	case *Run:
		// GitHub's cancellation of a run ("Canceling a workflow run",
		// Steps GitHub takes to cancel a workflow run): "the server
		// re-evaluates if conditions for all currently running jobs. If
		// the condition evaluates to true, the job will not get canceled.
		// For example, the condition if: always() would evaluate to true
		// and the job continues to run. When there is no condition, that
		// is the equivalent of the condition if: success()". A job not yet
		// started is decided the same way when its needs finish (queue):
		// always() and cancelled() jobs run, the rest are cancelled.
		x.cancelled = true
		for _, j := range x.leaves() {
			if j.state == done || j.state == expanded || j.state == waiting {
				continue
			}
			if ok, err := r.jobScope(j).Condition(str(j.Def.If)); err == nil && ok {
				continue
			}
			if j.Group != "" && j.state == running {
				r.release(j.Group)
			}
			j.finish(Cancelled)
		}
	}
}

// start gives a job its runner: its environment's approval is recorded
// and it is run by Wait, in the order jobs started.
func (r *Runner) start(j *Job) {
	j.state = running
	r.seq++
	j.seq = r.seq
	r.Started = append(r.Started, fmt.Sprintf("#%d.%d %s", j.Run.ID, j.Run.Attempt, j.Name))
	j.held = r.Hold != nil && r.Hold(j)
	if r.OnStart != nil {
		r.OnStart(j)
	}
}

func (j *Job) finish(result string) {
	j.state = done
	j.Result = result
}

// expandCall instantiates a reusable workflow's jobs as the caller's
// children, with the inputs its with: gives.
func (r *Runner) expandCall(j *Job, s *Scope) error {
	call := j.Def.WorkflowCall
	path := strings.TrimPrefix(str(call.Uses), "./")
	if strings.Contains(path, "@") || !strings.HasPrefix(path, ".github/workflows/") {
		return fmt.Errorf("job %s: uses %q: only the repository's own reusable workflows (./.github/workflows/...) are run", j.Name, str(call.Uses))
	}
	w, err := r.load(j.Run.Event.SHA, path)
	if err != nil {
		return err
	}
	on := w.Call()
	if on == nil {
		return fmt.Errorf("job %s: %s has no workflow_call trigger", j.Name, path)
	}
	inputs := map[string]any{}
	for _, in := range on.Inputs {
		var raw *string
		if with, ok := call.Inputs[in.ID]; ok {
			v := str(with.Value)
			raw = &v
		} else if in.Default != nil {
			v := str(in.Default)
			raw = &v
		} else if in.IsRequired() {
			return fmt.Errorf("job %s: %s's required input %s is not given", j.Name, path, str(in.Name))
		}
		if raw == nil {
			continue
		}
		v, err := s.Value(*raw)
		if err != nil {
			return err
		}
		inputs[str(in.Name)] = typed(v, in.Type)
	}
	for name := range call.Inputs {
		if !slices.ContainsFunc(on.Inputs, func(in *actionlint.WorkflowCallEventInput) bool { return in.ID == name }) {
			return fmt.Errorf("job %s: %s has no input %s", j.Name, path, name)
		}
	}
	children, err := r.jobsOf(j.Run, w, j, inputs)
	if err != nil {
		return err
	}
	j.Children = children
	j.state = expanded
	return nil
}

// typed converts an input's value to its declared type.
func typed(v any, t actionlint.WorkflowCallEventInputType) any {
	switch t {
	case actionlint.WorkflowCallEventInputTypeBoolean:
		if s, ok := v.(string); ok {
			return strings.EqualFold(s, "true")
		}
		return Truthy(v)
	case actionlint.WorkflowCallEventInputTypeNumber:
		return number(v)
	}
	return ToString(v)
}

// expandMatrix makes a child per combination of the matrix's rows (no
// include or exclude: the workflows use none).
func (r *Runner) expandMatrix(j *Job) error {
	m := j.Def.Strategy.Matrix
	if m.Expression != nil || m.Include != nil || m.Exclude != nil {
		return fmt.Errorf("job %s: only a matrix of plain rows is supported", j.Name)
	}
	names := make([]string, 0, len(m.Rows))
	for name := range m.Rows {
		names = append(names, name)
	}
	slices.Sort(names)
	combos := []map[string]any{{}}
	for _, name := range names {
		row := m.Rows[name]
		var next []map[string]any
		for _, c := range combos {
			for _, v := range row.Values {
				s, ok := v.(*actionlint.RawYAMLString)
				if !ok {
					return fmt.Errorf("job %s: matrix %s: only scalar values are supported", j.Name, name)
				}
				n := map[string]any{}
				for k, x := range c {
					n[k] = x
				}
				n[str(row.Name)] = s.Value
				next = append(next, n)
			}
		}
		combos = next
	}
	for i, c := range combos {
		var vals []string
		for _, name := range names {
			vals = append(vals, ToString(c[str(m.Rows[name].Name)]))
		}
		child := &Job{Run: j.Run, ID: j.ID, Name: j.Name + " (" + strings.Join(vals, ", ") + ")", Def: j.Def, Workflow: j.Workflow, Parent: j,
			Inputs: j.Inputs, Matrix: c, order: i}
		j.Children = append(j.Children, child)
	}
	j.state = expanded
	return nil
}

// finishParent ends a caller or matrix whose children finished: failed
// if one failed, cancelled if one was, else succeeded; a caller's
// outputs are its workflow's (on.workflow_call.outputs).
func (r *Runner) finishParent(j *Job) error {
	res := Success
	for _, c := range j.Children {
		switch c.Result {
		case Failure:
			res = Failure
		case Cancelled:
			if res != Failure {
				res = Cancelled
			}
		}
	}
	j.Outputs = map[string]string{}
	if j.Def.WorkflowCall != nil {
		on := j.Children[0].Workflow.Call()
		jobs := map[string]any{}
		for _, c := range j.Children {
			jobs[c.ID] = map[string]any{"result": c.Result, "outputs": stringMap(c.Outputs)}
		}
		s := &Scope{Contexts: map[string]any{"github": r.github(j.Run, j), "inputs": j.Children[0].Inputs, "jobs": jobs, "vars": stringMap(r.Vars)}}
		for _, o := range on.Outputs {
			v, err := s.Interpolate(str(o.Value))
			if err != nil {
				return err
			}
			j.Outputs[str(o.Name)] = v
		}
	} else {
		for _, c := range j.Children {
			for k, v := range c.Outputs {
				j.Outputs[k] = v
			}
		}
	}
	j.finish(res)
	return nil
}

func stringMap(m map[string]string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// ancestors are the jobs j needs, directly or not (within its workflow).
func (j *Job) ancestors() []*Job {
	seen := map[*Job]bool{}
	var out []*Job
	var walk func(k *Job)
	walk = func(k *Job) {
		for _, n := range k.Needs {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
				walk(n)
			}
		}
	}
	walk(j)
	if j.Matrix != nil && j.Parent != nil {
		walk(j.Parent)
	}
	return out
}

// jobScope is what a job's if:, environment, concurrency, with: and
// outputs see. Its status functions: success() when every job it needs
// succeeded; failure() when one it needs, directly or not, failed;
// cancelled() when the run was cancelled ("Returns true if the workflow
// was canceled", docs.github.com, Evaluate expressions in workflows and
// actions, Status check functions): a needed job cancelled by its
// concurrency group makes neither failure() nor cancelled() true, so
// `!failure() && !cancelled()` runs after it, as on GitHub.
func (r *Runner) jobScope(j *Job) *Scope {
	s := r.scope(j.Run, j)
	needs := map[string]any{}
	direct := j.Needs
	if j.Matrix != nil && j.Parent != nil {
		direct = j.Parent.Needs
	}
	for _, n := range direct {
		needs[n.ID] = map[string]any{"result": n.Result, "outputs": stringMap(n.Outputs)}
	}
	s.Contexts["needs"] = needs
	s.Status = Status{
		Success: func() bool {
			for _, n := range direct {
				if n.Result != Success {
					return false
				}
			}
			return !j.Run.cancelled
		},
		Failure: func() bool {
			return slices.ContainsFunc(j.ancestors(), func(a *Job) bool { return a.Result == Failure })
		},
		Cancelled: func() bool { return j.Run.cancelled },
	}
	return s
}

// scope has the contexts every expression of run (and job, if not nil)
// sees.
func (r *Runner) scope(run *Run, j *Job) *Scope {
	c := map[string]any{
		"github":  r.github(run, j),
		"vars":    stringMap(r.Vars),
		"secrets": stringMap(r.Secrets),
		"env":     map[string]any{},
		"runner":  map[string]any{"os": "Linux", "arch": "X64"},
	}
	if j != nil {
		c["inputs"] = orEmpty(j.Inputs)
		if j.Matrix != nil {
			c["matrix"] = j.Matrix
			c["strategy"] = map[string]any{"fail-fast": true, "job-total": float64(len(j.Parent.Children))}
		} else {
			c["matrix"] = map[string]any{}
		}
	} else {
		c["inputs"] = map[string]any{}
	}
	return &Scope{Contexts: c}
}

// github is the github context of run, in job j (nil: the run's).
func (r *Runner) github(run *Run, j *Job) map[string]any {
	owner, _, _ := strings.Cut(r.Origin.Repo, "/")
	attempt := run.Attempt
	job := ""
	if j != nil {
		job = j.ID
	}
	g := map[string]any{
		"repository": r.Origin.Repo, "repository_owner": owner, "event_name": run.Event.Name,
		"event": orEmpty(run.Event.Payload), "sha": run.Event.SHA, "ref": run.Event.Ref,
		"ref_name": refName(run.Event.Ref), "run_id": strconv.Itoa(run.ID), "run_number": strconv.Itoa(run.ID - 1000),
		"run_attempt": strconv.Itoa(attempt), "server_url": "https://github.com", "api_url": "https://api.github.com",
		"workflow": str(run.Workflow.Name), "job": job, "actor": cmp.Or(run.Event.Actor, "ghrunner"), "triggering_actor": cmp.Or(run.Event.Actor, "ghrunner"),
		"token": "ghs_stand-in-GITHUB_TOKEN",
	}
	if pr, ok := run.Event.Payload["pull_request"].(map[string]any); ok {
		if b, ok := pr["base"].(map[string]any); ok {
			g["base_ref"] = b["ref"]
		}
		if h, ok := pr["head"].(map[string]any); ok {
			g["head_ref"] = h["ref"]
		}
	}
	return g
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

func refName(ref string) string {
	for _, p := range []string{"refs/heads/", "refs/tags/"} {
		if s, ok := strings.CutPrefix(ref, p); ok {
			return s
		}
	}
	return strings.TrimPrefix(ref, "refs/")
}

// permissionsOf are a job's token permissions: its own, else its
// workflow's, else the repository's restricted default; in a called
// workflow, no more than the caller's (callerMax).
func permissionsOf(w *Workflow, def *actionlint.Job, callerMax map[string]string) map[string]string {
	p := def.Permissions
	if p == nil {
		p = w.Permissions
	}
	var out map[string]string
	switch {
	case p == nil && callerMax != nil:
		return callerMax
	case p == nil:
		out = map[string]string{"contents": "read", "packages": "read", "metadata": "read"}
	case p.All != nil:
		level := strings.TrimSuffix(str(p.All), "-all")
		out = map[string]string{}
		for _, scope := range []string{"actions", "checks", "contents", "deployments", "id-token", "issues", "packages", "pages", "pull-requests", "statuses", "metadata"} {
			out[scope] = level
		}
	default:
		out = map[string]string{}
		for name, s := range p.Scopes {
			out[name] = str(s.Value)
		}
	}
	if callerMax != nil {
		for scope, level := range out {
			if rank(callerMax[scope]) < rank(level) {
				out[scope] = callerMax[scope]
			}
		}
	}
	return out
}

func rank(level string) int {
	switch level {
	case "read":
		return 1
	case "write":
		return 2
	}
	return 0
}

// RerunFailed is GitHub's "Re-run failed jobs": a new attempt of run
// that runs its failed and cancelled jobs again, and every job that
// needs them; the others keep their results and outputs, and the run
// its artifacts. Wait runs it.
func (r *Runner) RerunFailed(run *Run) {
	run.Attempt++
	run.cancelled = false
	again := map[*Job]bool{}
	for _, j := range run.leaves() {
		if len(j.Children) == 0 && (j.Result == Failure || j.Result == Cancelled) {
			again[j] = true
			for p := j.Parent; p != nil; p = p.Parent {
				again[p] = true
			}
		}
	}
	// Every job that needs one run again, with its children.
	for changed := true; changed; {
		changed = false
		for _, j := range run.leaves() {
			if again[j] {
				continue
			}
			for _, n := range j.Needs {
				if again[n] {
					again[j] = true
					changed = true
					for p := j.Parent; p != nil; p = p.Parent {
						again[p] = true
					}
					break
				}
			}
		}
	}
	for j := range again {
		if len(j.Children) > 0 && j.Result == Skipped {
			j.Children = nil
		}
		j.state, j.Result, j.Outputs, j.held, j.cancelled = waiting, "", nil, false, false
		j.approved, j.Waiting = false, false // a new attempt is reviewed again
	}
	// A caller or matrix whose children partly run again waits for them
	// (queue sees its Children and expands nothing anew).
	for j := range again {
		if len(j.Children) > 0 {
			keep := false
			for _, c := range j.Children {
				keep = keep || !again[c]
			}
			if !keep {
				j.Children = nil
			}
		}
	}
	if run.group != "" {
		r.enter(run, run.group, false, run.Workflow.Queue)
	}
}

// jobDir is where a job keeps its workspace and temporary files.
func (r *Runner) jobDir(j *Job) string {
	name := strings.NewReplacer(" / ", "-", " ", "-", "(", "", ")", "", ",", "").Replace(j.Name)
	return filepath.Join(r.Root, fmt.Sprintf("run-%d", j.Run.ID), fmt.Sprintf("%s-%d", name, j.Run.Attempt))
}

// logf writes a line of the runner's own to the log.
func (r *Runner) logf(j *Job, format string, args ...any) {
	line := fmt.Sprintf(format, args...)
	if j != nil {
		fmt.Fprintf(&j.Log, "%s\n", line)
		line = fmt.Sprintf("[#%d.%d %s] %s", j.Run.ID, j.Run.Attempt, j.Name, line)
	}
	if r.Log != nil {
		fmt.Fprintln(r.Log, line)
	}
}

func mkdirs(dirs ...string) error {
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	return nil
}
