package kubernetes

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"sort"
	"strings"

	admissionv1 "k8s.io/api/admission/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilrand "k8s.io/apimachinery/pkg/util/rand"
	psadmission "k8s.io/pod-security-admission/admission"
	psadmissionapi "k8s.io/pod-security-admission/admission/api"
	psapi "k8s.io/pod-security-admission/api"
	"k8s.io/pod-security-admission/metrics"
	"k8s.io/pod-security-admission/policy"
)

// Workloads are what a cluster does with the Deployments Harness applies
// into its service namespaces: the API server's Pod Security admission
// (Kubernetes' own, k8s.io/pod-security-admission's Admission, as the
// built-in plugin runs it), the ReplicaSet controller's pods, the
// scheduler's placement by requests, and the Cluster Autoscaler's
// scale-up of the node group. A deployment Pod Security refuses, or
// whose pods do not fit, never becomes available, and Harness's steady
// state check (kubectl rollout status) waits out its timeout into the
// step's failure strategy, a rollback.
type Workloads struct {
	admission  *psadmission.Admission
	namespaces map[string]*corev1.Namespace
	group      NodeGroup
	nodes      []*node
	// perNode is what the DaemonSets' pods (daemonSets of them: kube-proxy,
	// aws-node) ask on every node before anything else is scheduled.
	perNode    Resources
	daemonSets int
}

// Resources are requests: CPU in millicores, memory in bytes.
type Resources struct{ MilliCPU, Memory int64 }

// NodeGroup is the cluster's node group as the scheduler and the
// autoscaler see it.
type NodeGroup struct {
	Name string
	// Allocatable is one node's, and MaxPods its pod limit.
	Allocatable Resources
	MaxPods     int
	// Nodes run now; where Autoscaled, the Cluster Autoscaler may grow
	// the group to MaxNodes.
	Nodes, MaxNodes int
	Autoscaled      bool
}

type node struct {
	name      string
	requested Resources
	pods      int
}

// NewWorkloads is a cluster with namespaces (their labels) and group's
// nodes, each running daemonSets DaemonSet pods that ask perNode in all.
func NewWorkloads(namespaces map[string]map[string]string, group NodeGroup, perNode Resources, daemonSets int) (*Workloads, error) {
	eval, err := policy.NewEvaluator(policy.DefaultChecks())
	if err != nil {
		return nil, err
	}
	// The API server's defaults (PodSecurityConfiguration: privileged,
	// latest, no exemptions) where a namespace has no label.
	a := &psadmission.Admission{
		Configuration: &psadmissionapi.PodSecurityConfiguration{Defaults: psadmissionapi.PodSecurityDefaults{
			Enforce: "privileged", EnforceVersion: "latest", Audit: "privileged", AuditVersion: "latest", Warn: "privileged", WarnVersion: "latest"}},
		Evaluator: eval,
		Metrics:   metrics.NewPrometheusRecorder(psapi.GetAPIVersion()),
	}
	w := &Workloads{admission: a, namespaces: map[string]*corev1.Namespace{}, group: group, perNode: perNode, daemonSets: daemonSets}
	a.NamespaceGetter, a.PodLister = w, w
	if err := a.CompleteConfiguration(); err != nil {
		return nil, err
	}
	if err := a.ValidateConfiguration(); err != nil {
		return nil, err
	}
	for name, labels := range namespaces {
		w.namespaces[name] = &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels}}
	}
	for range group.Nodes {
		w.nodes = append(w.nodes, w.emptyNode())
	}
	return w, nil
}

// emptyNode is a node of the group running only the DaemonSets' pods.
func (w *Workloads) emptyNode() *node {
	return &node{name: fmt.Sprintf("%s-node-%d", w.group.Name, len(w.nodes)+1), requested: w.perNode, pods: w.daemonSets}
}

// GetNamespace is the Admission's NamespaceGetter.
func (w *Workloads) GetNamespace(_ context.Context, name string) (*corev1.Namespace, error) {
	ns, ok := w.namespaces[name]
	if !ok {
		return nil, fmt.Errorf("namespaces %q not found", name)
	}
	return ns, nil
}

// ListPods is the Admission's PodLister, asked only when a namespace's
// labels change, which nothing here does.
func (w *Workloads) ListPods(context.Context, string) ([]*corev1.Pod, error) { return nil, nil }

// Rollout is what became of one Deployment.
type Rollout struct {
	Deployment string
	// Warnings are the API server's on the Deployment's create (Pod
	// Security's warn mode: the Deployment itself is accepted).
	Warnings []string
	// FailedCreate is the ReplicaSet's ReplicaFailure condition, when
	// its pods are refused (its FailedCreate event says "Error creating:
	// " and the same).
	FailedCreate string
	// Running and Pending count its pods; FailedScheduling is the
	// scheduler's event on a pending one and NotTriggerScaleUp the
	// autoscaler's.
	Running, Pending                    int
	FailedScheduling, NotTriggerScaleUp string
	// TriggeredScaleUp is the autoscaler's event on a pod that grew the
	// node group ("" when none did).
	TriggeredScaleUp string
}

// Available is whether the Deployment reaches its replicas: what
// Harness's steady state check waits for.
func (r Rollout) Available() bool { return r.FailedCreate == "" && r.Pending == 0 }

// Schedule runs pods of what, each asking req, in the cluster (the
// system's own and the delegates': no admission; namespace is theirs).
func (w *Workloads) Schedule(what string, pods int, req Resources) Rollout {
	r := Rollout{Deployment: what}
	for range pods {
		w.place(&r, req)
	}
	return r
}

// Apply creates the Deployments of objects (a rendered manifest) in
// namespace, as the API server and the controllers do.
func (w *Workloads) Apply(namespace string, objects []map[string]any) ([]Rollout, error) {
	var out []Rollout
	ctx := context.Background()
	for _, obj := range objects {
		if obj["kind"] != "Deployment" {
			continue
		}
		raw, err := json.Marshal(obj)
		if err != nil {
			return out, err
		}
		var d appsv1.Deployment
		if err := json.Unmarshal(raw, &d); err != nil {
			return out, fmt.Errorf("Deployment: %w", err)
		}
		d.Namespace = namespace
		r := Rollout{Deployment: d.Name}
		// The Deployment: admitted, with Pod Security's warnings.
		resp := w.admission.Validate(ctx, &psapi.AttributesRecord{
			Name: d.Name, Namespace: namespace, Kind: appsv1.SchemeGroupVersion.WithKind("Deployment"),
			Resource: appsv1.SchemeGroupVersion.WithResource("deployments"), Operation: admissionv1.Create, Object: &d,
		})
		r.Warnings = resp.Warnings
		replicas := 1
		if d.Spec.Replicas != nil {
			replicas = int(*d.Spec.Replicas)
		}
		// Its ReplicaSet's pods: created with generateName
		// <deployment>-<pod-template-hash>-, so admission sees that prefix
		// as the name (the refusal reads `pods "web-6d4b8f7c9-" is
		// forbidden`).
		pod := &corev1.Pod{ObjectMeta: d.Spec.Template.ObjectMeta, Spec: d.Spec.Template.Spec}
		pod.Namespace = namespace
		pod.Name = d.Name + "-" + templateHash(d.Spec.Template) + "-"
		resp = w.admission.Validate(ctx, &psapi.AttributesRecord{
			Name: pod.Name, Namespace: namespace, Kind: corev1.SchemeGroupVersion.WithKind("Pod"),
			Resource: corev1.SchemeGroupVersion.WithResource("pods"), Operation: admissionv1.Create, Object: pod,
		})
		if !resp.Allowed {
			r.FailedCreate = resp.Result.Message
			out = append(out, r)
			continue
		}
		req := podRequests(&pod.Spec)
		for range replicas {
			w.place(&r, req)
		}
		out = append(out, r)
	}
	return out, nil
}

// templateHash stands for the pod-template-hash label the Deployment
// controller gives its ReplicaSet (controller.ComputeHash: an FNV-32a of
// the template, rand.SafeEncodeString'd); here the template's JSON is
// hashed, not its deep-hash printing, so the value differs from a real
// cluster's, its alphabet and use do not.
func templateHash(t corev1.PodTemplateSpec) string {
	raw, _ := json.Marshal(t)
	h := fnv.New32a()
	h.Write(raw)
	return utilrand.SafeEncodeString(fmt.Sprint(h.Sum32()))
}

// podRequests is what the scheduler counts for a pod (kube-scheduler
// noderesources, computePodResourceRequest): the sum of its containers'
// requests, or its largest init container's where that is more.
func podRequests(spec *corev1.PodSpec) Resources {
	var sum Resources
	for _, c := range spec.Containers {
		sum.MilliCPU += c.Resources.Requests.Cpu().MilliValue()
		sum.Memory += c.Resources.Requests.Memory().Value()
	}
	for _, c := range spec.InitContainers {
		sum.MilliCPU = max(sum.MilliCPU, c.Resources.Requests.Cpu().MilliValue())
		sum.Memory = max(sum.Memory, c.Resources.Requests.Memory().Value())
	}
	return sum
}

// place schedules one pod asking req, as kube-scheduler's default
// profile does for what it checks here: the NodeResourcesFit filter
// (pod count first, then CPU, then memory: "Too many pods",
// "Insufficient cpu", "Insufficient memory"), then the
// LeastAllocated score (the node with the most left, CPU and memory
// weighed alike; the first of equals, where the scheduler picks one at
// random). A pod no node fits grows the node group by one where an
// autoscaler may (Cluster Autoscaler: a pending pod that fits an empty
// node of the group triggers a scale-up, up to the group's maximum), and
// otherwise stays Pending with the scheduler's FitError
// (pkg/scheduler/framework/types.go: "0/N nodes are available: " the
// reasons' counts sorted, then DefaultPreemption's message) and the
// autoscaler's NotTriggerScaleUp.
func (w *Workloads) place(r *Rollout, req Resources) {
	if n := w.fit(req); n != nil {
		n.requested.MilliCPU += req.MilliCPU
		n.requested.Memory += req.Memory
		n.pods++
		r.Running++
		return
	}
	if w.group.Autoscaled && len(w.nodes) < w.group.MaxNodes && len(w.misfit(w.emptyNode(), req)) == 0 {
		from := len(w.nodes)
		w.nodes = append(w.nodes, w.emptyNode())
		if r.TriggeredScaleUp == "" {
			r.TriggeredScaleUp = fmt.Sprintf("pod triggered scale-up: [{%s %d->%d (max: %d)}]", w.group.Name, from, from+1, w.group.MaxNodes)
		}
		w.place(r, req)
		return
	}
	r.Pending++
	if r.FailedScheduling != "" {
		return
	}
	reasons := map[string]int{}
	for _, n := range w.nodes {
		for _, reason := range w.misfit(n, req) {
			reasons[reason]++
		}
	}
	var parts []string
	for reason, count := range reasons {
		parts = append(parts, fmt.Sprintf("%d %s", count, reason))
	}
	sort.Strings(parts)
	all := len(w.nodes)
	r.FailedScheduling = fmt.Sprintf("0/%d nodes are available: %s. preemption: 0/%d nodes are available: %d No preemption victims found for incoming pod.",
		all, strings.Join(parts, ", "), all, all)
	switch {
	case !w.group.Autoscaled:
		// Nothing answers a pending pod.
	case len(w.nodes) >= w.group.MaxNodes:
		r.NotTriggerScaleUp = "pod didn't trigger scale-up: 1 max node group size reached"
	default:
		// Not even an empty node of the group would hold it.
		r.NotTriggerScaleUp = "pod didn't trigger scale-up: 1 " + strings.Join(w.misfit(w.emptyNode(), req), ", 1 ")
	}
}

func (w *Workloads) fit(req Resources) *node {
	var best *node
	bestScore := int64(-1)
	for _, n := range w.nodes {
		if len(w.misfit(n, req)) > 0 {
			continue
		}
		score := w.leastAllocated(n, req)
		if score > bestScore {
			best, bestScore = n, score
		}
	}
	return best
}

// misfit is NodeResourcesFit's reasons n cannot take a pod asking req.
func (w *Workloads) misfit(n *node, req Resources) []string {
	var out []string
	if n.pods+1 > w.group.MaxPods {
		out = append(out, "Too many pods")
	}
	if req.MilliCPU > 0 && n.requested.MilliCPU+req.MilliCPU > w.group.Allocatable.MilliCPU {
		out = append(out, "Insufficient cpu")
	}
	if req.Memory > 0 && n.requested.Memory+req.Memory > w.group.Allocatable.Memory {
		out = append(out, "Insufficient memory")
	}
	return out
}

// leastAllocated is the LeastAllocated score of n once it takes req:
// per resource (allocatable - requested) * 100 / allocatable, averaged.
func (w *Workloads) leastAllocated(n *node, req Resources) int64 {
	a := w.group.Allocatable
	cpu := (a.MilliCPU - n.requested.MilliCPU - req.MilliCPU) * 100 / max(a.MilliCPU, 1)
	mem := (a.Memory - n.requested.Memory - req.Memory) * 100 / max(a.Memory, 1)
	return (cpu + mem) / 2
}
