package preflight

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bradleyfalzon/ghinstallation/v2"
	"github.com/google/go-github/v62/github"
)

// githubClient is a client with the run's GitHub credential, as the GitHub
// provider authenticates (terraform-provider-github, provider.go and
// config.go): GITHUB_TOKEN, else its app_auth, the App's installation
// (GITHUB_APP_ID, GITHUB_APP_INSTALLATION_ID and GITHUB_APP_PEM_FILE,
// the private key itself), whose installation tokens ghinstallation
// mints and renews; against GITHUB_API_URL (default api.github.com).
func (l Live) githubClient() (*github.Client, error) {
	api := strings.TrimSuffix(env("GITHUB_API_URL", "https://api.github.com"), "/")
	var c *github.Client
	if token := os.Getenv("GITHUB_TOKEN"); token != "" {
		c = github.NewClient(l.client()).WithAuthToken(token)
	} else {
		app, inst, pem := os.Getenv("GITHUB_APP_ID"), os.Getenv("GITHUB_APP_INSTALLATION_ID"), os.Getenv("GITHUB_APP_PEM_FILE")
		if app == "" || inst == "" || pem == "" {
			return nil, errors.New("GITHUB_TOKEN is not set (nor the GitHub App's GITHUB_APP_ID, GITHUB_APP_INSTALLATION_ID and GITHUB_APP_PEM_FILE, the provider's app_auth): " +
				"the provider would call GitHub anonymously, which GitHub answers 401 Requires authentication")
		}
		appID, err1 := strconv.ParseInt(app, 10, 64)
		instID, err2 := strconv.ParseInt(inst, 10, 64)
		if err := errors.Join(err1, err2); err != nil {
			return nil, fmt.Errorf("GITHUB_APP_ID and GITHUB_APP_INSTALLATION_ID are numbers: %w", err)
		}
		tr, err := l.installation(api, appID, instID, strings.ReplaceAll(pem, `\n`, "\n"))
		if err != nil {
			return nil, fmt.Errorf("GITHUB_APP_PEM_FILE: %w", err)
		}
		c = github.NewClient(&http.Client{Transport: tr, Timeout: l.client().Timeout})
	}
	var err error
	if c.BaseURL, err = c.BaseURL.Parse(api + "/"); err != nil {
		return nil, fmt.Errorf("GITHUB_API_URL: %w", err)
	}
	return c, nil
}

// installations keep each App installation's transport for the process:
// it holds the installation token until it expires, so a preflight's
// hundreds of reads mint one token, not one each.
var installations sync.Map // installationKey -> *ghinstallation.Transport

type installationKey struct {
	api       string
	app, inst int64
	keySHA256 [32]byte
}

func (l Live) installation(api string, app, inst int64, pem string) (*ghinstallation.Transport, error) {
	k := installationKey{api: api, app: app, inst: inst, keySHA256: sha256.Sum256([]byte(pem))}
	if tr, ok := installations.Load(k); ok {
		return tr.(*ghinstallation.Transport), nil
	}
	base := l.client().Transport
	if base == nil {
		base = http.DefaultTransport
	}
	tr, err := ghinstallation.New(base, app, inst, []byte(pem))
	if err != nil {
		return nil, err
	}
	tr.BaseURL = api
	actual, _ := installations.LoadOrStore(k, tr)
	return actual.(*ghinstallation.Transport), nil
}

// statusOf is the HTTP status of a go-github call (0: no answer).
func statusOf(resp *github.Response) int {
	if resp == nil || resp.Response == nil {
		return 0
	}
	return resp.StatusCode
}

// GitHub checks the credential on the owner's first repository: 401 is
// a bad credential (GitHubRepo checks each repository).
func (l Live) GitHub(ctx context.Context, owner string, repos []string) error {
	c, err := l.githubClient()
	if err != nil {
		return err
	}
	_, resp, err := c.Repositories.Get(ctx, owner, repos[0])
	if statusOf(resp) == http.StatusUnauthorized {
		return fmt.Errorf("GET %srepos/%s/%s: 401 Bad credentials", c.BaseURL, owner, repos[0])
	}
	if statusOf(resp) == 0 {
		return err
	}
	return nil
}

// GitHubPlan reads the organisation's plan (GET /orgs/{org}: the plan is
// shown to its owners only; "" otherwise, and for a user).
func (l Live) GitHubPlan(ctx context.Context, owner string) (string, error) {
	c, err := l.githubClient()
	if err != nil {
		return "", err
	}
	org, resp, err := c.Organizations.Get(ctx, owner)
	if statusOf(resp) == 0 {
		return "", err
	}
	if err != nil || org.Plan == nil {
		return "", nil
	}
	return org.Plan.GetName(), nil
}

// GitHubOrg asks for one of the organisation's Actions variables and
// secrets: 403 (or 404) is a token that may not use them.
func (l Live) GitHubOrg(ctx context.Context, owner string) (GitHubOrg, error) {
	c, err := l.githubClient()
	if err != nil {
		return GitHubOrg{}, err
	}
	one := &github.ListOptions{PerPage: 1}
	var g GitHubOrg
	for _, what := range []struct {
		name string
		ok   *bool
		list func() (*github.Response, error)
	}{
		{"variables", &g.Variables, func() (*github.Response, error) {
			_, r, err := c.Actions.ListOrgVariables(ctx, owner, one)
			return r, err
		}},
		{"secrets", &g.Secrets, func() (*github.Response, error) {
			_, r, err := c.Actions.ListOrgSecrets(ctx, owner, one)
			return r, err
		}},
	} {
		resp, err := what.list()
		switch status := statusOf(resp); {
		case status == http.StatusOK:
			*what.ok = true
		case status == http.StatusForbidden || status == http.StatusNotFound:
		case status == 0:
			return GitHubOrg{}, err
		default:
			return GitHubOrg{}, fmt.Errorf("GET /orgs/%s/actions/%s: %d", owner, what.name, status)
		}
	}
	return g, nil
}

// GitHubRepo reads the repository (visibility, the token's permissions,
// its default branch) and whether the default branch takes only pull
// requests (its branch protection's required_pull_request_reviews, or a
// ruleset's pull_request rule).
func (l Live) GitHubRepo(ctx context.Context, owner, repo string) (GitHubRepo, error) {
	c, err := l.githubClient()
	if err != nil {
		return GitHubRepo{}, err
	}
	r, _, err := c.Repositories.Get(ctx, owner, repo)
	if err != nil {
		return GitHubRepo{}, err
	}
	perms := r.GetPermissions()
	g := GitHubRepo{Private: r.GetPrivate(), Admin: perms["admin"], Push: perms["push"]}
	if g.Private {
		if access, _, err := c.Repositories.GetActionsAccessLevel(ctx, owner, repo); err == nil {
			g.ActionsAccess = access.GetAccessLevel()
		}
	}
	branch := r.GetDefaultBranch()
	if p, _, err := c.Repositories.GetBranchProtection(ctx, owner, repo, branch); err == nil && p.RequiredPullRequestReviews != nil {
		g.PullRequestsOnly = true
	}
	if rules, _, err := c.Repositories.GetRulesForBranch(ctx, owner, repo, branch); err == nil {
		g.PullRequestsOnly = g.PullRequestsOnly || slices.ContainsFunc(rules, func(r *github.RepositoryRule) bool { return r.Type == "pull_request" })
	}
	return g, nil
}

// GitHubRateLimit reads the credential's primary budget: GET /rate_limit
// (which does not count against it), resources.core.
func (l Live) GitHubRateLimit(ctx context.Context, _ string) (RateLimit, error) {
	c, err := l.githubClient()
	if err != nil {
		return RateLimit{}, err
	}
	rl, _, err := c.RateLimit.Get(ctx)
	if err != nil {
		return RateLimit{}, err
	}
	core := rl.GetCore()
	return RateLimit{Limit: core.Limit, Remaining: core.Remaining, Reset: max(0, time.Until(core.Reset.Time))}, nil
}
