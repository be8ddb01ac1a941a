package components

import (
	"fmt"
	"os"
	"strconv"

	"github.com/pulumi/pulumi-github/sdk/v6/go/github"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/plan"
)

// GitHubVersion is the GitHub provider every registration asks for.
const GitHubVersion = "6.14.1"

// GitHubArgs are the inputs of a GitHub component.
type GitHubArgs struct {
	Plan *plan.GitHub
	// AccountID is the Harness account the catalog-info URLs name.
	AccountID string
	// Webhooks are the triggers' webhook URLs (computed by Harness), by
	// trigger identifier.
	Webhooks map[string]pulumi.StringOutput
	// APIKey is the webhook API key, a secret; nil when not configured.
	APIKey pulumi.StringInput
	// RepositoryIDs are the ids of repositories the stack already knows,
	// by "owner/name" (its last update's): only the others are looked up.
	RepositoryIDs map[string]int
}

// GitHub declares what the stack owns in GitHub: this program's repository
// settings and the Backstage files (foundation stack), and in each
// organisation holding its services' repositories the webhook variable
// (and API key secret) their builds read. Each owner is reached through an
// explicit provider (its token is GITHUB_TOKEN, never an input here).
type GitHub struct {
	pulumi.ResourceState
}

// NewGitHub declares the stack's GitHub objects.
func NewGitHub(ctx *pulumi.Context, name string, args *GitHubArgs, opts ...pulumi.ResourceOption) (*GitHub, error) {
	g := &GitHub{}
	if err := ctx.RegisterComponentResource(GitHubType, name, g, opts...); err != nil {
		return nil, err
	}
	providers := githubProviders{ctx: ctx, parent: g, byOwner: map[string]*github.Provider{}}
	in := providers.options
	if r := args.Plan.Repository; r != nil {
		opts, err := in(r.Owner)
		if err != nil {
			return nil, err
		}
		// The repository's id, as GitHub gave it when an environment was
		// created (terraform-provider-github v6.12.1,
		// resource_github_repository_environment.go Create sets
		// repository_id from Repositories.Get) and kept in its state: a
		// run reads it again only without environments.
		var repoID pulumi.IntInput
		for _, e := range r.Environments {
			var teams pulumi.IntArray
			for _, slug := range e.ReviewerTeams {
				// Team ids are GitHub's: looked up by slug, never written down.
				team := github.LookupTeamOutput(ctx, github.LookupTeamOutputArgs{Slug: pulumi.String(slug), SummaryOnly: pulumi.Bool(true)},
					pulumi.Provider(providers.byOwner[r.Owner]))
				teams = append(teams, team.Id().ApplyT(func(id string) (int, error) {
					n, err := strconv.Atoi(id)
					if err != nil {
						return 0, fmt.Errorf("GitHub team %s has id %q, not a number", slug, id)
					}
					return n, nil
				}).(pulumi.IntOutput))
			}
			env, err := github.NewRepositoryEnvironment(ctx, r.Name+"-"+e.Name, &github.RepositoryEnvironmentArgs{
				Repository:        pulumi.String(r.Name),
				Environment:       pulumi.String(e.Name),
				Reviewers:         github.RepositoryEnvironmentReviewerArray{github.RepositoryEnvironmentReviewerArgs{Teams: teams}},
				PreventSelfReview: pulumi.Bool(e.PreventSelfReview),
				CanAdminsBypass:   pulumi.Bool(false),
				// Only protected branches (main) deploy.
				DeploymentBranchPolicy: &github.RepositoryEnvironmentDeploymentBranchPolicyArgs{
					ProtectedBranches: pulumi.Bool(true), CustomBranchPolicies: pulumi.Bool(false),
				},
			}, opts...)
			if err != nil {
				return nil, err
			}
			if repoID == nil {
				repoID = env.RepositoryId
			}
		}
		// Reviewers must have at least read access to the repository
		// (GitHub's "Create or update an environment"); the reviewing team
		// (the platform team) also opens the pull requests, so it writes.
		granted := map[string]bool{}
		for _, e := range r.Environments {
			for _, slug := range e.ReviewerTeams {
				if granted[slug] {
					continue
				}
				granted[slug] = true
				if _, err := github.NewTeamRepository(ctx, r.Name+"-"+slug, &github.TeamRepositoryArgs{
					TeamId: pulumi.String(slug), Repository: pulumi.String(r.Name), Permission: pulumi.String(ReviewerPermission),
				}, opts...); err != nil {
					return nil, err
				}
			}
		}
		// The deployer runners: this repository's selected workflows only,
		// at main (plan.RunnerGroup); never public repositories'.
		if repoID == nil {
			repoID = github.LookupRepositoryOutput(ctx, github.LookupRepositoryOutputArgs{FullName: pulumi.String(r.Owner + "/" + r.Name)},
				pulumi.Provider(providers.byOwner[r.Owner])).RepoId()
		}
		if _, err := github.NewActionsRunnerGroup(ctx, r.RunnerGroup.Name, &github.ActionsRunnerGroupArgs{
			Name:                     pulumi.String(r.RunnerGroup.Name),
			Visibility:               pulumi.String("selected"),
			SelectedRepositoryIds:    pulumi.IntArray{repoID},
			RestrictedToWorkflows:    pulumi.Bool(true),
			SelectedWorkflows:        pulumi.ToStringArray(r.RunnerGroup.Workflows),
			AllowsPublicRepositories: pulumi.Bool(false),
		}, opts...); err != nil {
			return nil, err
		}
		if _, err := github.NewBranchProtectionV3(ctx, r.Name+"-"+r.Branch, &github.BranchProtectionV3Args{
			Repository:    pulumi.String(r.Name),
			Branch:        pulumi.String(r.Branch),
			EnforceAdmins: pulumi.Bool(true),
			RequiredStatusChecks: &github.BranchProtectionV3RequiredStatusChecksArgs{
				Strict: pulumi.Bool(true),
				Checks: pulumi.StringArray{pulumi.String(r.RequiredCheck)},
			},
			RequiredPullRequestReviews: &github.BranchProtectionV3RequiredPullRequestReviewsArgs{
				RequiredApprovingReviewCount: pulumi.Int(r.Approvals),
				DismissStaleReviews:          pulumi.Bool(true),
			},
		}, opts...); err != nil {
			return nil, err
		}
	}
	if _, err := declareServiceGitHub(ctx, args, providers); err != nil {
		return nil, err
	}
	return g, ctx.RegisterResourceOutputs(g, pulumi.Map{})
}

// ReviewerPermission is what a reviewing team may do in this program's
// repository: push (it opens the pull requests it also reviews).
const ReviewerPermission = "push"

// githubProviders are the explicit GitHub providers of a stack, one per
// owner, children of parent (nil: the stack's root).
type githubProviders struct {
	ctx     *pulumi.Context
	parent  pulumi.Resource
	byOwner map[string]*github.Provider
}

// options are the resource options of an object of owner's.
func (ps githubProviders) options(owner string) ([]pulumi.ResourceOption, error) {
	var parent []pulumi.ResourceOption
	if ps.parent != nil {
		parent = []pulumi.ResourceOption{pulumi.Parent(ps.parent)}
	}
	p, ok := ps.byOwner[owner]
	if !ok {
		var err error
		if p, err = newGitHubProvider(ps.ctx, "github-"+owner, owner, append(parent, pulumi.Version(GitHubVersion))...); err != nil {
			return nil, err
		}
		ps.byOwner[owner] = p
	}
	return append(parent, pulumi.Provider(p), pulumi.Version(GitHubVersion)), nil
}

// newGitHubProvider registers a GitHub provider for owner whose token the
// provider plugin reads itself, from GITHUB_TOKEN in its own environment
// at Configure (terraform-provider-github's token DefaultFunc), so the
// token is never one of the provider's inputs. github.NewProvider would
// copy GITHUB_TOKEN from the program's process into the inputs: every
// run's token (ESC mints one per open, the read-only App's in a preview,
// the writing App's in an up) would then be a change of every GitHub
// provider, the saved plan of a preview would hold the reader's token,
// and an up --plan with the writer's token is refused ("violates plan:
// properties changed: ++token"). The bridge's CheckConfig returns the
// inputs as given (pulumi-terraform-bridge pkg/tfbridge/provider.go), so
// nothing puts the token back. The base URL keeps the SDK's default
// (GITHUB_BASE_URL, else GitHub's), as the inputs already in state have it.
func newGitHubProvider(ctx *pulumi.Context, name, owner string, opts ...pulumi.ResourceOption) (*github.Provider, error) {
	baseURL := os.Getenv("GITHUB_BASE_URL")
	if baseURL == "" {
		baseURL = "https://api.github.com/"
	}
	var p github.Provider
	args := &github.ProviderArgs{Owner: pulumi.String(owner), BaseUrl: pulumi.String(baseURL)}
	if err := ctx.RegisterResource("pulumi:providers:github", name, args, &p, opts...); err != nil {
		return nil, err
	}
	return &p, nil
}

// DeclareServiceGitHub declares, at the stack's root (see
// service_stack.go), a service stack's GitHub objects: its webhook
// variable (and API key secret) in each organisation holding its
// services' repositories, and their Backstage files. It returns the ids
// of the repositories the variables select, by "owner/name", for the
// stack to keep (args.RepositoryIDs of its next run).
func DeclareServiceGitHub(ctx *pulumi.Context, args *GitHubArgs) (pulumi.IntMap, error) {
	ps := githubProviders{ctx: ctx, byOwner: map[string]*github.Provider{}}
	return declareServiceGitHub(ctx, args, ps)
}

// WebhookVisibility is who reads a webhook variable: the repositories it
// names, by id.
const WebhookVisibility = "selected"

func declareServiceGitHub(ctx *pulumi.Context, args *GitHubArgs, ps githubProviders) (pulumi.IntMap, error) {
	in := ps.options
	kept := pulumi.IntMap{}
	for _, v := range args.Plan.Webhooks {
		opts, err := in(v.Owner)
		if err != nil {
			return nil, err
		}
		// Repository ids are GitHub's: looked up by name (a read each)
		// the first time the stack selects a repository, then kept in
		// the stack's outputs, so a run reads only the repositories new
		// to it, however many the stack holds. A repository deleted and
		// created again under its name gets a new id: GitHub drops the
		// old one from the variable's selection, the drift check's
		// refresh reads that (terraform-provider-github v6.12.1,
		// resource_github_actions_organization_variable.go Read:
		// ListSelectedReposForOrgVariable), and an up with
		// RereadRepositories looks every id up again.
		var ids pulumi.IntArray
		for _, repo := range v.Repos {
			full := v.Owner + "/" + repo
			var id pulumi.IntInput
			if n, ok := args.RepositoryIDs[full]; ok {
				id = pulumi.Int(n)
			} else {
				id = github.LookupRepositoryOutput(ctx, github.LookupRepositoryOutputArgs{FullName: pulumi.String(full)},
					pulumi.Provider(ps.byOwner[v.Owner]), pulumi.Version(GitHubVersion)).RepoId()
			}
			ids = append(ids, id)
			kept[full] = id
		}
		var urls pulumi.StringMap = pulumi.StringMap{}
		for _, h := range v.Hooks {
			url, ok := args.Webhooks[h.TriggerID]
			if !ok {
				return nil, fmt.Errorf("no webhook URL for trigger %s", h.TriggerID)
			}
			urls[h.TriggerID] = url
		}
		withKey := args.APIKey != nil
		value := urls.ToStringMapOutput().ApplyT(func(urls map[string]string) (string, error) {
			return v.Value(urls, withKey)
		}).(pulumi.StringOutput)
		if _, err := github.NewActionsOrganizationVariable(ctx, v.Resource(), &github.ActionsOrganizationVariableArgs{
			VariableName: pulumi.String(v.Name), Value: value,
			Visibility: pulumi.String(WebhookVisibility), SelectedRepositoryIds: ids,
		}, opts...); err != nil {
			return nil, err
		}
		if withKey {
			if _, err := github.NewActionsOrganizationSecret(ctx, v.Resource()+"-api-key", &github.ActionsOrganizationSecretArgs{
				SecretName: pulumi.String(v.APIKeySecret), PlaintextValue: pulumi.ToSecret(args.APIKey).(pulumi.StringOutput),
				Visibility: pulumi.String(WebhookVisibility), SelectedRepositoryIds: ids,
			}, opts...); err != nil {
				return nil, err
			}
		}
	}
	for _, ci := range args.Plan.CatalogInfo {
		opts, err := in(ci.Owner)
		if err != nil {
			return nil, err
		}
		content, err := ci.Content(args.AccountID)
		if err != nil {
			return nil, err
		}
		if _, err := github.NewRepositoryFile(ctx, ci.Resource(), &github.RepositoryFileArgs{
			Repository:        pulumi.String(ci.Repo),
			File:              pulumi.String(ci.Path),
			Content:           pulumi.String(content),
			CommitMessage:     pulumi.String("catalog-info.yaml: Harness pipelines of " + ci.Service + " (harness-platform)"),
			OverwriteOnCreate: pulumi.Bool(true),
		}, opts...); err != nil {
			return nil, err
		}
	}
	return kept, nil
}
