package catalog

import (
	"strings"

	"github.com/company/harness-platform/ident"
	"github.com/company/harness-platform/yamlstrict"
)

// The types below are the files as decoded, with their positions, for
// validation. They are private: after validation, resolve turns them into
// the model (model.go), with every default filled in.

type servicesFile struct {
	Services []*serviceDoc `yaml:"services" required:"true" desc:"Every service the platform deploys."`
}

type teamsFile struct {
	At            yamlstrict.At
	PlatformTeam  string            `yaml:"platformTeam" required:"true" desc:"The team that co-approves every Production deployment."`
	ServiceStacks *serviceStacksDoc `yaml:"serviceStacks" desc:"How each environment's services are split into service stacks of bounded size."`
	Teams         []*teamDoc        `yaml:"teams" required:"true" desc:"Teams that own services."`
}

// serviceStacksDoc bounds the service stacks: a DIY backend rewrites the
// whole checkpoint after every step, so an up is quadratic in the size of
// one stack.
type serviceStacksDoc struct {
	At          yamlstrict.At
	MaxServices int `yaml:"maxServices" desc:"The most services one service stack may hold (default 60; about 11 resources each in the root environment)."`
}

type archetypesFile struct {
	Archetypes []*archetypeDoc `yaml:"archetypes" required:"true" desc:"Pipeline shapes and defaults."`
}

type regionsFile struct {
	Regions []*regionDoc `yaml:"regions" required:"true" desc:"Regions environments may use."`
}

// serviceDoc is one entry of catalog/services.yaml.
type serviceDoc struct {
	At           yamlstrict.At
	Name         string            `yaml:"name" required:"true" desc:"Service name: a Kubernetes name (lower-case letters, digits, '-'); its Harness identifier replaces '-' with '_'."`
	Team         string            `yaml:"team" required:"true" desc:"Owning team, a name from catalog/teams.yaml."`
	Archetype    string            `yaml:"archetype" required:"true" desc:"Archetype from catalog/archetypes.yaml: the pipeline shape and defaults."`
	Repo         string            `yaml:"repo" required:"true" desc:"Source repository, owner/name."`
	Image        string            `yaml:"image" required:"true" desc:"Container image without tag; the tag is a runtime input of the pipeline."`
	Description  string            `yaml:"description" desc:"One line about the service."`
	Environments []string          `yaml:"environments" desc:"Stacks the service is enabled in (default: all). An environment's upstream must have it too."`
	Regions      []string          `yaml:"regions" desc:"Regions to deploy to (default: all regions of each environment)."`
	Overrides    *overridesDoc     `yaml:"overrides" desc:"Overrides of the archetype's defaults."`
	Tags         map[string]string `yaml:"tags" desc:"Extra tags on the service's Harness resources."`
	Retired      bool              `yaml:"retired" desc:"Decommissioning: triggers are disabled and the service can then be removed."`
	Stack        string            `yaml:"stack" desc:"The service stack holding it in every environment (default: its team's). Changing it moves the service's objects: run platformctl move."`
	Backstage    bool              `yaml:"backstage" desc:"Keep a Backstage catalog-info.yaml in the service's repository, linking its Harness pipelines and service."`
}

type overridesDoc struct {
	At                 yamlstrict.At
	ProductionStrategy string        `yaml:"productionStrategy" enum:"canary|rolling" desc:"Deployment strategy in Production environments."`
	Replicas           *int          `yaml:"replicas" desc:"Number of replicas."`
	Verification       *bool         `yaml:"verification" desc:"Continuous verification in every environment: after each canary phase, and after a rolling deployment."`
	Resources          *resourcesDoc `yaml:"resources" desc:"Resource requests and limits; each one given replaces the archetype's."`
}

// resourcesDoc is a workload's container resources, as Kubernetes writes
// them; every environment scales them by its harness-platform:workloads.
type resourcesDoc struct {
	At       yamlstrict.At
	Requests *quantitiesDoc `yaml:"requests" desc:"What the scheduler reserves for each replica."`
	Limits   *quantitiesDoc `yaml:"limits" desc:"The most each replica may use; at least its requests."`
}

type quantitiesDoc struct {
	At     yamlstrict.At
	CPU    string `yaml:"cpu" desc:"CPU as Kubernetes writes it, e.g. 250m or \"1\"."`
	Memory string `yaml:"memory" desc:"Memory as Kubernetes writes it, e.g. 256Mi or 1Gi."`
}

type teamDoc struct {
	At            yamlstrict.At
	Name          string            `yaml:"name" required:"true" desc:"Team name."`
	Description   string            `yaml:"description" desc:"What the team owns."`
	UserGroup     string            `yaml:"userGroup" desc:"Harness user group identifier (default: <name>_team)."`
	Members       []string          `yaml:"members" desc:"E-mail addresses of the team's members (the user group's users)."`
	Stack         string            `yaml:"stack" desc:"The service stack of its services (default: the team's name); teams may share one."`
	Stacks        int               `yaml:"stacks" desc:"Split its services over this many service stacks (default 1): <stack>, <stack>-2, ..., by a stable hash of each service's name, so adding a stack moves only the services it takes."`
	Notifications *notificationsDoc `yaml:"notifications" desc:"Where the team is told of its pipelines' failures and pending approvals. Required of every team that owns a service, and of the platform team."`
}

// notificationsDoc names Harness secrets, never their values: Harness reads
// them when it notifies (<+secrets.getValue(...)>).
type notificationsDoc struct {
	At                 yamlstrict.At
	SlackWebhookSecret string `yaml:"slackWebhookSecret" required:"true" desc:"Harness secret (text) holding the team's Slack incoming webhook URL: <id> in the project, org.<id> or account.<id>."`
	PagerDutyKeySecret string `yaml:"pagerDutyKeySecret" desc:"Harness secret (text) holding the team's PagerDuty integration key; it is paged when a Production deployment fails."`
}

type archetypeDoc struct {
	At                 yamlstrict.At
	Name               string        `yaml:"name" required:"true" desc:"Archetype name, referenced by services."`
	Description        string        `yaml:"description" desc:"What kind of workload it is."`
	ProductionStrategy string        `yaml:"productionStrategy" required:"true" enum:"canary|rolling" desc:"Strategy in Production environments; lower environments always roll."`
	Replicas           int           `yaml:"replicas" required:"true" desc:"Default replica count."`
	Verification       bool          `yaml:"verification" desc:"Continuous verification in every environment: after each canary phase, and after a rolling deployment."`
	StepTimeout        string        `yaml:"stepTimeout" desc:"Timeout of each deployment step (default 10m)."`
	Resources          *resourcesDoc `yaml:"resources" desc:"Default resource requests and limits of each replica (cpu and memory); a service without both, here or in its overrides, is refused."`
	PodSecurity        string        `yaml:"podSecurity" enum:"restricted|baseline|privileged" desc:"The Pod Security Standard its services' namespaces enforce (Pod Security Admission; default restricted)."`
	Network            *networkDoc   `yaml:"network" desc:"What its services' namespaces let through their default-deny NetworkPolicy besides DNS (default: nothing)."`
	ImageScan          *imageScanDoc `yaml:"imageScan" desc:"The scan of the image a Production deployment of its services passes before the rollout (default: fail on critical issues)."`
}

// imageScanDoc is what an archetype's Production image scan fails on
// (docs/delivery.md, The image scan gate).
type imageScanDoc struct {
	At             yamlstrict.At
	FailOnSeverity string `yaml:"failOnSeverity" required:"true" enum:"critical|high|medium|low|none" desc:"The least severity that fails the scan, and the deployment: critical, high, medium or low (an issue of that severity or higher fails it; Harness STO's fail_on_severity). none is refused: it would pass every image."`
}

// failOnSeverity is the archetype's scan threshold, with its default.
func (a *archetypeDoc) failOnSeverity() string {
	if a.ImageScan != nil && a.ImageScan.FailOnSeverity != "" {
		return a.ImageScan.FailOnSeverity
	}
	return DefaultFailOnSeverity
}

// networkDoc is what an archetype's namespaces allow.
type networkDoc struct {
	At      yamlstrict.At
	Ingress bool     `yaml:"ingress" desc:"Accept traffic from every namespace of the cluster (an ingress controller, other services); default false."`
	Egress  []string `yaml:"egress" desc:"CIDRs the services may connect to, e.g. [10.0.0.0/8] for the environment's network or [0.0.0.0/0] for anywhere."`
}

type regionDoc struct {
	At          yamlstrict.At
	Name        string `yaml:"name" required:"true" desc:"Short region name used in identifiers, e.g. euw1."`
	AWSRegion   string `yaml:"awsRegion" required:"true" desc:"The cloud region, e.g. eu-west-1."`
	Description string `yaml:"description" desc:"Where it is."`
}

// stackDoc holds the project's keys of one Pulumi.<stack>.yaml.
type stackDoc struct {
	At            yamlstrict.At
	Environment   environmentDoc   `yaml:"harness-platform:environment" required:"true" desc:"The Harness environment this stack owns."`
	Upstream      string           `yaml:"harness-platform:upstream" desc:"The stack this one promotes from; absent on the stack that owns the foundation."`
	Regions       []stackRegionDoc `yaml:"harness-platform:regions" required:"true" desc:"Regions of this environment, one cluster each."`
	Foundation    *foundationDoc   `yaml:"harness-platform:foundation" desc:"Organization, project and GitHub settings; only on the stack with no upstream."`
	Approval      *approvalDoc     `yaml:"harness-platform:approval" desc:"Approval gate of Production pipelines."`
	ChangeWindow  *changeWindowDoc `yaml:"harness-platform:changeWindow" desc:"When Production deployments may run."`
	Verification  *verificationDoc `yaml:"harness-platform:verification" desc:"The Prometheus server and per-archetype queries monitored services and Verify steps analyse; needed where a service that verifies is deployed."`
	AWS           *awsDoc          `yaml:"harness-platform:aws" desc:"The environment's own AWS account, reached through an explicit provider; needed where a region is kind eks."`
	Cluster       *clusterDoc      `yaml:"harness-platform:cluster" desc:"The EKS clusters of kind eks regions: Kubernetes version, endpoint access, admin role, node group."`
	Delegate      *delegateDoc     `yaml:"harness-platform:delegate" desc:"The Harness delegate installed in every cluster of the stack."`
	Kubeconfigs   *secretDoc       `yaml:"harness-platform:kubeconfigs" desc:"Kubeconfigs of kind existing regions, a JSON object by region name (a secret)."`
	WebhookAPIKey *secretDoc       `yaml:"harness-platform:webhookApiKey" desc:"A Harness API key services' builds send with webhooks, for accounts that require authorised webhooks (a secret)."`
	Runner        *runnerDoc       `yaml:"harness-platform:runner" desc:"Where this stack's CI jobs run: the self-hosted runners' labels and the addresses they reach the clusters' API from; needed where a region is kind eks."`
	Delivery      string           `yaml:"harness-platform:delivery" enum:"github-actions|harness-ci|operator" desc:"The one delivery path that applies this environment's stacks (default github-actions): the merge workflow (.github/workflows/up.yml), the Harness CI pipeline (.harness/pipeline.yaml) or the Pulumi Kubernetes Operator (deploy/argocd). The others refuse to change them: each names itself in HARNESS_PLATFORM_DELIVERY."`
	Workloads     *workloadsDoc    `yaml:"harness-platform:workloads" desc:"Factors on the catalog's replicas and resources in this environment, e.g. {replicas: 0.5, resources: 0.5} for a smaller development environment (default 1 each)."`

	name    string   // from the file name
	file    string   // relative to the project directory
	imports []string // ESC environments the file imports
}

type secretDoc struct {
	Secure string `yaml:"secure" required:"true" desc:"Ciphertext written by pulumi config set --secret."`
}

type environmentDoc struct {
	At          yamlstrict.At
	Name        string `yaml:"name" required:"true" desc:"Environment name, e.g. int-stable; a Kubernetes name."`
	Identifier  string `yaml:"identifier" desc:"Harness identifier (default: the name with '-' as '_')."`
	Type        string `yaml:"type" required:"true" enum:"PreProduction|Production" desc:"Harness environment type."`
	Description string `yaml:"description" desc:"What the environment is for."`
}

type stackRegionDoc struct {
	At          yamlstrict.At
	Name        string `yaml:"name" required:"true" desc:"A region from catalog/regions.yaml."`
	NetworkCIDR string `yaml:"networkCidr" desc:"The environment's network in this region, e.g. 10.3.0.0/16 (a /20 or larger for kind eks: the VPC)."`
	Kind        string `yaml:"kind" enum:"eks|existing" desc:"eks (default): a VPC and EKS cluster declared here; existing: a cluster reached with its kubeconfig from harness-platform:kubeconfigs."`
	// A revoked delegate token's name stays taken for 30 days, so a
	// rotation moves to a new name (docs/operating.md, Rotating a
	// delegate token).
	TokenGeneration int `yaml:"delegateTokenGeneration" desc:"The generation of the region's delegate token (default 1), part of its name: platformctl rotate-delegate-token raises it by one, or past a name Harness still holds revoked (30 days)."`
}

// Region kinds.
const (
	RegionEKS      = "eks"
	RegionExisting = "existing"
)

func (r *stackRegionDoc) kind() string { return orDefault(r.Kind, RegionEKS) }

type awsDoc struct {
	At             yamlstrict.At
	RoleArn        string `yaml:"roleArn" required:"true" desc:"The deployer role, in the environment's own account: what an up runs as (its ESC environment's OIDC login; nothing assumes it), given cluster admin by an access entry, e.g. arn:aws:iam::111122223333:role/harness-platform-deployer."`
	PreviewRoleArn string `yaml:"previewRoleArn" desc:"The read-only role previews run as (the -preview ESC environment's login), given a view-only access entry on each cluster; required with EKS clusters."`
}

type clusterDoc struct {
	At                yamlstrict.At
	KubernetesVersion string       `yaml:"kubernetesVersion" required:"true" desc:"EKS Kubernetes minor version, quoted, e.g. \"1.35\": one in EKS standard support (validate checks it against EKS's calendar), upgraded one minor version at a time by a reviewed change."`
	UpgradePolicy     string       `yaml:"upgradePolicy" enum:"STANDARD|EXTENDED" desc:"What EKS does when the version leaves standard support: STANDARD (default) upgrades the cluster automatically, EXTENDED keeps it in extended support, billed per cluster hour."`
	AdminRoleArn      string       `yaml:"adminRoleArn" required:"true" desc:"IAM role of the platform team, given cluster admin through an access entry (the creator gets no implicit admin)."`
	PublicEndpoint    bool         `yaml:"publicEndpoint" desc:"Expose the API server publicly (default false: private endpoint only)."`
	PublicAccessCidrs []string     `yaml:"publicAccessCidrs" desc:"Networks allowed to reach a public endpoint; required with publicEndpoint, never 0.0.0.0/0."`
	NodeGroup         nodeGroupDoc `yaml:"nodeGroup" required:"true" desc:"The managed node group in the private subnets."`
	NATGateways       string       `yaml:"natGateways" enum:"perZone|single" desc:"NAT gateways of the private subnets: perZone (default; a zone keeps egress when the other fails) or single (one, in zone a: cheaper, for environments that may lose egress with a zone)."`
	LogRetentionDays  *int         `yaml:"logRetentionDays" desc:"Days CloudWatch keeps the control-plane logs (default 90): one of CloudWatch's retention periods (1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653)."`
	ServiceCIDR       string       `yaml:"serviceCidr" desc:"The clusters' Service (ClusterIP) network, fixed at creation (a change replaces the cluster): /12 to /24 in 10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16, overlapping no VPC of the stack. Default: the one EKS would pick, 172.20.0.0/16 for a VPC in 10.0.0.0/8, else 10.100.0.0/16. The services' NetworkPolicies let traffic out to it."`
}

// workloadsDoc scales the catalog's workloads in one environment.
type workloadsDoc struct {
	At        yamlstrict.At
	Replicas  *float64 `yaml:"replicas" desc:"Factor on every service's replicas in this environment (default 1), rounded up; at least 1 replica."`
	Resources *float64 `yaml:"resources" desc:"Factor on every service's resource requests and limits in this environment (default 1), rounded up to a millicore and a MiB."`
}

type runnerDoc struct {
	At          yamlstrict.At
	Labels      []string `yaml:"labels" required:"true" desc:"The GitHub Actions runs-on labels of the runners that preview, update and check this stack, e.g. [self-hosted, harness-platform]."`
	EgressCidrs []string `yaml:"egressCidrs" required:"true" desc:"The public addresses those runners reach the EKS API from (their NAT), e.g. 192.0.2.0/28; each cluster's publicAccessCidrs must cover them."`
	// DelegateSelectors are for the Harness CI pipeline (plan/ci.go):
	// its stages run on the Harness Docker delegate of a runner host,
	// never on a cluster's delegate, which has no Docker runner.
	DelegateSelectors []string `yaml:"delegateSelectors" desc:"The tags of the Harness Docker delegates on those runners' hosts (DELEGATE_TAGS), e.g. [harness-platform-runner]; the Harness CI pipeline's stages select them. Needed where foundation.repository is set."`
	// The preview runners run pull requests' code: hosts of their own,
	// which no up runs on (docs/delivery.md, Who runs what).
	PreviewLabels []string `yaml:"previewLabels" required:"true" desc:"The runs-on labels of the runners that run what changes nothing (pull requests' previews, saved plans, the drift check): hosts no up runs on, behind the same NAT (egressCidrs), e.g. [self-hosted, harness-platform-preview]; one label that no environment's labels has."`
	// The operator's workspace runs in its own cluster: where it delivers
	// the stack, its NAT must reach the clusters' API too.
	OperatorEgressCidrs      []string `yaml:"operatorEgressCidrs" desc:"Where harness-platform:delivery is operator: the public addresses the Pulumi Kubernetes Operator's workspace pods reach the EKS API from (its cluster's NAT), e.g. 203.0.113.0/28; each cluster's publicAccessCidrs must cover them."`
	PreviewDelegateSelectors []string `yaml:"previewDelegateSelectors" desc:"The tags of the Harness Docker delegates on the preview runners' hosts, e.g. [harness-platform-preview-runner]; the Harness CI pipeline's preview stage selects them, and no environment's delegateSelectors may name them. Needed where foundation.repository is set."`
}

type nodeGroupDoc struct {
	At           yamlstrict.At
	InstanceType string `yaml:"instanceType" required:"true" desc:"EC2 instance type, e.g. m6i.large."`
	MinSize      int    `yaml:"minSize" required:"true" desc:"Fewest nodes (at least 1)."`
	DesiredSize  int    `yaml:"desiredSize" required:"true" desc:"Nodes the group starts with; the Cluster Autoscaler changes it after (an up leaves it)."`
	MaxSize      int    `yaml:"maxSize" required:"true" desc:"Most nodes the Cluster Autoscaler grows the group to: validate checks the clusters' capacity against it (the services' requests at a rollout's peak, the delegate's, the add-ons'), and a pod bigger than one node."`
}

type delegateDoc struct {
	At              yamlstrict.At
	ChartRepository string `yaml:"chartRepository" desc:"Helm repository of harness-delegate-ng (default Harness's)."`
	ChartVersion    string `yaml:"chartVersion" required:"true" desc:"Exact chart version, e.g. 1.0.22."`
	Image           string `yaml:"image" required:"true" desc:"Delegate image at a release tag, e.g. harness/delegate:25.10.87101; the upgrader is off, so this is the image that runs."`
	Replicas        *int   `yaml:"replicas" desc:"Delegate replicas (default 2)."`
	CPU             string `yaml:"cpu" desc:"CPU per replica (default 1)."`
	Memory          string `yaml:"memory" desc:"Memory per replica in MiB (default 2048)."`
	ManagerEndpoint string `yaml:"managerEndpoint" desc:"Harness manager URL (default https://app.harness.io)."`
}

type foundationDoc struct {
	At            yamlstrict.At
	Org           orgDoc           `yaml:"org" required:"true" desc:"Harness organization."`
	Project       projectDoc       `yaml:"project" required:"true" desc:"Harness project holding every pipeline."`
	Github        githubDoc        `yaml:"github" required:"true" desc:"Cross-org GitHub connector to the manifests repository."`
	Registry      registryDoc      `yaml:"registry" required:"true" desc:"Docker registry every catalog image is pulled from."`
	SecretManager secretManagerDoc `yaml:"secretManager" required:"true" desc:"The AWS Secrets Manager Harness reads the connectors' credentials from, by reference: no credential is stored in Harness or in a stack's state."`
	// Repository is where this program lives; its GitHub environments
	// and branch protection are declared with the foundation.
	Repository string `yaml:"repository" desc:"This program's GitHub repository, owner/name: its staging and production environments and main's protection are managed here."`
	// BackstageURL is the Backstage instance the services' catalog-info
	// files are read by: their deploy link opens its scaffolder.
	BackstageURL string `yaml:"backstageUrl" desc:"https URL of the Backstage instance, e.g. https://backstage.example.org: each service's catalog-info.yaml links to its \"Deploy to an environment\" template there, with the service filled in. Absent: no such link (Backstage's catalog refuses a link that is not an absolute URL)."`
}

type orgDoc struct {
	Identifier string `yaml:"identifier" required:"true" desc:"Organization identifier."`
	Name       string `yaml:"name" desc:"Display name."`
	Create     bool   `yaml:"create" desc:"Create the organization (default: it exists)."`
}

type projectDoc struct {
	Identifier  string `yaml:"identifier" required:"true" desc:"Project identifier."`
	Name        string `yaml:"name" desc:"Display name."`
	Description string `yaml:"description" desc:"Description."`
}

type githubDoc struct {
	At                  yamlstrict.At
	ConnectorIdentifier string       `yaml:"connectorIdentifier" desc:"Connector identifier (default github_manifests)."`
	URL                 string       `yaml:"url" required:"true" desc:"https URL of the manifests repository."`
	App                 githubAppDoc `yaml:"app" required:"true" desc:"The GitHub App Harness authenticates as (clone and API): no personal token."`
	Branch              string       `yaml:"branch" desc:"Branch the manifests are read from (default main)."`
}

type githubAppDoc struct {
	At               yamlstrict.At
	ApplicationID    string `yaml:"applicationId" required:"true" desc:"The GitHub App's App ID (digits, on its settings page), quoted."`
	InstallationID   string `yaml:"installationId" required:"true" desc:"The App's installation id on the manifests repository's owner (digits, the end of the installation's settings URL), quoted."`
	PrivateKeySecret string `yaml:"privateKeySecret" required:"true" desc:"Name of the AWS Secrets Manager secret (secretManager) holding the App's private key, in PKCS#8 PEM."`
}

type secretManagerDoc struct {
	At                  yamlstrict.At
	ConnectorIdentifier string `yaml:"connectorIdentifier" desc:"Connector identifier (default aws_secrets_manager)."`
	Region              string `yaml:"region" required:"true" desc:"AWS region of the secrets, e.g. eu-west-1."`
	RoleArn             string `yaml:"roleArn" required:"true" desc:"IAM role Harness assumes by OIDC to read the secrets (secretsmanager:GetSecretValue on them, nothing else)."`
}

type registryDoc struct {
	At                  yamlstrict.At
	ConnectorIdentifier string `yaml:"connectorIdentifier" desc:"Connector identifier (default docker_registry)."`
	URL                 string `yaml:"url" required:"true" desc:"https URL of the registry, e.g. https://registry.example.org; every catalog image must be on its host."`
	Type                string `yaml:"type" enum:"DockerHub|Harbor|Quay|Other" desc:"Registry kind (default Other)."`
	Username            string `yaml:"username" desc:"User Harness reads tags as; set passwordSecret too. Absent: anonymous access."`
	PasswordSecret      string `yaml:"passwordSecret" desc:"Name of the AWS Secrets Manager secret (secretManager) holding username's password; with username only."`
}

type approvalDoc struct {
	At                yamlstrict.At
	TeamApprovals     *int   `yaml:"teamApprovals" desc:"Approvals needed from the owning team's group (default 1)."`
	PlatformApprovals *int   `yaml:"platformApprovals" desc:"Approvals needed from the platform team's group (default 1)."`
	Timeout           string `yaml:"timeout" desc:"How long the gate waits (default 1d)."`
}

type verificationDoc struct {
	At            yamlstrict.At
	PrometheusURL string     `yaml:"prometheusUrl" required:"true" desc:"https URL of the environment's Prometheus (or Mimir, Cortex, Thanos) API."`
	Queries       []queryDoc `yaml:"queries" required:"true" desc:"Queries per archetype; {{namespace}} is the service's namespaces (a regular expression), {{service}} its name."`
	Scraper       scraperDoc `yaml:"scraper" required:"true" desc:"The pods in each cluster that scrape the services' metrics for that Prometheus: every service namespace's NetworkPolicy lets them in."`
}

type scraperDoc struct {
	At        yamlstrict.At
	Namespace string            `yaml:"namespace" required:"true" desc:"Their namespace, e.g. monitoring."`
	PodLabels map[string]string `yaml:"podLabels" required:"true" desc:"Labels that select them in it, e.g. {app.kubernetes.io/name: prometheus}."`
}

type queryDoc struct {
	At        yamlstrict.At
	Archetype string `yaml:"archetype" required:"true" desc:"An archetype of catalog/archetypes.yaml."`
	ErrorRate string `yaml:"errorRate" required:"true" desc:"PromQL giving the error rate per instance; must filter on {{namespace}} and keep the pod label through every aggregation, e.g. sum by (pod) (...)."`
	Latency   string `yaml:"latency" required:"true" desc:"PromQL giving the response time per instance; must filter on {{namespace}} and keep the pod label through every aggregation, e.g. sum by (le, pod) (...)."`
}

type changeWindowDoc struct {
	At     yamlstrict.At
	Days   []string `yaml:"days" required:"true" desc:"Allowed weekdays: Mon, Tue, Wed, Thu, Fri, Sat, Sun."`
	Start  string   `yaml:"start" required:"true" desc:"Start time, HH:MM UTC."`
	End    string   `yaml:"end" required:"true" desc:"End time, HH:MM UTC (exclusive)."`
	Freeze []string `yaml:"freeze" desc:"Dates (YYYY-MM-DD, UTC) with no deployment at all."`
}

// Defaults, used by validation (to check the names they give) and by
// resolve (to fill them in); neither changes the documents.

func (e *environmentDoc) identifier() string {
	if e.Identifier != "" {
		return e.Identifier
	}
	return ident.Environment(e.Name)
}

func (t *teamDoc) userGroup() string {
	if t.UserGroup != "" {
		return t.UserGroup
	}
	return ident.UserGroup(t.Name)
}

func (a *archetypeDoc) stepTimeout() string { return orDefault(a.StepTimeout, DefaultStepTimeout) }

func (g *githubDoc) connectorIdentifier() string {
	return orDefault(g.ConnectorIdentifier, DefaultGithubConnector)
}

func (r *registryDoc) connectorIdentifier() string {
	return orDefault(r.ConnectorIdentifier, DefaultRegistryConnector)
}

func (m *secretManagerDoc) connectorIdentifier() string {
	return orDefault(m.ConnectorIdentifier, DefaultSecretManagerConnector)
}

// host is the registry's host[:port], what image names start with.
func (r *registryDoc) host() string {
	h := strings.TrimPrefix(r.URL, "https://")
	if i := strings.IndexByte(h, '/'); i >= 0 {
		h = h[:i]
	}
	return h
}

// verifies says whether s has Verify steps and monitored services.
func (s *serviceDoc) verifies(a *archetypeDoc) bool {
	if o := s.Overrides; o != nil && o.Verification != nil {
		return *o.Verification
	}
	return a != nil && a.Verification
}

func (s *stackDoc) isProduction() bool { return s.Environment.Type == Production }

func (s *stackDoc) regionNames() []string {
	out := make([]string, len(s.Regions))
	for i, r := range s.Regions {
		out[i] = r.Name
	}
	return out
}

// approval is the stack's approval gate with its defaults, or nil when the
// stack has none (a Production stack always has one).
func (s *stackDoc) approval() *Approval {
	if s.Approval == nil && !s.isProduction() {
		return nil
	}
	a := Approval{TeamApprovals: DefaultApprovals, PlatformApprovals: DefaultApprovals, Timeout: DefaultApprovalTimeout}
	if s.Approval != nil {
		if n := s.Approval.TeamApprovals; n != nil {
			a.TeamApprovals = *n
		}
		if n := s.Approval.PlatformApprovals; n != nil {
			a.PlatformApprovals = *n
		}
		a.Timeout = orDefault(s.Approval.Timeout, a.Timeout)
	}
	return &a
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
