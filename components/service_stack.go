package components

import (
	"github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes"
	corev1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/core/v1"
	rbacv1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/rbac/v1"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/harness/sdk/platform"
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
	return kubernetes.NewProvider(ctx, name, &kubernetes.ProviderArgs{Kubeconfig: kubeconfig, HelmReleaseSettings: helmSettings()}, pulumi.Version(KubernetesVersion))
}

// DeclareNamespaces declares the namespaces the stack's deployments use in
// one cluster, each with a RoleBinding of the ClusterRole admin to the
// delegate's service account: the delegate may write there and nowhere
// else, and never creates namespaces.
//
// A namespace and its binding per service, cluster and environment are
// two fifths of a large catalog's resources (10,410 of 25,138 in the
// chain at 1,000 services), so they are registered with their inputs as a
// map: the SDK's constructors (corev1.NewNamespace,
// rbacv1.NewRoleBinding) convert their nested, typed Args by reflection
// on every call, a sixth of the program's time at 1,000 services
// (BenchmarkProgram). The resources are the constructors' (the same Go
// types, inputs and provider version: TestNamespacesAreTheSDKs), bar the
// aliases NewRoleBinding adds to its v1alpha1 and v1beta1 types, which no
// stack of this program ever had.
func DeclareNamespaces(ctx *pulumi.Context, d plan.Delegate, provider *kubernetes.Provider) error {
	k8s := []pulumi.ResourceOption{pulumi.Provider(provider), pulumi.Version(KubernetesVersion)}
	for _, n := range d.Namespaces {
		g := d.Guardrails[n]
		var ns corev1.Namespace
		if err := ctx.RegisterResource(namespaceType, n, namespaceInputs(n, g, d.PodSecurityVersion), &ns, k8s...); err != nil {
			return err
		}
		if err := declareGuardrails(ctx, n, g, d.Network, append(k8s, pulumi.DependsOn([]pulumi.Resource{&ns}))); err != nil {
			return err
		}
		// The namespace's name is the plan's; the binding waits for the
		// namespace (and is deleted before it) by an explicit dependency,
		// not by reading the name back through an Output.
		var rb rbacv1.RoleBinding
		if err := ctx.RegisterResource(roleBindingType, plan.RoleBindingName(n), roleBindingInputs(d, n), &rb,
			append(k8s, pulumi.DependsOn([]pulumi.Resource{&ns}))...); err != nil {
			return err
		}
	}
	return nil
}

const (
	namespaceType   = "kubernetes:core/v1:Namespace"
	roleBindingType = "kubernetes:rbac.authorization.k8s.io/v1:RoleBinding"
)

// namespaceInputs are corev1.NewNamespace's inputs for the namespace n:
// its Pod Security Admission labels enforce g's level, and audit and warn
// at it, checked as version checks it
// (kubernetes.io/docs/concepts/security/pod-security-admission), and it
// names its service (what CrossGuard's namespace-guardrails reads).
func namespaceInputs(n string, g plan.Guardrail, version string) pulumi.Map {
	labels := pulumi.StringMap{}
	for k, v := range plan.NamespaceLabels(g, version) {
		labels[k] = pulumi.String(v)
	}
	return pulumi.Map{
		"apiVersion": pulumi.String("v1"),
		"kind":       pulumi.String("Namespace"),
		"metadata":   pulumi.Map{"name": pulumi.String(n), "labels": labels},
	}
}

// roleBindingInputs are rbacv1.NewRoleBinding's inputs for the binding of
// the ClusterRole admin, in the namespace n, to d's service account.
func roleBindingInputs(d plan.Delegate, n string) pulumi.Map {
	return pulumi.Map{
		"apiVersion": pulumi.String("rbac.authorization.k8s.io/v1"),
		"kind":       pulumi.String("RoleBinding"),
		"metadata":   pulumi.Map{"name": pulumi.String(d.Name), "namespace": pulumi.String(n)},
		"roleRef": pulumi.Map{
			"apiGroup": pulumi.String("rbac.authorization.k8s.io"),
			"kind":     pulumi.String("ClusterRole"),
			"name":     pulumi.String(plan.DeployerRole),
		},
		"subjects": pulumi.Array{pulumi.Map{
			"kind":      pulumi.String("ServiceAccount"),
			"name":      pulumi.String(d.Name),
			"namespace": pulumi.String(d.Namespace),
		}},
	}
}
