package simulated

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/calendar"
	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/harness/importid"
	"github.com/company/harness-platform/preflight"
	"github.com/company/harness-platform/trust"
)

// Reach is who calls the simulated services, and from where: what the
// real services check before they answer. The simulated providers refuse
// as the real ones do when a credential is missing or an endpoint is out
// of reach, and the Servers answer preflight's checks (preflight.Services)
// from the same model, so a preflight that passes offline means the
// operation's calls are accepted.
type Reach struct {
	// Runner is the address the operations run from (a runner's NAT
	// address); the zero Addr reaches every cluster.
	Runner netip.Addr
	// NoGitHubCredential: the GitHub provider has no token (GITHUB_TOKEN
	// unset), so GitHub answers 401.
	NoGitHubCredential bool
	// InvalidHarnessKey: Harness refuses the API key.
	InvalidHarnessKey bool
	// Identities are who the run is on AWS: one IAM role ARN per account
	// (each stack's ESC environment logs in to its own account); nil
	// means a principal every service accepts, in every account.
	Identities []string
	// Roles are the AWS roles whose trust policy lets the run assume
	// them; nil means any other than the run's own role, which AWS lets
	// a role assume only when its trust policy names it.
	Roles []string
	// NoCredentialPlugin: the kubeconfig's credential plugin (the AWS
	// CLI) is not installed where the run is.
	NoCredentialPlugin bool
	// GitHub is the organisation and repositories as GitHub holds them.
	GitHub GitHubAccount
	// PulumiTeam is the Pulumi Cloud team whose token the run has
	// (package trust): ESC opens an environment, and its logins, as the
	// files in esc/ allow that team. "" is a token every environment
	// opens for (logins not modelled).
	PulumiTeam string
}

// GitHubAccount is what GitHub allows the token in the organisation: its
// plan, which repositories are private, where the token may not write
// contents, and which branches refuse direct commits. The zero value is
// an Enterprise organisation of public repositories the token may write.
type GitHubAccount struct {
	// Plan is "free", "team" or "enterprise" ("": enterprise).
	Plan string
	// Private are the private repositories (names).
	Private []string
	// ReadOnly are the repositories whose contents the token may not
	// write (no Contents: write permission on them).
	ReadOnly []string
	// Protected are the repositories whose default branch takes changes
	// only through pull requests.
	Protected []string
	// ActionsAccess is who may call a private repository's reusable
	// workflows ("": organization).
	ActionsAccess string
	// Variables and Secrets are the token's organisation permissions
	// "Variables" and "Secrets" ("": write; "read"; "none"): writing an
	// organisation variable or secret needs write, listing the
	// variables or reading the secrets' public key read (docs.github.com,
	// "REST API endpoints for GitHub Actions variables" and "... secrets").
	Variables, Secrets string
}

func (g GitHubAccount) plan() string {
	if g.Plan == "" {
		return "enterprise"
	}
	return g.Plan
}

// githubWrite is GitHub's answer to a write of typ (go-github's error
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
func (r Reach) githubWrite(typ string, news resource.PropertyMap, owner string, create bool) error {
	g := r.GitHub
	repo := str(news, "repository")
	private := slices.Contains(g.Private, repo)
	switch typ {
	case "github:index/repositoryEnvironment:RepositoryEnvironment":
		rules := news["preventSelfReview"].IsBool() && news["preventSelfReview"].BoolValue()
		if v, ok := news["reviewers"]; ok && v.IsArray() && len(v.ArrayValue()) > 0 {
			rules = true
		}
		if rules && private && g.plan() != "enterprise" {
			return fmt.Errorf("PUT https://api.github.com/repos/%s/environments/%s: 422 Failed to create the environment protection rule. Please ensure the billing plan supports the required reviewers protection rule. []",
				repo, str(news, "environment"))
		}
	case "github:index/branchProtectionV3:BranchProtectionV3":
		if private && g.plan() == "free" {
			return fmt.Errorf("PUT https://api.github.com/repos/%s/branches/%s/protection: 403 Upgrade to GitHub Pro or make this repository public to enable this feature. []",
				repo, str(news, "branch"))
		}
	case importid.GitHubOrgVariable, importid.GitHubOrgSecret:
		// The provider's own refusals before it calls GitHub
		// (resource_github_actions_organization_variable.go, _secret.go).
		ids, ok := news["selectedRepositoryIds"]
		selected := ok && ids.IsArray() && len(ids.ArrayValue()) > 0
		visibility := str(news, "visibility")
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
			return fmt.Errorf("PATCH %svariables/%s: 403 Resource not accessible by integration []", orgs, str(news, "variableName"))
		case typ == importid.GitHubOrgSecret && g.Secrets == "none":
			return fmt.Errorf("GET %ssecrets/public-key: 403 Resource not accessible by integration []", orgs)
		case typ == importid.GitHubOrgSecret && g.Secrets != "":
			return fmt.Errorf("PUT %ssecrets/%s: 403 Resource not accessible by integration []", orgs, str(news, "secretName"))
		}
	case "github:index/repositoryFile:RepositoryFile":
		u := fmt.Sprintf("PUT https://api.github.com/repos/%s/contents/%s", repo, str(news, "file"))
		if slices.Contains(g.ReadOnly, repo) {
			return fmt.Errorf("%s: 403 Resource not accessible by integration []", u)
		}
		if slices.Contains(g.Protected, repo) && str(news, "branch") == "" {
			return fmt.Errorf("%s: 409 Could not create file: Changes must be made through a pull request. []", u)
		}
	}
	return nil
}

// githubRead is GitHub's answer to a refresh's read of typ: an
// organisation variable needs the organisation permission Variables
// (read), a secret Secrets (read); without it GitHub answers the App's
// token 403 Resource not accessible by integration (docs.github.com,
// "Permissions required for GitHub Apps").
func (r Reach) githubRead(typ string, state resource.PropertyMap, owner string) error {
	orgs := "https://api.github.com/orgs/" + owner + "/actions/"
	switch {
	case typ == importid.GitHubOrgVariable && r.GitHub.Variables == "none":
		return fmt.Errorf("GET %svariables/%s: 403 Resource not accessible by integration []", orgs, str(state, "variableName"))
	case typ == importid.GitHubOrgSecret && r.GitHub.Secrets == "none":
		return fmt.Errorf("GET %ssecrets/%s: 403 Resource not accessible by integration []", orgs, str(state, "secretName"))
	}
	return nil
}

// identityIn is who the run is in account ("" when not modelled).
func (r Reach) identityIn(account string) string {
	for _, id := range r.Identities {
		if catalog.ARNAccount(id) == account {
			return id
		}
	}
	return ""
}

// caller is an identity as STS names the session of the run's role.
func caller(role string) string {
	return fmt.Sprintf("arn:aws:sts::%s:assumed-role/%s/harness-platform", catalog.ARNAccount(role), role[strings.LastIndex(role, "/")+1:])
}

// SetReach sets who calls the simulated services, and from where.
func (s *Servers) SetReach(r Reach) { s.reach.Store(&r) }

// loadReach is the Reach p holds (none: everything reaches).
func loadReach(p *atomic.Pointer[Reach]) Reach {
	if p == nil {
		return Reach{}
	}
	if r := p.Load(); r != nil {
		return *r
	}
	return Reach{}
}

// What the services answer, given who calls them, worded as the real
// services and providers word their refusals. The simulated providers
// and the Servers' preflight answers both ask these.

// harness is Harness's answer to a call with the key.
func (r Reach) harness() error {
	if r.InvalidHarnessKey {
		return harnessUnauthorized()
	}
	return nil
}

func harnessUnauthorized() error {
	return fmt.Errorf(`401 Unauthorized: {"status":"ERROR","code":"INVALID_TOKEN","message":"Token is not valid."}`)
}

// github is GitHub's answer to the request what.
func (r Reach) github(what string) error {
	if r.NoGitHubCredential {
		return fmt.Errorf("%s: 401 Requires authentication []", what)
	}
	return nil
}

// assumeRole is STS's answer to an AssumeRole of role: refused when the
// role's trust policy does not name the run, which is always so for a
// role assuming itself unless its trust policy names it (AWS stopped
// trusting a role's own sessions implicitly in 2023: "Announcing an
// update to IAM role trust policy behavior", AWS Security Blog).
func (r Reach) assumeRole(role string) error {
	who := r.identityIn(catalog.ARNAccount(role))
	if who == "" && len(r.Identities) > 0 {
		who = r.Identities[0]
	}
	self := who != "" && preflight.IsRole(caller(who), role)
	if !slices.Contains(r.Roles, role) && (r.Roles != nil || self) {
		name := fmt.Sprintf("arn:aws:sts::%s:assumed-role/harness-platform-ci/runner", awsAccount)
		if who != "" {
			name = caller(who)
		}
		return fmt.Errorf("operation error STS: AssumeRole, https response error StatusCode: 403, api error AccessDenied: "+
			"User: %s is not authorized to perform: sts:AssumeRole on resource: %s", name, role)
	}
	return nil
}

// allowedAccount is the AWS provider's refusal of credentials of an
// account its allowedAccountIds do not list (terraform-provider-aws:
// "AWS account ID not allowed").
func (r Reach) allowedAccount(allowed []string) error {
	if r.Identities == nil || len(allowed) == 0 {
		return nil
	}
	for _, a := range allowed {
		if r.identityIn(a) != "" {
			return nil
		}
	}
	return fmt.Errorf("AWS account ID not allowed: %s", catalog.ARNAccount(r.Identities[0]))
}

// refusal is the simulated service's refusal of any call of provider.
func refusal(provider string, r Reach) error {
	switch provider {
	case "github":
		return r.github("GET https://api.github.com/user")
	case "harness":
		return r.harness()
	}
	return nil
}

// configureRefusal is what a provider's configuration meets before any
// call: the AWS provider assumes its role; the Kubernetes provider's
// cluster must answer from the runner.
func (p *Provider) configureRefusal(req *pulumirpc.ConfigureRequest) error {
	r := loadReach(p.reach)
	args, err := plugin.UnmarshalProperties(req.GetArgs(), plugin.MarshalOptions{KeepUnknowns: true, SkipNulls: true})
	if err != nil {
		return err
	}
	switch p.name {
	case "aws":
		var allowed []string
		if v, ok := args["allowedAccountIds"]; ok && v.IsArray() {
			for _, a := range v.ArrayValue() {
				if a.IsString() {
					allowed = append(allowed, a.StringValue())
				}
			}
		}
		if err := r.allowedAccount(allowed); err != nil {
			return err
		}
		role := ""
		if v, ok := args["assumeRole"]; ok && v.IsObject() {
			if arn, ok := v.ObjectValue()["roleArn"]; ok && arn.IsString() {
				role = arn.StringValue()
			}
		} else if v, ok := req.GetVariables()["aws:config:assumeRole"]; ok {
			var ar struct {
				RoleArn string `json:"roleArn"`
			}
			_ = json.Unmarshal([]byte(v), &ar)
			role = ar.RoleArn
		}
		if role != "" {
			return r.assumeRole(role)
		}
	case "kubernetes":
		v, ok := args["kubeconfig"]
		if !ok || !v.IsString() {
			return nil // unknown in a preview: the cluster is not created yet
		}
		if e := preflight.PluginOf(v.StringValue()); e != nil {
			if err := r.command(e.Command); err != nil {
				// client-go's exec authenticator, as the Kubernetes
				// provider reports it.
				return fmt.Errorf("configured Kubernetes cluster is unreachable: unable to load schema information from the API server: %w", err)
			}
		}
		if err := r.cluster(p.aws, v.StringValue()); err != nil {
			return err
		}
		return r.clusterAccess(p.aws, v.StringValue())
	}
	return nil
}

// clusterAccess is the EKS API server's answer to the run's token: it
// authenticates only a principal with an access entry on the cluster.
func (r Reach) clusterAccess(aws *Cloud, kubeconfig string) error {
	if r.Identities == nil || aws == nil {
		return nil
	}
	// What the simulated AWS holds now (cluster reloads it only when it
	// judges the runner's address).
	if err := aws.Reload(); err != nil {
		return err
	}
	server := kubeconfigServer(kubeconfig)
	for _, c := range aws.OfType(eksClusterType) {
		if c.Properties["endpoint"] != server {
			continue
		}
		for _, e := range aws.OfType("aws:eks/accessEntry:AccessEntry") {
			principal, _ := e.Properties["principalArn"].(string)
			if e.Properties["clusterName"] == c.Properties["name"] && r.identityIn(catalog.ARNAccount(principal)) == principal {
				return nil
			}
		}
		return fmt.Errorf("configured Kubernetes cluster is unreachable: unable to load schema information from the API server: "+
			"the server has asked for the client to provide credentials (%s has no access entry on EKS cluster %v)", strings.Join(r.Identities, ", "), c.Properties["name"])
	}
	return nil
}

// command is the answer of where the run is to running name: present
// unless the Reach says the credential plugin is not installed.
func (r Reach) command(name string) error {
	if r.NoCredentialPlugin {
		return preflight.PluginMissing(name)
	}
	return nil
}

// cluster is the answer of the kubeconfig's API server to a call from
// the runner, as the simulated AWS (aws) made its cluster: nil when it
// answers. An EKS endpoint answers from
// inside the cluster's VPC when its private endpoint is on, and from the
// addresses of publicAccessCidrs (EKS's default: 0.0.0.0/0) when its
// public one is on; a server the simulated AWS did not make (a kind
// existing cluster) is not modelled, and answers.
func (r Reach) cluster(aws *Cloud, kubeconfig string) error {
	if !r.Runner.IsValid() || aws == nil {
		return nil
	}
	server := kubeconfigServer(kubeconfig)
	if server == "" {
		return nil
	}
	if err := aws.Reload(); err != nil {
		return err
	}
	for _, c := range aws.OfType("aws:eks/cluster:Cluster") {
		if c.Properties["endpoint"] != server {
			continue
		}
		vpc, _ := c.Properties["vpcConfig"].(map[string]any)
		private, _ := vpc["endpointPrivateAccess"].(bool)
		public := true
		if v, ok := vpc["endpointPublicAccess"].(bool); ok {
			public = v
		}
		if private && inVPC(aws, vpc, r.Runner) {
			return nil
		}
		if public {
			cidrs := []string{"0.0.0.0/0"}
			if list, ok := vpc["publicAccessCidrs"].([]any); ok && len(list) > 0 {
				cidrs = nil
				for _, e := range list {
					cidrs = append(cidrs, fmt.Sprint(e))
				}
			}
			for _, cidr := range cidrs {
				if pfx, err := netip.ParsePrefix(cidr); err == nil && pfx.Contains(r.Runner) {
					return nil
				}
			}
		}
		return fmt.Errorf("Get %q: dial tcp %s:443: i/o timeout (the cluster's API does not answer from %s: private endpoint %v, public endpoint %v)",
			strings.TrimSuffix(server, "/")+"/version", strings.TrimPrefix(server, "https://"), r.Runner, private, public)
	}
	return nil
}

// inVPC reports whether addr is inside the VPC of the cluster's subnets.
func inVPC(aws *Cloud, vpcConfig map[string]any, addr netip.Addr) bool {
	subnets, _ := vpcConfig["subnetIds"].([]any)
	for _, id := range subnets {
		subnet, ok := aws.Get(fmt.Sprint(id))
		if !ok {
			continue
		}
		vpc, ok := aws.Get(fmt.Sprint(subnet.Properties["vpcId"]))
		if !ok {
			continue
		}
		if pfx, err := netip.ParsePrefix(fmt.Sprint(vpc.Properties["cidrBlock"])); err == nil && pfx.Contains(addr) {
			return true
		}
	}
	return false
}

// kubeconfigServer is the server of a kubeconfig's (first) cluster.
func kubeconfigServer(kubeconfig string) string {
	var cfg struct {
		Clusters []struct {
			Cluster struct{ Server string }
		}
	}
	if yaml.Unmarshal([]byte(kubeconfig), &cfg) != nil || len(cfg.Clusters) == 0 {
		return ""
	}
	return cfg.Clusters[0].Cluster.Server
}

// The Servers answer preflight's checks (preflight.Services) as the
// simulated services would answer the operation's calls.

// Harness: the key, and the simulated account.
func (s *Servers) Harness(_ context.Context, account, _ string) error {
	if account != Account {
		return harnessUnauthorized()
	}
	return loadReach(&s.reach).harness()
}

// GitHubRepo: the repository as the Reach's GitHub account holds it.
func (s *Servers) GitHubRepo(_ context.Context, owner, repo string) (preflight.GitHubRepo, error) {
	r := loadReach(&s.reach)
	if err := r.github(fmt.Sprintf("GET https://api.github.com/repos/%s/%s", owner, repo)); err != nil {
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

// GitHubOrg: whether the Reach's token may read the organisation's
// Actions variables.
func (s *Servers) GitHubOrg(_ context.Context, owner string) (preflight.GitHubOrg, error) {
	r := loadReach(&s.reach)
	if err := r.github(fmt.Sprintf("GET https://api.github.com/orgs/%s/actions/variables", owner)); err != nil {
		return preflight.GitHubOrg{}, err
	}
	return preflight.GitHubOrg{Variables: r.GitHub.Variables != "none", Secrets: r.GitHub.Secrets != "none"}, nil
}

// OpenEnvironment: ESC opens env for the Reach's Pulumi team as the
// CLI opens a stack's imports, refusing as ESC, AWS and GitHub refuse.
func (s *Servers) OpenEnvironment(ctx context.Context, env string) error {
	return s.OpenEnvironmentAs(ctx, loadReach(&s.reach).PulumiTeam, env)
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

// Reach is who calls the simulated services (SetReach).
func (s *Servers) Reach() Reach { return loadReach(&s.reach) }

// GitHubPlan: the Reach's GitHub account's plan.
func (s *Servers) GitHubPlan(context.Context, string) (string, error) {
	return loadReach(&s.reach).GitHub.plan(), nil
}

// GitHub: a credential.
func (s *Servers) GitHub(_ context.Context, owner string, repos []string) error {
	return loadReach(&s.reach).github(fmt.Sprintf("GET https://api.github.com/repos/%s/%s", owner, repos[0]))
}

// CallerIdentity: the run's role in account, as an STS session; "" when
// the Reach models none.
func (s *Servers) CallerIdentity(_ context.Context, account, _ string) (string, error) {
	r := loadReach(&s.reach)
	if len(r.Identities) == 0 {
		return "", nil
	}
	who := r.identityIn(account)
	if who == "" {
		who = r.Identities[0] // credentials of another account
	}
	return caller(who), nil
}

// Cluster: the kubeconfig's credential plugin is installed, the API
// server answers from the runner, and it knows the run (access entries).
func (s *Servers) Cluster(ctx context.Context, _ string, kubeconfig string) error {
	r := loadReach(&s.reach)
	if e := preflight.PluginOf(kubeconfig); e != nil {
		if err := r.command(e.Command); err != nil {
			return err
		}
	}
	if err := r.cluster(s.clouds["aws"], kubeconfig); err != nil {
		return err
	}
	return r.clusterAccess(s.clouds["aws"], kubeconfig)
}

// Command: the credential plugin is installed unless the Reach says not.
func (s *Servers) Command(_ context.Context, name string) error {
	return loadReach(&s.reach).command(name)
}

// EKS: the version's status on EKS's calendar today, and the version
// the simulated cluster of that name runs.
func (s *Servers) EKS(_ context.Context, _, name, version string) (preflight.EKSAnswer, error) {
	var a preflight.EKSAnswer
	today := eksNow()
	if v, ok := calendar.LookupEKS(version); ok {
		switch v.Status(today) {
		case calendar.Standard, calendar.EndingSoon:
			a.Status = preflight.EKSStandardSupport
		case calendar.Extended:
			a.Status = preflight.EKSExtendedSupport
		}
	}
	a.Standard = calendar.InStandard(today)
	if aws := s.clouds["aws"]; aws != nil {
		if err := aws.Reload(); err != nil {
			return preflight.EKSAnswer{}, err
		}
		for _, c := range aws.OfType(eksClusterType) {
			if c.Properties["name"] == name {
				a.Deployed, _ = c.Properties["version"].(string)
			}
		}
	}
	return a, nil
}

// RunnerAddress: the runner's address.
func (s *Servers) RunnerAddress(context.Context) (netip.Addr, error) {
	return loadReach(&s.reach).Runner, nil
}
