package components

import (
	"fmt"
	"strings"

	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/iam"
	corev1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/core/v1"
	helmv3 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/helm/v3"
	metav1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/meta/v1"
	networkingv1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/networking/v1"
	rbacv1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/rbac/v1"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/harness/sdk/platform"
	"github.com/company/harness-platform/plan"
)

// DelegateChart is the Helm chart of Harness's Kubernetes delegate.
const DelegateChart = "harness-delegate-ng"

// TokenAnnotation is the delegate pods' annotation naming their token
// (plan.TokenAnnotation).
const TokenAnnotation = plan.TokenAnnotation

// TokenSecretKey is the key the chart's existingDelegateToken Secret must
// hold the token under.
const TokenSecretKey = plan.TokenSecretKey

// DelegateArgs are the inputs of a Delegate.
type DelegateArgs struct {
	Plan         plan.Delegate
	AWSConnector *plan.AWSConnector
	Scope        plan.Scope
	// AccountID is the Harness account the delegate registers with.
	AccountID string
	// Cluster is where the delegate runs.
	Cluster *Cluster
}

// Delegate is a Harness delegate in one cluster: its token, namespace and
// token Secret, the harness-delegate-ng Helm release with the upgrader off
// and the image pinned, write access to the deployments' namespaces only,
// and on EKS an IRSA role and the AWS connector that uses it.
type Delegate struct {
	pulumi.ResourceState

	// Selector is the delegate's name, known once its release is
	// installed: connectors that select it wait for it, and are deleted
	// before it.
	Selector pulumi.StringOutput
	// Resources are the declared Harness objects, for what needs them.
	Resources Resources
}

// DelegateReleaseTimeout is how long, in seconds, the Helm release waits
// for the delegate's pods to be ready.
const DelegateReleaseTimeout = 900

// NewDelegate declares a delegate.
func NewDelegate(ctx *pulumi.Context, name string, args *DelegateArgs, opts ...pulumi.ResourceOption) (*Delegate, error) {
	d := &Delegate{Resources: Resources{}}
	if err := ctx.RegisterComponentResource(DelegateType, name, d, opts...); err != nil {
		return nil, err
	}
	p := args.Plan
	k8s := []pulumi.ResourceOption{pulumi.Parent(d), pulumi.Provider(args.Cluster.Provider), pulumi.Version(KubernetesVersion)}

	ns, err := corev1.NewNamespace(ctx, p.Name, &corev1.NamespaceArgs{
		Metadata: &metav1.ObjectMetaArgs{Name: pulumi.String(p.Namespace)},
	}, k8s...)
	if err != nil {
		return nil, err
	}
	// What the delegate may do where it deploys: bound per namespace by
	// the RoleBindings the service stacks declare.
	if err := declareDeployerRole(ctx, p.Name, k8s); err != nil {
		return nil, err
	}
	// The token, made by the credentials stack, reaches the cluster from
	// Secrets Manager (plan.TokenSecret): this stack holds its name only.
	tokenSecret, err := declareTokenSecret(ctx, d, p, ns, args.Cluster, k8s)
	if err != nil {
		return nil, err
	}
	values := pulumi.Map{
		"accountId":             pulumi.String(args.AccountID),
		"managerEndpoint":       pulumi.String(p.ManagerEndpoint),
		"delegateName":          pulumi.String(p.Name),
		"delegateDockerImage":   pulumi.String(p.Image),
		"existingDelegateToken": tokenSecret,
		"tags":                  pulumi.String(strings.Join(p.Tags, ",")),
		"replicas":              pulumi.Int(p.Replicas),
		"cpu":                   pulumi.String(p.CPU),
		"memory":                pulumi.String(p.Memory),
		"k8sPermissionsType":    pulumi.String(p.Permissions),
		// The upgrader rewrites the image hourly (kubectl set image), which
		// refresh reports as drift; the image is upgraded by a reviewed
		// change of the stack file instead.
		"upgrader": pulumi.Map{"enabled": pulumi.Bool(false)},
		// A rotated token is a new Secret, which the pod template names,
		// so the delegates restart with it; the annotation says which
		// token the pods run with, without the token (.Values.annotations,
		// merged with the chart's own pod annotations, harness-delegate-ng
		// 1.0.22, templates/deployment.yaml).
		"annotations": pulumi.Map{TokenAnnotation: pulumi.String(p.Token)},
	}
	var role *iam.Role
	if irsa := p.IRSA; irsa != nil {
		aws := []pulumi.ResourceOption{pulumi.Parent(d), pulumi.Provider(args.Cluster.AWS), pulumi.Version(AWSVersion)}
		if role, err = newIRSARole(ctx, args.Cluster, *irsa, aws); err != nil {
			return nil, err
		}
		for _, policy := range irsa.Policies {
			if _, err := iam.NewRolePolicyAttachment(ctx, irsa.RoleName+"-"+policy[strings.LastIndex(policy, "/")+1:], &iam.RolePolicyAttachmentArgs{
				Role: role.Name, PolicyArn: pulumi.String(policy),
			}, aws...); err != nil {
				return nil, err
			}
		}
		values["serviceAccount"] = pulumi.Map{"annotations": pulumi.Map{"eks.amazonaws.com/role-arn": role.Arn}}
	}
	release, err := helmv3.NewRelease(ctx, p.Name, &helmv3.ReleaseArgs{
		Name:           pulumi.String(p.Name),
		Namespace:      ns.Metadata.Name(),
		Chart:          pulumi.String(DelegateChart),
		Version:        pulumi.String(p.ChartVersion),
		RepositoryOpts: &helmv3.RepositoryOptsArgs{Repo: pulumi.String(p.ChartRepository)},
		Values:         values,
		// The delegate image is about 1 GB, pulled on nodes that may be
		// fresh: Helm's default wait of 300 s is not enough for the
		// first install.
		Timeout: pulumi.Int(DelegateReleaseTimeout),
	}, k8s...)
	if err != nil {
		return nil, err
	}
	d.Selector = release.Status.Name().ApplyT(func(*string) string { return p.Name }).(pulumi.StringOutput)
	d.Resources.add(plan.KindDelegate, p.Name, release)
	if p.ScanNamespace != "" {
		if err := declareScanNamespace(ctx, p, k8s); err != nil {
			return nil, err
		}
	}
	if c := args.AWSConnector; c != nil {
		conn, err := platform.NewAwsConnector(ctx, c.Identifier, &platform.AwsConnectorArgs{
			Identifier:  pulumi.String(c.Identifier),
			Name:        pulumi.String(c.Name),
			Description: pulumi.String(c.Description),
			OrgId:       pulumi.String(args.Scope.OrgID),
			ProjectId:   pulumi.String(args.Scope.ProjectID),
			// The delegate's IRSA role (plan.AWSConnector).
			Irsa: &platform.AwsConnectorIrsaArgs{
				DelegateSelectors: pulumi.StringArray{d.Selector},
				Region:            pulumi.String(c.Region),
			},
			Tags: stringArray(c.Tags),
		}, pulumi.Parent(d))
		if err != nil {
			return nil, err
		}
		d.Resources.add(plan.KindAWSConnector, c.Identifier, conn)
	}
	return d, ctx.RegisterResourceOutputs(d, pulumi.Map{"selector": d.Selector})
}

// newIRSARole declares irsa's role, which only its service account, in
// cluster, may assume.
func newIRSARole(ctx *pulumi.Context, cluster *Cluster, irsa plan.IRSA, opts []pulumi.ResourceOption) (*iam.Role, error) {
	trust := pulumi.All(cluster.OIDCProviderArn, cluster.OIDCIssuer).ApplyT(func(v []any) string {
		return irsaTrustPolicy(v[0].(string), v[1].(string), irsa.ServiceAccount)
	}).(pulumi.StringOutput)
	return iam.NewRole(ctx, irsa.RoleName, &iam.RoleArgs{AssumeRolePolicy: trust}, opts...)
}

// irsaTrustPolicy lets one service account, and only it, assume a role
// through the cluster's OIDC provider.
func irsaTrustPolicy(providerArn, issuer, serviceAccount string) string {
	host := strings.TrimPrefix(issuer, "https://")
	return fmt.Sprintf(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Federated":%q},"Action":"sts:AssumeRoleWithWebIdentity","Condition":{"StringEquals":{%q:%q,%q:"sts.amazonaws.com"}}}]}`,
		providerArn, host+":sub", "system:serviceaccount:"+serviceAccount, host+":aud")
}

// declareScanNamespace declares the namespace Production's image scan
// runs in (plan.ImageScanNamespace): Pod Security baseline (the step
// group's pod sets no seccomp profile, which restricted requires), the
// delegate's admin RoleBinding (it creates the scan's pod there), and a
// NetworkPolicy that lets in only the delegate's namespace (it drives the
// step) and lets out DNS and HTTPS (Wiz, the registry, Harness).
func declareScanNamespace(ctx *pulumi.Context, p plan.Delegate, k8s []pulumi.ResourceOption) error {
	n := p.ScanNamespace
	level := "baseline"
	ns, err := corev1.NewNamespace(ctx, p.Name+"-"+n, &corev1.NamespaceArgs{
		Metadata: &metav1.ObjectMetaArgs{Name: pulumi.String(n), Labels: pulumi.ToStringMap(plan.PodSecurityLabels(level, p.PodSecurityVersion))},
	}, k8s...)
	if err != nil {
		return err
	}
	after := append(k8s, pulumi.DependsOn([]pulumi.Resource{ns}))
	var rb rbacv1.RoleBinding
	if err := ctx.RegisterResource(roleBindingType, p.Name+"-"+plan.RoleBindingName(n), roleBindingInputs(p, n), &rb, after...); err != nil {
		return err
	}
	byName := func(ns string) *metav1.LabelSelectorArgs {
		return &metav1.LabelSelectorArgs{MatchLabels: pulumi.StringMap{"kubernetes.io/metadata.name": pulumi.String(ns)}}
	}
	_, err = networkingv1.NewNetworkPolicy(ctx, p.Name+"-"+n, &networkingv1.NetworkPolicyArgs{
		Metadata: &metav1.ObjectMetaArgs{Name: pulumi.String(plan.GuardrailsName), Namespace: pulumi.String(n)},
		Spec: &networkingv1.NetworkPolicySpecArgs{
			PodSelector: &metav1.LabelSelectorArgs{},
			PolicyTypes: pulumi.StringArray{pulumi.String("Ingress"), pulumi.String("Egress")},
			Ingress: networkingv1.NetworkPolicyIngressRuleArray{&networkingv1.NetworkPolicyIngressRuleArgs{
				From: networkingv1.NetworkPolicyPeerArray{&networkingv1.NetworkPolicyPeerArgs{NamespaceSelector: byName(p.Namespace)}},
			}},
			Egress: networkingv1.NetworkPolicyEgressRuleArray{
				&networkingv1.NetworkPolicyEgressRuleArgs{
					To: networkingv1.NetworkPolicyPeerArray{&networkingv1.NetworkPolicyPeerArgs{NamespaceSelector: byName("kube-system")}},
					Ports: networkingv1.NetworkPolicyPortArray{
						&networkingv1.NetworkPolicyPortArgs{Protocol: pulumi.String("UDP"), Port: pulumi.Int(53)},
						&networkingv1.NetworkPolicyPortArgs{Protocol: pulumi.String("TCP"), Port: pulumi.Int(53)},
					},
				},
				&networkingv1.NetworkPolicyEgressRuleArgs{
					Ports: networkingv1.NetworkPolicyPortArray{&networkingv1.NetworkPolicyPortArgs{Protocol: pulumi.String("TCP"), Port: pulumi.Int(443)}},
				},
			},
		},
	}, after...)
	return err
}

// declareDeployerRole declares the ClusterRole the delegate's RoleBindings
// name (plan.DeployerRole, plan.DeployerRules).
func declareDeployerRole(ctx *pulumi.Context, delegate string, k8s []pulumi.ResourceOption) error {
	_, err := newClusterRole(ctx, delegate+"-"+plan.DeployerRole, plan.DeployerRole, plan.DeployerRules, k8s)
	return err
}

// newClusterRole declares the ClusterRole name of rules.
func newClusterRole(ctx *pulumi.Context, resource, name string, rules []plan.Rule, opts []pulumi.ResourceOption) (*rbacv1.ClusterRole, error) {
	args := rbacv1.PolicyRuleArray{}
	for _, r := range rules {
		args = append(args, &rbacv1.PolicyRuleArgs{
			ApiGroups: pulumi.ToStringArray(r.APIGroups), Resources: pulumi.ToStringArray(r.Resources), Verbs: pulumi.ToStringArray(r.Verbs),
		})
	}
	return rbacv1.NewClusterRole(ctx, resource, &rbacv1.ClusterRoleArgs{
		Metadata: &metav1.ObjectMetaArgs{Name: pulumi.String(name)},
		Rules:    args,
	}, opts...)
}
