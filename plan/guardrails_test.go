package plan

import (
	"strings"
	"testing"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/internal/catalogtest"
)

// A namespace's quota holds the replicas and a rollout's extra pods: a
// canary's as many again, a rolling update's 25% surge, and one more.
func TestGuardrailQuota(t *testing.T) {
	w := catalog.Workload{Replicas: 3, Requests: catalog.Quantities{CPU: "250m", Memory: "256Mi"}, Limits: catalog.Quantities{CPU: "1", Memory: "512Mi"}}
	for _, tc := range []struct {
		strategy       string
		pods           int
		reqCPU, limMem string
	}{
		{catalog.Canary, 7, "1750m", "3584Mi"},
		{catalog.Rolling, 5, "1250m", "2560Mi"},
	} {
		g, err := guardrail("payments", catalog.Archetype{PodSecurity: "restricted"}, catalog.Placement{Strategy: tc.strategy, Workload: w})
		if err != nil {
			t.Fatal(err)
		}
		if g.Pods != tc.pods || g.QuotaRequests.CPU != tc.reqCPU || g.QuotaLimits.Memory != tc.limMem || g.Limits != w.Limits || g.Requests != w.Requests {
			t.Errorf("%s: %+v", tc.strategy, g)
		}
	}
	if _, err := guardrail("x", catalog.Archetype{}, catalog.Placement{Workload: catalog.Workload{Replicas: 1, Requests: catalog.Quantities{CPU: "lots", Memory: "1Gi"}}}); err == nil {
		t.Error("a quantity Kubernetes cannot read was accepted")
	}
}

// Every service namespace of a service stack has its guardrail, at its
// archetype's level; the platform stack's clusters have none.
func TestEveryNamespaceHasItsGuardrail(t *testing.T) {
	c := example(t)
	for _, env := range c.Chain {
		for _, stack := range c.StacksOf(env)[1:] {
			p := mustBuild(t, c, stack)
			for _, cl := range p.Clusters {
				if len(cl.Delegate.Namespaces) == 0 {
					t.Errorf("%s/%s: no namespace", stack, cl.Region)
				}
				for _, n := range cl.Delegate.Namespaces {
					g, ok := cl.Delegate.Guardrails[n]
					if !ok || g.PodSecurity != "restricted" || g.Pods < 2 || g.QuotaLimits.CPU == "" || g.Service == "" {
						t.Errorf("%s/%s: namespace %s: guardrail %+v", stack, cl.Region, n, g)
					}
				}
			}
		}
	}
}

// Service namespaces check pods as their cluster's Kubernetes does: the
// Pod Security labels are pinned to the EKS cluster's minor version, so
// an upgrade changes what they refuse only through a reviewed change; an
// existing cluster, whose version the program does not know, follows its
// own (no version labels).
func TestPodSecurityPinnedToTheClustersVersion(t *testing.T) {
	c := catalogtest.ExampleWithExistingCluster(t, "..")
	pinned, existing := 0, 0
	for _, stack := range c.AllStacks() {
		env, _, _ := strings.Cut(stack, ".")
		for _, cl := range mustBuild(t, c, stack).Clusters {
			want := ""
			if cl.EKS != nil {
				want = "v" + c.Stacks[env].Cluster.KubernetesVersion
			}
			for n, g := range cl.Delegate.Guardrails {
				labels := NamespaceLabels(g, cl.Delegate.PodSecurityVersion)
				for _, mode := range []string{"enforce", "audit", "warn"} {
					got, ok := labels["pod-security.kubernetes.io/"+mode+"-version"]
					if got != want || ok != (want != "") {
						t.Errorf("%s %s: namespace %s %s-version %q, want %q", stack, cl.Region, n, mode, got, want)
					}
				}
				if want != "" {
					pinned++
				} else {
					existing++
				}
			}
		}
	}
	if pinned == 0 || existing == 0 {
		t.Fatalf("%d pinned and %d unpinned namespaces checked", pinned, existing)
	}
}
