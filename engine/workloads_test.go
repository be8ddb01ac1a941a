package engine

import (
	"fmt"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/plan"
	"github.com/company/harness-platform/preflight"
	"github.com/company/harness-platform/simulated"
	"github.com/company/harness-platform/simulated/kubernetes"
)

// After an offline up of the chain, every service deploys into the
// clusters as they were made: each namespace's Pod Security labels (as
// the simulated Kubernetes holds them) admit the example's manifest, and
// every cluster's node group (as the simulated EKS holds it) schedules
// each service at the peak of its rollout beside the delegate and the
// system's pods. A privileged manifest, which preflight refuses, fails
// its deploy as a real cluster fails it (the ReplicaSet's FailedCreate);
// a production api service at 80 replicas of 2 CPUs stays Pending.
func TestChainRunsItsServices(t *testing.T) {
	t.Parallel()
	c := example(t)
	_, ch := onTheChain(t)
	k8s := providerRecords(t, ch.state, "kubernetes")
	labels := map[string]map[string]string{}
	for _, r := range k8s {
		if r.Type == "kubernetes:core/v1:Namespace" {
			meta, _ := r.Properties["metadata"].(map[string]any)
			ls := map[string]string{}
			m, _ := meta["labels"].(map[string]any)
			for k, v := range m {
				ls[k] = fmt.Sprint(v)
			}
			labels[fmt.Sprint(meta["name"])] = ls
		}
	}
	// The clusters whose Cluster Autoscaler the simulated Kubernetes holds.
	autoscaled := map[string]bool{}
	for _, r := range k8s {
		values, _ := r.Properties["values"].(map[string]any)
		discovery, _ := values["autoDiscovery"].(map[string]any)
		if r.Type == "kubernetes:helm.sh/v3:Release" && r.Properties["chart"] == "cluster-autoscaler" {
			autoscaled[fmt.Sprint(discovery["clusterName"])] = true
		}
	}
	groups := map[string]simulated.Record{}
	for _, r := range providerRecords(t, ch.state, "aws") {
		if r.Type == "aws:eks/nodeGroup:NodeGroup" {
			groups[fmt.Sprint(r.Properties["clusterName"])] = r
		}
	}
	clusters := 0
	for _, env := range c.Chain {
		for _, stack := range c.StacksOf(env) {
			p, err := plan.Build(c, stack)
			if err != nil {
				t.Fatal(err)
			}
			for _, cl := range p.Clusters {
				if cl.EKS == nil || len(cl.Delegate.Guardrails) == 0 {
					continue
				}
				clusters++
				w := clusterWorkloads(t, groups[cl.EKS.Name], autoscaled[cl.EKS.Name], labels, cl)
				for ns, g := range cl.Delegate.Guardrails {
					// The rollout's peak: every pod the namespace's quota
					// makes room for but the spare one.
					r := deploy(t, w, ns, g.Service, g.Pods-1, g.Requests, "")
					if !r.Available() {
						t.Errorf("%s %s: %+v", cl.EKS.Name, ns, r)
					}
				}
			}
		}
	}
	if clusters == 0 {
		t.Fatal("no EKS cluster with services on the chain")
	}

	// The refused and the oversized, in production's first cluster with
	// an api service.
	var cl plan.Cluster
	var ns string
	var g plan.Guardrail
	for _, stack := range c.StacksOf("production") {
		p, err := plan.Build(c, stack)
		if err != nil {
			t.Fatal(err)
		}
		for _, pc := range p.Clusters {
			for name, pg := range pc.Delegate.Guardrails {
				if pc.EKS != nil && pg.Ingress && (ns == "" || name < ns) {
					cl, ns, g = pc, name, pg
				}
			}
		}
		if ns != "" {
			break
		}
	}
	if ns == "" {
		t.Fatal("no api service in production")
	}
	privileged := "\n            privileged: true\n"
	objects, err := preflight.ManifestObjects([]byte(strings.TrimSuffix(simulated.Manifest(g.Service), "\n") + privileged))
	if err != nil {
		t.Fatal(err)
	}
	level, version := labels[ns]["pod-security.kubernetes.io/enforce"], labels[ns]["pod-security.kubernetes.io/enforce-version"]
	if refused, err := preflight.PodSecurityRefusals(objects, level, version); err != nil || len(refused) != 1 {
		t.Errorf("preflight on the privileged manifest: %v %v", refused, err)
	}
	w := clusterWorkloads(t, groups[cl.EKS.Name], autoscaled[cl.EKS.Name], labels, cl)
	r := deploy(t, w, ns, g.Service, 2, g.Requests, privileged)
	want := fmt.Sprintf(`-" is forbidden: violates PodSecurity "%s:%s": privileged (container "%s" must not set securityContext.privileged=true)`, level, version, g.Service)
	if r.Available() || !strings.Contains(r.FailedCreate, want) {
		t.Errorf("the privileged deploy: %+v, want FailedCreate ...%s", r, want)
	}
	r = deploy(t, w, ns, g.Service, 80, catalog.Quantities{CPU: "2", Memory: "1Gi"}, "")
	if r.Available() || r.Pending == 0 || !strings.Contains(r.FailedScheduling, "Insufficient cpu") ||
		r.NotTriggerScaleUp != "pod didn't trigger scale-up: 1 max node group size reached" {
		t.Errorf("80 replicas of 2 CPUs: %+v", r)
	}
}

// clusterWorkloads is cl's cluster as the simulated EKS made its node
// group (desired size, instance type's allocatable, and its maximum for
// the autoscaler), running the system's pods and the delegate's.
func clusterWorkloads(t *testing.T, group simulated.Record, autoscaled bool, labels map[string]map[string]string, cl plan.Cluster) *kubernetes.Workloads {
	t.Helper()
	scaling, _ := group.Properties["scalingConfig"].(map[string]any)
	types, _ := group.Properties["instanceTypes"].([]any)
	if scaling == nil || len(types) != 1 {
		t.Fatalf("cluster %s: node group %v", cl.EKS.Name, group.Properties)
	}
	it, ok := catalog.InstanceTypes[fmt.Sprint(types[0])]
	if !ok {
		t.Fatalf("instance type %v has no figures", types[0])
	}
	cpu, mem := it.Allocatable()
	nodes := int(scaling["desiredSize"].(float64))
	ng := kubernetes.NodeGroup{Name: cl.EKS.Name, Allocatable: kubernetes.Resources{MilliCPU: cpu, Memory: mem << 20},
		MaxPods: it.MaxPods, Nodes: nodes, MaxNodes: nodes}
	if !autoscaled {
		t.Errorf("cluster %s: no Cluster Autoscaler in the simulated cluster", cl.EKS.Name)
	} else {
		ng.Autoscaled, ng.MaxNodes = true, int(scaling["maxSize"].(float64))
	}
	ns := map[string]map[string]string{}
	for name := range cl.Delegate.Guardrails {
		if labels[name]["pod-security.kubernetes.io/enforce"] == "" {
			t.Errorf("%s: namespace %s has no Pod Security label in the simulated cluster", cl.EKS.Name, name)
		}
		ns[name] = labels[name]
	}
	// kube-proxy (100m) and aws-node (25m) on every node.
	w, err := kubernetes.NewWorkloads(ns, ng, kubernetes.Resources{MilliCPU: 125}, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []struct {
		what     string
		pods     int
		cpu, mem string
	}{
		{"CoreDNS", 2, "100m", "70Mi"},
		{"External Secrets Operator", 3, "0", "0"},
		{"delegate", cl.Delegate.Replicas, cl.Delegate.CPU, cl.Delegate.Memory},
	} {
		if r := w.Schedule(s.what, s.pods, resources(t, s.cpu, s.mem)); !r.Available() {
			t.Errorf("%s: %s: %+v", cl.EKS.Name, s.what, r)
		}
	}
	return w
}

func resources(t *testing.T, cpu, mem string) kubernetes.Resources {
	t.Helper()
	c, err := resource.ParseQuantity(cpu)
	if err != nil {
		t.Fatal(err)
	}
	m, err := resource.ParseQuantity(mem)
	if err != nil {
		t.Fatal(err)
	}
	return kubernetes.Resources{MilliCPU: c.MilliValue(), Memory: m.Value()}
}

// deploy applies the simulation's manifest of service (extra appended to
// its container's securityContext), rendered with replicas and requests.
func deploy(t *testing.T, w *kubernetes.Workloads, ns, service string, replicas int, req catalog.Quantities, extra string) kubernetes.Rollout {
	t.Helper()
	objects, err := preflight.ManifestObjects([]byte(strings.TrimSuffix(simulated.Manifest(service), "\n") + extra))
	if err != nil || len(objects) != 1 {
		t.Fatalf("%v %v", objects, err)
	}
	spec := objects[0]["spec"].(map[string]any)
	spec["replicas"] = replicas
	container := spec["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)
	container["image"] = "registry.example/" + service + ":1"
	container["resources"] = map[string]any{"requests": map[string]any{"cpu": req.CPU, "memory": req.Memory}}
	got, err := w.Apply(ns, objects)
	if err != nil || len(got) != 1 {
		t.Fatalf("%v %v", got, err)
	}
	return got[0]
}
