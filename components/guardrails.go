package components

import (
	corev1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/core/v1"
	metav1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/meta/v1"
	networkingv1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/networking/v1"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/plan"
)

// declareGuardrails declares, in the service namespace n, what g says
// (plan.Guardrail): a default-deny NetworkPolicy with its allowances, a
// ResourceQuota and a LimitRange, each named plan.GuardrailsName.
func declareGuardrails(ctx *pulumi.Context, n string, g plan.Guardrail, opts []pulumi.ResourceOption) error {
	meta := &metav1.ObjectMetaArgs{Name: pulumi.String(plan.GuardrailsName), Namespace: pulumi.String(n)}
	// Every pod of the namespace, both ways: what no rule allows is
	// denied (kubernetes.io/docs/concepts/services-networking/network-policies,
	// "Default deny all ingress and all egress traffic").
	egress := networkingv1.NetworkPolicyEgressRuleArray{&networkingv1.NetworkPolicyEgressRuleArgs{
		// DNS: the cluster's resolver in kube-system.
		To: networkingv1.NetworkPolicyPeerArray{&networkingv1.NetworkPolicyPeerArgs{
			NamespaceSelector: &metav1.LabelSelectorArgs{MatchLabels: pulumi.StringMap{"kubernetes.io/metadata.name": pulumi.String("kube-system")}},
		}},
		Ports: networkingv1.NetworkPolicyPortArray{
			&networkingv1.NetworkPolicyPortArgs{Protocol: pulumi.String("UDP"), Port: pulumi.Int(53)},
			&networkingv1.NetworkPolicyPortArgs{Protocol: pulumi.String("TCP"), Port: pulumi.Int(53)},
		},
	}}
	if len(g.Egress) > 0 {
		var to networkingv1.NetworkPolicyPeerArray
		for _, cidr := range g.Egress {
			to = append(to, &networkingv1.NetworkPolicyPeerArgs{IpBlock: &networkingv1.IPBlockArgs{Cidr: pulumi.String(cidr)}})
		}
		egress = append(egress, &networkingv1.NetworkPolicyEgressRuleArgs{To: to})
	}
	ingress := networkingv1.NetworkPolicyIngressRuleArray{}
	if g.Ingress {
		ingress = append(ingress, &networkingv1.NetworkPolicyIngressRuleArgs{
			From: networkingv1.NetworkPolicyPeerArray{&networkingv1.NetworkPolicyPeerArgs{NamespaceSelector: &metav1.LabelSelectorArgs{}}},
		})
	}
	if _, err := networkingv1.NewNetworkPolicy(ctx, n, &networkingv1.NetworkPolicyArgs{
		Metadata: meta,
		Spec: &networkingv1.NetworkPolicySpecArgs{
			PodSelector: &metav1.LabelSelectorArgs{},
			PolicyTypes: pulumi.StringArray{pulumi.String("Ingress"), pulumi.String("Egress")},
			Ingress:     ingress,
			Egress:      egress,
		},
	}, opts...); err != nil {
		return err
	}
	if _, err := corev1.NewResourceQuota(ctx, n, &corev1.ResourceQuotaArgs{
		Metadata: meta,
		Spec: &corev1.ResourceQuotaSpecArgs{Hard: pulumi.StringMap{
			"pods":            pulumi.Sprintf("%d", g.Pods),
			"requests.cpu":    pulumi.String(g.QuotaRequests.CPU),
			"requests.memory": pulumi.String(g.QuotaRequests.Memory),
			"limits.cpu":      pulumi.String(g.QuotaLimits.CPU),
			"limits.memory":   pulumi.String(g.QuotaLimits.Memory),
		}},
	}, opts...); err != nil {
		return err
	}
	_, err := corev1.NewLimitRange(ctx, n, &corev1.LimitRangeArgs{
		Metadata: meta,
		Spec: &corev1.LimitRangeSpecArgs{Limits: corev1.LimitRangeItemArray{&corev1.LimitRangeItemArgs{
			Type:           pulumi.String("Container"),
			Default:        pulumi.StringMap{"cpu": pulumi.String(g.Limits.CPU), "memory": pulumi.String(g.Limits.Memory)},
			DefaultRequest: pulumi.StringMap{"cpu": pulumi.String(g.Requests.CPU), "memory": pulumi.String(g.Requests.Memory)},
		}}},
	}, opts...)
	return err
}
