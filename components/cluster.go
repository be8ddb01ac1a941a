package components

import (
	"encoding/json"
	"fmt"

	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws"
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/cloudwatch"
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/ec2"
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/eks"
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/iam"
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/kms"
	"github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes"
	metav1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/meta/v1"
	rbacv1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/rbac/v1"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/plan"
)

// Versions of the AWS and Kubernetes providers every registration asks
// for, as the Harness bindings pin theirs: the engine never picks "the
// latest".
const (
	AWSVersion        = "6.83.2"
	KubernetesVersion = "4.33.0"
)

// ClusterAdminPolicy is the EKS access policy of the platform team's role
// and the deployer. The preview role gets no access policy: its access
// entry names plan.PreviewGroup, whose ClusterRole reads what the stacks
// declare and no Secret (plan.PreviewRules).
const ClusterAdminPolicy = "arn:aws:eks::aws:cluster-access-policy/AmazonEKSClusterAdminPolicy"

// ClusterArgs are the inputs of a Cluster: one region of the plan.
type ClusterArgs struct {
	// EKS is the cluster to declare; nil for an existing cluster.
	EKS *plan.EKS
	// Kubeconfig is the existing cluster's kubeconfig, a secret; used
	// when EKS is nil.
	Kubeconfig pulumi.StringInput
}

// Cluster is a VPC and an EKS cluster in the environment's own account,
// through an explicit AWS provider that assumes the stack's role (never the
// ambient credentials), or an existing cluster given by its kubeconfig. It
// yields a Kubernetes provider for the cluster.
type Cluster struct {
	pulumi.ResourceState

	Name     pulumi.StringOutput
	Endpoint pulumi.StringOutput
	// Kubeconfig is a secret. It holds no credential: kubectl runs
	// `aws eks get-token` as the platform team's role.
	Kubeconfig pulumi.StringOutput
	// Provider is the Kubernetes provider of the cluster.
	Provider *kubernetes.Provider
	// AWS is the region's AWS provider (nil for an existing cluster).
	AWS *aws.Provider
	// OIDCProviderArn and OIDCIssuer are for IRSA roles (EKS only).
	OIDCProviderArn pulumi.StringOutput
	OIDCIssuer      pulumi.StringOutput
}

// NewCluster declares one cluster.
func NewCluster(ctx *pulumi.Context, name string, args *ClusterArgs, opts ...pulumi.ResourceOption) (*Cluster, error) {
	c := &Cluster{}
	if err := ctx.RegisterComponentResource(ClusterType, name, c, opts...); err != nil {
		return nil, err
	}
	if args.EKS == nil {
		c.Kubeconfig = pulumi.ToSecret(args.Kubeconfig).(pulumi.StringOutput)
		c.Name, c.Endpoint = pulumi.String(name).ToStringOutput(), pulumi.String("").ToStringOutput()
		p, err := kubernetes.NewProvider(ctx, name, &kubernetes.ProviderArgs{Kubeconfig: c.Kubeconfig, HelmReleaseSettings: helmSettings()},
			pulumi.Parent(c), pulumi.Version(KubernetesVersion))
		if err != nil {
			return nil, err
		}
		c.Provider = p
		return c, ctx.RegisterResourceOutputs(c, pulumi.Map{"name": c.Name})
	}
	if err := c.declareEKS(ctx, name, args.EKS); err != nil {
		return nil, err
	}
	return c, ctx.RegisterResourceOutputs(c, pulumi.Map{"name": c.Name, "endpoint": c.Endpoint, "kubeconfig": c.Kubeconfig})
}

func (c *Cluster) declareEKS(ctx *pulumi.Context, name string, e *plan.EKS) error {
	// The run's credentials are already the stack's deployer (an up) or
	// preview role (a preview), from its ESC environment's OIDC login:
	// assuming the deployer again would need it to trust itself, and
	// previews to be trusted by it. The provider refuses credentials of
	// any other account instead.
	provider, err := aws.NewProvider(ctx, name, &aws.ProviderArgs{
		Region:            pulumi.String(e.AWSRegion),
		AllowedAccountIds: pulumi.StringArray{pulumi.String(e.Account)},
		DefaultTags:       &aws.ProviderDefaultTagsArgs{Tags: pulumi.ToStringMap(e.Tags)},
	}, pulumi.Parent(c), pulumi.Version(AWSVersion))
	if err != nil {
		return err
	}
	c.AWS = provider
	in := []pulumi.ResourceOption{pulumi.Parent(c), pulumi.Provider(provider), pulumi.Version(AWSVersion)}
	with := func(more ...pulumi.ResourceOption) []pulumi.ResourceOption {
		return append(append([]pulumi.ResourceOption{}, in...), more...)
	}

	vpc, err := ec2.NewVpc(ctx, e.Name, &ec2.VpcArgs{
		CidrBlock: pulumi.String(e.VPC.CIDR), EnableDnsHostnames: pulumi.Bool(true), EnableDnsSupport: pulumi.Bool(true),
		Tags: pulumi.StringMap{"Name": pulumi.String(e.Name)},
	}, in...)
	if err != nil {
		return err
	}
	igw, err := ec2.NewInternetGateway(ctx, e.Name, &ec2.InternetGatewayArgs{VpcId: vpc.ID(), Tags: pulumi.StringMap{"Name": pulumi.String(e.Name)}}, in...)
	if err != nil {
		return err
	}
	publicRT, err := ec2.NewRouteTable(ctx, e.Name+"-public", &ec2.RouteTableArgs{
		VpcId:  vpc.ID(),
		Routes: ec2.RouteTableRouteArray{ec2.RouteTableRouteArgs{CidrBlock: pulumi.String("0.0.0.0/0"), GatewayId: igw.ID()}},
		Tags:   pulumi.StringMap{"Name": pulumi.String(e.Name + "-public")},
	}, in...)
	if err != nil {
		return err
	}
	subnets := map[string]*ec2.Subnet{}
	for _, s := range e.VPC.Subnets {
		sn, err := ec2.NewSubnet(ctx, s.Name, &ec2.SubnetArgs{
			VpcId: vpc.ID(), CidrBlock: pulumi.String(s.CIDR), AvailabilityZone: pulumi.String(s.Zone),
			MapPublicIpOnLaunch: pulumi.Bool(false), Tags: pulumi.ToStringMap(s.Tags),
		}, in...)
		if err != nil {
			return err
		}
		subnets[s.Name] = sn
	}
	// One NAT gateway per zone, in its public subnet, so a zone's nodes
	// keep egress when the other zone fails; or, where the stack file
	// says natGateways: single, one in the first zone for both.
	nat := map[string]*ec2.NatGateway{}
	var first *ec2.NatGateway
	for _, s := range e.VPC.Public() {
		if _, err := ec2.NewRouteTableAssociation(ctx, s.Name, &ec2.RouteTableAssociationArgs{SubnetId: subnets[s.Name].ID(), RouteTableId: publicRT.ID()}, in...); err != nil {
			return err
		}
		if e.SingleNAT && first != nil {
			nat[s.Zone] = first
			continue
		}
		eip, err := ec2.NewEip(ctx, s.Name, &ec2.EipArgs{Domain: pulumi.String("vpc"), Tags: pulumi.StringMap{"Name": pulumi.String(s.Name)}}, in...)
		if err != nil {
			return err
		}
		ng, err := ec2.NewNatGateway(ctx, s.Name, &ec2.NatGatewayArgs{AllocationId: eip.ID(), SubnetId: subnets[s.Name].ID(), Tags: pulumi.StringMap{"Name": pulumi.String(s.Name)}},
			with(pulumi.DependsOn([]pulumi.Resource{igw}))...)
		if err != nil {
			return err
		}
		nat[s.Zone] = ng
		if first == nil {
			first = ng
		}
	}
	var private, privateRoutes pulumi.StringArray
	for _, s := range e.VPC.Private() {
		rt, err := ec2.NewRouteTable(ctx, s.Name, &ec2.RouteTableArgs{
			VpcId:  vpc.ID(),
			Routes: ec2.RouteTableRouteArray{ec2.RouteTableRouteArgs{CidrBlock: pulumi.String("0.0.0.0/0"), NatGatewayId: nat[s.Zone].ID()}},
			Tags:   pulumi.StringMap{"Name": pulumi.String(s.Name)},
		}, in...)
		if err != nil {
			return err
		}
		if _, err := ec2.NewRouteTableAssociation(ctx, s.Name, &ec2.RouteTableAssociationArgs{SubnetId: subnets[s.Name].ID(), RouteTableId: rt.ID()}, in...); err != nil {
			return err
		}
		private = append(private, subnets[s.Name].ID().ToStringOutput())
		privateRoutes = append(privateRoutes, rt.ID().ToStringOutput())
	}
	if err := declareEndpoints(ctx, e, vpc, private, privateRoutes, in); err != nil {
		return err
	}

	key, err := kms.NewKey(ctx, e.Name, &kms.KeyArgs{
		Description:       pulumi.String("Kubernetes secrets of EKS cluster " + e.Name),
		EnableKeyRotation: pulumi.Bool(true),
	}, in...)
	if err != nil {
		return err
	}
	clusterRole, err := iam.NewRole(ctx, e.Name+"-cluster", &iam.RoleArgs{AssumeRolePolicy: pulumi.String(servicePrincipalPolicy("eks.amazonaws.com"))}, in...)
	if err != nil {
		return err
	}
	clusterPolicy, err := iam.NewRolePolicyAttachment(ctx, e.Name+"-cluster", &iam.RolePolicyAttachmentArgs{
		Role: clusterRole.Name, PolicyArn: pulumi.String("arn:aws:iam::aws:policy/AmazonEKSClusterPolicy"),
	}, in...)
	if err != nil {
		return err
	}
	// The log group EKS writes the control-plane logs to, declared before
	// the cluster with a retention: EKS would create it, kept forever.
	logs, err := cloudwatch.NewLogGroup(ctx, e.Name, &cloudwatch.LogGroupArgs{
		Name: pulumi.String(e.LogGroup), RetentionInDays: pulumi.Int(e.LogRetentionDays),
	}, in...)
	if err != nil {
		return err
	}
	cluster, err := eks.NewCluster(ctx, e.Name, &eks.ClusterArgs{
		Name:    pulumi.String(e.Name),
		Version: pulumi.String(e.KubernetesVersion),
		// Explicit, so that a cluster is never billed extended support
		// by EKS's default (EXTENDED) without the stack file saying so.
		UpgradePolicy: &eks.ClusterUpgradePolicyArgs{SupportType: pulumi.String(e.UpgradePolicy)},
		RoleArn:       clusterRole.Arn,
		VpcConfig: &eks.ClusterVpcConfigArgs{
			SubnetIds:             private,
			EndpointPrivateAccess: pulumi.Bool(true),
			EndpointPublicAccess:  pulumi.Bool(e.PublicEndpoint),
			PublicAccessCidrs:     pulumi.ToStringArray(e.PublicAccessCidrs),
		},
		EncryptionConfig: &eks.ClusterEncryptionConfigArgs{
			Provider:  &eks.ClusterEncryptionConfigProviderArgs{KeyArn: key.Arn},
			Resources: pulumi.StringArray{pulumi.String("secrets")},
		},
		EnabledClusterLogTypes: pulumi.ToStringArray(e.LogTypes),
		// The Service network, explicit: the services' NetworkPolicies
		// let it out (plan.EKS.ServiceCIDR).
		KubernetesNetworkConfig: &eks.ClusterKubernetesNetworkConfigArgs{ServiceIpv4Cidr: pulumi.String(e.ServiceCIDR)},
		// Access entries only: the creator (the deployer role) gets no
		// implicit admin; the platform team's role gets it explicitly.
		AccessConfig: &eks.ClusterAccessConfigArgs{
			AuthenticationMode:                      pulumi.String("API"),
			BootstrapClusterCreatorAdminPermissions: pulumi.Bool(false),
		},
	}, with(pulumi.DependsOn([]pulumi.Resource{clusterPolicy, logs}))...)
	if err != nil {
		return err
	}
	// Access entries for who uses the cluster's API: the platform team,
	// the deployer (an up, the operator) and the preview role (previews,
	// the drift check), each as itself: the kubeconfig asks for a token
	// as whoever runs.
	var access []pulumi.Resource
	for _, a := range []struct{ suffix, principal, policy, group string }{
		{"-platform-admin", e.AdminRoleArn, ClusterAdminPolicy, ""},
		{"-deployer", e.RoleArn, ClusterAdminPolicy, ""},
		{"-preview", e.PreviewRoleArn, "", plan.PreviewGroup},
	} {
		if a.principal == "" {
			continue
		}
		args := &eks.AccessEntryArgs{
			ClusterName: cluster.Name, PrincipalArn: pulumi.String(a.principal), Type: pulumi.String("STANDARD"),
		}
		if a.group != "" {
			args.KubernetesGroups = pulumi.StringArray{pulumi.String(a.group)}
		}
		entry, err := eks.NewAccessEntry(ctx, e.Name+a.suffix, args, in...)
		if err != nil {
			return err
		}
		if a.policy == "" {
			access = append(access, entry)
			continue
		}
		assoc, err := eks.NewAccessPolicyAssociation(ctx, e.Name+a.suffix, &eks.AccessPolicyAssociationArgs{
			ClusterName: cluster.Name, PrincipalArn: entry.PrincipalArn, PolicyArn: pulumi.String(a.policy),
			AccessScope: &eks.AccessPolicyAssociationAccessScopeArgs{Type: pulumi.String("cluster")},
		}, in...)
		if err != nil {
			return err
		}
		access = append(access, assoc)
	}
	c.OIDCIssuer = cluster.Identities.ApplyT(func(ids []eks.ClusterIdentity) (string, error) {
		if len(ids) == 0 || len(ids[0].Oidcs) == 0 || ids[0].Oidcs[0].Issuer == nil {
			return "", fmt.Errorf("EKS cluster %s reports no OIDC issuer", e.Name)
		}
		return *ids[0].Oidcs[0].Issuer, nil
	}).(pulumi.StringOutput)
	oidc, err := iam.NewOpenIdConnectProvider(ctx, e.Name, &iam.OpenIdConnectProviderArgs{
		Url: c.OIDCIssuer, ClientIdLists: pulumi.StringArray{pulumi.String("sts.amazonaws.com")},
	}, in...)
	if err != nil {
		return err
	}
	c.OIDCProviderArn = oidc.Arn

	nodeRole, err := iam.NewRole(ctx, e.Name+"-nodes", &iam.RoleArgs{AssumeRolePolicy: pulumi.String(servicePrincipalPolicy("ec2.amazonaws.com"))}, in...)
	if err != nil {
		return err
	}
	var nodePolicies []pulumi.Resource
	for _, p := range []string{"AmazonEKSWorkerNodePolicy", "AmazonEKS_CNI_Policy", "AmazonEC2ContainerRegistryReadOnly"} {
		a, err := iam.NewRolePolicyAttachment(ctx, e.Name+"-nodes-"+p, &iam.RolePolicyAttachmentArgs{
			Role: nodeRole.Name, PolicyArn: pulumi.String("arn:aws:iam::aws:policy/" + p),
		}, in...)
		if err != nil {
			return err
		}
		nodePolicies = append(nodePolicies, a)
	}
	// EKS add-ons (e.Addons), each at the version AWS's table gives for
	// the cluster's Kubernetes version. An upgrade goes one minor version
	// at a time, the control plane first, then its components, and the
	// nodes reach the control plane's version before the next one
	// (https://docs.aws.amazon.com/eks/latest/userguide/update-cluster.html:
	// "you can update only one minor version at a time"; its Step 4 lists
	// the nodes, then the VPC CNI, CoreDNS and kube-proxy add-ons; the
	// issue asks the add-ons before the node groups, which Kubernetes's
	// version skew policy allows: kube-proxy may be newer than the kubelet
	// beside it, never than the API server). The graph takes that order
	// as far as it also serves a first creation:
	//
	//   - every add-on names the cluster, so it is created, and updated,
	//     after the control plane;
	//   - the node group waits for the VPC CNI and kube-proxy, which run on
	//     every node from its start;
	//   - CoreDNS waits for the node group: a Deployment, it stays DEGRADED
	//     while no node can run it, and the provider waits for ACTIVE until
	//     it times out (pulumi/pulumi-eks#1819,
	//     terraform-aws-modules/terraform-aws-eks#3001; the wait:
	//     terraform-provider-aws internal/service/eks/addon.go,
	//     waitAddonCreated). The same edge makes an upgrade update CoreDNS
	//     after the nodes, not before them: its previous build keeps
	//     serving meanwhile (AWS's table gives one CoreDNS build to several
	//     minors).
	//
	// So an upgrade goes control plane, VPC CNI and kube-proxy, node
	// group, CoreDNS; the simulated EKS refuses what EKS refuses of any
	// other order (simulated/aws: an add-on version the cluster's version
	// has none of, a node group newer than the control plane, a control
	// plane update before the node groups caught up).
	//
	// Conflicts are resolved by OVERWRITE on create and on update: EKS
	// installed its own (self-managed) copies of the three when it created
	// the cluster, and creating the Amazon EKS add-on over them without
	// OVERWRITE fails on any field they differ in (the provider's note in
	// resourceAddonCreate); the program sets the whole configuration (the
	// VPC CNI's network policy agent, plan.VPCCNINetworkPolicy; none
	// elsewhere), so a value differing from it on update is a hand edit,
	// which OVERWRITE undoes (PRESERVE would keep it; NONE fails the
	// update) (https://docs.aws.amazon.com/eks/latest/APIReference/API_UpdateAddon.html).
	// Preserve: deleting an add-on (the program stops managing it) leaves
	// its pods running, never the cluster without DNS or pod networking.
	addon := func(a plan.EKSAddon, opts ...pulumi.ResourceOption) (*eks.Addon, error) {
		args := &eks.AddonArgs{
			ClusterName:              cluster.Name,
			AddonName:                pulumi.String(a.Name),
			ResolveConflictsOnCreate: pulumi.String("OVERWRITE"),
			ResolveConflictsOnUpdate: pulumi.String("OVERWRITE"),
			Preserve:                 pulumi.Bool(true),
		}
		if a.Version != "" {
			args.AddonVersion = pulumi.String(a.Version)
		}
		if a.Configuration != "" {
			args.ConfigurationValues = pulumi.String(a.Configuration)
		}
		return eks.NewAddon(ctx, e.Name+"-"+a.Name, args, with(opts...)...)
	}
	var beforeNodes, addons []pulumi.Resource
	for _, a := range e.Addons {
		if !a.BeforeNodes {
			continue
		}
		r, err := addon(a)
		if err != nil {
			return err
		}
		beforeNodes = append(beforeNodes, r)
	}
	addons = append(addons, beforeNodes...)

	n := e.NodeGroup
	nodes, err := eks.NewNodeGroup(ctx, e.Name, &eks.NodeGroupArgs{
		ClusterName:   cluster.Name,
		NodeRoleArn:   nodeRole.Arn,
		SubnetIds:     private,
		InstanceTypes: pulumi.StringArray{pulumi.String(n.InstanceType)},
		AmiType:       pulumi.String(e.AMIType),
		// The cluster's version, so that an upgrade of the cluster
		// upgrades its nodes after it (EKS leaves a node group at the
		// version it was created with otherwise).
		Version: pulumi.String(e.KubernetesVersion),
		ScalingConfig: &eks.NodeGroupScalingConfigArgs{
			MinSize: pulumi.Int(n.MinSize), DesiredSize: pulumi.Int(n.DesiredSize), MaxSize: pulumi.Int(n.MaxSize),
		},
	}, with(pulumi.DependsOn(append(append([]pulumi.Resource{}, nodePolicies...), beforeNodes...)),
		// The Cluster Autoscaler sets the group's desired size between
		// minSize and maxSize; an up must not set it back (the stack
		// file's desiredSize is the size the group starts at).
		pulumi.IgnoreChanges([]string{"scalingConfig.desiredSize"}))...)
	if err != nil {
		return err
	}
	for _, a := range e.Addons {
		if a.BeforeNodes {
			continue
		}
		r, err := addon(a, pulumi.DependsOn([]pulumi.Resource{nodes}))
		if err != nil {
			return err
		}
		addons = append(addons, r)
	}

	c.Name, c.Endpoint = cluster.Name, cluster.Endpoint
	c.Kubeconfig = pulumi.ToSecret(pulumi.All(cluster.Name, cluster.Endpoint, cluster.CertificateAuthority.Data().Elem()).ApplyT(
		func(v []any) (string, error) {
			return Kubeconfig(v[0].(string), v[1].(string), v[2].(string), e.AWSRegion)
		})).(pulumi.StringOutput)
	// The provider waits for the nodes, the add-ons (pod networking, DNS)
	// and the access entries: before them nothing can be deployed into the
	// cluster.
	c.Provider, err = kubernetes.NewProvider(ctx, name, &kubernetes.ProviderArgs{Kubeconfig: c.Kubeconfig, HelmReleaseSettings: helmSettings()},
		pulumi.Parent(c), pulumi.Version(KubernetesVersion), pulumi.DependsOn(append(append([]pulumi.Resource{nodes}, addons...), access...)))
	if err != nil {
		return err
	}
	if e.Autoscaler != nil {
		if err := declareClusterAutoscaler(ctx, c, e.Autoscaler, with()); err != nil {
			return err
		}
	}
	return declarePreviewAccess(ctx, c, name)
}

// helmSettings keep Helm's releases in ConfigMaps (plan.HelmDriver).
func helmSettings() *kubernetes.HelmReleaseSettingsArgs {
	return &kubernetes.HelmReleaseSettingsArgs{Driver: pulumi.String(plan.HelmDriver)}
}

// declarePreviewAccess gives the preview role's group (plan.PreviewGroup)
// its reads: a ClusterRole of plan.PreviewRules, bound to the group.
func declarePreviewAccess(ctx *pulumi.Context, c *Cluster, name string) error {
	k8s := []pulumi.ResourceOption{pulumi.Parent(c), pulumi.Provider(c.Provider), pulumi.Version(KubernetesVersion)}
	role, err := newClusterRole(ctx, name+"-"+plan.PreviewGroup, plan.PreviewGroup, plan.PreviewRules, k8s)
	if err != nil {
		return err
	}
	_, err = rbacv1.NewClusterRoleBinding(ctx, name+"-"+plan.PreviewGroup, &rbacv1.ClusterRoleBindingArgs{
		Metadata: &metav1.ObjectMetaArgs{Name: pulumi.String(plan.PreviewGroup)},
		RoleRef:  &rbacv1.RoleRefArgs{ApiGroup: pulumi.String("rbac.authorization.k8s.io"), Kind: pulumi.String("ClusterRole"), Name: role.Metadata.Name().Elem()},
		Subjects: rbacv1.SubjectArray{&rbacv1.SubjectArgs{Kind: pulumi.String("Group"), Name: pulumi.String(plan.PreviewGroup), ApiGroup: pulumi.String("rbac.authorization.k8s.io")}},
	}, k8s...)
	return err
}

// Kubeconfig is a kubeconfig for an EKS cluster that authenticates with
// `aws eks get-token` as whoever runs it (their access entry says what
// they may do): it holds no credential of its own, and needs the AWS CLI
// (CredentialPlugin) where it runs.
func Kubeconfig(cluster, endpoint, caData, region string) (string, error) {
	cfg := map[string]any{
		"apiVersion":      "v1",
		"kind":            "Config",
		"current-context": cluster,
		"clusters": []any{map[string]any{"name": cluster, "cluster": map[string]any{
			"server": endpoint, "certificate-authority-data": caData}}},
		"contexts": []any{map[string]any{"name": cluster, "context": map[string]any{"cluster": cluster, "user": cluster}}},
		"users": []any{map[string]any{"name": cluster, "user": map[string]any{"exec": map[string]any{
			"apiVersion": "client.authentication.k8s.io/v1beta1",
			"command":    plan.CredentialPlugin,
			"args":       []string{"eks", "get-token", "--cluster-name", cluster, "--region", region, "--output", "json"},
		}}}},
	}
	b, err := json.Marshal(cfg)
	return string(b), err
}

// servicePrincipalPolicy is an assume-role policy for an AWS service.
func servicePrincipalPolicy(service string) string {
	return fmt.Sprintf(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Service":%q},"Action":"sts:AssumeRole"}]}`, service)
}
