// Package catalog loads everything a platform team edits, the service
// catalog (services, teams, archetypes, regions) and the typed settings of
// every stack file, in three steps: decode (strict, with positions),
// validate (every problem at once, as file:line:col with a fix, and no side
// effects), then resolve the defaults into the model below. Nothing is
// declared from a catalog that has any problem.
//
// The model is plain data, resolved once: treat it as read-only.
package catalog

import (
	"fmt"
	"strings"

	"github.com/company/harness-platform/diag"
)

// Namespace is the project's config namespace in the stack files.
const Namespace = "harness-platform"

// Environment types.
const (
	Production    = "Production"
	PreProduction = "PreProduction"
)

// Strategies.
const (
	Rolling = "rolling"
	Canary  = "canary"
)

// Defaults filled in by resolve.
const (
	DefaultStepTimeout       = "10m"
	DefaultGithubConnector   = "github_manifests"
	DefaultGithubBranch      = "main"
	DefaultRegistryConnector = "docker_registry"
	// DefaultSecretManagerConnector is the AWS Secrets Manager connector's
	// identifier.
	DefaultSecretManagerConnector = "aws_secrets_manager"
	DefaultRegistryType           = "Other"
	DefaultApprovals              = 1
	DefaultApprovalTimeout        = "1d"
	DefaultDelegateChartRepo      = "https://app.harness.io/storage/harness-download/delegate-helm-chart/"
	DefaultDelegateReplicas       = 2
	DefaultDelegateCPU            = "1"
	DefaultDelegateMemory         = "2048"
	DefaultManagerEndpoint        = "https://app.harness.io"
	// DefaultLogRetentionDays is how long CloudWatch keeps an EKS
	// cluster's control-plane logs unless the stack file says otherwise
	// (EKS creates its log group with no expiry).
	DefaultLogRetentionDays = 90
	// DefaultFailOnSeverity is what a Production image scan fails on
	// unless the archetype says otherwise: a critical issue.
	DefaultFailOnSeverity = "critical"
)

// FailOnSeverities are the thresholds an image scan may fail on, the
// laxest first (Harness STO's fail_on_severity without none: an issue of
// the threshold's severity or higher fails the scan).
var FailOnSeverities = []string{"critical", "high", "medium", "low"}

// Catalog is the validated, resolved input of the program.
type Catalog struct {
	Services     []Service // in catalog order
	Teams        []Team
	PlatformTeam string // a team name
	// PulumiOrganization is the Pulumi Cloud organisation of the stacks
	// and ESC environments (AccessFile), or "" where it is not given.
	PulumiOrganization string
	Archetypes         []Archetype
	Regions            []Region
	// Stacks by name, and their names in promotion order (root first).
	Stacks map[string]*Stack
	Chain  []string
	// Warnings are what validation found that stops nothing, each at
	// file:line with its fix: every run shows them.
	Warnings diag.List

	services map[string]int
	teams    map[string]int
	files    Files // what it was resolved from
	derived  *derived
}

// Service is one catalog service, with its archetype's defaults and its
// overrides resolved.
type Service struct {
	// Pos is where its entry names it (catalog/services.yaml).
	Pos         diag.Pos
	Name        string
	Team        string
	Archetype   string
	Repo        string
	Image       string
	Description string
	// Environments are the stacks it is enabled in, in chain order.
	Environments []string
	// Regions it is limited to; empty means every region of an environment.
	Regions []string
	Tags    map[string]string
	Retired bool
	// Backstage asks for a catalog-info.yaml in the service's repository.
	Backstage bool
	// Stack is the shard of the service stack holding it in every
	// environment: its objects in dev are in stack dev.<Stack>.
	Stack string

	ProductionStrategy string // Rolling or Canary
	Replicas           int
	Verification       bool
	StepTimeout        string
	// FailOnSeverity is what the scan of its image fails on before a
	// Production rollout: its archetype's (one of FailOnSeverities).
	FailOnSeverity string
	// Requests and Limits are each replica's, before an environment
	// scales them.
	Requests, Limits Quantities
	// In is how it runs in each environment it is enabled in, by stack
	// name; an environment it is not enabled in has no entry.
	In map[string]Placement
}

// Placement is how a service runs in one environment.
type Placement struct {
	// Regions are where: its own regions, or all of the environment's,
	// in the environment's order.
	Regions []string
	// Strategy is Rolling, or in Production its ProductionStrategy.
	Strategy string
	// Workload is its replicas and resources, scaled by the
	// environment's factors.
	Workload Workload
}

// Workload is what a service runs with in one environment.
type Workload struct {
	Replicas         int
	Requests, Limits Quantities
}

// Quantities are a container's CPU and memory as Kubernetes writes them.
type Quantities struct {
	CPU, Memory string
}

// Team owns services.
type Team struct {
	Name        string
	Description string
	UserGroup   string
	Members     []string
	// Notify is where the team is told of its pipelines' events.
	Notify Notify
}

// Notify names the Harness secrets of a team's channels, as a pipeline
// refers to them (<id>, org.<id> or account.<id>); PagerDutyKeySecret is
// "" when the team is not paged.
type Notify struct {
	SlackWebhookSecret, PagerDutyKeySecret string
}

// Archetype is a pipeline shape with defaults.
type Archetype struct {
	Name               string
	Description        string
	ProductionStrategy string
	Replicas           int
	Verification       bool
	StepTimeout        string
	// PodSecurity is the Pod Security Standard its namespaces enforce
	// (restricted, baseline or privileged).
	PodSecurity string
	// Ingress: its namespaces accept traffic from every namespace;
	// Egress are the CIDRs they may reach (DNS is always allowed).
	Ingress bool
	Egress  []string
	// FailOnSeverity is what its services' Production image scan fails
	// on (one of FailOnSeverities; default DefaultFailOnSeverity).
	FailOnSeverity string
}

// Region is a region environments may use.
type Region struct {
	Name        string
	AWSRegion   string
	Description string
}

// Stack holds the settings of one Pulumi.<stack>.yaml.
type Stack struct {
	Name        string // from the file name
	File        string // relative to the project directory
	Environment Environment
	Upstream    string // "" on the stack that owns the foundation
	Regions     []StackRegion
	Foundation  *Foundation // only on the stack with no upstream
	// Approval is set on Production stacks (defaults filled in).
	Approval     *Approval
	ChangeWindow *ChangeWindow
	// Delivery is the one path that applies the stack's changes
	// (DeliveryGitHubActions, DeliveryHarnessCI or DeliveryOperator).
	Delivery string
	// Verification is set where services that verify are deployed.
	Verification *Verification
	// AWS is the environment's account; set where a region is kind eks.
	AWS *AWS
	// Cluster configures the EKS clusters; set where a region is kind eks.
	Cluster *Cluster
	// Delegate configures the delegate of every cluster.
	Delegate Delegate
	// Runner is where the stack's CI jobs run; set where a region is
	// kind eks.
	Runner *Runner
	// Workloads scale the catalog's replicas and resources here.
	Workloads WorkloadFactors
	// Imports are the Pulumi ESC environments the stack file imports;
	// their values reach the program as config (Config).
	Imports []string
	// Origins are where each setting the stack has came from, by config
	// key: its position in File, or, for a value from Pulumi config that
	// the file does not hold, the key and its source (File set, no line).
	Origins map[string]diag.Pos
}

// Origin is where the setting key came from; File when it is not set.
func (s *Stack) Origin(key string) diag.Pos {
	if p, ok := s.Origins[key]; ok {
		return p
	}
	return diag.Pos{File: s.File}
}

// WorkloadFactors scale the catalog's workloads in one environment.
type WorkloadFactors struct {
	Replicas, Resources float64
}

// Environment is a Harness environment.
type Environment struct {
	Name        string
	Identifier  string
	Type        string // Production or PreProduction
	Description string
}

// StackRegion is one region of an environment.
type StackRegion struct {
	Name        string
	NetworkCIDR string
	// Kind is RegionEKS (a VPC and cluster declared here) or
	// RegionExisting (reached with a kubeconfig from KubeconfigsKey).
	Kind string
	// AWSRegion is the cloud region, from catalog/regions.yaml.
	AWSRegion string
	// TokenGeneration is the generation of its delegate token (1 or
	// more), Pos where the region's entry is.
	TokenGeneration int
	Pos             diag.Pos
}

// AWS is an environment's own AWS account.
type AWS struct {
	// RoleArn is the deployer role an up runs as; PreviewRoleArn the
	// read-only role previews run as (docs/delivery.md, Who runs what). The stack's AWS
	// providers assume neither: the run's credentials are already one of
	// them (its ESC environment's OIDC login).
	RoleArn, PreviewRoleArn string
}

// Account is the AWS account of the environment (the deployer role's).
func (a *AWS) Account() string { return ARNAccount(a.RoleArn) }

// ARNAccount is the account of an IAM or STS ARN ("" if it has none).
func ARNAccount(arn string) string {
	parts := strings.SplitN(arn, ":", 6)
	if len(parts) < 6 {
		return ""
	}
	return parts[4]
}

// NAT gateway layouts of a cluster's VPC.
const (
	NATPerZone = "perZone"
	NATSingle  = "single"
)

// Cluster is how the stack's EKS clusters are built.
type Cluster struct {
	KubernetesVersion string
	// UpgradePolicy is the EKS support type: calendar.SupportStandard
	// (the default) or calendar.SupportExtended.
	UpgradePolicy string
	// NATGateways is NATPerZone (the default) or NATSingle.
	NATGateways string
	// LogRetentionDays is how long the control-plane logs are kept.
	LogRetentionDays  int
	AdminRoleArn      string
	PublicEndpoint    bool
	PublicAccessCidrs []string
	NodeGroup         NodeGroup
	// ServiceCIDR is the clusters' Service network as the stack file
	// sets it; "" for the one EKS picks for each VPC
	// (DefaultServiceCIDR).
	ServiceCIDR string
}

// Runner is the self-hosted CI runners that run a stack: the labels its
// jobs ask for, and the public addresses they reach the EKS API from.
type Runner struct {
	Labels      []string
	EgressCidrs []string
	// DelegateSelectors select the Harness Docker delegates of the
	// runner hosts, where the Harness CI pipeline's stages run.
	DelegateSelectors []string
	// PreviewLabels and PreviewDelegateSelectors are the preview
	// runners': hosts that run pull requests' code and no up.
	PreviewLabels, PreviewDelegateSelectors []string
	// OperatorEgressCidrs are the operator's NAT networks, where it
	// delivers the stack (harness-platform:delivery operator).
	OperatorEgressCidrs []string
}

// NodeGroup is a managed node group's size and machines.
type NodeGroup struct {
	InstanceType                  string
	MinSize, DesiredSize, MaxSize int
}

// Delegate is the Harness delegate of every cluster of a stack.
type Delegate struct {
	ChartRepository, ChartVersion string
	Image                         string
	Replicas                      int
	CPU, Memory                   string
	ManagerEndpoint               string
}

// Foundation configures the account-level objects the root stack owns.
type Foundation struct {
	Org           Org
	Project       Project
	Github        Github
	Registry      Registry
	SecretManager SecretManager
	// Repository is this program's GitHub repository (owner/name), or "".
	Repository string
	// BackstageURL is the Backstage instance's https URL without a
	// trailing '/', or "": where the services' deploy links point.
	BackstageURL string
}

// Registry is the Docker registry the catalog's images are in.
type Registry struct {
	ConnectorIdentifier string
	URL                 string
	Host                string // what every catalog image starts with
	Type                string // DockerHub, Harbor, Quay or Other
	// Username is "" for anonymous access; otherwise PasswordSecret names
	// the password's secret in the SecretManager.
	Username, PasswordSecret string
}

// SecretManager is the AWS Secrets Manager the connectors' credentials
// are read from by reference, and the role Harness assumes by OIDC to
// read them.
type SecretManager struct {
	ConnectorIdentifier string
	Region, RoleArn     string
}

// Org is the Harness organization.
type Org struct {
	Identifier string
	Name       string
	Create     bool
}

// Project is the Harness project holding every pipeline.
type Project struct {
	Identifier  string
	Name        string
	Description string
}

// Github is the manifests connector.
type Github struct {
	ConnectorIdentifier string
	URL                 string
	App                 GithubApp
	Branch              string
}

// GithubApp is the GitHub App the manifests connector authenticates as;
// its private key is a secret of the SecretManager.
type GithubApp struct {
	ApplicationID, InstallationID string
	PrivateKeySecret              string
}

// Approval is the Production approval gate.
type Approval struct {
	// Approvals needed from the owning team's group and from the platform
	// team's group, each in its own step (Harness counts a step's minimum
	// across all the groups it lists).
	TeamApprovals, PlatformApprovals int
	Timeout                          string
}

// Verification is where an environment's metrics are and what is asked
// of them.
type Verification struct {
	PrometheusURL string
	// Queries by archetype name.
	Queries map[string]Queries
	// Scraper are the pods in each cluster that scrape the services'
	// metrics.
	Scraper Scraper
}

// Scraper selects the pods that scrape the services' metrics.
type Scraper struct {
	Namespace string
	PodLabels map[string]string
}

// Queries are PromQL templates: {{service}} is the service's name,
// {{namespace}} a regular expression matching its namespaces in the
// environment.
type Queries struct {
	ErrorRate, Latency string
}

// ChangeWindow is when Production deployments may run (UTC).
type ChangeWindow struct {
	Days       []string
	Start, End string   // HH:MM UTC; End is exclusive
	Freeze     []string // YYYY-MM-DD (UTC) with no deployment
}

// IsProduction reports whether the stack's environment is Production.
func (s *Stack) IsProduction() bool { return s.Environment.Type == Production }

// OwnsFoundation reports whether this stack declares the foundation.
func (s *Stack) OwnsFoundation() bool { return s.Upstream == "" }

// Root is the stack that owns the foundation.
func (c *Catalog) Root() *Stack { return c.Stacks[c.Chain[0]] }

// Stack returns the named stack, or an error naming the known ones.
func (c *Catalog) Stack(name string) (*Stack, error) {
	if st, ok := c.Stacks[name]; ok {
		return st, nil
	}
	return nil, &UnknownStackError{Name: name, Known: c.Chain}
}

// UnknownStackError is returned for a stack with no stack file.
type UnknownStackError struct {
	Name  string
	Known []string
}

func (e *UnknownStackError) Error() string {
	return fmt.Sprintf("no stack file Pulumi.%s.yaml; known stacks: %v", e.Name, e.Known)
}

// Service returns the named service.
func (c *Catalog) Service(name string) (Service, bool) {
	i, ok := c.services[name]
	if !ok {
		return Service{}, false
	}
	return c.Services[i], true
}

// Team returns the named team.
func (c *Catalog) Team(name string) (Team, bool) {
	i, ok := c.teams[name]
	if !ok {
		return Team{}, false
	}
	return c.Teams[i], true
}

// EnabledIn reports whether s is enabled in the named stack.
func (s *Service) EnabledIn(stack string) bool {
	_, ok := s.In[stack]
	return ok
}

// Files are the files the catalog was resolved from; callers must not
// change them.
func (c *Catalog) Files() Files { return c.files }

// File returns the content of a file the catalog was resolved from (a
// catalog file, a stack file or Pulumi.yaml).
func (c *Catalog) File(name string) ([]byte, bool) {
	data, ok := c.files[name]
	return data, ok
}
