package connectivity

import (
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/internal/catalogtest"
	"github.com/company/harness-platform/plan"
)

var (
	matcherOnce sync.Once
	matcherBin  string
	matcherErr  error
	matcherDir  string
)

// matcher builds tools/netpolmatch once for the package's tests.
func matcher(t *testing.T) string {
	t.Helper()
	matcherOnce.Do(func() {
		matcherDir, matcherErr = os.MkdirTemp("", "netpolmatch")
		if matcherErr == nil {
			matcherBin, matcherErr = Build("..", matcherDir)
		}
	})
	if matcherErr != nil {
		t.Fatal(matcherErr)
	}
	return matcherBin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if matcherDir != "" {
		os.RemoveAll(matcherDir)
	}
	os.Exit(code)
}

// planned are the example's clusters in env, each with the policies its
// plans declare for its service namespaces, and whether its VPC CNI runs
// the network policy agent.
func planned(t *testing.T, c *catalog.Catalog, env string) ([]Network, map[string]Cluster) {
	t.Helper()
	var plans []*plan.Plan
	for _, stack := range c.StacksOf(env) {
		p, err := plan.Build(c, stack)
		if err != nil {
			t.Fatal(err)
		}
		plans = append(plans, p)
	}
	networks := Networks(plans...)
	clusters := map[string]Cluster{}
	for _, n := range networks {
		var cl Cluster
		for ns, g := range n.Namespaces {
			np := plan.GuardrailPolicy(ns, g, n.Pods)
			cl.Policies = append(cl.Policies, &np)
		}
		cl.Enforced = n.EKS != nil && slices.ContainsFunc(n.EKS.Addons, func(a plan.EKSAddon) bool {
			return a.Name == "vpc-cni" && a.Configuration == plan.VPCCNINetworkPolicy
		})
		clusters[n.Name] = cl
	}
	return networks, clusters
}

// Every service namespace of the example, in every environment, passes
// the matrix: what must pass passes (the load balancer and another
// node's kube-proxy to an api, the scraper to every service, DNS, a
// ClusterIP, STS through the VPC endpoint, the delegate to Harness), what
// must not is dropped (the internet; anything but the scraper into a
// worker or a cron job).
func TestExampleMatrix(t *testing.T) {
	bin := matcher(t)
	c := catalogtest.Example(t, "..")
	flows, dropped := 0, 0
	for _, env := range c.Chain {
		networks, clusters := planned(t, c, env)
		if len(networks) == 0 {
			t.Fatalf("%s: no cluster", env)
		}
		for _, n := range networks {
			if !clusters[n.Name].Enforced {
				t.Errorf("%s: the VPC CNI's network policy agent is off", n.Name)
			}
			results, err := Run(bin, clusters[n.Name], n)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range results {
				flows++
				if !r.Flow.Want {
					dropped++
				}
				if !r.OK() {
					t.Errorf("%s: %s", n.Name, r)
				}
			}
		}
	}
	if flows == 0 || dropped == 0 {
		t.Errorf("%d flows, %d to drop: the matrix judges nothing", flows, dropped)
	}
}

// The matrix catches what the issue found: with the agent off every
// flow passes, the internet too; with the policies as they were (an api
// lets in only other namespaces' pods, a worker nothing; out, DNS by
// namespace and the archetype's networks), the load balancer, the
// scraper, a ClusterIP and STS are dropped.
func TestMatrixCatchesWhatWasWrong(t *testing.T) {
	bin := matcher(t)
	c := catalogtest.Example(t, "..")
	networks, clusters := planned(t, c, c.Chain[len(c.Chain)-1])
	n := networks[0]
	off := clusters[n.Name]
	off.Enforced = false
	results, err := Run(bin, off, n)
	if err != nil {
		t.Fatal(err)
	}
	if failed := failures(results); !slices.ContainsFunc(failed, func(s string) bool {
		return strings.Contains(s, "service to the internet: must be dropped, passes (no policy enforced")
	}) {
		t.Errorf("agent off: %v", failed)
	}

	var old Cluster
	old.Enforced = true
	for ns, g := range n.Namespaces {
		np := plan.GuardrailPolicy(ns, g, plan.PodNetwork{})
		// As before: DNS by namespace only.
		np.Spec.Egress[0].To[0].PodSelector = nil
		old.Policies = append(old.Policies, &np)
	}
	results, err = Run(bin, old, n)
	if err != nil {
		t.Fatal(err)
	}
	failed := strings.Join(failures(results), "\n")
	for _, want := range []string{
		"load balancer to the service: must pass, dropped (ingress of",
		"scraper to the service's metrics: must pass, dropped (ingress of",
		"service to a ClusterIP: must pass, dropped (egress of",
		"service to STS (VPC endpoint): must pass, dropped (egress of",
	} {
		if !strings.Contains(failed, want) {
			t.Errorf("the old policies: no %q among\n%s", want, failed)
		}
	}
}

func failures(results []Result) []string {
	var out []string
	for _, r := range results {
		if !r.OK() {
			out = append(out, r.String())
		}
	}
	return out
}

// The matcher reads Kubernetes' semantics, not ours: a peer with both
// selectors matches pods that satisfy both (kubernetes.io/docs/concepts/services-networking/network-policies,
// "Behavior of to and from selectors": namespaceSelector and podSelector
// in one element select "particular Pods within particular namespaces"),
// two elements either, and a podSelector alone the policy's own
// namespace's pods. The policy here restricts ingress only.
func TestSelectorsAsKubernetesReadsThem(t *testing.T) {
	bin := matcher(t)
	policy := func(peers ...networkingv1.NetworkPolicyPeer) *networkingv1.NetworkPolicy {
		np := plan.GuardrailPolicy("db", plan.Guardrail{}, plan.PodNetwork{})
		np.Spec.Ingress = []networkingv1.NetworkPolicyIngressRule{{From: peers}}
		np.Spec.PolicyTypes, np.Spec.Egress = []networkingv1.PolicyType{networkingv1.PolicyTypeIngress}, nil
		return &np
	}
	ns := func(name string) *metaSelector { return selector(map[string]string{plan.NamespaceNameLabel: name}) }
	pod := func(app string) *metaSelector { return selector(map[string]string{"app": app}) }
	both := policy(networkingv1.NetworkPolicyPeer{NamespaceSelector: ns("shop"), PodSelector: pod("api")})
	either := policy(networkingv1.NetworkPolicyPeer{NamespaceSelector: ns("shop")}, networkingv1.NetworkPolicyPeer{PodSelector: pod("api")})
	db := Pod("db", "db", map[string]string{"app": "db"}, "10.0.0.9")
	flows := []Flow{
		{Name: "shop api", From: Pod("api", "shop", map[string]string{"app": "api"}, "10.0.0.1"), To: db, Port: 5432, Protocol: "TCP"},
		{Name: "shop web", From: Pod("web", "shop", map[string]string{"app": "web"}, "10.0.0.2"), To: db, Port: 5432, Protocol: "TCP"},
		{Name: "another namespace's api", From: Pod("api", "other", map[string]string{"app": "api"}, "10.0.0.3"), To: db, Port: 5432, Protocol: "TCP"},
		{Name: "db's own api", From: Pod("api", "db", map[string]string{"app": "api"}, "10.0.0.4"), To: db, Port: 5432, Protocol: "TCP"},
	}
	for _, tc := range []struct {
		name   string
		policy *networkingv1.NetworkPolicy
		want   []bool
	}{
		// A podSelector alone selects pods of the policy's own
		// namespace ("This selects particular Pods in the same
		// namespace as the NetworkPolicy").
		{"both in one peer", both, []bool{true, false, false, false}},
		{"either, two peers", either, []bool{true, true, false, true}},
	} {
		verdicts, err := Cluster{Policies: []*networkingv1.NetworkPolicy{tc.policy}, Enforced: true}.Judge(bin, flows)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range verdicts {
			// The sources' own namespaces have no policy: only db's
			// ingress decides.
			if v.Allowed != tc.want[i] {
				t.Errorf("%s: %s %v, want allowed %v", tc.name, flows[i].Name, v, tc.want[i])
			}
		}
	}
}

type metaSelector = metav1.LabelSelector

func selector(labels map[string]string) *metav1.LabelSelector {
	return &metav1.LabelSelector{MatchLabels: labels}
}
