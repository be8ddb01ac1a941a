// Package connectivity proves what the services' NetworkPolicies let
// through: a matrix of the flows a service namespace needs, and must not
// have (the load balancer to an api, the metrics scraper to every
// service, a service to DNS, to a ClusterIP, to STS through the VPC's
// endpoint, the delegate to Harness; a service to the internet, another
// namespace to a worker), each judged by Kubernetes NetworkPolicy
// semantics as the matcher of the Kubernetes network policy project
// implements them (tools/netpolmatch: github.com/mattfenwick/cyclonus
// pkg/matcher, which the network-policy-api project's policy-assistant
// forked; that fork's module path is not its directory, so the module
// proxy cannot serve it). The matcher runs as a command of its own
// module (Build), because it needs a tablewriter the main module's OPA
// cannot build with.
//
// A cluster enforces its policies only where its CNI does: on EKS, the
// VPC CNI with its network policy agent on (plan.VPCCNINetworkPolicy).
// Elsewhere every flow passes, which the matrix reports as a failure of
// every flow that must be dropped.
package connectivity

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/netip"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"

	"github.com/company/harness-platform/plan"
)

// Endpoint is one side of a flow: a pod (Namespace set, with its
// namespace's and its own labels) or an address outside the cluster.
type Endpoint struct {
	What      string
	Namespace string
	// NamespaceLabels are the namespace's labels; Kubernetes sets
	// kubernetes.io/metadata.name on every one (Pod adds it).
	NamespaceLabels, PodLabels map[string]string
	IP                         string
}

// Pod is a pod of namespace ns with labels, at ip.
func Pod(what, ns string, labels map[string]string, ip string) Endpoint {
	return Endpoint{What: what, Namespace: ns, NamespaceLabels: map[string]string{plan.NamespaceNameLabel: ns}, PodLabels: labels, IP: ip}
}

// Address is an address outside the cluster's pods.
func Address(what, ip string) Endpoint { return Endpoint{What: what, IP: ip} }

// Flow is traffic from one endpoint to another, and whether it must pass.
type Flow struct {
	Name     string
	From, To Endpoint
	Port     int
	Protocol corev1.Protocol
	Want     bool
}

// Verdict is what a cluster does with a flow.
type Verdict struct {
	Allowed bool
	// Why names the direction that drops it, or why it passes.
	Why string
}

func (v Verdict) String() string {
	if v.Allowed {
		return "passes (" + v.Why + ")"
	}
	return "dropped (" + v.Why + ")"
}

// Build builds the matcher (tools/netpolmatch, a module of its own) into
// dir, from the repository at root, and returns its path.
func Build(root, dir string) (string, error) {
	bin := filepath.Join(dir, "netpolmatch")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = filepath.Join(root, "tools", "netpolmatch")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building tools/netpolmatch: %v\n%s", err, out)
	}
	return bin, nil
}

// Cluster is a cluster's NetworkPolicies, and whether its CNI enforces
// them.
type Cluster struct {
	Policies []*networkingv1.NetworkPolicy
	Enforced bool
}

type peerJSON struct {
	IP              string            `json:"ip"`
	Namespace       string            `json:"namespace,omitempty"`
	NamespaceLabels map[string]string `json:"namespaceLabels,omitempty"`
	PodLabels       map[string]string `json:"podLabels,omitempty"`
}

func peer(e Endpoint) peerJSON {
	return peerJSON{IP: e.IP, Namespace: e.Namespace, NamespaceLabels: e.NamespaceLabels, PodLabels: e.PodLabels}
}

// Judge evaluates flows with the matcher at bin: egress at the source,
// ingress at the destination, each by the policies that select the pod
// (none: allowed); an address outside the cluster has no policy. A
// cluster whose CNI enforces nothing passes every flow.
func (c Cluster) Judge(bin string, flows []Flow) ([]Verdict, error) {
	out := make([]Verdict, len(flows))
	if !c.Enforced {
		for i := range out {
			out[i] = Verdict{Allowed: true, Why: "no policy enforced: the CNI enforces none"}
		}
		return out, nil
	}
	type flowJSON struct {
		From     peerJSON `json:"from"`
		To       peerJSON `json:"to"`
		Port     int      `json:"port"`
		Protocol string   `json:"protocol"`
	}
	req := struct {
		Policies []*networkingv1.NetworkPolicy `json:"policies"`
		Flows    []flowJSON                    `json:"flows"`
	}{Policies: c.Policies}
	for _, f := range flows {
		req.Flows = append(req.Flows, flowJSON{From: peer(f.From), To: peer(f.To), Port: f.Port, Protocol: string(f.Protocol)})
	}
	in, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	raw, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("netpolmatch: %v: %s", err, stderr.String())
	}
	var verdicts []struct {
		Egress, Ingress     bool
		EgressBy, IngressBy int
	}
	if err := json.Unmarshal(raw, &verdicts); err != nil || len(verdicts) != len(flows) {
		return nil, fmt.Errorf("netpolmatch answered %d verdicts for %d flows (%v)", len(verdicts), len(flows), err)
	}
	for i, v := range verdicts {
		f := flows[i]
		var dropped []string
		if !v.Egress {
			dropped = append(dropped, "egress of "+f.From.Namespace)
		}
		if !v.Ingress {
			dropped = append(dropped, "ingress of "+f.To.Namespace)
		}
		if len(dropped) > 0 {
			out[i] = Verdict{Why: strings.Join(dropped, ", ")}
			continue
		}
		out[i] = Verdict{Allowed: true, Why: "egress " + by(v.EgressBy, f.From) + ", ingress " + by(v.IngressBy, f.To)}
	}
	return out, nil
}

// by says what lets one direction of a flow through at e.
func by(policies int, e Endpoint) string {
	switch {
	case e.Namespace == "":
		return "not a pod"
	case policies == 0:
		return "no policy"
	}
	return "allowed"
}

// Network is a cluster as the matrix sees it: its pod network and its
// service namespaces with their guardrails.
type Network struct {
	Name       string
	Pods       plan.PodNetwork
	Namespaces map[string]plan.Guardrail
	// Delegate is the delegate's namespace and its pods' labels.
	Delegate       string
	DelegateLabels map[string]string
	// EKS is the cluster's, where the program makes it (nil for an
	// existing cluster): its add-ons say whether its CNI enforces.
	EKS *plan.EKS
}

// Addresses stand for the endpoints outside the pods: each the tenth
// address of its network (the VPC's for the load balancer, a node and
// the STS endpoint, the Service network's for a ClusterIP), or a
// documentation address (RFC 5737) for the internet and Harness.
const (
	ServicePort = 8080
	MetricsPort = 9090
	internet    = "203.0.113.10"
	harness     = "203.0.113.20"
)

// Matrix is the flows every service namespace of n needs and must not
// have, and the delegate's to Harness, in a stable order.
func Matrix(n Network) []Flow {
	vpc := addresses(n.Pods.VPC)
	services := addresses(n.Pods.Services)
	dns := Pod("CoreDNS", "kube-system", plan.DNSSelector, vpc(5))
	other := Pod("a pod of another namespace", "default", map[string]string{"app": "client"}, vpc(6))
	var out []Flow
	names := make([]string, 0, len(n.Namespaces))
	for ns := range n.Namespaces {
		names = append(names, ns)
	}
	sort.Strings(names)
	for i, ns := range names {
		g := n.Namespaces[ns]
		svc := Pod(g.Service, ns, map[string]string{"app": g.Service}, vpc(100+i))
		flow := func(name string, from, to Endpoint, port int, proto corev1.Protocol, want bool) {
			out = append(out, Flow{Name: name, From: from, To: to, Port: port, Protocol: proto, Want: want})
		}
		if n.Pods.VPC != "" {
			flow("load balancer to the service", Address("load balancer (IP target)", vpc(10)), svc, ServicePort, corev1.ProtocolTCP, g.Ingress)
			flow("another node's kube-proxy to the service", Address("node", vpc(20)), svc, ServicePort, corev1.ProtocolTCP, g.Ingress)
		}
		flow("another namespace to the service", other, svc, ServicePort, corev1.ProtocolTCP, g.Ingress)
		if s := n.Pods.Scraper; s != nil {
			flow("scraper to the service's metrics", Pod("scraper", s.Namespace, s.PodLabels, vpc(7)), svc, MetricsPort, corev1.ProtocolTCP, true)
		}
		flow("service to DNS", svc, dns, 53, corev1.ProtocolUDP, true)
		if n.Pods.Services != "" {
			flow("service to a ClusterIP", svc, Address("ClusterIP", services(10)), 80, corev1.ProtocolTCP, true)
		}
		if n.Pods.VPC != "" {
			flow("service to STS (VPC endpoint)", svc, Address("STS endpoint", vpc(30)), 443, corev1.ProtocolTCP, true)
		}
		flow("service to the internet", svc, Address("internet", internet), 443, corev1.ProtocolTCP, false)
	}
	if n.Delegate != "" {
		out = append(out, Flow{Name: "delegate to Harness", From: Pod("delegate", n.Delegate, n.DelegateLabels, vpc(8)),
			To: Address("app.harness.io", harness), Port: 443, Protocol: corev1.ProtocolTCP, Want: true})
	}
	return out
}

// addresses gives the i-th address of network cidr ("" for none).
func addresses(cidr string) func(i int) string {
	p, err := netip.ParsePrefix(cidr)
	return func(i int) string {
		if err != nil {
			return "192.0.2.1" // no such network: an address nothing matches
		}
		a := p.Addr()
		for range i {
			a = a.Next()
		}
		return a.String()
	}
}

// Result is a flow and its verdict.
type Result struct {
	Flow    Flow
	Verdict Verdict
}

// OK says whether the verdict is what the flow wants.
func (r Result) OK() bool { return r.Verdict.Allowed == r.Flow.Want }

func (r Result) String() string {
	want := "must pass"
	if !r.Flow.Want {
		want = "must be dropped"
	}
	ns := r.Flow.To.Namespace
	if r.Flow.From.Namespace != "" && (ns == "" || ns == "kube-system" || ns == "default") {
		ns = r.Flow.From.Namespace
	}
	return fmt.Sprintf("%s %s: %s, %s", ns, r.Flow.Name, want, r.Verdict)
}

// Run judges every flow of n's matrix in c.
func Run(bin string, c Cluster, n Network) ([]Result, error) {
	flows := Matrix(n)
	verdicts, err := c.Judge(bin, flows)
	if err != nil {
		return nil, err
	}
	out := make([]Result, len(flows))
	for i, f := range flows {
		out[i] = Result{Flow: f, Verdict: verdicts[i]}
	}
	return out, nil
}

// Networks are the clusters of plans (an environment's platform and
// service stacks), each with the service namespaces every plan puts in
// it, by delegate (one per cluster), in a stable order.
func Networks(plans ...*plan.Plan) []Network {
	byName := map[string]*Network{}
	var names []string
	for _, p := range plans {
		for _, cl := range p.Clusters {
			d := cl.Delegate
			n, ok := byName[d.Name]
			if !ok {
				n = &Network{Name: d.Name, Pods: d.Network, Namespaces: map[string]plan.Guardrail{},
					Delegate: d.Namespace, DelegateLabels: map[string]string{"app.kubernetes.io/name": d.Name}, EKS: cl.EKS}
				byName[d.Name] = n
				names = append(names, d.Name)
			}
			for ns, g := range d.Guardrails {
				n.Namespaces[ns] = g
			}
		}
	}
	sort.Strings(names)
	out := make([]Network, 0, len(names))
	for _, name := range names {
		out = append(out, *byName[name])
	}
	return out
}
