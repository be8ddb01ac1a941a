package github

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"

	"github.com/company/harness-platform/harness/importid"
	"github.com/company/harness-platform/preflight"
	"github.com/company/harness-platform/simulated/core"
)

// Configure records the organisation the provider is configured for
// (its owner), which GitHub's URLs in refusals name.
func (b *Behavior) Configure(args resource.PropertyMap, _ map[string]string, _ core.Reach) error {
	if owner := core.Str(args, "owner"); owner != "" {
		b.owner.Store(owner)
	}
	return nil
}

func (b *Behavior) ownerName() string {
	owner, _ := b.owner.Load().(string)
	return owner
}

// Refusal is GitHub's answer to every call without a credential: the
// provider's first, GET /user.
func (*Behavior) Refusal(r core.Reach) error {
	return CheckCredential(r, "GET https://api.github.com/user")
}

// CheckCredential is GitHub's answer to the request what: 401 when the
// run has no token.
func CheckCredential(r core.Reach, what string) error {
	if r.NoGitHubCredential {
		return fmt.Errorf("%s: 401 Requires authentication []", what)
	}
	return nil
}

// CheckWrite is GitHub's answer to a create (olds nil) or update, given
// the organisation's plan and the token's permissions (writeRefusal).
func (b *Behavior) CheckWrite(typ, _ string, olds, news resource.PropertyMap, r core.Reach) error {
	return writeRefusal(r, typ, news, b.ownerName(), olds == nil)
}

// CheckRead is GitHub's answer to a refresh's read, given the token's
// permissions (readRefusal).
func (b *Behavior) CheckRead(typ string, state resource.PropertyMap, r core.Reach) error {
	return readRefusal(r, typ, state, b.ownerName())
}

// planOf is the organisation's plan ("": enterprise).
func planOf(g core.GitHubAccount) string {
	if g.Plan == "" {
		return "enterprise"
	}
	return g.Plan
}

// writeRefusal is GitHub's answer to a write of typ (go-github's error
// format: "<METHOD> <url>: <status> <message> []"). Environment
// protection rules (required reviewers, prevent self-review) on a private
// repository need GitHub Enterprise; branch protection on a private one a
// paid plan; a file commit needs Contents: write and a branch that takes
// direct commits (docs.github.com: "Managing environments for
// deployment", "About protected branches").
//
// Writing an organisation variable or secret needs the organisation
// permission Variables or Secrets (write); without it GitHub answers the
// App's token 403 Resource not accessible by integration. owner is the
// provider's organisation; create tells a variable's POST from its PATCH.
func writeRefusal(r core.Reach, typ string, news resource.PropertyMap, owner string, create bool) error {
	g := r.GitHub
	repo := core.Str(news, "repository")
	private := slices.Contains(g.Private, repo)
	switch typ {
	case environmentType:
		rules := news["preventSelfReview"].IsBool() && news["preventSelfReview"].BoolValue()
		if v, ok := news["reviewers"]; ok && v.IsArray() && len(v.ArrayValue()) > 0 {
			rules = true
		}
		if rules && private && planOf(g) != "enterprise" {
			return fmt.Errorf("PUT https://api.github.com/repos/%s/environments/%s: 422 Failed to create the environment protection rule. Please ensure the billing plan supports the required reviewers protection rule. []",
				repo, core.Str(news, "environment"))
		}
	case branchProtectionType:
		if private && planOf(g) == "free" {
			return fmt.Errorf("PUT https://api.github.com/repos/%s/branches/%s/protection: 403 Upgrade to GitHub Pro or make this repository public to enable this feature. []",
				repo, core.Str(news, "branch"))
		}
	case importid.GitHubOrgVariable, importid.GitHubOrgSecret:
		// The provider's own refusals before it calls GitHub
		// (resource_github_actions_organization_variable.go, _secret.go).
		ids, ok := news["selectedRepositoryIds"]
		selected := ok && ids.IsArray() && len(ids.ArrayValue()) > 0
		visibility := core.Str(news, "visibility")
		if visibility != "selected" && selected {
			if typ == importid.GitHubOrgSecret {
				return errors.New("Cannot use selected_repository_ids without visibility being set to selected")
			}
			return errors.New("cannot use selected_repository_ids without visibility being set to selected")
		}
		if typ == importid.GitHubOrgSecret && visibility == "selected" && !selected {
			return errors.New("Cannot use visbility set to selected without selected_repository_ids")
		}
		// GitHub's answers: the variable is POSTed (created) or PATCHed;
		// the secret's value is encrypted with the organisation's public
		// key, read first, then PUT.
		orgs := "https://api.github.com/orgs/" + owner + "/actions/"
		switch {
		case typ == importid.GitHubOrgVariable && g.Variables != "" && create:
			return fmt.Errorf("POST %svariables: 403 Resource not accessible by integration []", orgs)
		case typ == importid.GitHubOrgVariable && g.Variables != "":
			return fmt.Errorf("PATCH %svariables/%s: 403 Resource not accessible by integration []", orgs, core.Str(news, "variableName"))
		case typ == importid.GitHubOrgSecret && g.Secrets == "none":
			return fmt.Errorf("GET %ssecrets/public-key: 403 Resource not accessible by integration []", orgs)
		case typ == importid.GitHubOrgSecret && g.Secrets != "":
			return fmt.Errorf("PUT %ssecrets/%s: 403 Resource not accessible by integration []", orgs, core.Str(news, "secretName"))
		}
	case runnerGroupType:
		// The provider's own refusal before it calls GitHub
		// (resource_github_actions_runner_group.go), then GitHub's to a
		// token without the organisation permission Self-hosted runners:
		// write ("REST API endpoints for self-hosted runner groups").
		ids, ok := news["selectedRepositoryIds"]
		if core.Str(news, "visibility") != "selected" && ok && ids.IsArray() && len(ids.ArrayValue()) > 0 {
			return errors.New("cannot use selected_repository_ids without visibility being set to selected")
		}
		if g.RunnerGroups != "" {
			if create {
				return fmt.Errorf("POST https://api.github.com/orgs/%s/actions/runner-groups: 403 Resource not accessible by integration []", owner)
			}
			return fmt.Errorf("PATCH https://api.github.com/orgs/%s/actions/runner-groups/%d: 403 Resource not accessible by integration []", owner, RunnerGroupID(core.Str(news, "name")))
		}
	case repositoryFileType:
		u := fmt.Sprintf("PUT https://api.github.com/repos/%s/contents/%s", repo, core.Str(news, "file"))
		if slices.Contains(g.ReadOnly, repo) {
			return fmt.Errorf("%s: 403 Resource not accessible by integration []", u)
		}
		if slices.Contains(g.Protected, repo) && core.Str(news, "branch") == "" {
			return fmt.Errorf("%s: 409 Could not create file: Changes must be made through a pull request. []", u)
		}
	}
	return nil
}

// readRefusal is GitHub's answer to a refresh's read of typ: an
// organisation variable needs the organisation permission Variables
// (read), a secret Secrets (read), a runner group Self-hosted runners
// (read); without it GitHub answers the App's
// token 403 Resource not accessible by integration (docs.github.com,
// "Permissions required for GitHub Apps").
func readRefusal(r core.Reach, typ string, state resource.PropertyMap, owner string) error {
	orgs := "https://api.github.com/orgs/" + owner + "/actions/"
	switch {
	case typ == importid.GitHubOrgVariable && r.GitHub.Variables == "none":
		return fmt.Errorf("GET %svariables/%s: 403 Resource not accessible by integration []", orgs, core.Str(state, "variableName"))
	case typ == importid.GitHubOrgSecret && r.GitHub.Secrets == "none":
		return fmt.Errorf("GET %ssecrets/%s: 403 Resource not accessible by integration []", orgs, core.Str(state, "secretName"))
	case typ == runnerGroupType && r.GitHub.RunnerGroups == "none":
		return fmt.Errorf("GET %srunner-groups/%d: 403 Resource not accessible by integration []", orgs, RunnerGroupID(core.Str(state, "name")))
	}
	return nil
}

// The answers to preflight's checks (preflight.Services) of GitHub, as
// the simulated GitHub answers the operation's calls.

// Repo is what GitHub says of a repository to the Reach's token.
func Repo(r core.Reach, owner, repo string) (preflight.GitHubRepo, error) {
	if err := CheckCredential(r, fmt.Sprintf("GET https://api.github.com/repos/%s/%s", owner, repo)); err != nil {
		return preflight.GitHubRepo{}, err
	}
	g := r.GitHub
	return preflight.GitHubRepo{
		Private:          slices.Contains(g.Private, repo),
		Admin:            true,
		Push:             !slices.Contains(g.ReadOnly, repo),
		PullRequestsOnly: slices.Contains(g.Protected, repo),
		ActionsAccess:    cmp.Or(g.ActionsAccess, "organization"),
	}, nil
}

// Org is whether the Reach's token may read the organisation's Actions
// variables and secrets.
func Org(r core.Reach, owner string) (preflight.GitHubOrg, error) {
	if err := CheckCredential(r, fmt.Sprintf("GET https://api.github.com/orgs/%s/actions/variables", owner)); err != nil {
		return preflight.GitHubOrg{}, err
	}
	return preflight.GitHubOrg{Variables: r.GitHub.Variables != "none", Secrets: r.GitHub.Secrets != "none"}, nil
}

// Plan is the Reach's organisation's plan.
func Plan(r core.Reach) string { return planOf(r.GitHub) }
