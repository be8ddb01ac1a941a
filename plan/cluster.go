package plan

import (
	"cmp"
	"fmt"
	"maps"
	"net/netip"
	"regexp"
	"slices"

	"github.com/company/harness-platform/calendar"
	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/ident"
)

// Cluster objects have kinds too, for what depends on them.
const (
	KindCluster      Kind = "cluster"
	KindDelegate     Kind = "delegate"
	KindAWSConnector Kind = "awsConnector"
)

// EKS control-plane log types: all of them (the seeds ask for audit and
// authenticator logs at least; the rest cost little at this scale).
var EKSLogTypes = []string{"api", "audit", "authenticator", "controllerManager", "scheduler"}

// DelegateNamespace is where every delegate runs (the chart's documented
// namespace).
const DelegateNamespace = "harness-delegate-ng"

// DelegatePermissions is the chart's k8sPermissionsType. The chart's
// default, CLUSTER_ADMIN, is more than deployments need: the delegate reads
// the cluster (CLUSTER_VIEWER) and is given write access only in the
// namespaces the plan deploys to, by a RoleBinding each (Delegate.Namespaces).
const DelegatePermissions = "CLUSTER_VIEWER"

// ECRReadOnlyPolicy is what the delegate's IRSA role may do: pull images
// (and read their tags) from ECR; deployments need nothing else from AWS.
const ECRReadOnlyPolicy = "arn:aws:iam::aws:policy/AmazonEC2ContainerRegistryReadOnly"

// CredentialPlugin is the command an EKS cluster's kubeconfig runs for a
// token (`aws eks get-token`): the AWS CLI must be installed wherever the
// Kubernetes provider runs (runners, the operator's workspace, a laptop).
const CredentialPlugin = "aws"

// EKS is a VPC and an EKS cluster in the environment's own account.
type EKS struct {
	// Name is the cluster's name, <environment>-<region>.
	Name      string
	AWSRegion string
	// RoleArn is the deployer role (an up runs as it) and PreviewRoleArn
	// the read-only role (previews run as it): each gets
	// an access entry. The region's AWS provider assumes neither and
	// allows only Account.
	RoleArn           string
	PreviewRoleArn    string
	Account           string
	KubernetesVersion string
	// UpgradePolicy is EKS's support type for the cluster (STANDARD:
	// upgraded by EKS when its version leaves standard support).
	UpgradePolicy     string
	VPC               VPC
	PublicEndpoint    bool
	PublicAccessCidrs []string
	LogTypes          []string
	// LogGroup is the control-plane log group EKS writes to, declared
	// with LogRetentionDays so that it is not EKS's own, kept forever.
	LogGroup         string
	LogRetentionDays int
	// SingleNAT: one NAT gateway (zone a) for every private subnet,
	// instead of one per zone.
	SingleNAT bool
	// AdminRoleArn gets cluster admin through an access entry; the
	// creator gets none implicitly.
	AdminRoleArn string
	NodeGroup    catalog.NodeGroup
	// AMIType is the node group's AMI, explicit: Amazon Linux 2023 for
	// the instance type's architecture (NodeAMIType). EKS publishes no
	// Amazon Linux 2 AMI from Kubernetes 1.33 (docs.aws.amazon.com, "Amazon
	// EKS optimized Amazon Linux AMIs"), and a changed AMI type replaces
	// the group (ami_type is ForceNew in terraform-provider-aws).
	AMIType string
	// Addons are the EKS add-ons the cluster runs as Amazon EKS add-ons,
	// each at the version AWS's table gives for KubernetesVersion
	// (calendar.EKSAddons), in the order they are declared: see
	// EKSAddonsFor.
	Addons []EKSAddon
	// ServiceCIDR is the cluster's Service (ClusterIP) network, explicit
	// (kubernetes_network_config.service_ipv4_cidr, force-new): the
	// stack file's, or the one EKS would pick (catalog.DefaultServiceCIDR),
	// so a cluster EKS gave it to sees no change. The services'
	// NetworkPolicies let it out (PodNetwork).
	ServiceCIDR string
	// Endpoints are the AWS services the VPC reaches privately
	// (VPCEndpoints).
	Endpoints []VPCEndpoint
	// Autoscaler grows and shrinks the node group between its minSize
	// and maxSize as pods wait for room (ClusterAutoscalerFor).
	Autoscaler *ClusterAutoscaler
	// Tags are AWS tags (the provider's default tags).
	Tags map[string]string
}

// ClusterAutoscaler is the Cluster Autoscaler of an EKS cluster: the
// chart of kubernetes/autoscaler at the cluster's minor version, finding
// the node group by the tags EKS gives a managed node group's Auto
// Scaling group (k8s.io/cluster-autoscaler/enabled and
// k8s.io/cluster-autoscaler/<cluster>; EKS User Guide, "Managed node
// groups"), with AWS credentials by IRSA.
type ClusterAutoscaler struct {
	Namespace, ChartRepository, Chart, ChartVersion string
	// ImageTag is the release of the cluster's minor version
	// (calendar.ClusterAutoscalerImages).
	ImageTag    string
	ClusterName string
	AWSRegion   string
	IRSA        IRSA
}

// ClusterAutoscalerServiceAccount is the autoscaler's service account in
// kube-system.
const ClusterAutoscalerServiceAccount = "cluster-autoscaler"

// ClusterAutoscalerFor is the autoscaler of cluster name (its delegate's
// name, for the IRSA role) at Kubernetes version; nil where the project
// knows no release of that minor (validate refuses such a cluster).
func ClusterAutoscalerFor(name, cluster, awsRegion, version string) *ClusterAutoscaler {
	tag, ok := calendar.ClusterAutoscalerImages[version]
	if !ok {
		return nil
	}
	return &ClusterAutoscaler{
		Namespace: "kube-system", ChartRepository: calendar.ClusterAutoscalerChartRepository,
		Chart: calendar.ClusterAutoscalerChart, ChartVersion: calendar.ClusterAutoscalerChartVersion,
		ImageTag: tag, ClusterName: cluster, AWSRegion: awsRegion,
		IRSA: IRSA{RoleName: name + "-autoscaler", ServiceAccount: "kube-system:" + ClusterAutoscalerServiceAccount},
	}
}

// EKSAddon is an add-on of an EKS cluster at a version.
type EKSAddon struct {
	// Version is "" for EKS's default build for the cluster's Kubernetes
	// version (CreateAddon without addonVersion); on an update the
	// add-on keeps the build it runs (addon_version is optional and
	// computed in terraform-provider-aws's aws_eks_addon).
	Name, Version string
	// Configuration is the add-on's configurationValues (JSON), "" for
	// none.
	Configuration string
	// BeforeNodes: the node group waits for it (the VPC CNI and kube-proxy
	// run on every node, from its start); otherwise it waits for the node
	// group (CoreDNS, a Deployment, stays DEGRADED while no node can run
	// its pods, and EKS never reports it ACTIVE: pulumi/pulumi-eks#1819,
	// terraform-aws-modules/terraform-aws-eks#3001).
	BeforeNodes bool
}

// addonsBeforeNodes are the add-ons the node group waits for.
var addonsBeforeNodes = map[string]bool{"vpc-cni": true, "kube-proxy": true}

// VPCCNINetworkPolicy is the VPC CNI add-on's configuration that turns
// its network policy agent on: off by default, NetworkPolicies are stored
// and nothing enforces them (https://docs.aws.amazon.com/eks/latest/userguide/cni-network-policy-configure.html,
// "Restrict Pod traffic with Kubernetes network policies": the add-on's
// configuration values {"enableNetworkPolicy": "true"}; the VPC CNI
// v1.14 or later, which every build of calendar/eks-addons.json is).
const VPCCNINetworkPolicy = `{"enableNetworkPolicy":"true"}`

// addonConfiguration is each add-on's configurationValues.
var addonConfiguration = map[string]string{"vpc-cni": VPCCNINetworkPolicy}

// EKSAddonsFor are the add-ons of a cluster of Kubernetes version k8s,
// each with its configuration:
//
//   - one whose table (calendar.EKSAddons) has a row for k8s, at that
//     row's version;
//   - one whose table has no row for k8s and whose builds are not per
//     Kubernetes minor (the VPC CNI: not Required), at EKS's default
//     build for k8s (Version ""): the VPC CNI enforces the services'
//     NetworkPolicies, so it is managed at every version (validation and
//     preflight say which build EKS picks, and how to pin it).
//
// An add-on whose builds are per minor and whose table has no row for
// k8s is left out; validation refuses the version.
func EKSAddonsFor(k8s string) []EKSAddon {
	var out []EKSAddon
	for _, a := range calendar.EKSAddons() {
		v := a.Version(k8s)
		if v == "" && a.Required {
			continue
		}
		out = append(out, EKSAddon{Name: a.Name, Version: v, Configuration: addonConfiguration[a.Name], BeforeNodes: addonsBeforeNodes[a.Name]})
	}
	return out
}

// VPC is the cluster's network: the region's CIDR, cut into a private and
// a public subnet in each of two availability zones.
type VPC struct {
	CIDR    string
	Subnets []Subnet
}

// Subnet is one subnet of a VPC.
type Subnet struct {
	Name   string
	CIDR   string
	Zone   string
	Public bool
	// Tags are what EKS and its load balancer controller look for.
	Tags map[string]string
}

// Existing is a cluster this project does not create, reached with the
// kubeconfig held under Region in the config secret ConfigKey.
type Existing struct {
	ConfigKey string
}

// Delegate is the Harness delegate of one cluster.
type Delegate struct {
	// Name is the delegate's name, also its implicit selector.
	Name string
	// Token is the name of its delegate token, made by the environment's
	// credentials stack; TokenSecret is where the cluster reads it.
	Token       string
	TokenSecret TokenSecret
	// ExternalSecrets is set on EKS clusters: the operator that brings
	// the token to the cluster (an existing cluster runs its own).
	ExternalSecrets *ExternalSecretsOperator
	// Tags are the chart's comma-separated tags: environment, region,
	// network.
	Tags            []string
	Namespace       string
	ChartRepository string
	ChartVersion    string
	Image           string
	Replicas        int
	CPU, Memory     string
	ManagerEndpoint string
	Permissions     string
	// Namespaces are the deployments' namespaces in this cluster: the
	// delegate may write there, and only there. Guardrails are what each
	// enforces (by name).
	Namespaces []string
	Guardrails map[string]Guardrail
	// Network is what their NetworkPolicies let through beside their
	// archetypes' rules (GuardrailPolicy).
	Network PodNetwork
	// ScanNamespace is where Production's image scan runs
	// (ImageScanNamespace; "" outside Production): the delegate may
	// write there too.
	ScanNamespace string
	// PodSecurityVersion is the Kubernetes minor version (v1.<minor>) the
	// namespaces' Pod Security checks are pinned to: an EKS cluster's;
	// "" for an existing cluster, whose version the program does not know
	// (PodSecurityLabels).
	PodSecurityVersion string
	// IRSA is set on EKS clusters: the role the delegate's service
	// account assumes, with these managed policies.
	IRSA *IRSA
}

// IRSA is an IAM role for a Kubernetes service account.
type IRSA struct {
	RoleName       string
	ServiceAccount string // namespace:name
	Policies       []string
}

// AWSConnector reaches the environment's account with the credentials of
// the delegate it runs on, its IRSA role, through the connector's IRSA
// credential type: "Assume IAM Role on Delegate ... isn't valid for IAM
// roles for service accounts (IRSA). If the Harness Delegate is in an EKS
// cluster that uses IRSA, you must select Use IRSA" (developer.harness.io,
// AWS connector settings reference); inherit_from_delegate is the EC2
// instance's credentials (harness-core, isEc2IamCredentials), the node's
// role here. No key is stored in Harness.
type AWSConnector struct {
	Identifier, Name, Description string
	Region                        string
	DelegateSelectors             []string
	Tags                          []string
	Needs                         []Ref
}

// buildCluster plans the cluster, delegate and AWS connector of one region.
func buildCluster(st *catalog.Stack, r catalog.StackRegion, namespaces []string, guardrails map[string]Guardrail, scope Scope) (Cluster, error) {
	env := st.Environment
	name := ident.DelegateName(env.Name, r.Name)
	cl := Cluster{Region: r.Name}
	d := st.Delegate
	cl.Delegate = Delegate{
		Name:            name,
		Token:           ident.DelegateToken(env.Name, r.Name, r.TokenGeneration),
		Tags:            []string{env.Name, r.Name, "network-" + r.NetworkCIDR},
		Namespace:       DelegateNamespace,
		ChartRepository: d.ChartRepository,
		ChartVersion:    d.ChartVersion,
		Image:           d.Image,
		Replicas:        d.Replicas,
		CPU:             d.CPU,
		Memory:          d.Memory,
		ManagerEndpoint: d.ManagerEndpoint,
		Permissions:     DelegatePermissions,
		Namespaces:      namespaces,
	}
	if st.IsProduction() {
		cl.Delegate.ScanNamespace = ImageScanNamespace
	}
	if len(namespaces) > 0 {
		cl.Delegate.Guardrails = map[string]Guardrail{}
		for _, n := range namespaces {
			cl.Delegate.Guardrails[n] = guardrails[n]
		}
	}
	if r.NetworkCIDR == "" {
		cl.Delegate.Tags = cl.Delegate.Tags[:2]
	}
	cl.Delegate.Network.VPC = r.NetworkCIDR
	if v := st.Verification; v != nil {
		cl.Delegate.Network.Scraper = &catalog.Scraper{Namespace: v.Scraper.Namespace, PodLabels: maps.Clone(v.Scraper.PodLabels)}
	}
	cl.Delegate.TokenSecret = tokenSecret(env.Name, cl.Delegate.Token, r.AWSRegion, st.AWS.Account(), r.Kind == catalog.RegionExisting)
	if r.Kind == catalog.RegionExisting {
		cl.Existing = &Existing{ConfigKey: catalog.KubeconfigsKey}
		return cl, nil
	}
	vpc, err := carve(r.NetworkCIDR, r.AWSRegion, ident.ClusterName(env.Name, r.Name))
	if err != nil {
		return Cluster{}, fmt.Errorf("region %s: %w", r.Name, err)
	}
	c := st.Cluster
	// The namespaces check pods as the cluster's Kubernetes does.
	cl.Delegate.PodSecurityVersion = "v" + c.KubernetesVersion
	cl.EKS = &EKS{
		Name:              ident.ClusterName(env.Name, r.Name),
		AWSRegion:         r.AWSRegion,
		RoleArn:           st.AWS.RoleArn,
		PreviewRoleArn:    st.AWS.PreviewRoleArn,
		Account:           st.AWS.Account(),
		KubernetesVersion: c.KubernetesVersion,
		UpgradePolicy:     c.UpgradePolicy,
		VPC:               vpc,
		PublicEndpoint:    c.PublicEndpoint,
		PublicAccessCidrs: slices.Clone(c.PublicAccessCidrs),
		LogTypes:          EKSLogTypes,
		LogGroup:          "/aws/eks/" + ident.ClusterName(env.Name, r.Name) + "/cluster",
		LogRetentionDays:  c.LogRetentionDays,
		SingleNAT:         c.NATGateways == catalog.NATSingle,
		AdminRoleArn:      c.AdminRoleArn,
		NodeGroup:         c.NodeGroup,
		AMIType:           NodeAMIType(c.NodeGroup.InstanceType),
		Addons:            EKSAddonsFor(c.KubernetesVersion),
		ServiceCIDR:       cmp.Or(c.ServiceCIDR, catalog.DefaultServiceCIDR(r.NetworkCIDR)),
		Endpoints:         slices.Clone(VPCEndpoints),
		Autoscaler:        ClusterAutoscalerFor(name, ident.ClusterName(env.Name, r.Name), r.AWSRegion, c.KubernetesVersion),
		Tags:              map[string]string{"environment": env.Name, "region": r.Name, "managed-by": ManagedBy},
	}
	cl.Delegate.Network.Services = cl.EKS.ServiceCIDR
	cl.Delegate.ExternalSecrets = externalSecretsOperator(name, env.Name, r.AWSRegion, st.AWS.Account())
	cl.Delegate.IRSA = &IRSA{
		RoleName:       name + "-irsa",
		ServiceAccount: DelegateNamespace + ":" + name,
		Policies:       []string{ECRReadOnlyPolicy},
	}
	id := ident.AWSConnector(env.Identifier, r.Name)
	cl.AWSConnector = &AWSConnector{
		Identifier:        id,
		Name:              "aws-" + env.Name + "-" + r.Name,
		Description:       "AWS account of " + env.Name + " in " + r.AWSRegion + ", with the credentials of delegate " + name,
		Region:            r.AWSRegion,
		DelegateSelectors: []string{name},
		Tags:              managedTags(map[string]string{"environment": env.Name, "region": r.Name}),
		Needs:             []Ref{{KindProject, scope.ProjectID}, {KindDelegate, name}},
	}
	return cl, nil
}

// carve cuts cidr into four equal subnets: private in zones a and b, then
// public in zones a and b. Zones are named, not looked up, so the plan
// needs no call to AWS; every region this project uses has zones a and b.
func carve(cidr, awsRegion, cluster string) (VPC, error) {
	p, err := netip.ParsePrefix(cidr)
	if err != nil {
		return VPC{}, err
	}
	bits := p.Bits() + 2
	if bits > 28 {
		return VPC{}, fmt.Errorf("network %s is too small for four subnets", cidr)
	}
	vpc := VPC{CIDR: p.Masked().String()}
	addr := p.Masked().Addr()
	size := uint32(1) << (32 - bits)
	for i, s := range []struct {
		public bool
		zone   string
	}{{false, "a"}, {false, "b"}, {true, "a"}, {true, "b"}} {
		a4 := addr.As4()
		base := uint32(a4[0])<<24 | uint32(a4[1])<<16 | uint32(a4[2])<<8 | uint32(a4[3])
		base += uint32(i) * size
		sub := netip.PrefixFrom(netip.AddrFrom4([4]byte{byte(base >> 24), byte(base >> 16), byte(base >> 8), byte(base)}), bits)
		role, kind := "kubernetes.io/role/internal-elb", "private"
		if s.public {
			role, kind = "kubernetes.io/role/elb", "public"
		}
		vpc.Subnets = append(vpc.Subnets, Subnet{
			Name:   cluster + "-" + kind + "-" + s.zone,
			CIDR:   sub.String(),
			Zone:   awsRegion + s.zone,
			Public: s.public,
			Tags:   map[string]string{"kubernetes.io/cluster/" + cluster: "shared", role: "1", "Name": cluster + "-" + kind + "-" + s.zone},
		})
	}
	return vpc, nil
}

// Private lists the private subnets: where the nodes run.
func (v VPC) Private() []Subnet {
	return slices.DeleteFunc(slices.Clone(v.Subnets), func(s Subnet) bool { return s.Public })
}

// Public lists the public subnets: NAT gateways and public load balancers.
func (v VPC) Public() []Subnet {
	return slices.DeleteFunc(slices.Clone(v.Subnets), func(s Subnet) bool { return !s.Public })
}

// RoleBindingName is the resource name of the RoleBinding that lets a
// delegate write in a deployment namespace.
func RoleBindingName(namespace string) string { return namespace + "-delegate" }

// namespacesByRegion lists, for each region of st, the namespaces of the
// services of shard deployed there, in catalog order.
func namespacesByRegion(c *catalog.Catalog, st *catalog.Stack, shard string) (map[string][]string, map[string]Guardrail, error) {
	out, guardrails := map[string][]string{}, map[string]Guardrail{}
	for i := range c.Services {
		s := &c.Services[i]
		in, ok := s.In[st.Name]
		if !ok || s.Stack != shard {
			continue
		}
		var a catalog.Archetype
		for _, x := range c.Archetypes {
			if x.Name == s.Archetype {
				a = x
			}
		}
		g, err := guardrail(s.Name, a, in)
		if err != nil {
			return nil, nil, fmt.Errorf("service %s in %s: %w", s.Name, st.Name, err)
		}
		for _, r := range in.Regions {
			n := ident.Namespace(st.Environment.Name, s.Name, r)
			out[r] = append(out[r], n)
			guardrails[n] = g
		}
	}
	return out, guardrails, nil
}

// graviton are the EC2 instance types of AWS's ARM processors: a family
// letter, its generation, then g (m7g, c6gn, r6gd, t4g, im4gn), and a1.
var graviton = regexp.MustCompile(`^([a-z]+[0-9]+g[a-z]*|a1)\.`)

// NodeAMIType is the Amazon Linux 2023 AMI type of EKS managed nodes of
// instanceType: AL2023_ARM_64_STANDARD on Graviton, AL2023_x86_64_STANDARD
// otherwise (EKS API, Nodegroup amiType).
func NodeAMIType(instanceType string) string {
	if graviton.MatchString(instanceType) {
		return "AL2023_ARM_64_STANDARD"
	}
	return "AL2023_x86_64_STANDARD"
}
