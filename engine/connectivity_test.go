package engine

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	networkingv1 "k8s.io/api/networking/v1"

	"github.com/company/harness-platform/connectivity"
	"github.com/company/harness-platform/plan"
)

var updateConnectivity = flag.Bool("update", false, "rewrite testdata/connectivity.golden from the chain's clusters")

// After an offline up of the chain, every EKS cluster runs the VPC CNI
// with its network policy agent on, as the simulated EKS holds it, and
// every service namespace passes the connectivity matrix, judged on the
// NetworkPolicies the simulated clusters hold (package connectivity:
// what must pass passes, what must not is dropped). The verdicts are in
// testdata/connectivity.golden (-update rewrites it).
func TestChainPassesTheConnectivityMatrix(t *testing.T) {
	t.Parallel()
	c := example(t)
	_, ch := onTheChain(t)
	bin, err := connectivity.Build("..", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}

	// Which clusters enforce: their VPC CNI add-on's configuration.
	enforced := map[string]bool{}
	for _, r := range providerRecords(t, ch.state, "aws") {
		if r.Type == "aws:eks/addon:Addon" && r.Properties["addonName"] == "vpc-cni" {
			enforced[fmt.Sprint(r.Properties["clusterName"])] = r.Properties["configurationValues"] == plan.VPCCNINetworkPolicy
		}
	}
	// The NetworkPolicies the clusters hold, by namespace.
	policies := map[string][]*networkingv1.NetworkPolicy{}
	for id, r := range providerRecords(t, ch.state, "kubernetes") {
		if r.Type != "kubernetes:networking.k8s.io/v1:NetworkPolicy" {
			continue
		}
		raw, _ := json.Marshal(map[string]any{"apiVersion": r.Properties["apiVersion"], "kind": r.Properties["kind"], "metadata": r.Properties["metadata"], "spec": r.Properties["spec"]})
		var np networkingv1.NetworkPolicy
		if err := json.Unmarshal(raw, &np); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		policies[np.Namespace] = append(policies[np.Namespace], &np)
	}

	var golden bytes.Buffer
	namespaces := 0
	for _, env := range c.Chain {
		var plans []*plan.Plan
		for _, stack := range c.StacksOf(env) {
			p, err := plan.Build(c, stack)
			if err != nil {
				t.Fatal(err)
			}
			plans = append(plans, p)
			for _, cl := range p.Clusters {
				if cl.EKS != nil && !enforced[cl.EKS.Name] {
					t.Errorf("cluster %s: no VPC CNI add-on with %s in the simulated EKS", cl.EKS.Name, plan.VPCCNINetworkPolicy)
				}
			}
		}
		for _, n := range connectivity.Networks(plans...) {
			cluster := connectivity.Cluster{Enforced: n.EKS == nil || enforced[n.EKS.Name]}
			for ns := range n.Namespaces {
				if len(policies[ns]) == 0 {
					t.Errorf("%s: namespace %s holds no NetworkPolicy", n.Name, ns)
				}
				cluster.Policies = append(cluster.Policies, policies[ns]...)
				namespaces++
			}
			results, err := connectivity.Run(bin, cluster, n)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range results {
				if !r.OK() {
					t.Errorf("%s: %s", n.Name, r)
				}
				fmt.Fprintf(&golden, "%s: %s\n", n.Name, r)
			}
		}
	}
	if namespaces == 0 {
		t.Fatal("no service namespace on the chain")
	}
	path := filepath.Join("testdata", "connectivity.golden")
	if *updateConnectivity {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, golden.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./engine -run TestChainPassesTheConnectivityMatrix -update)", err)
	}
	if !bytes.Equal(want, golden.Bytes()) {
		t.Errorf("verdicts differ from %s (go test ./engine -run TestChainPassesTheConnectivityMatrix -update rewrites it):\n%s", path, golden.String())
	}
}
