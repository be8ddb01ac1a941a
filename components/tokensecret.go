package components

import (
	"fmt"

	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/iam"
	"github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes"
	"github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/apiextensions"
	corev1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/core/v1"
	helmv3 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/helm/v3"
	metav1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/meta/v1"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/plan"
)

// ExternalSecretsAPIVersion is the External Secrets Operator API the
// stores and external secrets are declared in (external-secrets.io/v1,
// the storage version of ESO 0.16: apis/externalsecrets/v1).
const ExternalSecretsAPIVersion = "external-secrets.io/v1"

// declareTokenSecret declares how the delegate's token reaches its
// namespace (plan.TokenSecret): on EKS the External Secrets Operator and a
// SecretStore reading the cluster's region of Secrets Manager; then the
// ExternalSecret that makes the Secret the chart's existingDelegateToken
// names. It returns that Secret's name, known once the ExternalSecret is
// declared.
func declareTokenSecret(ctx *pulumi.Context, parent pulumi.Resource, p plan.Delegate, ns *corev1.Namespace, cluster *Cluster, k8s []pulumi.ResourceOption) (pulumi.StringOutput, error) {
	ts := p.TokenSecret
	after := append([]pulumi.ResourceOption{}, k8s...)
	if eso := p.ExternalSecrets; eso != nil {
		release, err := declareExternalSecretsOperator(ctx, parent, p.Name, eso, cluster, k8s)
		if err != nil {
			return pulumi.StringOutput{}, err
		}
		// No auth: the operator's provider reads Secrets Manager with the
		// controller's own credentials, its IRSA role (ESO, AWS Secrets
		// Manager provider: "If no authentication method is specified,
		// the controller's IRSA/pod identity is used").
		store, err := apiextensions.NewCustomResource(ctx, p.Name+"-"+ts.Store, &apiextensions.CustomResourceArgs{
			ApiVersion: pulumi.String(ExternalSecretsAPIVersion),
			Kind:       pulumi.String(ts.StoreKind),
			Metadata:   &metav1.ObjectMetaArgs{Name: pulumi.String(ts.Store), Namespace: ns.Metadata.Name()},
			OtherFields: kubernetes.UntypedArgs{"spec": pulumi.Map{
				"provider": pulumi.Map{"aws": pulumi.Map{
					"service": pulumi.String("SecretsManager"),
					"region":  pulumi.String(ts.AWSRegion),
				}},
			}},
		}, append(after, pulumi.DependsOn([]pulumi.Resource{release}))...)
		if err != nil {
			return pulumi.StringOutput{}, err
		}
		after = append(after, pulumi.DependsOn([]pulumi.Resource{store}))
	}
	// One ExternalSecret per token: a rotation declares a new one, and
	// the old one goes (with the Secret it owns) once the delegates run
	// with the new token.
	es, err := apiextensions.NewCustomResource(ctx, p.Name+"-"+ts.KubernetesSecret, &apiextensions.CustomResourceArgs{
		ApiVersion: pulumi.String(ExternalSecretsAPIVersion),
		Kind:       pulumi.String("ExternalSecret"),
		Metadata:   &metav1.ObjectMetaArgs{Name: pulumi.String(ts.KubernetesSecret), Namespace: ns.Metadata.Name()},
		OtherFields: kubernetes.UntypedArgs{"spec": pulumi.Map{
			"secretStoreRef": pulumi.Map{"name": pulumi.String(ts.Store), "kind": pulumi.String(ts.StoreKind)},
			// The token changes only by rotation, which is a new secret:
			// an hourly read only notices an out-of-band change.
			"refreshInterval": pulumi.String("1h"),
			"target":          pulumi.Map{"name": pulumi.String(ts.KubernetesSecret), "creationPolicy": pulumi.String("Owner")},
			"data": pulumi.MapArray{pulumi.Map{
				"secretKey": pulumi.String(plan.TokenSecretKey),
				"remoteRef": pulumi.Map{"key": pulumi.String(ts.Name)},
			}},
		}},
	}, after...)
	if err != nil {
		return pulumi.StringOutput{}, err
	}
	return es.Metadata.Name().Elem(), nil
}

// declareExternalSecretsOperator installs the External Secrets Operator
// in an EKS cluster: its IRSA role, which may read the environment's
// delegate token secrets and nothing else, and the pinned chart.
func declareExternalSecretsOperator(ctx *pulumi.Context, parent pulumi.Resource, delegate string, eso *plan.ExternalSecretsOperator, cluster *Cluster, k8s []pulumi.ResourceOption) (*helmv3.Release, error) {
	aws := []pulumi.ResourceOption{pulumi.Parent(parent), pulumi.Provider(cluster.AWS), pulumi.Version(AWSVersion)}
	role, err := newIRSARole(ctx, cluster, eso.IRSA, aws)
	if err != nil {
		return nil, err
	}
	if _, err := iam.NewRolePolicy(ctx, eso.IRSA.RoleName, &iam.RolePolicyArgs{
		Name:   pulumi.String("read-delegate-tokens"),
		Role:   role.Name,
		Policy: pulumi.String(readSecretsPolicy(eso.Secrets)),
	}, aws...); err != nil {
		return nil, err
	}
	ns, err := corev1.NewNamespace(ctx, delegate+"-"+eso.Namespace, &corev1.NamespaceArgs{
		Metadata: &metav1.ObjectMetaArgs{Name: pulumi.String(eso.Namespace)},
	}, k8s...)
	if err != nil {
		return nil, err
	}
	return helmv3.NewRelease(ctx, delegate+"-"+eso.Chart, &helmv3.ReleaseArgs{
		Name:           pulumi.String(eso.Chart),
		Namespace:      ns.Metadata.Name(),
		Chart:          pulumi.String(eso.Chart),
		Version:        pulumi.String(eso.ChartVersion),
		RepositoryOpts: &helmv3.RepositoryOptsArgs{Repo: pulumi.String(eso.ChartRepository)},
		Values: pulumi.Map{
			// The chart installs its CRDs (installCRDs, true by default);
			// said here, because the stores and secrets above need them.
			"installCRDs": pulumi.Bool(true),
			"serviceAccount": pulumi.Map{
				"name":        pulumi.String(plan.ESOServiceAccount),
				"annotations": pulumi.Map{"eks.amazonaws.com/role-arn": role.Arn},
			},
		},
	}, k8s...)
}

// readSecretsPolicy lets its holder read the secrets whose ARNs match
// pattern, and nothing else.
func readSecretsPolicy(pattern string) string {
	return fmt.Sprintf(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["secretsmanager:GetSecretValue","secretsmanager:DescribeSecret"],"Resource":%q}]}`, pattern)
}
