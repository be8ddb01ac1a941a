package plan

import (
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/company/harness-platform/catalog"
)

// Guardrail is what a service's namespace enforces (seed 004, sec. 10:
// network policies, pod security and resource limits, "applied via
// components", "K8s admission"):
//
//   - PodSecurity: the Pod Security Admission level the namespace's
//     labels enforce (pod-security.kubernetes.io/enforce; audit and warn
//     at the same level), the archetype's (default restricted);
//     kubernetes.io/docs/concepts/security/pod-security-admission;
//   - a default-deny NetworkPolicy for every pod of the namespace, both
//     ways, that lets out DNS (kube-system, port 53) and the archetype's
//     Egress CIDRs, and lets in every namespace when Ingress;
//   - a ResourceQuota of Pods pods and their requests and limits, and a
//     LimitRange whose container defaults are the service's requests and
//     limits (so a pod that names none is admitted within the quota).
type Guardrail struct {
	Service     string
	PodSecurity string
	Ingress     bool
	Egress      []string
	// Pods is the most the namespace may run: the replicas, and room for
	// a rollout's extra pods (see pods).
	Pods int
	// Requests and Limits are one pod's (one container); the quota's are
	// Pods times them.
	Requests, Limits           catalog.Quantities
	QuotaRequests, QuotaLimits catalog.Quantities
}

// guardrail is the guardrail of service's namespaces in one environment.
func guardrail(service string, a catalog.Archetype, in catalog.Placement) (Guardrail, error) {
	w := in.Workload
	g := Guardrail{Service: service, PodSecurity: a.PodSecurity, Ingress: a.Ingress, Egress: slices.Clone(a.Egress),
		Pods: catalog.RolloutPods(w.Replicas, in.Strategy), Requests: w.Requests, Limits: w.Limits}
	var err error
	if g.QuotaRequests, err = times(w.Requests, g.Pods); err != nil {
		return g, err
	}
	g.QuotaLimits, err = times(w.Limits, g.Pods)
	return g, err
}

// times is q for n pods, as Kubernetes writes quantities.
func times(q catalog.Quantities, n int) (catalog.Quantities, error) {
	cpu, err := resource.ParseQuantity(q.CPU)
	if err != nil {
		return catalog.Quantities{}, fmt.Errorf("cpu %q: %w", q.CPU, err)
	}
	mem, err := resource.ParseQuantity(q.Memory)
	if err != nil {
		return catalog.Quantities{}, fmt.Errorf("memory %q: %w", q.Memory, err)
	}
	cpu = *resource.NewMilliQuantity(cpu.MilliValue()*int64(n), resource.DecimalSI)
	mem = *resource.NewQuantity(mem.Value()*int64(n), resource.BinarySI)
	return catalog.Quantities{CPU: cpu.String(), Memory: mem.String()}, nil
}

// GuardrailsName is the name of each guardrail object in a namespace.
const GuardrailsName = "harness-platform-guardrails"

// ServiceLabel names, on a service's namespace, the service it is for.
const ServiceLabel = "harness-platform/service"

// NamespaceLabels are a service namespace's labels: its service, and the
// Pod Security Admission level it enforces, audits and warns of, checked
// as version (its cluster's: Delegate.PodSecurityVersion) checks it.
func NamespaceLabels(g Guardrail, version string) map[string]string {
	out := PodSecurityLabels(g.PodSecurity, version)
	out[ServiceLabel] = g.Service
	return out
}

// PodSecurityLabels are the labels that make a namespace enforce, audit
// and warn of level, checked as Kubernetes version (v1.<minor>) checks
// it; no version labels for "" (the cluster's own). Unpinned, an upgrade
// of the cluster changes what the namespace refuses (kubernetes.io/docs,
// "Pod Security Admission": pod-security.kubernetes.io/<MODE>-version, "a
// valid Kubernetes minor version, or latest").
func PodSecurityLabels(level, version string) map[string]string {
	out := map[string]string{}
	for _, mode := range []string{"enforce", "audit", "warn"} {
		out["pod-security.kubernetes.io/"+mode] = level
		if version != "" {
			out["pod-security.kubernetes.io/"+mode+"-version"] = version
		}
	}
	return out
}
