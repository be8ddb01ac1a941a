package core

import (
	"net/netip"
	"sync/atomic"

	"github.com/company/harness-platform/catalog"
)

// Reach is who calls the simulated services, and from where: what the
// real services check before they answer. The simulated providers refuse
// as the real ones do when a credential is missing or an endpoint is out
// of reach (each room's Refuser, Configurer, ReadGuard and WriteGuard),
// and package simulated answers preflight's checks (preflight.Services)
// from the same model, through the same rooms, so a preflight that passes
// offline means the operation's calls are accepted.
type Reach struct {
	// Runner is the address the operations run from (a runner's NAT
	// address); the zero Addr reaches every cluster.
	Runner netip.Addr
	// NoGitHubCredential: the GitHub provider has no token (GITHUB_TOKEN
	// unset), so GitHub answers 401.
	NoGitHubCredential bool
	// InvalidHarnessKey: Harness refuses the API key.
	InvalidHarnessKey bool
	// HarnessGitExperienceEnforced: the account enforces Git Experience
	// (enforce_git_experience), and Harness refuses inline entities.
	HarnessGitExperienceEnforced bool
	// HarnessDelegatesSilent: Harness hears from no delegate (their
	// egress to Harness is blocked): none reports in.
	HarnessDelegatesSilent bool
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
	// RunnerGroups is the token's organisation permission "Self-hosted
	// runners" ("": write; "read"; "none"): managing a runner group needs
	// write, reading one read.
	RunnerGroups string
	// Files are the files on the default branch of repositories the run
	// reads files of (owner/name: the config repository), by path, with
	// their contents; a repository not here is not found.
	Files map[string]map[string]string
}

// IdentityIn is who the run is in account ("" when not modelled).
func (r Reach) IdentityIn(account string) string {
	for _, id := range r.Identities {
		if catalog.ARNAccount(id) == account {
			return id
		}
	}
	return ""
}

// LoadReach is the Reach p holds (none: everything reaches).
func LoadReach(p *atomic.Pointer[Reach]) Reach {
	if p == nil {
		return Reach{}
	}
	if r := p.Load(); r != nil {
		return *r
	}
	return Reach{}
}

// Endpoint is a cluster's API server as the cloud that runs the cluster
// configured it: where it answers from, and whom it authenticates.
type Endpoint struct {
	// Cluster is the cluster's name.
	Cluster string
	// Private: the endpoint answers from inside the cluster's network,
	// Networks (the CIDR blocks of the VPCs of its subnets).
	Private  bool
	Networks []netip.Prefix
	// Public: the endpoint answers from the addresses of PublicCIDRs.
	Public      bool
	PublicCIDRs []string
	// Principals are the IAM principals the API server authenticates
	// (the cluster's access entries).
	Principals []string
}

// Clusters are the Kubernetes clusters a simulated cloud runs (the
// simulated AWS's EKS clusters), as the simulated Kubernetes provider
// reaches them.
type Clusters interface {
	// Endpoint is the cluster whose API server is server, as the cloud
	// holds it now (its store read again); false for a server the cloud
	// did not make.
	Endpoint(server string) (Endpoint, bool, error)
	// Access is what the clusters' access entries give principal: the
	// same in every cluster here, as the program declares them; false
	// when no cluster has an entry for it.
	Access(principal string) (Access, bool, error)
}

// Access is what an EKS access entry gives its principal in the cluster:
// access policies (ARNs) and Kubernetes groups, which the cluster's RBAC
// bindings give permissions.
type Access struct {
	Policies, Groups []string
}
