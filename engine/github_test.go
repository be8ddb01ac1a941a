package engine

import (
	"context"
	"regexp"
	"strings"
	"testing"

	exampletest "github.com/company/harness-platform/internal/example"
	"github.com/company/harness-platform/simulated"
)

// The simulated GitHub refuses what GitHub refuses: required reviewers on
// a private repository without Enterprise (422), a catalog-info.yaml
// commit the token may not write (403) or to a branch that takes only
// pull requests (409). Preflight reports each first, with its fix; the
// up meets GitHub's own message.
func TestGitHubRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := example(t)
	s := open(t, t.TempDir(), c)
	base := simulated.DefaultReach(c)
	for _, tc := range []struct {
		name      string
		github    simulated.GitHubAccount
		preflight string
		up        *regexp.Regexp // GitHub's answer in the up's output
	}{
		{"reviewers on a private repository on Team", simulated.GitHubAccount{Plan: "team", Private: []string{"harness-platform"}},
			exampletest.L(t, "GitHub repository company/harness-platform: private, and the organisation's plan is team: GitHub refuses required reviewers there"),
			// Staging's and production's environments are created at once:
			// either is refused first.
			regexp.MustCompile(`environments/(staging|production): ` + regexp.QuoteMeta("422 Failed to create the environment protection rule. Please ensure the billing plan supports the required reviewers protection rule."))},
		{"a commit the token may not write", simulated.GitHubAccount{ReadOnly: []string{"exports"}},
			exampletest.L(t, "GitHub repository company/exports: the token may not write its contents"),
			literal("PUT https://api.github.com/repos/exports/contents/catalog-info.yaml: 403 Resource not accessible by integration")},
		{"a commit to a pull-request-only branch", simulated.GitHubAccount{Protected: []string{"exports"}},
			exampletest.L(t, "GitHub repository company/exports: its default branch takes changes only through pull requests"),
			literal("PUT https://api.github.com/repos/exports/contents/catalog-info.yaml: 409 Could not create file: Changes must be made through a pull request.")},
	} {
		refusedAsPreflightSays(t, s, tc.name, tc.github, tc.preflight, tc.up)
	}
	s.servers().SetReach(base)
	if problems, err := s.Preflight(ctx, "dev"); err != nil || len(problems) > 0 {
		t.Errorf("preflight with GitHub as it allows: %v %s", err, problemsText(problems))
	}
	if _, err := s.Up(ctx, "dev", UpOptions{}); err != nil {
		t.Errorf("up with GitHub as it allows: %v\n%s", err, s.out)
	}
}

// refusedAsPreflightSays sets GitHub as account holds it: preflight of dev
// reports want, and dev's up meets GitHub's answer up.
func refusedAsPreflightSays(t *testing.T, s harnessSession, name string, account simulated.GitHubAccount, want string, up *regexp.Regexp) {
	t.Helper()
	ctx := context.Background()
	reach := simulated.DefaultReach(s.Catalog)
	reach.GitHub = account
	s.servers().SetReach(reach)
	problems, err := s.Preflight(ctx, "dev")
	if err != nil || !strings.Contains(problemsText(problems), want) {
		t.Errorf("%s: preflight %v:\n%s\nwant %q", name, err, problemsText(problems), want)
	}
	s.out.Reset()
	if _, err := s.Up(ctx, "dev", UpOptions{}); err == nil || !up.MatchString(s.out.String()) {
		t.Errorf("%s: up %v, want %q:\n%s", name, err, up, s.out)
	}
}

// literal matches s as it is.
func literal(s string) *regexp.Regexp { return regexp.MustCompile(regexp.QuoteMeta(s)) }

// A token without the organisation permission Variables: preflight
// reports it first, with the permission to grant, and the up meets
// GitHub's own refusal of the first webhook variable it writes.
func TestGitHubOrgVariablesNeedTheirPermission(t *testing.T) {
	t.Parallel()
	s := open(t, t.TempDir(), example(t))
	refusedAsPreflightSays(t, s, "no Variables permission", simulated.GitHubAccount{Variables: "none"},
		exampletest.L(t, "GitHub organisation company: the token may not use its Actions variables"),
		literal(exampletest.L(t, "POST https://api.github.com/orgs/company/actions/variables: 403 Resource not accessible by integration")))
}
