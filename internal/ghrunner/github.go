package ghrunner

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
)

// GitHubAPI is the repository's issues and their comments (a pull
// request is an issue too), as the github-script stand-in reads and
// writes them; every write is recorded in Calls.
type GitHubAPI struct {
	Issues   []Issue   `json:"issues"`
	Comments []Comment `json:"comments"`
	Calls    []Call    `json:"calls"`
	NextID   int       `json:"nextID"`
}

// Issue is an issue or a pull request.
type Issue struct {
	Number int      `json:"number"`
	Title  string   `json:"title"`
	Body   string   `json:"body"`
	State  string   `json:"state"`
	Labels []string `json:"labels"`
	// PullRequest marks a pull request (listForRepo lists those too).
	PullRequest bool `json:"pull_request,omitempty"`
}

// Comment is a comment on an issue or pull request.
type Comment struct {
	ID          int    `json:"id"`
	IssueNumber int    `json:"issue_number"`
	Body        string `json:"body"`
}

// Call is one write a script made.
type Call struct {
	Method string `json:"method"`
	Issue  int    `json:"issue_number,omitempty"`
	ID     int    `json:"id,omitempty"`
	Body   string `json:"body,omitempty"`
	State  string `json:"state,omitempty"`
	Run    int    `json:"run"`
	Job    string `json:"job"`
}

// CommentsOn are the comments of issue (or pull request) number.
func (g *GitHubAPI) CommentsOn(number int) []Comment {
	var out []Comment
	for _, c := range g.Comments {
		if c.IssueNumber == number {
			out = append(out, c)
		}
	}
	return out
}

// githubScriptHarness runs a github-script's script as the action does
// (an async function of require, github, context and core), against an
// in-memory REST API of the issue calls the workflows make, loaded from
// and saved to the state file; a write the job's token may not make is
// refused with GitHub's 403.
const githubScriptHarness = `
const fs = require('fs');
const [statePath, contextPath, scriptPath] = process.argv.slice(2);
const store = JSON.parse(fs.readFileSync(statePath, 'utf8'));
const ctx = JSON.parse(fs.readFileSync(contextPath, 'utf8'));
const perms = ctx.permissions || {};
const forbidden = (what) => Object.assign(new Error('Resource not accessible by integration (' + what + ')'), {status: 403});
const may = (...scopes) => scopes.some(s => perms[s] === 'write');
const record = (call) => store.calls.push(Object.assign({run: ctx.runId, job: ctx.job}, call));
const issueOf = (n) => store.issues.find(i => i.number === n);
const commentOf = (id) => store.comments.find(c => c.id === id);
const notFound = () => Object.assign(new Error('Not Found'), {status: 404});
const issues = {
  async listComments({issue_number}) { return {data: store.comments.filter(c => c.issue_number === issue_number)}; },
  async createComment({issue_number, body}) {
    const i = issueOf(issue_number);
    if (!i) throw notFound();
    if (!may('issues', ...(i.pull_request ? ['pull-requests'] : []))) throw forbidden('createComment');
    const c = {id: store.nextID++, issue_number, body};
    store.comments.push(c);
    record({method: 'createComment', issue_number, id: c.id, body});
    return {data: c};
  },
  async updateComment({comment_id, body}) {
    const c = commentOf(comment_id);
    if (!c) throw notFound();
    const i = issueOf(c.issue_number);
    if (!may('issues', ...(i && i.pull_request ? ['pull-requests'] : []))) throw forbidden('updateComment');
    c.body = body;
    record({method: 'updateComment', issue_number: c.issue_number, id: c.id, body});
    return {data: c};
  },
  async deleteComment({comment_id}) {
    const c = commentOf(comment_id);
    if (!c) throw notFound();
    const i = issueOf(c.issue_number);
    if (!may('issues', ...(i && i.pull_request ? ['pull-requests'] : []))) throw forbidden('deleteComment');
    store.comments = store.comments.filter(x => x.id !== comment_id);
    record({method: 'deleteComment', issue_number: c.issue_number, id: c.id});
    return {data: {}};
  },
  async listForRepo({state = 'open', labels}) {
    const want = labels ? labels.split(',').map(s => s.trim()) : [];
    return {data: store.issues.filter(i => (state === 'all' || i.state === state) && want.every(l => (i.labels || []).includes(l)))};
  },
  async create({title, body, labels = []}) {
    if (!may('issues')) throw forbidden('issues.create');
    const number = Math.max(99, ...store.issues.map(i => i.number)) + 1;
    const i = {number, title, body, state: 'open', labels: labels.map(l => typeof l === 'string' ? l : l.name)};
    store.issues.push(i);
    record({method: 'issues.create', issue_number: number, body});
    return {data: i};
  },
  async update({issue_number, title, body, state, labels}) {
    const i = issueOf(issue_number);
    if (!i) throw notFound();
    if (!may('issues', ...(i.pull_request ? ['pull-requests'] : []))) throw forbidden('issues.update');
    if (title !== undefined) i.title = title;
    if (body !== undefined) i.body = body;
    if (state !== undefined) i.state = state;
    if (labels !== undefined) i.labels = labels;
    record({method: 'issues.update', issue_number, body, state});
    return {data: i};
  },
};
const github = {
  rest: {issues},
  async paginate(method, params) { return (await method(params)).data; },
};
const context = ctx.context;
const core = {
  info: (m) => console.log(m), warning: (m) => console.log('::warning::' + m), error: (m) => console.log('::error::' + m),
  setFailed: (m) => { console.log('::error::' + m); process.exitCode = 1; }, setOutput: () => {}, debug: () => {},
};
const save = () => fs.writeFileSync(statePath, JSON.stringify(store));
const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor;
const fn = new AsyncFunction('require', 'github', 'context', 'core', fs.readFileSync(scriptPath, 'utf8'));
fn(require, github, context, core).then(() => save(), (e) => { save(); console.log('::error::Unhandled error: ' + (e && e.stack || e)); process.exitCode = 1; });
`

// GitHubScript stands in for actions/github-script@v7: it runs the
// script with the machine's Node.js, as the action does (an async
// function of require, github, context and core), with the step's
// environment and the workspace as its directory; github.rest.issues'
// calls the workflows make (listComments, createComment, updateComment,
// deleteComment, listForRepo, create, update) and github.paginate act
// on Runner.GitHub, and a write the job's token may not make (no
// issues: write, or pull-requests: write for a pull request) fails as
// GitHub answers it (403 Resource not accessible by integration). It
// does not: make any other API call (github.rest's others are
// undefined), glob, io, exec, result-encoding or retries.
func GitHubScript(s *StepContext) error {
	node, err := lookPath("node", s.Env["PATH"])
	if err != nil {
		return fmt.Errorf("actions/github-script's stand-in runs the script with Node.js: %w", err)
	}
	g := s.Runner.GitHub
	if g == nil {
		g = &GitHubAPI{}
		s.Runner.GitHub = g
	}
	if g.NextID == 0 {
		g.NextID = 1
	}
	if g.Issues == nil {
		g.Issues = []Issue{}
	}
	if g.Comments == nil {
		g.Comments = []Comment{}
	}
	if g.Calls == nil {
		g.Calls = []Call{}
	}
	run := s.Job.Run
	owner, repo, _ := cutRepo(s.Runner.Origin.Repo)
	number := 0
	for _, key := range []string{"pull_request", "issue"} {
		if m, ok := run.Event.Payload[key].(map[string]any); ok {
			if n, ok := m["number"].(float64); ok {
				number = int(n)
			}
		}
	}
	context := map[string]any{
		"repo": map[string]any{"owner": owner, "repo": repo}, "issue": map[string]any{"owner": owner, "repo": repo, "number": number},
		"payload": run.Event.Payload, "eventName": run.Event.Name, "sha": run.Event.SHA, "ref": run.Event.Ref,
		"runId": run.ID, "runNumber": run.ID - 1000, "job": s.Job.ID,
	}
	dir := filepath.Join(s.Temp, "github-script-"+strconv.Itoa(len(s.Job.Steps)))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	files := map[string][]byte{"harness.js": []byte(githubScriptHarness), "script.js": []byte(s.With["script"])}
	var err2 error
	if files["state.json"], err2 = json.Marshal(g); err2 != nil {
		return err2
	}
	if files["context.json"], err2 = json.Marshal(map[string]any{"context": context, "permissions": s.Job.Permissions, "runId": run.ID, "job": s.Job.Name}); err2 != nil {
		return err2
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	cmd := exec.Command(node, filepath.Join(dir, "harness.js"), filepath.Join(dir, "state.json"), filepath.Join(dir, "context.json"), filepath.Join(dir, "script.js"))
	cmd.Dir = s.Workspace
	cmd.Env = environ(s.Env)
	cmd.Stdout, cmd.Stderr = s.Log, s.Log
	runErr := cmd.Run()
	data, err := os.ReadFile(filepath.Join(dir, "state.json"))
	if err != nil {
		return err
	}
	var after GitHubAPI
	if err := json.Unmarshal(data, &after); err != nil {
		return err
	}
	*g = after
	if runErr != nil {
		return fmt.Errorf("the script failed: %v", runErr)
	}
	return nil
}

func cutRepo(full string) (owner, repo string, ok bool) {
	for i := 0; i < len(full); i++ {
		if full[i] == '/' {
			return full[:i], full[i+1:], true
		}
	}
	return full, "", false
}
