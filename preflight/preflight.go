// Package preflight checks, before a real preview, up or refresh, that
// every credential and endpoint a stack's operation will use answers: the
// Harness API key for the account, the GitHub credential and its
// permissions on every owner the catalog names, the AWS role each region
// assumes, and each deployed cluster's API from where the operation runs.
// It reports every problem at once, each with its fix, so that a run never
// fails halfway on the first one.
//
// Services says how a check is answered: Live asks the real services; the
// offline simulation (package simulated) answers as its simulated
// providers behave, refusing what they refuse.
package preflight

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/company/harness-platform/apibudget"
	"github.com/company/harness-platform/calendar"
	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/credentials"
	"github.com/company/harness-platform/diag"
	"github.com/company/harness-platform/plan"
	"github.com/company/harness-platform/trust"
)

// Services answer the checks. Each returns nil when the target answers as
// the stack's operation needs, else what it answered.
type Services interface {
	// Harness: the API key is valid for the account and reads the org.
	Harness(ctx context.Context, account, org string) error
	// GitHub: a credential is configured and may write what the stacks
	// write (this program's repository's environments and branch
	// protection, catalog files, the organisation's variables and
	// secrets) and read the owner's teams and repositories.
	GitHub(ctx context.Context, owner string, repos []string) error
	// GitHubPlan is the owner's plan ("free", "team", "enterprise"); ""
	// when the token may not read it.
	GitHubPlan(ctx context.Context, owner string) (string, error)
	// GitHubOrg is what the token may read of the owner's Actions
	// variables.
	GitHubOrg(ctx context.Context, owner string) (GitHubOrg, error)
	// GitHubRepo is what GitHub says of a repository the stacks write,
	// with the token: its visibility, the token's permissions and
	// whether its default branch takes direct commits.
	GitHubRepo(ctx context.Context, owner, repo string) (GitHubRepo, error)
	// CallerIdentity is the ARN of who the run is on AWS in region
	// (sts:GetCallerIdentity), with the credentials the providers use
	// for the environment's account; "" when not known (the simulation
	// models no identity: any is accepted).
	CallerIdentity(ctx context.Context, account, region string) (string, error)
	// Cluster: the API server of the kubeconfig answers from here.
	Cluster(ctx context.Context, region, kubeconfig string) error
	// EKS: what EKS in region says, to the run, of a version
	// (DescribeClusterVersions) and of the cluster name (DescribeCluster).
	EKS(ctx context.Context, region, name, version string) (EKSAnswer, error)
	// EKSAddonVersions are the versions of the add-on that EKS in region
	// lists, to the run, as compatible with Kubernetes version k8s
	// (DescribeAddonVersions with addonName and kubernetesVersion: every
	// page), in EKS's order, each saying whether it is EKS's default for
	// k8s; none when EKS lists none.
	EKSAddonVersions(ctx context.Context, region, addon, k8s string) ([]EKSAddonVersion, error)
	// Command: the program name is installed where the run is (on PATH).
	Command(ctx context.Context, name string) error
	// RunnerAddress is the public address this run reaches the internet
	// from; the zero Addr when it reaches every network.
	RunnerAddress(ctx context.Context) (netip.Addr, error)
	// GitHubRateLimit is what GitHub says remains of the credential's
	// primary budget (GET /rate_limit), as seen for owner's token.
	GitHubRateLimit(ctx context.Context, owner string) (RateLimit, error)
	// GitHubFiles are the files on branch of owner/repo whose path keep
	// accepts, by path, read from the repository's archive (GET
	// /repos/{owner}/{repo}/tarball/{branch}: one call, whatever the
	// number of files).
	GitHubFiles(ctx context.Context, owner, repo, branch string, keep func(path string) bool) (map[string][]byte, error)
	// GitExperience is what the account's Git Experience settings say in
	// the project (enforce_git_experience, default_store_type_for_entities).
	GitExperience(ctx context.Context, account, org, project string) (GitExperience, error)
	// OpenEnvironment: the run's Pulumi Cloud token may open the ESC
	// environment (project/name), and its logins succeed; else what
	// ESC, or the login, answered.
	OpenEnvironment(ctx context.Context, env string) error
	// EnvironmentDefinition is the environment's definition (its YAML)
	// as Pulumi Cloud holds it, read with the run's token (GET
	// /api/esc/environments/{org}/{project}/{env}): what the CLI will
	// open, whatever esc/ says.
	EnvironmentDefinition(ctx context.Context, env string) ([]byte, error)
	// DelegateTokens are the account's delegate tokens, active and
	// revoked (GET /ng/api/delegate-token-ng: one call).
	DelegateTokens(ctx context.Context, account string) ([]DelegateToken, error)
	// DelegateGroups are the delegates that report in with the token
	// (GET /ng/api/delegate-token-ng/delegate-groups?delegateTokenName=).
	DelegateGroups(ctx context.Context, account, token string) ([]DelegateGroup, error)
	// ImageScanAccount is the account's licence of the scanning module
	// and which of secrets the project lacks (scanning.go).
	ImageScanAccount(ctx context.Context, account, org, project string, secrets []string) (ScanAccount, error)
}

// DelegateToken is a delegate token as Harness lists it: its name and
// status. The list does not say when a token was revoked
// (DelegateTokenDetails: uuid, accountId, name, createdBy, createdAt,
// status, value, ownerIdentifier, revokeAfter, the time a token is set to
// revoke itself; harness-core, io.harness.delegate.beans).
type DelegateToken struct {
	Name   string
	Status string // ACTIVE or REVOKED
}

// DelegateGroup is a delegate group that reports in with a token.
type DelegateGroup struct {
	Name string
	// Connected: Harness hears from it (activelyConnected), with
	// Instances delegates.
	Connected bool
	Instances int
}

// PlannedToken is a delegate token an environment's platform stack
// declares, and where its region's entry is.
type PlannedToken struct {
	Name, Region string
	Pos          diag.Pos
}

// RevokedTokenTTL is how long Harness keeps a revoked delegate token's
// name (harness_platform_delegatetoken: "Revoked tokens ... are only
// purged after 30 days, meaning you cannot recreate a token with the
// same name within that period").
const RevokedTokenTTL = 30 * 24 * time.Hour

// GitHubRepo is a repository as GitHub holds it, seen with the token.
type GitHubRepo struct {
	Private bool
	// Admin and Push are the token's permissions on the repository.
	Admin, Push bool
	// PullRequestsOnly: the default branch takes changes only through
	// pull requests (branch protection or a ruleset).
	PullRequestsOnly bool
	// ActionsAccess is, for a private repository, who may call its
	// reusable workflows ("none", "user", "organization", "enterprise").
	ActionsAccess string
}

// GitHubOrg is what the token may read of an organisation: its Actions
// variables (GET /orgs/{org}/actions/variables needs the organisation
// permission Variables: read). Writing them needs write, which GitHub
// shows an App's installation token nowhere: a token that may read them
// passes, and a read-only grant is refused at the write.
//
// Secrets: it may read the organisation's Actions secrets (GET
// /orgs/{org}/actions/secrets needs Secrets: read), which a refresh of
// the stacks' organisation secrets reads.
type GitHubOrg struct{ Variables, Secrets bool }

// GitHubWrite is what the stacks write in, or for, one repository.
type GitHubWrite struct {
	Owner, Repo string
	// Admin: its settings (environments, branch protection, team
	// access): this program's repository.
	Admin bool
	// Reviewers: environments with required reviewers (protection rules).
	Reviewers bool
	// Files: commits of files (catalog-info.yaml) to the default branch.
	Files bool
	// Workflows: this program's repository, whose reusable workflow
	// (deploy-to-harness.yml) the services' repositories call.
	Workflows bool
	// Webhooks: a service's repository, given the stacks' webhook
	// variables (organisation variables it is selected for).
	Webhooks bool
}

// EKSAnswer is what EKS says of a version and a cluster.
type EKSAnswer struct {
	// Status is the version's status (DescribeClusterVersions'
	// versionStatus: STANDARD_SUPPORT, EXTENDED_SUPPORT, UNSUPPORTED);
	// "" when EKS does not list it.
	Status string
	// Standard are the versions in standard support, newest first.
	Standard []string
	// Deployed is the version the cluster runs; "" when it does not exist.
	Deployed string
}

// EKSAddonVersion is an add-on version EKS lists for a Kubernetes version
// (DescribeAddonVersions: addons[].addonVersions[].addonVersion).
type EKSAddonVersion struct {
	Version string
	// Default: EKS's default for that Kubernetes version (the version's
	// compatibilities[].defaultVersion), what CreateAddon installs when
	// no version is asked for.
	Default bool
}

// EKS versionStatus values.
const (
	EKSStandardSupport = "STANDARD_SUPPORT"
	EKSExtendedSupport = "EXTENDED_SUPPORT"
	EKSUnsupported     = "UNSUPPORTED"
)

// Requirements are what one environment's stacks use.
type Requirements struct {
	// Environment is the environment's (platform) stack name.
	Environment string
	// ReadOnly: the run changes nothing (a preview, the drift check), with
	// the read-only credentials of the -preview ESC environments; what
	// only a write needs is not asked of them.
	ReadOnly bool
	Account  string
	Org      string
	// Manifests are the manifests the environment's pipelines deploy,
	// from the config repository (plan.Manifests; nil without one).
	Manifests *plan.ManifestsRepo
	// Project is the Harness project the stacks save pipelines and
	// templates in (inline: plan.StoreType).
	Project string
	// GitHub maps each owner to the repositories the stacks write.
	GitHub map[string][]string
	// Writes are what the stacks write in each repository, by owner and
	// repository.
	Writes []GitHubWrite
	// OrgVariables are the owners whose organisation variables they
	// write (the webhook variables), sorted.
	OrgVariables []string
	// AWS is who the environment's runs may be on AWS (nil without EKS).
	AWS *AWSIdentities
	// Clusters are the environment's deployed clusters (a cluster not
	// created yet is reached by the up that creates it; validate checks
	// that its runners may reach it).
	Clusters []Cluster
	// EKS are the EKS clusters the environment declares.
	EKS []EKSCluster
	// DelegateTokens are the delegate tokens the platform stack declares.
	DelegateTokens []PlannedToken
	// ImageScan is what the environment's image scans need of the
	// account (nil outside Production).
	ImageScan *ImageScanNeeds
	// Network is where the EKS clusters' API answers from and where the
	// runners are (nil without EKS clusters).
	Network *Network
	// Calls are the Harness and GitHub calls the run will make (zero:
	// not known, not checked); MaxRunTime what it may take (default
	// DefaultMaxRunTime).
	Calls      apibudget.Calls
	MaxRunTime time.Duration
	// Lookups are the reads the program makes in every preview and up
	// of the environment (plan.GitHub.Lookups of each stack).
	Lookups apibudget.Calls
	// Opens are the ESC environments the stacks' operations open (the
	// stack files' imports, or their -preview ones for a read-only run);
	// MustNotOpen those a read-only run's token must be refused: every
	// environment that holds a writing credential (package trust).
	Opens, MustNotOpen []string
}

// Network is the stack file's runner and endpoint settings.
type Network struct {
	File              string
	Labels            []string
	EgressCidrs       []string
	PublicEndpoint    bool
	PublicAccessCidrs []string
}

// EKSCluster is an EKS cluster as the stack file asks for it.
type EKSCluster struct {
	Name, Region    string
	Version, Policy string
	// File is the stack file that sets the version.
	File string
	// Addons are the add-ons the program versions from AWS's tables
	// (calendar.EKSAddons), in their order, each at the version the
	// cluster's plan declares.
	Addons []EKSAddon
}

// EKSAddon is an EKS add-on of a cluster at the version the plan declares
// it at: the row of its table (calendar/eks-addons.json) for the
// cluster's Kubernetes version; "" when the table has no row (the VPC
// CNI's builds are not per minor: the program creates it at EKS's
// default build, and leaves the build of one it manages as it is;
// validation refuses the version for the others).
type EKSAddon struct{ Name, Version string }

// eksAddons are the add-ons of calendar.EKSAddons at the versions
// declared (plan.EKSAddonsFor), "" for one not declared.
func eksAddons(declared []plan.EKSAddon) []EKSAddon {
	var out []EKSAddon
	for _, a := range calendar.EKSAddons() {
		v := ""
		if i := slices.IndexFunc(declared, func(d plan.EKSAddon) bool { return d.Name == a.Name }); i >= 0 {
			v = declared[i].Version
		}
		out = append(out, EKSAddon{Name: a.Name, Version: v})
	}
	return out
}

// AWSIdentities are the roles a run of the environment may be: the
// deployer for an up, the preview role for a preview and the drift
// check.
type AWSIdentities struct {
	Account, Deployer, Preview, Region string
	File                               string
}

// Cluster is a deployed cluster's kubeconfig.
type Cluster struct{ Region, Kubeconfig string }

// Require lists what env's stacks use, from the catalog and their plans;
// kubeconfigs maps regions to the deployed clusters' kubeconfigs (the
// platform stack's outputs), empty before the first up.
func Require(c *catalog.Catalog, account, env string, kubeconfigs map[string]string) (Requirements, error) {
	st, _, err := c.EnvironmentOf(env)
	if err != nil {
		return Requirements{}, err
	}
	r := Requirements{Environment: st.Name, Account: account, GitHub: map[string][]string{}, ImageScan: imageScanNeeds(c, st)}
	written := map[[2]string]int{} // owner and repository: index in r.Writes
	add := func(owner, repo string) *GitHubWrite {
		i, ok := written[[2]string{owner, repo}]
		if !ok {
			i = len(r.Writes)
			written[[2]string{owner, repo}] = i
			r.Writes = append(r.Writes, GitHubWrite{Owner: owner, Repo: repo})
		}
		return &r.Writes[i]
	}
	for _, name := range c.StacksOf(st.Name) {
		p, err := plan.Build(c, name)
		if err != nil {
			return Requirements{}, err
		}
		r.Org, r.Project = p.Scope.OrgID, p.Scope.ProjectID
		for _, cl := range p.Clusters {
			// The platform stack declares the clusters; its service
			// stacks' plans name them too.
			if e := cl.EKS; e != nil && p.IsPlatform() {
				r.EKS = append(r.EKS, EKSCluster{Name: e.Name, Region: e.AWSRegion, Version: e.KubernetesVersion, Policy: e.UpgradePolicy, File: st.File, Addons: eksAddons(e.Addons)})
			}
			if p.IsPlatform() {
				r.DelegateTokens = append(r.DelegateTokens, PlannedToken{Name: cl.Delegate.Token, Region: cl.Region, Pos: regionPos(st, cl.Region)})
			}
		}
		if g := p.GitHub; g != nil {
			if g.Repository != nil {
				w := add(g.Repository.Owner, g.Repository.Name)
				w.Admin = true
				w.Reviewers = w.Reviewers || slices.ContainsFunc(g.Repository.Environments, func(e plan.RepositoryEnvironment) bool { return len(e.ReviewerTeams) > 0 })
				w.Workflows = true
			}
			for _, v := range g.Webhooks {
				for _, repo := range v.Repos {
					add(v.Owner, repo).Webhooks = true
				}
				if !slices.Contains(r.OrgVariables, v.Owner) {
					r.OrgVariables = append(r.OrgVariables, v.Owner)
				}
			}
			r.Lookups.Add(apibudget.Calls{GitHubReads: g.Lookups()})
			for _, ci := range g.CatalogInfo {
				add(ci.Owner, ci.Repo).Files = true
			}
		}
	}
	// The manifests contract: one read of the config repository's archive.
	if r.Manifests = plan.Manifests(c, st.Name); r.Manifests != nil && len(r.Manifests.Files) > 0 {
		r.Lookups.Add(apibudget.Calls{GitHubReads: 1})
	}
	slices.Sort(r.OrgVariables)
	slices.SortFunc(r.Writes, func(a, b GitHubWrite) int { return strings.Compare(a.Owner+"/"+a.Repo, b.Owner+"/"+b.Repo) })
	for _, w := range r.Writes {
		r.GitHub[w.Owner] = append(r.GitHub[w.Owner], w.Repo)
	}
	if len(r.EKS) > 0 && st.Cluster != nil {
		r.Network = &Network{File: st.File, PublicEndpoint: st.Cluster.PublicEndpoint, PublicAccessCidrs: st.Cluster.PublicAccessCidrs}
		if st.Runner != nil {
			r.Network.Labels, r.Network.EgressCidrs = st.Runner.Labels, st.Runner.EgressCidrs
			// The operator runs from its own cluster's NAT.
			if catalog.RunDelivery() == catalog.DeliveryOperator && len(st.Runner.OperatorEgressCidrs) > 0 {
				r.Network.EgressCidrs = st.Runner.OperatorEgressCidrs
			}
		}
	}
	for _, reg := range st.Regions {
		if reg.Kind == catalog.RegionEKS && st.AWS != nil && r.AWS == nil {
			r.AWS = &AWSIdentities{Account: st.AWS.Account(), Deployer: st.AWS.RoleArn, Preview: st.AWS.PreviewRoleArn, Region: reg.AWSRegion, File: st.File}
		}
		if k := kubeconfigs[reg.Name]; k != "" {
			r.Clusters = append(r.Clusters, Cluster{Region: reg.Name, Kubeconfig: k})
		}
	}
	return r, nil
}

// Problem is a check that failed.
type Problem struct {
	// Check names what was checked, e.g. "GitHub credential for owner company".
	Check string
	Err   error
	// Fix says what to do.
	Fix string
	// Warning: the run goes on as the program plans it (say, an add-on
	// at EKS's default build); the platform team should still act.
	Warning bool
}

func (p Problem) Error() string { return fmt.Sprintf("%s: %v; %s", p.Check, p.Err, p.Fix) }

// GitExperience is what a Harness scope's Git Experience settings say.
type GitExperience struct {
	// Enforced: enforce_git_experience is true, and Harness refuses
	// inline pipelines, templates and input sets.
	Enforced bool
	// DefaultStore is default_store_type_for_entities (INLINE or
	// REMOTE): what an entity saved without a store type becomes.
	DefaultStore string
}

// Run runs every check of r and returns every problem, in a stable order.
func Run(ctx context.Context, svc Services, r Requirements) []Problem {
	var out []Problem
	fail := func(check string, err error, fix string) {
		if err != nil {
			out = append(out, Problem{Check: check, Err: err, Fix: fix})
		}
	}
	harnessFix := "put a valid API key of that account, with view access to organisation " + r.Org + ", in ESC (harness-platform/ci: harness.apiKey, read as HARNESS_PLATFORM_API_KEY)"
	if r.ReadOnly {
		harnessFix = "put the Account Viewer key of that account in ESC (harness-platform/ci-preview: harness.apiKey, read as HARNESS_PLATFORM_API_KEY)"
	}
	harnessErr := svc.Harness(ctx, r.Account, r.Org)
	fail(fmt.Sprintf("Harness API key for account %s", r.Account), harnessErr, harnessFix)
	if harnessErr == nil && r.Project != "" && !r.ReadOnly {
		// The stacks save their pipelines and templates inline
		// (plan.StoreType); an account that enforces Git Experience
		// refuses every inline entity (harness-core GitXSettingsHelper).
		gx, err := svc.GitExperience(ctx, r.Account, r.Org, r.Project)
		fail(fmt.Sprintf("Harness Git Experience settings of project %s/%s", r.Org, r.Project), err,
			"give the Harness key view access to the account's settings (Account Viewer)")
		if err == nil && gx.Enforced {
			fail(fmt.Sprintf("Harness Git Experience of project %s/%s", r.Org, r.Project),
				fmt.Errorf("Git Experience is enforced for the current scope with accountId: [%s], orgIdentifier: [%s] and projIdentifier: [%s]. Hence Interaction with INLINE entities is forbidden.", r.Account, r.Org, r.Project),
				"this program saves its pipelines and templates inline: turn enforce_git_experience off for the project (Project Settings > Default Settings > Git Experience), or give the stacks a project that does not enforce it")
		}
	}
	if harnessErr == nil && !r.ReadOnly {
		out = append(out, checkDelegateTokens(ctx, svc, r.Account, r.DelegateTokens)...)
	}
	if harnessErr == nil {
		out = append(out, checkImageScan(ctx, svc, r)...)
	}
	out = append(out, checkManifests(ctx, svc, r.Manifests)...)
	plans := map[string]string{} // by owner whose credential GitHub accepts
	for _, o := range slices.Sorted(maps.Keys(r.GitHub)) {
		err := svc.GitHub(ctx, o, r.GitHub[o])
		if err == nil {
			plans[o], _ = svc.GitHubPlan(ctx, o) // unreadable: "", not a refusal
		}
		fix := "give the GitHub provider a token (GITHUB_TOKEN, from ESC harness-platform/ci) of the platform's GitHub App installed on " + o +
			", with administration, environments, variables, secrets and contents write on these repositories and members read on the organisation"
		if r.ReadOnly {
			fix = "give the GitHub provider the read-only token (GITHUB_TOKEN, from ESC harness-platform/ci-preview): read access to these repositories and members read on " + o
		}
		fail(fmt.Sprintf("GitHub credential for owner %s (%s)", o, strings.Join(r.GitHub[o], ", ")), err, fix)
	}
	for _, w := range r.Writes {
		if r.ReadOnly {
			break // nothing is written
		}
		if plan, ok := plans[w.Owner]; ok {
			out = append(out, checkGitHubRepo(ctx, svc, w, plan)...)
		}
	}
	for _, o := range r.OrgVariables {
		if _, ok := plans[o]; ok {
			out = append(out, checkGitHubOrg(ctx, svc, o, r.ReadOnly)...)
		}
	}
	out = append(out, checkEnvironments(ctx, svc, r)...)
	if a := r.AWS; a != nil {
		out = append(out, checkIdentity(ctx, svc, r.Environment, *a)...)
	}
	if len(r.EKS) > 0 {
		fail("the clusters' credential plugin", svc.Command(ctx, plan.CredentialPlugin),
			"install the AWS CLI v2 where the run is (the runner's image; the operator's workspace image): every EKS kubeconfig runs `aws eks get-token` for its token")
	}
	for _, e := range r.EKS {
		out = append(out, checkEKS(ctx, svc, e)...)
		out = append(out, checkEKSAddons(ctx, svc, e)...)
	}
	if r.Network != nil {
		out = append(out, checkNetwork(ctx, svc, *r.Network)...)
	}
	out = append(out, checkBudget(ctx, svc, r)...)
	for _, cl := range r.Clusters {
		fail(fmt.Sprintf("cluster API of %s/%s", r.Environment, cl.Region), svc.Cluster(ctx, cl.Region, cl.Kubeconfig),
			"run the job on the stack's runners (harness-platform:runner labels), whose egressCidrs the cluster's publicAccessCidrs cover (docs/delivery.md, Where the jobs run)")
	}
	return out
}

// checkEKS asks EKS itself whether it offers the cluster's version (the
// live calendar, where validate reads the project's copy) and whether it
// would take the cluster from the version it runs to that one.
func checkEKS(ctx context.Context, svc Services, e EKSCluster) []Problem {
	check := fmt.Sprintf("EKS cluster %s in %s", e.Name, e.Region)
	a, err := svc.EKS(ctx, e.Region, e.Name, e.Version)
	if err != nil {
		return []Problem{{Check: check, Err: err, Fix: "let the run's AWS identity call eks:DescribeClusterVersions and eks:DescribeCluster"}}
	}
	var out []Problem
	standard := strings.Join(a.Standard, ", ")
	switch {
	case a.Status == "" || a.Status == EKSUnsupported:
		out = append(out, Problem{Check: check, Err: fmt.Errorf("EKS does not offer Kubernetes %s (DescribeClusterVersions: %s)", e.Version, orNone(a.Status)),
			Fix: fmt.Sprintf("set kubernetesVersion in %s to a version in standard support: %s", e.File, standard)})
	case a.Status == EKSExtendedSupport && e.Policy != calendar.SupportExtended:
		out = append(out, Problem{Check: check, Err: fmt.Errorf("Kubernetes %s is in EKS extended support, and upgradePolicy is %s: EKS upgrades the cluster itself", e.Version, e.Policy),
			Fix: fmt.Sprintf("set kubernetesVersion in %s to a version in standard support (%s), or upgradePolicy: EXTENDED", e.File, standard)})
	}
	if a.Deployed != "" {
		if err := calendar.UpgradeRefusal(a.Deployed, e.Version); err != nil {
			out = append(out, Problem{Check: check, Err: fmt.Errorf("it runs Kubernetes %s (DescribeCluster), and EKS refuses the update to %s: %v", a.Deployed, e.Version, err),
				Fix: fmt.Sprintf("set kubernetesVersion \"1.%d\" in %s, up, and repeat until %s", calendar.Minor(a.Deployed)+1, e.File, e.Version)})
		}
	}
	return out
}

// checkEKSAddons asks EKS, for each add-on the program versions from
// AWS's tables (calendar/eks-addons.json), which of its versions EKS
// lists as compatible with the cluster's Kubernetes version
// (DescribeAddonVersions, one call per add-on): a version the plan
// declares that EKS does not list would be refused halfway through an up
// (CreateAddon, UpdateAddon: InvalidParameterException: Addon version
// specified is not supported); an add-on whose table has no row for the
// version gets EKS's default build when it is created and keeps its build
// otherwise (validation warns), and EKS's default is the row to add. An add-on without a row that EKS has no version of either
// is not reported: there is no row to add.
func checkEKSAddons(ctx context.Context, svc Services, e EKSCluster) []Problem {
	var out []Problem
	for _, a := range e.Addons {
		check := fmt.Sprintf("EKS add-on %s of cluster %s in %s (Kubernetes %s)", a.Name, e.Name, e.Region, e.Version)
		listed, err := svc.EKSAddonVersions(ctx, e.Region, a.Name, e.Version)
		if err != nil {
			// The cluster's other add-ons would be refused alike.
			return append(out, Problem{Check: check, Err: err, Fix: "let the run's AWS identity call eks:DescribeAddonVersions"})
		}
		table, _ := calendar.LookupEKSAddon(a.Name)
		def := ""
		var versions []string
		for _, v := range listed {
			if v.Default && def == "" {
				def = v.Version
			}
			versions = append(versions, v.Version)
		}
		switch {
		case a.Version != "" && slices.Contains(versions, a.Version):
		case a.Version != "" && len(listed) == 0:
			out = append(out, Problem{Check: check,
				Err: fmt.Errorf("EKS lists no %s version for Kubernetes %s (DescribeAddonVersions), and the plan asks for %s (%s): CreateAddon or UpdateAddon would refuse it (InvalidParameterException: Addon version specified is not supported)", a.Name, e.Version, a.Version, calendar.EKSAddonsFile),
				Fix: fmt.Sprintf("keep kubernetesVersion in %s at a version EKS has %s builds for (aws eks describe-addon-versions --addon-name %s --kubernetes-version %s; %s)", e.File, a.Name, a.Name, e.Version, table.Page)})
		case a.Version != "":
			out = append(out, Problem{Check: check,
				Err: fmt.Errorf("EKS does not list %s, the version %s gives for Kubernetes %s, as compatible with it (DescribeAddonVersions lists %s): CreateAddon or UpdateAddon would refuse it (InvalidParameterException: Addon version specified is not supported)", a.Version, calendar.EKSAddonsFile, e.Version, listVersions(listed)),
				Fix: fmt.Sprintf("set %s's row for %s in %s to a version EKS lists%s, as AWS's table gives it (%s), and set \"read\" to the day it was read", a.Name, e.Version, calendar.EKSAddonsFile, defaultNote(def), table.Page)})
		case len(listed) == 0:
			// No row, and EKS has nothing to add either.
		default:
			what := fmt.Sprintf("EKS's default for Kubernetes %s is %s", e.Version, def)
			row := def
			if def == "" {
				what = fmt.Sprintf("EKS lists %s and marks none its default", listVersions(listed))
				row = versions[0]
			}
			// Validation warns of the missing row too, and the run leaves
			// the add-on as it is: a warning, not a reason to stop.
			out = append(out, Problem{Check: check, Warning: true,
				Err: fmt.Errorf("%s has no %s version for Kubernetes %s (read %s), so the program asks for none: EKS creates %s at its default build, and a cluster that runs it keeps the build it runs; %s (DescribeAddonVersions)", calendar.EKSAddonsFile, a.Name, e.Version, calendar.EKSAddonsRead, a.Name, what),
				Fix: fmt.Sprintf("add \"%s\": \"%s\" to %s's versions in %s, or the build AWS's table gives for %s (%s) if EKS lists it too, and set \"read\" to the day it was read", e.Version, row, a.Name, calendar.EKSAddonsFile, e.Version, table.Page)})
		}
	}
	return out
}

// listVersions says what EKS lists: every version, its default marked.
func listVersions(listed []EKSAddonVersion) string {
	if len(listed) == 0 {
		return "none"
	}
	var out []string
	for _, v := range listed {
		if v.Default {
			out = append(out, v.Version+" (default)")
		} else {
			out = append(out, v.Version)
		}
	}
	return strings.Join(out, ", ")
}

// defaultNote names EKS's default, when it has one.
func defaultNote(def string) string {
	if def == "" {
		return ""
	}
	return " (its default: " + def + ")"
}

func orNone(s string) string {
	if s == "" {
		return "not listed"
	}
	return s
}

// checkNetwork checks that this run comes from the runners' networks and
// that the clusters' public endpoint allows it, before an up creates
// clusters it could not then reach (it would time out on their API,
// halfway through). A network in a reserved range (the example's
// documentation ranges) is named: no run comes from it.
func checkNetwork(ctx context.Context, svc Services, n Network) []Problem {
	addr, err := svc.RunnerAddress(ctx)
	if err != nil {
		return []Problem{{Check: "the address this run comes from", Err: err, Fix: "let the run reach https://checkip.amazonaws.com, or run it on the stack's runners"}}
	}
	if !addr.IsValid() {
		return nil
	}
	var placeholders []string
	for _, key := range []struct {
		name  string
		cidrs []string
	}{{"egressCidrs", n.EgressCidrs}, {"publicAccessCidrs", n.PublicAccessCidrs}} {
		for _, c := range key.cidrs {
			if what, ok := catalog.ReservedRange(c); ok {
				placeholders = append(placeholders, fmt.Sprintf("%s %s %s", key.name, c, what))
			}
		}
	}
	note := ""
	if len(placeholders) > 0 {
		note = " (" + strings.Join(placeholders, "; ") + ": placeholders no run comes from)"
	}
	var out []Problem
	check := "the address this run comes from, " + addr.String()
	if !containsAddr(n.EgressCidrs, addr) {
		out = append(out, Problem{Check: check, Err: fmt.Errorf("not in the runners' egressCidrs [%s]%s", strings.Join(n.EgressCidrs, ", "), note),
			Fix: fmt.Sprintf("run the job on the stack's runners (runs-on: %v), and write their NAT network in %s (harness-platform:runner egressCidrs)", n.Labels, n.File)})
	}
	if n.PublicEndpoint && !containsAddr(n.PublicAccessCidrs, addr) {
		out = append(out, Problem{Check: check, Err: fmt.Errorf("the clusters' public endpoint allows only publicAccessCidrs [%s]: an up would create the clusters, then time out on their API (port 443)%s", strings.Join(n.PublicAccessCidrs, ", "), note),
			Fix: fmt.Sprintf("list the runners' NAT network in harness-platform:cluster publicAccessCidrs in %s", n.File)})
	}
	return out
}

func containsAddr(cidrs []string, addr netip.Addr) bool {
	for _, c := range cidrs {
		if p, err := netip.ParsePrefix(c); err == nil && p.Contains(addr) {
			return true
		}
	}
	return false
}

// checkIdentity checks that the run is, on AWS, one of the environment's
// roles: the AWS providers assume no role (the credentials are already
// the run's, from its ESC environment's OIDC login) and allow only the
// environment's account.
func checkIdentity(ctx context.Context, svc Services, env string, a AWSIdentities) []Problem {
	check := "AWS identity in account " + a.Account
	arn, err := svc.CallerIdentity(ctx, a.Account, a.Region)
	fix := fmt.Sprintf("run an up with ESC environment harness-platform/%s (its OIDC login is %s), a preview with harness-platform/%s-preview (%s)", env, a.Deployer, env, a.Preview)
	if err != nil {
		return []Problem{{Check: check, Err: err, Fix: fix}}
	}
	if arn == "" {
		return nil
	}
	if catalog.ARNAccount(arn) != a.Account {
		return []Problem{{Check: check, Err: fmt.Errorf("the run is %s, of another account: the AWS provider would refuse it (AWS account ID not allowed: %s)", arn, catalog.ARNAccount(arn)), Fix: fix}}
	}
	if !IsRole(arn, a.Deployer) && !IsRole(arn, a.Preview) {
		return []Problem{{Check: check, Err: fmt.Errorf("the run is %s, neither the deployer (roleArn) nor the preview role (previewRoleArn) of %s, and no cluster has an access entry for it", arn, a.File), Fix: fix}}
	}
	return nil
}

// IsRole reports whether the caller ARN (an STS assumed-role ARN, or the
// role's own) is the IAM role role: same account and role name (an
// assumed-role ARN drops the role's path).
func IsRole(caller, role string) bool {
	if role == "" || catalog.ARNAccount(caller) != catalog.ARNAccount(role) {
		return false
	}
	name := role[strings.LastIndex(role, "/")+1:]
	if _, rest, ok := strings.Cut(caller, ":assumed-role/"); ok {
		return strings.SplitN(rest, "/", 2)[0] == name
	}
	return caller == role
}

// checkGitHubOrg checks that the token may use the organisation's Actions
// variables the stacks write: without the organisation permission
// Variables GitHub refuses the write with 403 Resource not accessible by
// integration (docs.github.com, "REST API endpoints for GitHub Actions
// variables": creating one needs Variables write, listing them read).
//
// A read-only run (a preview, the drift check) reads them: refreshing the
// organisation variable and secret needs Variables: read and Secrets:
// read (docs.github.com, "Permissions required for GitHub Apps").
func checkGitHubOrg(ctx context.Context, svc Services, owner string, readOnly bool) []Problem {
	check := "GitHub organisation " + owner
	fix := "grant the platform's GitHub App the organisation permission Variables: Read and write (read alone passes this check, and the write is refused)"
	if readOnly {
		fix = "grant the reader GitHub App, harness-platform-reader (its manifest in esc/github/), the organisation permissions Variables: Read and Secrets: Read, and accept them on the installation"
	}
	g, err := svc.GitHubOrg(ctx, owner)
	if err != nil {
		return []Problem{{Check: check, Err: err, Fix: fix}}
	}
	var out []Problem
	if !g.Variables {
		err := errors.New("the token may not use its Actions variables: the stacks' webhook variables (one per service stack) would be refused (403 Resource not accessible by integration)")
		if readOnly {
			err = errors.New("the token may not read its Actions variables: reading the stacks' webhook variables would be refused (403 Resource not accessible by integration)")
		}
		out = append(out, Problem{Check: check, Err: err, Fix: fix})
	}
	if readOnly && !g.Secrets {
		out = append(out, Problem{Check: check, Err: errors.New("the token may not read its Actions secrets: reading the stacks' webhook API key secrets would be refused (403 Resource not accessible by integration)"), Fix: fix})
	}
	return out
}

// secretsOpenedBy names the AWS secrets opening env reads and who makes
// each (package credentials; "" when none, or the model is unreadable).
func secretsOpenedBy(env string) string {
	m, err := trust.Load()
	if err != nil {
		return ""
	}
	var out []string
	for _, cr := range credentials.OpenedBy(m, env) {
		out = append(out, fmt.Sprintf("%s (%s), made by the %s", cr.Where, cr.What, cr.Owner))
	}
	return strings.Join(out, "; ")
}

// checkEnvironments opens every ESC environment the run's stacks open,
// with the run's token (a refusal here is the CLI's refusal at the first
// stack), and, for a read-only run, proves that its token CANNOT open
// one that holds a writing credential: a pull request's preview given a
// deployer's token is reported before it runs anything. Every login
// must outlive the run.
func checkEnvironments(ctx context.Context, svc Services, r Requirements) []Problem {
	var out []Problem
	for _, env := range r.Opens {
		if err := svc.OpenEnvironment(ctx, env); err != nil {
			fix := "give the run its team's Pulumi token (esc/pulumi/access.yaml: pulumi/auth-actions with scope team:<team>) and that team open permission on " + env
			if needs := secretsOpenedBy(env); needs != "" {
				fix += "; if the refusal is a secret's (missing, or without a value), put it: " + needs
			}
			out = append(out, Problem{Check: "ESC environment " + env, Err: err, Fix: fix})
		}
	}
	for _, env := range r.MustNotOpen {
		if err := svc.OpenEnvironment(ctx, env); err == nil {
			out = append(out, Problem{Check: "ESC environment " + env,
				Err: errors.New("this read-only run's token can open it, and it holds writing credentials: the run's code could write"),
				Fix: "run it with the preview team's token (scope team:harness-platform-preview), and take the open permission on " + env + " from every team but its deployers (esc/pulumi/access.yaml)"})
		}
	}
	// The CLI opens the environments again for each stack's operation,
	// so a login bounds one stack's operation; a run given a longer
	// --max-run-time spans stacks whose own operations are not known
	// here, and is taken at its word. The logins are read from the
	// definitions Pulumi Cloud holds (an environment edited there, not
	// in esc/, is what the CLI opens), each import's with it.
	if r.MaxRunTime != 0 {
		return out
	}
	maxTime := DefaultMaxRunTime
	for _, env := range r.Opens {
		life, err := trust.ShortestLogin(ctx, env, svc.EnvironmentDefinition)
		switch {
		case err != nil:
			out = append(out, Problem{Check: "the AWS logins of " + env, Err: fmt.Errorf("reading its definition from Pulumi Cloud: %w", err),
				Fix: "give the run's team read permission on the environment and its imports (esc/pulumi/access.yaml)"})
		case life > 0 && life < maxTime:
			out = append(out, Problem{Check: "the AWS logins of " + env,
				Err: fmt.Errorf("they last %s in Pulumi Cloud's definition, and a run may take %s: a long run would fail halfway with expired credentials", life, maxTime),
				Fix: fmt.Sprintf("set their aws-login duration to %s (esc/, then esc env edit or the organisation stack) and the roles' MaxSessionDuration to at least that (esc/aws/), or cap the run (--max-run-time)", maxTime)})
		}
	}
	return out
}

// checkGitHubRepo checks what GitHub will refuse of the stacks' writes in
// one repository: environment protection rules (required reviewers,
// prevent self-review) on a private repository need GitHub Enterprise;
// environments and branch protection need the token's admin permission;
// organisation variables reach a private repository only on a paid plan;
// a catalog-info.yaml commit needs Contents: write and a default branch
// that takes direct commits (docs.github.com: "Managing environments for
// deployment", "About protected branches"; the REST API's fine-grained
// permissions).
// plan is the owner's plan ("" when unknown: not judged).
func checkGitHubRepo(ctx context.Context, svc Services, w GitHubWrite, plan string) []Problem {
	check := "GitHub repository " + w.Owner + "/" + w.Repo
	g, err := svc.GitHubRepo(ctx, w.Owner, w.Repo)
	if err != nil {
		return []Problem{{Check: check, Err: err, Fix: "give the token read access to the repository, or fix the catalog's repo"}}
	}
	var out []Problem
	if w.Reviewers && g.Private && plan != "" && plan != "enterprise" {
		out = append(out, Problem{Check: check, Err: fmt.Errorf("private, and the organisation's plan is %s: GitHub refuses required reviewers there (422 Failed to create the environment protection rule. Please ensure the billing plan supports the required reviewers protection rule.)", plan),
			Fix: "make the repository public, move the organisation to GitHub Enterprise, or give its staging and production environments no reviewers (docs/delivery.md, GitHub as code)"})
	}
	if w.Admin && !g.Admin {
		out = append(out, Problem{Check: check, Err: errors.New("the token may not administer it: its environments, branch protection and team access need Administration and Environments write"),
			Fix: "grant the platform's GitHub App (or the token) those repository permissions on it"})
	}
	if w.Webhooks && g.Private && plan == "free" {
		out = append(out, Problem{Check: check, Err: errors.New("private, and the organisation's plan is free: organisation variables and secrets are not available to private repositories on GitHub Free, so its builds would find no webhook URL"),
			Fix: "move the organisation to GitHub Team or Enterprise, or make the repository public"})
	}
	if w.Files && !g.Push {
		out = append(out, Problem{Check: check, Err: errors.New("the token may not write its contents: the catalog-info.yaml commit would be refused (403 Resource not accessible by integration)"),
			Fix: "grant Contents: write on it"})
	}
	if w.Workflows && g.Private && g.ActionsAccess != "organization" && g.ActionsAccess != "enterprise" {
		out = append(out, Problem{Check: check, Err: fmt.Errorf("private, with Actions access level %q: the services' repositories cannot call its reusable workflow deploy-to-harness.yml", g.ActionsAccess),
			Fix: "set its Actions access to the organization (Settings, Actions, General, Access: \"Accessible from repositories in the organization\"; the API's PUT /repos/{owner}/{repo}/actions/permissions/access), or make it public"})
	}
	if w.Files && g.PullRequestsOnly {
		out = append(out, Problem{Check: check, Err: errors.New("its default branch takes changes only through pull requests: the catalog-info.yaml commit would be refused (409 Changes must be made through a pull request)"),
			Fix: "let the platform's GitHub App bypass that rule (a ruleset's bypass list, or the branch protection's allowed actors), or set backstage: false on its services in catalog/services.yaml"})
	}
	return out
}

// checkManifests reports every manifest a pipeline of the environment
// deploys that is not on the config repository's branch, or does not take
// its image from the Values file (the manifests contract, plan.Manifests;
// manifestProblem), each with the catalog entry it comes from and the
// fix; one read of the repository's archive.
func checkManifests(ctx context.Context, svc Services, m *plan.ManifestsRepo) []Problem {
	if m == nil || len(m.Files) == 0 {
		return nil
	}
	repo := m.Owner + "/" + m.Repo
	wanted := make(map[string]bool, len(m.Files))
	for _, f := range m.Files {
		wanted[f.Path] = true
	}
	files, err := svc.GitHubFiles(ctx, m.Owner, m.Repo, m.Branch, func(p string) bool { return wanted[p] })
	if err != nil {
		return []Problem{{Check: fmt.Sprintf("config repository %s, branch %s", repo, m.Branch), Err: err,
			Fix: "give the GitHub token read access to the contents of the config repository the cross-org connector reads (foundation.github.url and branch)"}}
	}
	var out []Problem
	for _, f := range m.Files {
		check := fmt.Sprintf("manifests of %s in %s/%s (%s)", f.Service, f.Env, f.Region, f.Pos)
		content, ok := files[f.Path]
		if !ok {
			out = append(out, Problem{Check: check,
				Err: fmt.Errorf("%s is not on branch %s of %s, and the pipeline fetches it there", f.Path, m.Branch, repo),
				Fix: fmt.Sprintf("add it to %s (taking its image as {{.Values.image}}; docs/delivery.md, The manifests contract), or take %s out of the service's environments or regions", repo, f.Env),
			})
			continue
		}
		if problem := manifestProblem(content, f.Image); problem != "" {
			out = append(out, Problem{Check: check,
				Err: fmt.Errorf("%s on branch %s of %s breaks the manifests contract: %s", f.Path, m.Branch, repo, problem),
				Fix: fmt.Sprintf("write the service's container image as image: {{.Values.image}} there (Harness renders it from the service's Values file, image: <+artifacts.primary.image>), and no image of %s of its own; docs/delivery.md, The manifests contract", f.Image),
			})
		}
		// One parse of the manifest for the checks of its objects.
		objects, err := ManifestObjects(content)
		if err != nil {
			out = append(out, Problem{Check: check, Err: fmt.Errorf("%s on branch %s of %s: %w", f.Path, m.Branch, repo, err),
				Fix: "make it a YAML stream of Kubernetes objects once Harness renders its {{...}} actions"})
			continue
		}
		if f.NoVolumes {
			if claims := VolumeClaims(objects); len(claims) > 0 {
				out = append(out, Problem{Check: check,
					Err: fmt.Errorf("%s on branch %s of %s asks for persistent volumes (%s), and cluster %s/%s has no storage driver (no Amazon EBS CSI driver add-on): the claims stay Pending, and the pods with them", f.Path, m.Branch, repo, strings.Join(claims, "; "), f.Env, f.Region),
					Fix: "keep the service stateless (its state in a managed store: RDS, S3, ElastiCache), or take it to a cluster that provisions volumes (kind: existing with its own storage class)",
				})
			}
		}
		if f.PodSecurity == "" {
			continue
		}
		refused, err := PodSecurityRefusals(objects, f.PodSecurity, f.PodSecurityVersion)
		if err != nil {
			out = append(out, Problem{Check: check, Err: fmt.Errorf("%s on branch %s of %s: %w", f.Path, m.Branch, repo, err),
				Fix: "make it a YAML stream of Kubernetes objects once Harness renders its {{...}} actions"})
		}
		for _, r := range refused {
			out = append(out, Problem{Check: check,
				Err: fmt.Errorf("%s on branch %s of %s: %s; its namespace enforces %s, so the API server refuses its pods (the ReplicaSet's FailedCreate) and Harness rolls the deployment back", f.Path, m.Branch, repo, r, f.PodSecurity),
				Fix: fmt.Sprintf("set the securityContext fields named above in that manifest (Kubernetes, Pod Security Standards, %s: runAsNonRoot: true, allowPrivilegeEscalation: false, capabilities drop [ALL], seccompProfile RuntimeDefault), or give the service's archetype a lower podSecurity in catalog/archetypes.yaml", f.PodSecurity),
			})
		}
	}
	return out
}
