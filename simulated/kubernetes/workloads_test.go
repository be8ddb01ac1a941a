package kubernetes

import (
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// restricted is a service namespace's labels as plan.PodSecurityLabels
// writes them for a 1.34 cluster.
var restricted = map[string]string{
	"pod-security.kubernetes.io/enforce": "restricted", "pod-security.kubernetes.io/enforce-version": "v1.34",
	"pod-security.kubernetes.io/warn": "restricted", "pod-security.kubernetes.io/warn-version": "v1.34",
}

// deployment is a rendered Deployment of replicas asking cpu, with
// securityContext lines in its container (indented for it).
func deployment(t *testing.T, replicas int, cpu, podSecurity, containerSecurity string) []map[string]any {
	t.Helper()
	doc := `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: ` + strconv.Itoa(replicas) + `
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      securityContext:
` + podSecurity + `
      containers:
        - name: web
          image: registry.example/web:1
          resources:
            requests: {cpu: "` + cpu + `", memory: 256Mi}
          securityContext:
` + containerSecurity
	var obj map[string]any
	if err := yaml.Unmarshal([]byte(doc), &obj); err != nil {
		t.Fatal(err)
	}
	return []map[string]any{obj}
}

const (
	compliantPod       = "        runAsNonRoot: true\n        seccompProfile: {type: RuntimeDefault}"
	compliantContainer = "            allowPrivilegeEscalation: false\n            capabilities: {drop: [ALL]}"
)

// m6iLarge is an m6i.large's allocatable as the EKS AMI leaves it
// (catalog.InstanceType.Allocatable) and its pod limit.
var m6iLarge = NodeGroup{Name: "eks-euw1", Allocatable: Resources{MilliCPU: 1930, Memory: 7434 << 20}, MaxPods: 29, Nodes: 2, MaxNodes: 2}

func workloads(t *testing.T, g NodeGroup) *Workloads {
	t.Helper()
	w, err := NewWorkloads(map[string]map[string]string{"payments": restricted}, g, Resources{MilliCPU: 125}, 2)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func apply(t *testing.T, w *Workloads, objects []map[string]any) Rollout {
	t.Helper()
	got, err := w.Apply("payments", objects)
	if err != nil || len(got) != 1 {
		t.Fatalf("%v %v", got, err)
	}
	return got[0]
}

// Pod Security, as the API server's admission plugin runs it: the
// Deployment is accepted with warn mode's warning; its ReplicaSet's pods
// are refused, named by their generateName prefix (events of the
// replicaset-controller read `Error creating: pods "web-6d4b8f7c9-" is
// forbidden: violates PodSecurity "restricted:v1.34": ...`).
func TestPodSecurityRefusesThePods(t *testing.T) {
	w := workloads(t, m6iLarge)
	for _, c := range []struct {
		name, pod, container, want string
	}{
		{"privileged", compliantPod, compliantContainer + "\n            privileged: true",
			`violates PodSecurity "restricted:v1.34": privileged (container "web" must not set securityContext.privileged=true)`},
		{"no runAsNonRoot", "        seccompProfile: {type: RuntimeDefault}", compliantContainer,
			`violates PodSecurity "restricted:v1.34": runAsNonRoot != true (pod or container "web" must set securityContext.runAsNonRoot=true)`},
	} {
		r := apply(t, w, deployment(t, 2, "100m", c.pod, c.container))
		if r.Available() || !strings.HasPrefix(r.FailedCreate, `pods "web-`) || !strings.Contains(r.FailedCreate, `-" is forbidden: `+c.want) {
			t.Errorf("%s: FailedCreate %q, want pods \"web-<hash>-\" is forbidden: %s", c.name, r.FailedCreate, c.want)
		}
		if len(r.Warnings) != 1 || !strings.HasPrefix(r.Warnings[0], `would violate PodSecurity "restricted:v1.34"`) {
			t.Errorf("%s: the Deployment's warnings %q", c.name, r.Warnings)
		}
		if r.Running+r.Pending != 0 {
			t.Errorf("%s: %d pods exist", c.name, r.Running+r.Pending)
		}
	}
	r := apply(t, w, deployment(t, 2, "100m", compliantPod, compliantContainer))
	if !r.Available() || r.Running != 2 || len(r.Warnings) != 0 {
		t.Errorf("compliant: %+v", r)
	}
}

// A namespace without labels is privileged (the API server's default
// PodSecurityConfiguration): the privileged pod runs.
func TestUnlabelledNamespaceAdmitsAll(t *testing.T) {
	w, err := NewWorkloads(map[string]map[string]string{"payments": nil}, m6iLarge, Resources{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if r := apply(t, w, deployment(t, 1, "100m", compliantPod, compliantContainer+"\n            privileged: true")); !r.Available() {
		t.Errorf("%+v", r)
	}
}

// Pods that no node holds stay Pending with the scheduler's FitError
// (kubernetes pkg/scheduler/framework/types.go, FitError.Error; reasons
// from noderesources' fit) and, where no autoscaler runs, nothing else.
func TestOverCapacityPodsStayPending(t *testing.T) {
	w := workloads(t, m6iLarge)
	r := apply(t, w, deployment(t, 80, "2", compliantPod, compliantContainer))
	want := "0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod."
	if r.Available() || r.Pending != 80 || r.FailedScheduling != want || r.NotTriggerScaleUp != "" {
		t.Errorf("%+v\nwant FailedScheduling %q", r, want)
	}
	// 1 CPU pods: one per node (1930m less the DaemonSets' 125m), the rest pending.
	w = workloads(t, m6iLarge)
	r = apply(t, w, deployment(t, 3, "1", compliantPod, compliantContainer))
	if r.Running != 2 || r.Pending != 1 || !strings.HasPrefix(r.FailedScheduling, "0/2 nodes are available: 2 Insufficient cpu.") {
		t.Errorf("%+v", r)
	}
}

// The Cluster Autoscaler grows the group for a pod an empty node holds,
// up to its maximum, and says why it does not beyond (its events:
// TriggeredScaleUp "pod triggered scale-up: [{group from->to (max:
// n)}]", NotTriggerScaleUp "pod didn't trigger scale-up: 1 max node
// group size reached", or the predicate an empty node fails).
func TestAutoscalerScalesUpToMax(t *testing.T) {
	g := m6iLarge
	g.Autoscaled, g.MaxNodes = true, 4
	w := workloads(t, g)
	r := apply(t, w, deployment(t, 5, "1", compliantPod, compliantContainer))
	if r.Running != 4 || r.Pending != 1 || r.TriggeredScaleUp != "pod triggered scale-up: [{eks-euw1 2->3 (max: 4)}]" ||
		r.NotTriggerScaleUp != "pod didn't trigger scale-up: 1 max node group size reached" ||
		!strings.HasPrefix(r.FailedScheduling, "0/4 nodes are available: 4 Insufficient cpu.") {
		t.Errorf("%+v", r)
	}
	w = workloads(t, g)
	r = apply(t, w, deployment(t, 1, "2", compliantPod, compliantContainer))
	if r.Pending != 1 || r.NotTriggerScaleUp != "pod didn't trigger scale-up: 1 Insufficient cpu" || r.TriggeredScaleUp != "" {
		t.Errorf("a pod bigger than a node: %+v", r)
	}
}
