package catalog

import (
	"math"

	"k8s.io/apimachinery/pkg/api/resource"
)

const mebibyte = 1 << 20

// factors are the stack's workload factors, 1 where the file sets none.
func (s *stackDoc) factors() WorkloadFactors {
	f := WorkloadFactors{Replicas: 1, Resources: 1}
	if w := s.Workloads; w != nil {
		if w.Replicas != nil {
			f.Replicas = *w.Replicas
		}
		if w.Resources != nil {
			f.Resources = *w.Resources
		}
	}
	return f
}

// workloadIn is a service's workload in an environment with factors f:
// replicas rounded up (at least one), CPU up to a millicore and memory up
// to a MiB, so that a limit scaled stays at least its request scaled.
func workloadIn(replicas int, requests, limits Quantities, f WorkloadFactors) Workload {
	return Workload{
		Replicas: max(1, int(math.Ceil(float64(replicas)*f.Replicas))),
		Requests: requests.scaled(f.Resources),
		Limits:   limits.scaled(f.Resources),
	}
}

// scaled multiplies q by f; with f = 1 it is q as written.
func (q Quantities) scaled(f float64) Quantities {
	if f == 1 {
		return q
	}
	cpu := resource.MustParse(q.CPU)
	mem := resource.MustParse(q.Memory)
	milli := int64(math.Ceil(float64(cpu.MilliValue()) * f))
	mib := int64(math.Ceil(float64(mem.Value()) * f / mebibyte))
	return Quantities{
		CPU:    resource.NewMilliQuantity(milli, resource.DecimalSI).String(),
		Memory: resource.NewQuantity(mib*mebibyte, resource.BinarySI).String(),
	}
}

// value is the quantity q sets for key (cpu or memory); "" when q is nil
// or leaves it unset.
func (q *quantitiesDoc) value(key string) string {
	switch {
	case q == nil:
		return ""
	case key == "cpu":
		return q.CPU
	default:
		return q.Memory
	}
}

// merged is base with each quantity o sets replacing base's.
func (q Quantities) merged(o *quantitiesDoc) Quantities {
	if o != nil {
		if o.CPU != "" {
			q.CPU = o.CPU
		}
		if o.Memory != "" {
			q.Memory = o.Memory
		}
	}
	return q
}

// resources are a service's requests and limits: its archetype's, with
// its overrides.
func (s *serviceDoc) resources(a *archetypeDoc) (requests, limits Quantities) {
	var base, over *resourcesDoc
	if a != nil {
		base = a.Resources
	}
	if s.Overrides != nil {
		over = s.Overrides.Resources
	}
	if base != nil {
		requests, limits = requests.merged(base.Requests), limits.merged(base.Limits)
	}
	if over != nil {
		requests, limits = requests.merged(over.Requests), limits.merged(over.Limits)
	}
	return requests, limits
}
