package components

import (
	"github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes"
	corev1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/core/v1"
	metav1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/meta/v1"
	rbacv1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/rbac/v1"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/harness/platform"
	"github.com/company/harness-platform/plan"
)

// A service stack declares its services' objects at the stack's root or
// under their ServiceDeployment, never under a shared component: `pulumi
// state move` reparents a moved resource whose parent stays behind to the
// destination stack's root, so these objects keep their URNs when a
// service moves between service stacks, and when an environment that was
// one stack is split (its Foundation, Delegate and GitHub components stay
// in the platform stack). Providers are root resources too, named as in
// the platform stack, which is what the move copies.

// DeclareCatalogServices declares the Harness service of each catalog
// service the stack holds, and adds them to res.
func DeclareCatalogServices(ctx *pulumi.Context, scope plan.Scope, services []plan.Service, res Resources) error {
	org, proj := pulumi.String(scope.OrgID), pulumi.String(scope.ProjectID)
	for _, svc := range services {
		r, err := platform.NewService(ctx, svc.Identifier, &platform.ServiceArgs{
			Identifier:  pulumi.String(svc.Identifier),
			Name:        pulumi.String(svc.Name),
			Description: pulumi.String(svc.Description),
			OrgId:       org,
			ProjectId:   proj,
			Tags:        stringArray(svc.Tags),
			Yaml:        pulumi.String(svc.YAML),
		}, res.dependsOn(svc.Needs))
		if err != nil {
			return err
		}
		res.add(plan.KindService, svc.Identifier, r)
	}
	return nil
}

// ClusterProvider is the Kubernetes provider of a cluster the platform
// stack declares, from the kubeconfig it exports (a secret); its name is
// the cluster's, as the platform stack's provider.
func ClusterProvider(ctx *pulumi.Context, name string, kubeconfig pulumi.StringInput) (*kubernetes.Provider, error) {
	return kubernetes.NewProvider(ctx, name, &kubernetes.ProviderArgs{Kubeconfig: kubeconfig}, pulumi.Version(KubernetesVersion))
}

// DeclareNamespaces declares the namespaces the stack's deployments use in
// one cluster, each with a RoleBinding of the ClusterRole admin to the
// delegate's service account: the delegate may write there and nowhere
// else, and never creates namespaces.
func DeclareNamespaces(ctx *pulumi.Context, d plan.Delegate, provider *kubernetes.Provider) error {
	k8s := []pulumi.ResourceOption{pulumi.Provider(provider), pulumi.Version(KubernetesVersion)}
	for _, n := range d.Namespaces {
		nsr, err := corev1.NewNamespace(ctx, n, &corev1.NamespaceArgs{Metadata: &metav1.ObjectMetaArgs{Name: pulumi.String(n)}}, k8s...)
		if err != nil {
			return err
		}
		// The namespace's name is the plan's; the binding waits for the
		// namespace (and is deleted before it) by an explicit dependency,
		// not by reading the name back through an Output.
		if _, err := rbacv1.NewRoleBinding(ctx, plan.RoleBindingName(n), &rbacv1.RoleBindingArgs{
			Metadata: &metav1.ObjectMetaArgs{Name: pulumi.String(d.Name), Namespace: pulumi.String(n)},
			RoleRef:  &rbacv1.RoleRefArgs{ApiGroup: pulumi.String("rbac.authorization.k8s.io"), Kind: pulumi.String("ClusterRole"), Name: pulumi.String("admin")},
			Subjects: rbacv1.SubjectArray{&rbacv1.SubjectArgs{Kind: pulumi.String("ServiceAccount"), Name: pulumi.String(d.Name), Namespace: pulumi.String(d.Namespace)}},
		}, append(k8s, pulumi.DependsOn([]pulumi.Resource{nsr}))...); err != nil {
			return err
		}
	}
	return nil
}
