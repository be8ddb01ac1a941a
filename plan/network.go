package plan

import (
	"maps"
	"slices"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/company/harness-platform/catalog"
)

// PodNetwork is what a cluster's service namespaces must reach and be
// reached from, beyond the archetype's own rules:
//
//   - VPC: the cluster's VPC ("" for an existing cluster whose region
//     gives no networkCidr). A load balancer with IP targets sends from
//     its addresses in the VPC, and traffic kube-proxy forwards from
//     another node comes from that node's address: the VPC CNI's network
//     policy agent allows only the local node's address by itself
//     (aws/aws-network-policy-agent#56, #65), so an api's pods let in the
//     VPC. Pods reach AWS's APIs (STS for their IRSA role, ECR, CloudWatch
//     Logs) through the VPC's interface endpoints (EKS.Endpoints), whose
//     addresses are in the VPC, on 443.
//   - Services: the cluster's Service network (EKS.ServiceCIDR; "" for an
//     existing cluster, whose network the program does not know). The
//     agent resolves a Service's ClusterIP only for selector peers
//     (aws/amazon-network-policy-controller-k8s#222), so an ipBlock of
//     the pods' networks misses the ClusterIPs: the Service network is
//     let out.
//   - Scraper: the pods that scrape the services' metrics, which Verify
//     reads through Prometheus (catalog.Verification.Scraper; nil where
//     the stack has no verification).
type PodNetwork struct {
	VPC, Services string
	Scraper       *catalog.Scraper
}

// DNSSelector selects the cluster's resolver: CoreDNS's pods in
// kube-system carry k8s-app: kube-dns on EKS as upstream.
var DNSSelector = map[string]string{"k8s-app": "kube-dns"}

// NamespaceNameLabel is the label Kubernetes sets on every namespace to
// its name (kubernetes.io/metadata.name, beta in 1.21, GA in 1.22).
const NamespaceNameLabel = "kubernetes.io/metadata.name"

// GuardrailPolicy is the NetworkPolicy of service namespace n: default
// deny both ways for every pod of the namespace
// (kubernetes.io/docs/concepts/services-networking/network-policies,
// "Default deny all ingress and all egress traffic"), with these
// allowances:
//
//   - in: the scraper (every port); for an archetype with ingress, every
//     namespace's pods (the other services) and the VPC (the load
//     balancer and kube-proxy on other nodes);
//   - out: DNS (CoreDNS, UDP and TCP 53), the archetype's networks, the
//     Service network, and the VPC on TCP 443 (AWS's APIs through the
//     interface endpoints).
func GuardrailPolicy(n string, g Guardrail, net PodNetwork) networkingv1.NetworkPolicy {
	var ingress []networkingv1.NetworkPolicyIngressRule
	if s := net.Scraper; s != nil {
		ingress = append(ingress, networkingv1.NetworkPolicyIngressRule{From: []networkingv1.NetworkPolicyPeer{{
			NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{NamespaceNameLabel: s.Namespace}},
			PodSelector:       &metav1.LabelSelector{MatchLabels: maps.Clone(s.PodLabels)},
		}}})
	}
	if g.Ingress {
		from := []networkingv1.NetworkPolicyPeer{{NamespaceSelector: &metav1.LabelSelector{}}}
		if net.VPC != "" {
			from = append(from, networkingv1.NetworkPolicyPeer{IPBlock: &networkingv1.IPBlock{CIDR: net.VPC}})
		}
		ingress = append(ingress, networkingv1.NetworkPolicyIngressRule{From: from})
	}
	egress := []networkingv1.NetworkPolicyEgressRule{{
		To: []networkingv1.NetworkPolicyPeer{{
			NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{NamespaceNameLabel: "kube-system"}},
			PodSelector:       &metav1.LabelSelector{MatchLabels: maps.Clone(DNSSelector)},
		}},
		Ports: []networkingv1.NetworkPolicyPort{port(corev1.ProtocolUDP, 53), port(corev1.ProtocolTCP, 53)},
	}}
	var to []networkingv1.NetworkPolicyPeer
	for _, cidr := range append(slices.Clone(g.Egress), net.Services) {
		if cidr != "" {
			to = append(to, networkingv1.NetworkPolicyPeer{IPBlock: &networkingv1.IPBlock{CIDR: cidr}})
		}
	}
	if len(to) > 0 {
		egress = append(egress, networkingv1.NetworkPolicyEgressRule{To: to})
	}
	if net.VPC != "" {
		egress = append(egress, networkingv1.NetworkPolicyEgressRule{
			To:    []networkingv1.NetworkPolicyPeer{{IPBlock: &networkingv1.IPBlock{CIDR: net.VPC}}},
			Ports: []networkingv1.NetworkPolicyPort{port(corev1.ProtocolTCP, 443)},
		})
	}
	return networkingv1.NetworkPolicy{
		TypeMeta:   metav1.TypeMeta{APIVersion: "networking.k8s.io/v1", Kind: "NetworkPolicy"},
		ObjectMeta: metav1.ObjectMeta{Name: GuardrailsName, Namespace: n},
		Spec: networkingv1.NetworkPolicySpec{
			PodSelector: metav1.LabelSelector{},
			PolicyTypes: []networkingv1.PolicyType{networkingv1.PolicyTypeIngress, networkingv1.PolicyTypeEgress},
			Ingress:     ingress,
			Egress:      egress,
		},
	}
}

func port(p corev1.Protocol, n int) networkingv1.NetworkPolicyPort {
	v := intstr.FromInt32(int32(n))
	return networkingv1.NetworkPolicyPort{Protocol: &p, Port: &v}
}

// VPCEndpoint is an AWS service the cluster's VPC reaches privately.
type VPCEndpoint struct {
	// Service is the endpoint's service, the last part of its name
	// com.amazonaws.<region>.<service>.
	Service string
	// Gateway: a gateway endpoint on the private route tables (S3);
	// otherwise an interface endpoint in the private subnets, with
	// private DNS, so the service's public name resolves to it.
	Gateway bool
}

// VPCEndpoints are the AWS services every cluster's VPC reaches without
// the NAT gateways (docs.aws.amazon.com/eks/latest/userguide/private-clusters.html,
// "VPC endpoints for private clusters"): STS, which IRSA's
// AssumeRoleWithWebIdentity calls (the delegate, the External Secrets
// Operator, any service with a role); ECR's API and registry, and S3,
// where ECR keeps image layers; CloudWatch Logs. Their interface
// endpoints' addresses are in the VPC, which the services'
// NetworkPolicies let out on 443 (GuardrailPolicy).
var VPCEndpoints = []VPCEndpoint{{Service: "sts"}, {Service: "ecr.api"}, {Service: "ecr.dkr"}, {Service: "logs"}, {Service: "s3", Gateway: true}}
