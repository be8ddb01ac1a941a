package components

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	corev1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/core/v1"
	metav1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/meta/v1"
	rbacv1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/rbac/v1"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/internal/mocktest"
	"github.com/company/harness-platform/plan"
)

// The namespaces and bindings DeclareNamespaces registers with map inputs
// are what the Kubernetes SDK's constructors register: the same types,
// names, inputs, provider version and dependency; only the RoleBinding's
// aliases to its older API versions are left out.
func TestNamespacesAreTheSDKs(t *testing.T) {
	g := plan.Guardrail{Service: "payments", PodSecurity: "restricted", Ingress: true, Egress: []string{"10.0.0.0/8"}, Pods: 7,
		Requests: catalog.Quantities{CPU: "250m", Memory: "256Mi"}, Limits: catalog.Quantities{CPU: "1", Memory: "512Mi"},
		QuotaRequests: catalog.Quantities{CPU: "1750m", Memory: "1792Mi"}, QuotaLimits: catalog.Quantities{CPU: "7", Memory: "3584Mi"}}
	d := plan.Delegate{Name: "harness-delegate-dev-euw1", Namespace: "harness-delegate", Namespaces: []string{"payments-dev", "checkout-dev"},
		Guardrails: map[string]plan.Guardrail{"payments-dev": g, "checkout-dev": g},
		Network:    plan.PodNetwork{VPC: "10.1.0.0/17", Services: "172.20.0.0/16", Scraper: &catalog.Scraper{Namespace: "monitoring", PodLabels: map[string]string{"app": "prometheus"}}}}
	ours := run(t, "dev", func(ctx *pulumi.Context) error {
		p, err := ClusterProvider(ctx, "dev-euw1", pulumi.String("kubeconfig"))
		if err != nil {
			return err
		}
		return DeclareNamespaces(ctx, d, p)
	})
	sdks := run(t, "dev", func(ctx *pulumi.Context) error {
		p, err := ClusterProvider(ctx, "dev-euw1", pulumi.String("kubeconfig"))
		if err != nil {
			return err
		}
		for _, n := range d.Namespaces {
			ns, err := corev1.NewNamespace(ctx, n, &corev1.NamespaceArgs{Metadata: &metav1.ObjectMetaArgs{Name: pulumi.String(n),
				Labels: pulumi.ToStringMap(plan.NamespaceLabels(d.Guardrails[n], d.PodSecurityVersion))}},
				pulumi.Provider(p), pulumi.Version(KubernetesVersion))
			if err != nil {
				return err
			}
			if err := declareGuardrails(ctx, n, d.Guardrails[n], d.Network, []pulumi.ResourceOption{pulumi.Provider(p), pulumi.Version(KubernetesVersion),
				pulumi.DependsOn([]pulumi.Resource{ns})}); err != nil {
				return err
			}
			if _, err := rbacv1.NewRoleBinding(ctx, plan.RoleBindingName(n), &rbacv1.RoleBindingArgs{
				Metadata: &metav1.ObjectMetaArgs{Name: pulumi.String(d.Name), Namespace: pulumi.String(n)},
				RoleRef:  &rbacv1.RoleRefArgs{ApiGroup: pulumi.String("rbac.authorization.k8s.io"), Kind: pulumi.String("ClusterRole"), Name: pulumi.String(plan.DeployerRole)},
				Subjects: rbacv1.SubjectArray{&rbacv1.SubjectArgs{Kind: pulumi.String("ServiceAccount"), Name: pulumi.String(d.Name), Namespace: pulumi.String(d.Namespace)}},
			}, pulumi.Provider(p), pulumi.Version(KubernetesVersion), pulumi.DependsOn([]pulumi.Resource{ns})); err != nil {
				return err
			}
		}
		return nil
	})
	// Registrations reach the mocks in the order their inputs resolve:
	// compare them by URN.
	got, want := ours.Resources(), sdks.Resources()
	byURN := func(a, b mocktest.Registered) int { return strings.Compare(a.URN("dev"), b.URN("dev")) }
	slices.SortFunc(got, byURN)
	slices.SortFunc(want, byURN)
	// Per namespace: itself, its binding, and three guardrails.
	if len(got) != 1+5*len(d.Namespaces) || len(got) != len(want) {
		t.Fatalf("registered %d resources, the SDK %d", len(got), len(want))
	}
	for i := range want {
		w, g := want[i], got[i]
		if !w.Inputs.DeepEquals(g.Inputs) {
			t.Errorf("%s %s: inputs\n  ours %v\n   SDK %v", g.Type, g.Name, g.Inputs, w.Inputs)
		}
		// (Aliases: the guardrails are the SDK's constructors' own.)
		w.Inputs, g.Inputs, w.Aliases, g.Aliases = nil, nil, nil, nil
		if !reflect.DeepEqual(w, g) {
			t.Errorf("registration %d:\n  ours %+v\n   SDK %+v", i, g, w)
		}
	}
}
