package simulated

import (
	"context"
	"errors"
	"fmt"
	"net/netip"

	"github.com/company/harness-platform/preflight"
	"github.com/company/harness-platform/simulated/aws"
	"github.com/company/harness-platform/simulated/github"
	"github.com/company/harness-platform/simulated/harness"
	"github.com/company/harness-platform/simulated/kubernetes"
	"github.com/company/harness-platform/trust"
)

// The Servers answer preflight's checks (preflight.Services) as the
// simulated services would answer the operation's calls: each room
// answers for its service, from the Reach the providers refuse by.

// Harness: the key, and the simulated account.
func (s *Servers) Harness(_ context.Context, account, _ string) error {
	return harness.CheckKey(s.Reach(), account)
}

// GitExperience: the project's Git Experience settings, as the Reach
// says the account holds them.
func (s *Servers) GitExperience(_ context.Context, account, _, _ string) (preflight.GitExperience, error) {
	if err := harness.CheckKey(s.Reach(), account); err != nil {
		return preflight.GitExperience{}, err
	}
	return harness.GitExperience(s.Reach()), nil
}

// GitHubFiles: the files of a repository as the Reach's GitHub account
// holds them (its Files), read as GitHub's archive
// gives them: 401 without a credential, 404 for a repository the token
// cannot see, as GitHub answers GET /repos/{owner}/{repo}/tarball/{ref}.
func (s *Servers) GitHubFiles(_ context.Context, owner, repo, branch string, keep func(string) bool) (map[string][]byte, error) {
	r := s.Reach()
	call := "GET https://api.github.com/repos/" + owner + "/" + repo + "/tarball/" + branch
	if r.NoGitHubCredential {
		return nil, errors.New(call + ": 401 Requires authentication")
	}
	files, ok := r.GitHub.Files[owner+"/"+repo]
	if !ok {
		return nil, errors.New(call + ": 404 Not Found")
	}
	out := map[string][]byte{}
	for p, content := range files {
		if keep(p) {
			out[p] = []byte(content)
		}
	}
	return out, nil
}

// GitHubRepo: the repository as the Reach's GitHub account holds it.
func (s *Servers) GitHubRepo(_ context.Context, owner, repo string) (preflight.GitHubRepo, error) {
	return github.Repo(s.Reach(), owner, repo)
}

// GitHubOrg: whether the Reach's token may read the organisation's
// Actions variables.
func (s *Servers) GitHubOrg(_ context.Context, owner string) (preflight.GitHubOrg, error) {
	return github.Org(s.Reach(), owner)
}

// GitHubPlan: the Reach's GitHub account's plan.
func (s *Servers) GitHubPlan(context.Context, string) (string, error) {
	return github.Plan(s.Reach()), nil
}

// GitHub: a credential.
func (s *Servers) GitHub(_ context.Context, owner string, repos []string) error {
	return github.CheckCredential(s.Reach(), fmt.Sprintf("GET https://api.github.com/repos/%s/%s", owner, repos[0]))
}

// GitHubRateLimit: what the simulated GitHub's primary budget (the first
// of its budgets that counts every call) has left, as GET /rate_limit
// says it; unlimited when it enforces none.
func (s *Servers) GitHubRateLimit(context.Context, string) (preflight.RateLimit, error) {
	return github.RateLimit(s.githubCalls.Load()), nil
}

// OpenEnvironment: ESC opens env for the Reach's Pulumi team as the
// CLI opens a stack's imports, refusing as ESC, AWS and GitHub refuse.
func (s *Servers) OpenEnvironment(ctx context.Context, env string) error {
	return s.OpenEnvironmentAs(ctx, s.Reach().PulumiTeam, env)
}

// OpenEnvironmentAs is OpenEnvironment for a token of team ("": every
// environment opens).
func (s *Servers) OpenEnvironmentAs(ctx context.Context, team, env string) error {
	if team == "" {
		return nil
	}
	m, err := trust.Default()
	if err != nil {
		return err
	}
	_, err = m.Open(ctx, team, env, true)
	return err
}

// EnvironmentDefinition: the definition Pulumi Cloud holds, read as the
// Reach's team (EnvironmentDefinitionAs).
func (s *Servers) EnvironmentDefinition(ctx context.Context, env string) ([]byte, error) {
	return s.EnvironmentDefinitionAs(ctx, s.Reach().PulumiTeam, env)
}

// EnvironmentDefinitionAs is EnvironmentDefinition for a token of team
// ("": every definition reads): in the simulation the committed one
// (esc/). ESC shows a definition to a team with read permission on it,
// which open includes (trust.Team.MayOpen; Pulumi ESC, access control).
func (s *Servers) EnvironmentDefinitionAs(_ context.Context, team, env string) ([]byte, error) {
	m, err := trust.Default()
	if err != nil {
		return nil, err
	}
	if team != "" {
		t := m.Access.Team(team)
		if t == nil || !t.MayOpen(env) {
			return nil, fmt.Errorf("[403] %w", trust.ErrNoPermission)
		}
	}
	data, ok := m.Environments[env]
	if !ok {
		return nil, fmt.Errorf("[404] Not Found: environment %s/%s", m.Access.Organization, env)
	}
	return data, nil
}

// CallerIdentity: the run's role in account, as an STS session; "" when
// the Reach models none.
func (s *Servers) CallerIdentity(_ context.Context, account, _ string) (string, error) {
	return aws.CallerIdentity(s.Reach(), account), nil
}

// Cluster: the kubeconfig's credential plugin is installed, the API
// server answers from the runner, and it knows the run (access entries).
func (s *Servers) Cluster(_ context.Context, _ string, kubeconfig string) error {
	return kubernetes.CheckCluster(s.Reach(), s.clusters, kubeconfig)
}

// Command: the credential plugin is installed unless the Reach says not.
func (s *Servers) Command(_ context.Context, name string) error {
	return kubernetes.CheckCommand(s.Reach(), name)
}

// EKS: the version's status on EKS's calendar today, and the version
// the simulated cluster of that name runs.
func (s *Servers) EKS(_ context.Context, _, name, version string) (preflight.EKSAnswer, error) {
	return aws.EKS(s.clouds["aws"], name, version)
}

// EKSAddonVersions: the add-on versions the simulated EKS takes on a
// cluster of Kubernetes k8s (AWS's tables, calendar/eks-addons.json), the
// table's row its default. Refused to no one, as the simulated STS and
// EKS answer preflight's other AWS reads: the Reach's identity in another
// account is the AWS provider's refusal (allowedAccountIds, which
// preflight's identity check reports), not EKS's, DescribeAddonVersions
// reads no account's resources, and the simulated IAM evaluates no policy.
func (s *Servers) EKSAddonVersions(_ context.Context, _, addon, k8s string) ([]preflight.EKSAddonVersion, error) {
	return aws.EKSAddonVersions(addon, k8s), nil
}

// RunnerAddress: the runner's address.
func (s *Servers) RunnerAddress(context.Context) (netip.Addr, error) {
	return s.Reach().Runner, nil
}

// DelegateTokens: the account's delegate tokens as the simulated Harness
// holds them, revoked ones for their 30 days.
func (s *Servers) DelegateTokens(_ context.Context, account string) ([]preflight.DelegateToken, error) {
	return harness.DelegateTokens(s.Reach(), s.clouds["harness"], account)
}

// DelegateGroups: the delegates that report in with the token: the
// delegate releases of the simulated clusters whose token Secret is made
// (by the External Secrets Operator, plan.TokenSecret) from a Secrets
// Manager secret holding the active token's value.
func (s *Servers) DelegateGroups(_ context.Context, account, token string) ([]preflight.DelegateGroup, error) {
	if err := harness.CheckKey(s.Reach(), account); err != nil {
		return nil, err
	}
	digest, ok := harness.TokenDigest(s.clouds["harness"], token)
	if !ok || s.Reach().HarnessDelegatesSilent {
		return nil, nil
	}
	secrets := aws.SecretDigests(s.clouds["aws"])
	var out []preflight.DelegateGroup
	for _, d := range kubernetes.Delegates(s.clouds["kubernetes"]) {
		if d.TokenSecret != "" && secrets[d.TokenSecret] == digest {
			out = append(out, preflight.DelegateGroup{Name: d.Name, Connected: true, Instances: d.Replicas})
		}
	}
	return out, nil
}

// ImageScanAccount: the simulated account holds every module's licence,
// and the secrets made by hand that the catalog names (as its
// notification secrets): it models neither subscriptions nor secrets
// the program does not declare.
func (s *Servers) ImageScanAccount(_ context.Context, account, _, _ string, _ []string) (preflight.ScanAccount, error) {
	if err := harness.CheckKey(s.Reach(), account); err != nil {
		return preflight.ScanAccount{}, err
	}
	return preflight.ScanAccount{Licence: "ACTIVE"}, nil
}
