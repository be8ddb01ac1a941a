// Package plan computes, from the validated catalog and one stack's
// settings, every object that stack declares: identifiers, names, tags,
// every input, the exact YAML of every Harness document, and which object
// needs which. It is plain Go: no Pulumi types, no I/O, deterministic. The
// program declares a plan, `platformctl render` prints it, and the guards
// (guard.go) check it against what is deployed before anything is
// registered.
//
// A Plan is immutable once built: its YAML is held in strings and nothing
// in this package changes a plan after Build returns it.
package plan

import "github.com/company/harness-platform/ident"

// ManagedBy is the value of the managed-by tag on everything generated.
const ManagedBy = "harness-platform"

// Plan is everything one stack declares. An environment is a platform
// stack, named after it, and service stacks (catalog.ServiceStackName):
// the platform stack declares the foundation (in the root environment),
// the environment, its clusters, delegates, connectors, infrastructure
// and deploy-stage templates; each service stack declares its services' objects:
// their Harness services (in the root environment), Values files,
// pipelines, triggers, monitored services, namespaces and GitHub
// environments. A service stack
// plan still describes its environment and clusters (what its objects
// refer to) but declares none of them.
type Plan struct {
	Stack string
	// Platform is the platform stack of the stack's environment (Stack
	// itself on a platform stack).
	Platform string
	// Shard is a service stack's shard; "" on a platform stack.
	Shard string
	// Upstream is the stack this one promotes from: the upstream
	// environment's platform stack, or its service stack of the same
	// shard; "" for the root environment.
	Upstream   string
	Production bool
	// Scope is the organization and project every object lives in.
	Scope Scope
	// Foundation is set on the stack with no upstream.
	Foundation  *Foundation
	Environment Environment
	Clusters    []Cluster
	// Prometheus is set where services that verify are deployed.
	Prometheus *PrometheusConnector
	// ChangeWindow is set on Production stacks.
	ChangeWindow *ChangeWindow
	Deployments  []Deployment
	// Templates are the environment's deploy-stage templates, one per
	// TemplateKey its services use, sorted by identifier: a platform
	// stack declares them (for every service stack of the environment);
	// a service stack's plan describes those its pipelines use.
	Templates []StageTemplate
	// CatalogServices are the Harness services of the
	// catalog entries a service stack of the root environment holds.
	CatalogServices []Service
	// GitHub is what the stack declares in GitHub.
	GitHub *GitHub
}

// Scope locates objects in Harness.
type Scope struct {
	OrgID     string
	ProjectID string
}

// Kind names a kind of Harness object, for dependencies.
type Kind string

// Kinds that objects depend on.
const (
	KindOrganization        Kind = "organization"
	KindProject             Kind = "project"
	KindUserGroup           Kind = "usergroup"
	KindSecret              Kind = "secret"
	KindSecretManager       Kind = "awsSecretManagerConnector"
	KindGithubConnector     Kind = "githubConnector"
	KindDockerConnector     Kind = "dockerConnector"
	KindFile                Kind = "fileStoreFile"
	KindService             Kind = "service"
	KindEnvironment         Kind = "environment"
	KindKubernetesConnector Kind = "kubernetesConnector"
	KindInfrastructure      Kind = "infrastructure"
	KindPolicy              Kind = "policy"
	KindPolicySet           Kind = "policySet"
	KindPipeline            Kind = "pipeline"
	KindTemplate            Kind = "template"
	KindTrigger             Kind = "trigger"
	KindRoleAssignment      Kind = "roleAssignment"
	KindResourceGroup       Kind = "resourceGroup"
	KindPrometheusConnector Kind = "prometheusConnector"
	KindMonitoredService    Kind = "monitoredService"
)

// Ref names an object another one needs. A ref to an object that another
// stack of the chain declares (the foundation's, downstream) is satisfied
// by the chain's order, not by this stack.
type Ref struct {
	Kind       Kind
	Identifier string
}

// Foundation is what every environment shares.
type Foundation struct {
	// Organization is set when the stack creates the org.
	Organization    *Organization
	Project         Project
	UserGroups      []UserGroup
	ResourceGroups  []ResourceGroup
	RoleAssignments []RoleAssignment
	// SecretManager is where every secret below is read from, by
	// reference.
	SecretManager SecretManager
	GithubAppKey  SecretText
	// GithubConnector authenticates as the GitHub App.
	GithubConnector GithubConnector
	// RegistryPassword is set when the registry has a username.
	RegistryPassword *SecretText
	Registry         DockerConnector
	// CI is set when the catalog names this program's repository.
	CI *CI
	// PipelineRules are evaluated by Harness on every pipeline's save and
	// run.
	PipelineRules *PipelineRules
}

// Organization is a Harness organization.
type Organization struct {
	Identifier, Name string
	Tags             []string
}

// Project is the Harness project.
type Project struct {
	Identifier, Name, Description string
	Tags                          []string
	Needs                         []Ref
}

// UserGroup is a team's user group.
type UserGroup struct {
	Identifier, Name, Description string
	Team                          string
	Members                       []string
	Tags                          []string
	Needs                         []Ref
}

// ResourceGroup is what a team's user group may act on: its own
// services' pipelines in every environment, and what running them needs
// (the services, environments, connectors and secrets they use).
type ResourceGroup struct {
	Identifier, Name, Description string
	Team                          string
	// Resources select objects by Harness resource type.
	Resources []ResourceSelection
	Tags      []string
	Needs     []Ref
}

// ResourceSelection is the objects of one resource type a group holds.
type ResourceSelection struct {
	// Type is a Harness resource type: PIPELINE, SERVICE, ENVIRONMENT,
	// CONNECTOR, SECRET.
	Type        string
	Identifiers []string // sorted
}

// RoleAssignment binds a user group to a role on a resource group.
type RoleAssignment struct {
	// Resource is the Pulumi resource name.
	Resource      string
	Identifier    string
	UserGroup     string
	Role          string
	ResourceGroup string
	Needs         []Ref
}

// SecretText is a Harness secret of type Reference: the name of a secret
// in SecretManager, which Harness reads when a connector or step uses it
// (value_type Reference, value the secret's name: Harness Terraform
// provider, harness_platform_secret_text). Neither Harness nor a stack's
// state holds the value, so whoever may read the state reads no
// credential.
type SecretText struct {
	Identifier, Name, Description string
	// SecretManager is the secret manager connector's identifier.
	SecretManager string
	// Reference is the secret's name in it.
	Reference string
	Tags      []string
	Needs     []Ref
}

// SecretManager is the AWS Secrets Manager connector the secrets are read
// through. Harness authenticates to AWS by OIDC (credentials
// oidc_authentication: Harness's token for the account, exchanged by
// AssumeRoleWithWebIdentity for RoleArn), so it stores no AWS key and
// depends on no delegate's identity; it only reads (use_put_secret and
// default off: no Harness secret is written there).
type SecretManager struct {
	Identifier, Name, Description string
	Region, RoleArn               string
	Tags                          []string
	Needs                         []Ref
}

// GithubApp is how a connector authenticates as a GitHub App: its ids
// and the Harness secret holding its private key, PKCS#8 PEM. Harness's
// docs store the key as an encrypted file secret, which can only be
// uploaded (Harness would then hold it); harness-core takes any secret
// reference there (GithubAppSpecDTO: @SecretReference SecretRefData
// privateKeyRef), so the key is a text secret of type Reference. The
// connector's Test in Harness, or the first real preview's clone, is
// where a key Harness cannot read shows.
type GithubApp struct {
	ApplicationID, InstallationID string
	PrivateKeyRef                 string
}

// GithubConnector reads a repository over HTTPS as a GitHub App, for
// cloning (credentials.http.github_app, which excludes a username) and
// for the API (api_authentication.github_app): an installation token
// minted per use, never a stored personal token (Harness, "Use a GitHub
// App in a GitHub connector"). ExecuteOnDelegate is explicit (the
// provider defaults it to true): Kubernetes deployments fetch manifests
// on the delegate, so connection checks run there too.
type GithubConnector struct {
	Identifier, Name, Description string
	URL, ConnectionType           string
	App                           GithubApp
	ExecuteOnDelegate             bool
	Tags                          []string
	Needs                         []Ref
}

// DockerConnector reads images and their tags from a Docker registry.
// Without Username, access is anonymous (no credentials block).
type DockerConnector struct {
	Identifier, Name, Description string
	URL, Type                     string
	Username, PasswordRef         string
	ExecuteOnDelegate             bool
	Tags                          []string
	Needs                         []Ref
}

// Service is a Harness service. Its manifests are rendered with the
// Values file of the environment being deployed (Deployment.Values).
type Service struct {
	Identifier, Name, Description string
	Tags                          []string
	YAML                          string
	Needs                         []Ref
}

// File is a file of the Harness File Store.
type File struct {
	Identifier, Name, Description string
	// Parent is the folder's identifier; "Root" is the store's root.
	Parent   string
	Content  string
	MimeType string
	Usage    string
	Tags     []string
	Needs    []Ref
}

// Environment is the stack's Harness environment.
type Environment struct {
	Identifier, Name, Description, Type string
	Tags                                []string
	Needs                               []Ref
}

// Cluster is one region of the environment: the cluster (an EKS cluster
// declared here, or an existing one), its delegate, the Kubernetes and AWS
// connectors that inherit credentials from it, and the infrastructure
// definition deployments target.
type Cluster struct {
	Region string
	// EKS is set when the stack declares the cluster; Existing otherwise.
	EKS      *EKS
	Existing *Existing
	Delegate Delegate
	// AWSConnector is set with EKS.
	AWSConnector   *AWSConnector
	Connector      KubernetesConnector
	Infrastructure Infrastructure
}

// KubernetesConnector reaches a cluster through its delegate, and takes
// its credentials from it (inheritFromDelegate): no key, token or
// password of the cluster is ever stored in Harness.
type KubernetesConnector struct {
	Identifier, Name, Description string
	// DelegateSelectors select the delegate whose credentials are used.
	DelegateSelectors []string
	Tags              []string
	Needs             []Ref
}

// Infrastructure is an infrastructure definition.
type Infrastructure struct {
	Identifier, Name string
	EnvID            string
	Type             string
	DeploymentType   string
	Tags             []string
	YAML             string
	Needs            []Ref
}

// ChangeWindow is the environment's change-window policy and the policy
// set the pipelines' policy step evaluates.
type ChangeWindow struct {
	Policy    Policy
	PolicySet PolicySet
}

// Policy is a Harness OPA policy.
type Policy struct {
	Identifier, Name, Description string
	Rego                          string
	Tags                          []string
	Needs                         []Ref
}

// PolicySet groups policies for an action.
type PolicySet struct {
	Identifier, Name string
	Action, Type     string
	Enabled          bool
	Policies         []string
	Severity         string
	Tags             []string
	Needs            []Ref
}

// Deployment is one catalog service in this stack's environment.
type Deployment struct {
	// Service is the catalog name; Resource is the component's name.
	Service string
	Retired bool
	// Protected: a Production deployment of a service that is not retired.
	// Its pipeline and trigger are protected, so no plain `pulumi up` or
	// destroy deletes them; retiring the service (the first step of
	// decommissioning) lifts the protection.
	Protected bool
	// Monitored is set when the service verifies.
	Monitored *MonitoredService
	// Values is the service's Values file in this environment: its
	// image, replicas and resources here.
	Values   File
	Pipeline Pipeline
	Trigger  Trigger
}

// Pipeline is a Harness pipeline.
type Pipeline struct {
	Identifier, Name, Description string
	Tags                          []string
	// YAML is what is saved: a service's pipeline references its deploy
	// stage's template (Template) with the service's inputs.
	YAML string
	// resolved writes what runs: the pipeline built whole, as Harness
	// resolves YAML with its template applied. Only reviews and tests
	// read it, so it is written on request, not for every run.
	resolved func() (string, error)
	// Template is the identifier of the stage template YAML references;
	// "" for none.
	Template string
	// TemplateVersion is the version YAML pins (versionLabel) while its
	// template is in flight (PinTemplates); "" for the stable version.
	TemplateVersion string
	// pinned writes YAML pinned to a version of its template.
	pinned func(label string) (string, error)
	Needs  []Ref
}

// Resolved is what runs: YAML with its template applied, as Harness
// resolves it (equal to YAML without a template).
func (p Pipeline) Resolved() (string, error) {
	if p.resolved == nil {
		return p.YAML, nil
	}
	return p.resolved()
}

// Trigger is a pipeline's webhook trigger.
type Trigger struct {
	Identifier, Name string
	TargetID         string
	Tags             []string
	YAML             string
	Needs            []Ref
}

// IsPlatform reports whether p is an environment's platform stack.
func (p *Plan) IsPlatform() bool { return p.Shard == "" }

// Services lists the catalog names of the deployments, in catalog order.
func (p *Plan) Services() []string {
	out := make([]string, len(p.Deployments))
	for i, d := range p.Deployments {
		out[i] = d.Service
	}
	return out
}

// Retired lists the deployments whose service is retired.
func (p *Plan) Retired() []string {
	var out []string
	for _, d := range p.Deployments {
		if d.Retired {
			out = append(out, d.Service)
		}
	}
	return out
}

// ServiceOf returns, for the name of a resource this plan declares, the
// catalog service it belongs to ("" for shared objects): deployments'
// components, pipelines, triggers, Values files and monitored services,
// services, and the deployments' namespaces.
func (p *Plan) ServiceOf() func(name string) string {
	owner := p.Owners()
	return func(name string) string { return owner[name] }
}

// Owners maps the name of every resource p declares for a catalog service
// (see ServiceOf) to that service.
func (p *Plan) Owners() map[string]string {
	owner := map[string]string{}
	for _, s := range p.CatalogServices {
		owner[s.Identifier] = s.Name
	}
	for _, d := range p.Deployments {
		owner[d.Service], owner[d.Pipeline.Identifier], owner[d.Trigger.Identifier] = d.Service, d.Service, d.Service
		owner[d.Values.Identifier] = d.Service
		if d.Monitored != nil {
			owner[d.Monitored.Identifier] = d.Service
		}
		for _, c := range p.Clusters {
			ns := ident.Namespace(p.Environment.Name, d.Service, c.Region)
			owner[ns], owner[RoleBindingName(ns)] = d.Service, d.Service
		}
	}
	if p.GitHub != nil {
		// A webhook variable is the whole stack's: no one service's.
		for _, ci := range p.GitHub.CatalogInfo {
			owner[ci.Resource()] = ci.Service
		}
	}
	return owner
}
