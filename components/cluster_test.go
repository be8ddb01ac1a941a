package components

import (
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/internal/mocktest"
	"github.com/company/harness-platform/plan"
)

// An EKS cluster runs its add-ons as Amazon EKS add-ons at the versions
// AWS's tables give for its Kubernetes version, ordered so that a first
// creation comes up and an upgrade goes control plane, add-ons, nodes:
// each add-on waits for the cluster, the node group for the VPC CNI and
// kube-proxy, CoreDNS for the node group, and the Kubernetes provider for
// all of them.
func TestClusterAddons(t *testing.T) {
	_, p := build(t, "dev")
	e := p.Clusters[0].EKS
	if e == nil {
		t.Fatal("dev's first region is not EKS")
	}
	for _, tc := range []struct {
		k8s  string
		want map[string]string // add-on -> version
	}{
		// calendar/eks-addons.json: no VPC CNI row for 1.35, so no
		// version: EKS's default build.
		{"1.35", map[string]string{"vpc-cni": "", "kube-proxy": "v1.35.3-eksbuild.13", "coredns": "v1.14.3-eksbuild.3"}},
		{"1.34", map[string]string{"vpc-cni": "v1.20.4-eksbuild.1", "kube-proxy": "v1.34.6-eksbuild.13", "coredns": "v1.13.2-eksbuild.11"}},
	} {
		t.Run(tc.k8s, func(t *testing.T) {
			at := *e
			at.KubernetesVersion, at.Addons = tc.k8s, plan.EKSAddonsFor(tc.k8s)
			rec := run(t, "dev", func(ctx *pulumi.Context) error {
				_, err := NewCluster(ctx, "euw1", &ClusterArgs{EKS: &at})
				return err
			})
			byName := map[string]mocktest.Registered{}
			for _, r := range rec.Resources() {
				byName[r.Type+" "+r.Name] = r
			}
			cluster := byName["aws:eks/cluster:Cluster "+at.Name]
			nodes := byName["aws:eks/nodeGroup:NodeGroup "+at.Name]
			addons := rec.OfType("aws:eks/addon:Addon")
			if len(addons) != len(tc.want) {
				t.Errorf("%d add-ons, want %d: %v", len(addons), len(tc.want), addons)
			}
			for _, a := range addons {
				name := a.Inputs["addonName"].StringValue()
				v := ""
				if in, ok := a.Inputs["addonVersion"]; ok {
					v = in.StringValue()
				}
				if v != tc.want[name] {
					t.Errorf("%s at %q, want %q", name, v, tc.want[name])
				}
				// The VPC CNI enforces NetworkPolicies only with its
				// agent on; the others take EKS's configuration.
				config := ""
				if in, ok := a.Inputs["configurationValues"]; ok {
					config = in.StringValue()
				}
				if want := map[string]string{"vpc-cni": plan.VPCCNINetworkPolicy}[name]; config != want {
					t.Errorf("%s configured %q, want %q", name, config, want)
				}
				if a.Name != at.Name+"-"+name || a.Inputs["resolveConflictsOnCreate"].StringValue() != "OVERWRITE" ||
					a.Inputs["resolveConflictsOnUpdate"].StringValue() != "OVERWRITE" || !a.Inputs["preserve"].BoolValue() {
					t.Errorf("add-on %s: %v", a.Name, a.Inputs)
				}
				if !dependsOnURN(a.Dependencies, cluster.Name, "aws:eks/cluster:Cluster") {
					t.Errorf("%s does not wait for the control plane: %v", name, a.Dependencies)
				}
				after := dependsOnURN(a.Dependencies, nodes.Name, "aws:eks/nodeGroup:NodeGroup")
				before := dependsOnURN(nodes.Dependencies, a.Name, "aws:eks/addon:Addon")
				if name == "coredns" && (!after || before) || name != "coredns" && (after || !before) {
					t.Errorf("%s: waits for the node group %v, the node group waits for it %v", name, after, before)
				}
			}
			provider := byName["pulumi:providers:kubernetes euw1"]
			for _, a := range addons {
				if !dependsOnURN(provider.Dependencies, a.Name, "aws:eks/addon:Addon") {
					t.Errorf("the Kubernetes provider does not wait for %s: %v", a.Name, provider.Dependencies)
				}
			}
			if v := nodes.Inputs["version"].StringValue(); v != tc.k8s {
				t.Errorf("node group at %s, want the control plane's %s", v, tc.k8s)
			}
		})
	}
}

// dependsOnURN reports whether deps holds the URN of the resource of typ
// named name.
func dependsOnURN(deps []string, name, typ string) bool {
	for _, d := range deps {
		if strings.HasSuffix(d, "::"+name) && strings.Contains(d, typ) {
			return true
		}
	}
	return false
}
