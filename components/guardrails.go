package components

import (
	k8snetworkingv1 "k8s.io/api/networking/v1"
	k8smetav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	corev1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/core/v1"
	metav1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/meta/v1"
	networkingv1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/networking/v1"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/plan"
)

// declareGuardrails declares, in the service namespace n, what g says
// (plan.Guardrail): a default-deny NetworkPolicy with its allowances, a
// ResourceQuota and a LimitRange, each named plan.GuardrailsName.
func declareGuardrails(ctx *pulumi.Context, n string, g plan.Guardrail, net plan.PodNetwork, opts []pulumi.ResourceOption) error {
	meta := &metav1.ObjectMetaArgs{Name: pulumi.String(plan.GuardrailsName), Namespace: pulumi.String(n)}
	// The plan's NetworkPolicy, as Kubernetes' own type: the connectivity
	// matrix evaluates the same object (package connectivity).
	spec := plan.GuardrailPolicy(n, g, net).Spec
	if _, err := networkingv1.NewNetworkPolicy(ctx, n, &networkingv1.NetworkPolicyArgs{
		Metadata: meta,
		Spec:     networkPolicySpecArgs(spec),
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

// networkPolicySpecArgs are the provider's inputs for a NetworkPolicy's
// spec, field for field.
func networkPolicySpecArgs(spec k8snetworkingv1.NetworkPolicySpec) *networkingv1.NetworkPolicySpecArgs {
	var types pulumi.StringArray
	for _, t := range spec.PolicyTypes {
		types = append(types, pulumi.String(string(t)))
	}
	ingress := networkingv1.NetworkPolicyIngressRuleArray{}
	for _, r := range spec.Ingress {
		ingress = append(ingress, &networkingv1.NetworkPolicyIngressRuleArgs{From: peerArgs(r.From), Ports: portArgs(r.Ports)})
	}
	egress := networkingv1.NetworkPolicyEgressRuleArray{}
	for _, r := range spec.Egress {
		egress = append(egress, &networkingv1.NetworkPolicyEgressRuleArgs{To: peerArgs(r.To), Ports: portArgs(r.Ports)})
	}
	return &networkingv1.NetworkPolicySpecArgs{
		PodSelector: selectorArgs(&spec.PodSelector),
		PolicyTypes: types,
		Ingress:     ingress,
		Egress:      egress,
	}
}

func peerArgs(peers []k8snetworkingv1.NetworkPolicyPeer) networkingv1.NetworkPolicyPeerArray {
	if peers == nil {
		return nil
	}
	out := networkingv1.NetworkPolicyPeerArray{}
	for _, p := range peers {
		a := &networkingv1.NetworkPolicyPeerArgs{}
		if p.NamespaceSelector != nil {
			a.NamespaceSelector = selectorArgs(p.NamespaceSelector)
		}
		if p.PodSelector != nil {
			a.PodSelector = selectorArgs(p.PodSelector)
		}
		if b := p.IPBlock; b != nil {
			a.IpBlock = &networkingv1.IPBlockArgs{Cidr: pulumi.String(b.CIDR)}
			if len(b.Except) > 0 {
				a.IpBlock.(*networkingv1.IPBlockArgs).Except = pulumi.ToStringArray(b.Except)
			}
		}
		out = append(out, a)
	}
	return out
}

func portArgs(ports []k8snetworkingv1.NetworkPolicyPort) networkingv1.NetworkPolicyPortArray {
	if ports == nil {
		return nil
	}
	out := networkingv1.NetworkPolicyPortArray{}
	for _, p := range ports {
		a := &networkingv1.NetworkPolicyPortArgs{}
		if p.Protocol != nil {
			a.Protocol = pulumi.String(string(*p.Protocol))
		}
		if p.Port != nil {
			a.Port = pulumi.Int(p.Port.IntValue())
		}
		out = append(out, a)
	}
	return out
}

// selectorArgs are a label selector's inputs: {} (every pod, every
// namespace) stays an empty object.
func selectorArgs(s *k8smetav1.LabelSelector) *metav1.LabelSelectorArgs {
	a := &metav1.LabelSelectorArgs{}
	if len(s.MatchLabels) > 0 {
		a.MatchLabels = pulumi.ToStringMap(s.MatchLabels)
	}
	var exprs metav1.LabelSelectorRequirementArray
	for _, e := range s.MatchExpressions {
		exprs = append(exprs, &metav1.LabelSelectorRequirementArgs{
			Key: pulumi.String(e.Key), Operator: pulumi.String(string(e.Operator)), Values: pulumi.ToStringArray(e.Values),
		})
	}
	if len(exprs) > 0 {
		a.MatchExpressions = exprs
	}
	return a
}
