package trust

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// An Identity is one kind of run: where it runs, the Pulumi Cloud team
// whose token it gets and how, and the ESC environments it opens.
type Identity struct {
	Run   string
	Where string
	// PullRequest: it runs code no one has approved yet.
	PullRequest bool
	Team        string
	// Claims are its GitHub Actions OIDC token's, which Pulumi Cloud
	// exchanges for the team's token; nil for a stored team token.
	Claims map[string]string
	// Stored is where its stored team token is kept (no Claims).
	Stored string
	// Opens are the ESC environments its stacks' operations open.
	Opens []string
	// Harness is the role of the Harness API key its environments hold.
	Harness string
	// RunsOn is where its code runs: for a GitHub Actions job, Workflow's
	// job Job's runs-on (TestIdentitiesRunWhereTheWorkflowsSay).
	RunsOn        string
	Workflow, Job string
}

// Where the jobs run (docs/delivery.md, Where the jobs run).
const (
	// PreviewRunners are the self-hosted runners a pull request's job
	// may take: ephemeral, one job each.
	PreviewRunners = "[self-hosted, harness-platform-preview]"
	// DeployerRunners are the runner group only main's up-stack.yml and
	// plan-stack.yml may use (the program's ActionsRunnerGroup).
	DeployerRunners = "{group: harness-platform-deployers, labels: [self-hosted, harness-platform]}"
	// HostedRunners are GitHub's hosted runners, a fresh virtual machine
	// per job: the pull requests' test jobs, which reach no cloud.
	HostedRunners = "ubuntu-latest"
)

// Harness roles of the keys in ESC (the service accounts' role bindings,
// made by hand in Harness: docs/delivery.md, Who runs what).
const (
	HarnessViewer   = "Account Viewer (_account_viewer)"
	HarnessDeployer = "Account Admin (_account_admin)"
)

// RunTeam is the team whose token a run of environment should have: the
// preview team's for a read-only run, else the environment's deployers'.
func RunTeam(readOnly bool, environment string) string {
	if readOnly {
		return Project + "-preview"
	}
	return Project + "-" + environment
}

// Writing are the environments whose opening yields a credential that
// writes, opened as a team that may open each (one no team may open
// yields nothing).
func (m *Model) Writing(ctx context.Context) ([]string, error) {
	var out []string
	for _, env := range slices.Sorted(maps.Keys(m.Environments)) {
		o, err := m.openAsAny(ctx, env)
		if err != nil {
			return nil, err
		}
		if o != nil && slices.ContainsFunc(o.Grants, func(g Grant) bool { return g.Writes }) {
			out = append(out, env)
		}
	}
	return out, nil
}

func (m *Model) openAsAny(ctx context.Context, env string) (*Opened, error) {
	for _, t := range m.Access.Teams {
		if t.MayOpen(env) {
			return m.Open(ctx, t.Name, env, true)
		}
	}
	return nil, nil
}

// Identities are the kinds of run of the chain's environments, in m's
// Pulumi organisation (esc/pulumi/access.yaml), whose GitHub workflows
// run in repository (owner/name: the root stack file's
// foundation.repository).
func (m *Model) Identities(chain []string, repository string) []Identity {
	aud := "urn:pulumi:org:" + m.Access.Organization
	previews := func() []string {
		var out []string
		for _, env := range chain {
			out = append(out, Project+"/"+env+"-preview")
		}
		return out
	}
	preview := Project + "-preview"
	ids := []Identity{
		{Run: "pull-request preview", Where: ".github/workflows/preview.yml, job stacks", PullRequest: true, Team: preview,
			RunsOn: PreviewRunners, Workflow: ".github/workflows/preview.yml", Job: "stacks",
			Claims: map[string]string{"aud": aud, "sub": "repo:" + repository + ":pull_request", "ref": "refs/pull/1/merge", "event_name": "pull_request"},
			Opens:  previews(), Harness: HarnessViewer},
		{Run: "Harness CI preview (pull requests)", Where: ".harness/pipeline.yaml, stage preview", PullRequest: true, Team: preview,
			RunsOn: "Harness delegates tagged harness-platform-preview-runner (the preview runners' hosts)",
			Stored: "Harness secret pulumi_preview_token", Opens: previews(), Harness: HarnessViewer},
		{Run: "pull-request tests (make test-fast)", Where: ".github/workflows/preview.yml, job test-fast", PullRequest: true, Team: preview,
			RunsOn: HostedRunners, Workflow: ".github/workflows/preview.yml", Job: "test-fast",
			Claims: map[string]string{"aud": aud, "sub": "repo:" + repository + ":pull_request", "ref": "refs/pull/1/merge", "event_name": "pull_request"},
			Opens:  []string{Project + "/shared-reader"}},
		{Run: "pull-request tests (make test-engine)", Where: ".github/workflows/preview.yml, job test-engine", PullRequest: true, Team: preview,
			RunsOn: HostedRunners, Workflow: ".github/workflows/preview.yml", Job: "test-engine",
			Claims: map[string]string{"aud": aud, "sub": "repo:" + repository + ":pull_request", "ref": "refs/pull/1/merge", "event_name": "pull_request"},
			Opens:  []string{Project + "/shared-reader"}},
		{Run: "production's saved plan", Where: ".github/workflows/plan-stack.yml (up.yml, job plan-production)", Team: preview,
			RunsOn: DeployerRunners, Workflow: ".github/workflows/plan-stack.yml", Job: "plan",
			Claims: map[string]string{"aud": aud, "sub": "repo:" + repository + ":ref:refs/heads/main", "ref": "refs/heads/main", "event_name": "push"},
			Opens:  []string{Project + "/" + chain[len(chain)-1] + "-preview"}, Harness: HarnessViewer},
		{Run: "drift check", Where: ".github/workflows/drift.yml", Team: preview,
			RunsOn: PreviewRunners, Workflow: ".github/workflows/drift.yml", Job: "drift",
			Claims: map[string]string{"aud": aud, "sub": "repo:" + repository + ":ref:refs/heads/main", "ref": "refs/heads/main", "event_name": "schedule"},
			Opens:  previews(), Harness: HarnessViewer},
	}
	for _, env := range chain {
		team := Project + "-" + env
		ids = append(ids,
			Identity{Run: "up " + env, Where: ".github/workflows/up-stack.yml in GitHub environment " + env, Team: team,
				RunsOn: DeployerRunners, Workflow: ".github/workflows/up-stack.yml", Job: "up",
				Claims: map[string]string{"aud": aud, "sub": "repo:" + repository + ":environment:" + env, "ref": "refs/heads/main", "event_name": "push"},
				Opens:  []string{Project + "/" + env}, Harness: HarnessDeployer},
			Identity{Run: "operator " + env, Where: "deploy/argocd/stacks/" + env, Team: team,
				RunsOn: "the Pulumi Kubernetes Operator's workspace pod, namespace pulumi",
				Stored: "Kubernetes Secret pulumi/pulumi-access-token-" + env, Opens: []string{Project + "/" + env}, Harness: HarnessDeployer},
			Identity{Run: "Harness CI up " + env, Where: ".harness/pipeline.yaml, stage up_" + env, Team: team,
				RunsOn: "the Harness delegates its stage selects",
				Stored: "Harness secret pulumi_deployer_token_" + env, Opens: []string{Project + "/" + env}, Harness: HarnessDeployer})
	}
	return ids
}

// Obtain is everything the identity can obtain: its team's stack
// permissions, and every credential of every environment its team may
// open (not only those it opens). It fails when Pulumi Cloud would give
// it no token, when a stored token is not recorded with its team, or
// when an environment it opens cannot be opened as its stacks open it.
func (m *Model) Obtain(ctx context.Context, id Identity) ([]Grant, error) {
	if id.Claims != nil {
		if err := m.Access.Exchange(id.Claims, "team", id.Team); err != nil {
			return nil, fmt.Errorf("%s: %w", id.Run, err)
		}
	}
	t := m.Access.Team(id.Team)
	if t == nil {
		return nil, fmt.Errorf("%s: no team %s in esc/pulumi/access.yaml", id.Run, id.Team)
	}
	if id.Claims == nil && !slices.Contains(t.Stored, id.Stored) {
		return nil, fmt.Errorf("%s: its token (%s) is not one of team %s's stored tokens in esc/pulumi/access.yaml", id.Run, id.Stored, id.Team)
	}
	var grants []Grant
	for _, s := range t.Stacks {
		grants = append(grants, Grant{Kind: KindStack, Name: s.Stacks + " " + s.Permission, Writes: s.Permission == "write" || s.Permission == "admin"})
	}
	for _, env := range id.Opens {
		if _, err := m.Open(ctx, id.Team, env, true); err != nil {
			return nil, fmt.Errorf("%s: its stacks cannot open %s: %w", id.Run, env, err)
		}
	}
	seen := map[string]bool{}
	for _, env := range slices.Sorted(maps.Keys(m.Environments)) {
		if !t.MayOpen(env) {
			continue
		}
		o, err := m.Open(ctx, id.Team, env, false)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", id.Run, err)
		}
		for _, g := range o.Grants {
			if k := g.String(); !seen[k] {
				seen[k] = true
				grants = append(grants, g)
			}
		}
	}
	slices.SortStableFunc(grants, func(a, b Grant) int { return cmp.Compare(a.Kind, b.Kind) })
	return grants, nil
}

// StateCredentials are the credentials each stack's state holds, by
// stack name (harness-platform/<stack> in Pulumi Cloud): what a reader
// of the stack decrypts.
type StateCredentials map[string][]string

// Decrypts are the credentials in the states id's team may read: Pulumi
// Cloud's Stack Read permission set holds stack:export and
// stack:decrypt (pulumi.com/docs, RBAC permission sets), and write and
// admin include read.
func (m *Model) Decrypts(id Identity, creds StateCredentials) []string {
	t := m.Access.Team(id.Team)
	if t == nil {
		return nil
	}
	var out []string
	for _, stack := range slices.Sorted(maps.Keys(creds)) {
		if t.StackPermission(Project+"/"+stack) != "none" {
			out = append(out, creds[stack]...)
		}
	}
	return out
}

// Table is the identities' table as docs/delivery.md shows it: what each
// kind of run can obtain, from Obtain, and the credentials in the states
// it may decrypt (Decrypts).
func (m *Model) Table(ctx context.Context, ids []Identity, creds StateCredentials) (string, error) {
	var b strings.Builder
	b.WriteString("| run | runs on | Pulumi token | stacks | may open (ESC) | AWS roles | GitHub App token | Harness key | writes | decrypts (credentials in states) |\n")
	b.WriteString("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
	for _, id := range ids {
		grants, err := m.Obtain(ctx, id)
		if err != nil {
			return "", err
		}
		token := "team " + id.Team + ", by OIDC for `" + id.Claims["sub"] + "`"
		if id.Claims == nil {
			token = "team " + id.Team + ", stored: " + id.Stored
		}
		col := func(kind string) string {
			var out []string
			for _, g := range grants {
				if g.Kind == kind {
					name := g.Name
					if g.Lifetime > 0 {
						name += fmt.Sprintf(" (%s)", strings.TrimSuffix(strings.TrimSuffix(g.Lifetime.String(), "0s"), "0m"))
					}
					out = append(out, "`"+name+"`")
				}
			}
			return strings.Join(out, ", ")
		}
		var envs []string
		for _, env := range slices.Sorted(maps.Keys(m.Environments)) {
			if m.Access.Team(id.Team).MayOpen(env) {
				envs = append(envs, "`"+env+"`")
			}
		}
		writes := "nothing"
		var w []string
		for _, g := range grants {
			if g.Writes {
				w = append(w, g.Kind)
			}
		}
		if len(w) > 0 {
			writes = strings.Join(slices.Compact(w), ", ")
		}
		decrypts := "nothing"
		if d := m.Decrypts(id, creds); len(d) > 0 {
			decrypts = strings.Join(d, ", ")
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", id.Run, "`"+id.RunsOn+"`", token, col(KindStack), strings.Join(envs, ", "),
			col(KindAWSRole), col(KindGitHubApp), id.Harness, writes, decrypts)
	}
	// The GitHub Apps' permissions, as their manifests ask for them.
	// By name: the ids are the organisation's (bootstrap writes them).
	apps := slices.SortedFunc(maps.Keys(m.Apps), func(a, b string) int { return strings.Compare(m.Apps[a].Name, m.Apps[b].Name) })
	b.WriteString("\n| GitHub permission |")
	for _, id := range apps {
		b.WriteString(" " + m.Apps[id].Name + " (" + id + ") |")
	}
	b.WriteString("\n| --- |" + strings.Repeat(" --- |", len(apps)) + "\n")
	perms := map[string]bool{}
	for _, a := range m.Apps {
		for p := range a.Permissions {
			perms[p] = true
		}
	}
	for _, p := range slices.Sorted(maps.Keys(perms)) {
		b.WriteString("| `" + p + "` |")
		for _, id := range apps {
			b.WriteString(" " + cmp.Or(m.Apps[id].Permissions[p], "none") + " |")
		}
		b.WriteString("\n")
	}
	return b.String(), nil
}
