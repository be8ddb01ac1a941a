package ghrunner

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// GitHub Apps and the installation tokens minted for them.
//
// A job's own token (GITHUB_TOKEN, github.token) reads only the
// repository whose workflow runs: "The token's permissions are limited to
// the repository that contains your workflow" (docs.github.com,
// "Automatic token authentication"). Another private repository is read
// with a token minted for it, by actions/create-github-app-token from a
// GitHub App's credentials; CreateGitHubAppToken stands in for it, and
// Checkout refuses another repository without such a token.

// App is a GitHub App's installation on an owner: its id, the private
// key that signs for it, and the repositories it is installed on.
type App struct {
	ID, PrivateKey, Owner string
	Repositories          []string // owner/name
}

// appTokens are the tokens the runner's stand-in minted, with the
// repositories each reads.
type appTokens struct {
	sync.Mutex
	repos map[string][]string
	n     int
}

// CreateGitHubAppToken stands in for actions/create-github-app-token@v2
// (its README, "Inputs"): app-id (or client-id) and private-key name one
// of Runner.Apps; the token covers the repositories named in
// repositories (comma- or newline-separated, under owner), all of the
// owner's installation when owner is set without repositories, else the
// current repository only; a repository the installation is not on is
// refused. The token is the step's output token. It does not: check the
// permission-* inputs against the App's permissions, or revoke the token
// after the job (skip-token-revoke).
func CreateGitHubAppToken(s *StepContext) error {
	id := s.With["app-id"]
	if id == "" {
		id = s.With["client-id"]
	}
	if id == "" || s.With["private-key"] == "" {
		return fmt.Errorf("[@octokit/auth-app] appId and privateKey are required: app-id (or client-id) %q, private-key set: %v", id, s.With["private-key"] != "")
	}
	i := slices.IndexFunc(s.Runner.Apps, func(a App) bool { return a.ID == id })
	if i < 0 || s.Runner.Apps[i].PrivateKey != s.With["private-key"] {
		return fmt.Errorf("[@octokit/auth-app] app %s: the private key does not sign for it (A JSON web token could not be decoded)", id)
	}
	app := s.Runner.Apps[i]
	owner := s.With["owner"]
	var want []string
	for _, name := range strings.FieldsFunc(s.With["repositories"], func(r rune) bool { return r == ',' || r == '\n' }) {
		if name = strings.TrimSpace(name); name != "" {
			want = append(want, cmp.Or(owner, app.Owner)+"/"+name)
		}
	}
	switch {
	case len(want) == 0 && owner != "":
		want = app.Repositories
	case len(want) == 0:
		want = []string{s.Runner.Origin.Repo}
	}
	for _, repo := range want {
		if !slices.Contains(app.Repositories, repo) {
			return fmt.Errorf("GET /repos/%s/installation - 404: Not Found (app %s is not installed on %s)", repo, id, repo)
		}
	}
	t := s.Runner.tokens()
	t.Lock()
	t.n++
	token := fmt.Sprintf("ghs_stand-in-app-%s-%d", id, t.n)
	t.Unlock()
	s.Runner.grant(token, want)
	s.Outputs["token"] = token
	fmt.Fprintf(s.Log, "minted an installation token of app %s for %s\n", id, strings.Join(want, ", "))
	return nil
}

var tokensMu sync.Mutex

// tokens are r's minted tokens (a fork shares its parent's).
func (r *Runner) tokens() *appTokens {
	tokensMu.Lock()
	defer tokensMu.Unlock()
	if r.appTokens == nil {
		r.appTokens = &appTokens{}
	}
	return r.appTokens
}

// grant records token as an App token reading repos (nil: every
// repository of its installation).
func (r *Runner) grant(token string, repos []string) {
	t := r.tokens()
	t.Lock()
	defer t.Unlock()
	if t.repos == nil {
		t.repos = map[string][]string{}
	}
	if repos == nil {
		repos = []string{"*"}
	}
	t.repos[token] = repos
}

// reads reports whether token is an App token that reads repo.
func (r *Runner) reads(token, repo string) bool {
	t := r.tokens()
	t.Lock()
	defer t.Unlock()
	return slices.Contains(t.repos[token], repo) || slices.Contains(t.repos[token], "*")
}
