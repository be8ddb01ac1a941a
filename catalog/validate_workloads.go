package catalog

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
)

// resourceFields name a workload's four quantities, in the order messages
// list them.
var resourceFields = []string{"requests.cpu", "requests.memory", "limits.cpu", "limits.memory"}

// checkWorkloads refuses a quantity Kubernetes would not read, a service
// that ends up without a request or a limit (the scheduler would give it
// none, or an unbounded one), a limit below its request (Kubernetes refuses
// the pod), and an environment factor that is not positive.
func (v *validator) checkWorkloads() {
	for _, a := range v.files.archetypes {
		v.checkQuantities(a.Resources, fmt.Sprintf("archetype %q", a.Name))
		if r := a.Resources; r != nil {
			v.checkLimits(r, quantitiesOf(r.Requests), quantitiesOf(r.Limits), fmt.Sprintf("archetype %q", a.Name))
		}
	}
	missing := map[*archetypeDoc][]string{} // services that rely on an archetype's missing quantities
	for _, s := range v.files.services {
		a, ok := v.archetypes[s.Archetype]
		if !ok || v.services[s.Name] != s {
			continue
		}
		var over *resourcesDoc
		if s.Overrides != nil {
			over = s.Overrides.Resources
		}
		what := fmt.Sprintf("service %q", s.Name)
		v.checkQuantities(over, what)
		requests, limits := s.resources(a)
		if absent := absentFields(requests, limits); len(absent) > 0 {
			if over == nil {
				missing[a] = append(missing[a], s.Name)
			} else {
				v.at(over.At.Pos(), fmt.Sprintf("add %s to its overrides.resources, or to archetype %q", strings.Join(absent, ", "), a.Name),
					"%s has no %s (its archetype %q sets none)", what, strings.Join(absent, ", "), a.Name)
			}
			continue
		}
		if over != nil {
			v.checkLimits(over, requests, limits, what)
		}
	}
	for _, a := range v.files.archetypes {
		if names := missing[a]; len(names) > 0 {
			requests, limits := quantitiesOf(nil), quantitiesOf(nil)
			if r := a.Resources; r != nil {
				requests, limits = quantitiesOf(r.Requests), quantitiesOf(r.Limits)
			}
			absent := strings.Join(absentFields(requests, limits), ", ")
			v.at(a.At.Field("name"), fmt.Sprintf("add %s under resources: to the archetype (or to the overrides.resources of each of its services)", absent),
				"archetype %q sets no %s, and %d service(s) of it set none: %s", a.Name, absent, len(names), strings.Join(names, ", "))
		}
	}
	for _, name := range sortedKeys(v.stacks) {
		w := v.stacks[name].Workloads
		if w == nil {
			continue
		}
		for _, f := range []struct {
			key    string
			factor *float64
		}{{"replicas", w.Replicas}, {"resources", w.Resources}} {
			if f.factor != nil && (*f.factor <= 0 || *f.factor > 10) {
				v.at(w.At.Field(f.key), "set a factor above 0 and at most 10, e.g. 0.5 for half", "harness-platform:workloads.%s is %v", f.key, *f.factor)
			}
		}
	}
}

// checkQuantities refuses, at its line, each quantity r sets that
// Kubernetes would not read or that is not positive.
func (v *validator) checkQuantities(r *resourcesDoc, what string) {
	if r == nil {
		return
	}
	for _, q := range []struct {
		name string
		doc  *quantitiesDoc
	}{{"requests", r.Requests}, {"limits", r.Limits}} {
		if q.doc == nil {
			continue
		}
		for _, f := range []struct{ key, value, example string }{{"cpu", q.doc.CPU, `250m or "1"`}, {"memory", q.doc.Memory, "256Mi or 1Gi"}} {
			if f.value == "" {
				continue
			}
			if parsed, err := resource.ParseQuantity(f.value); err != nil || parsed.Sign() <= 0 {
				v.at(q.doc.At.Field(f.key), "write a positive Kubernetes quantity, e.g. "+f.example,
					"%s: %s.%s %q is not a positive Kubernetes quantity", what, q.name, f.key, f.value)
			}
		}
	}
}

// checkLimits refuses a limit below its request, at the limit's line in r.
func (v *validator) checkLimits(r *resourcesDoc, requests, limits Quantities, what string) {
	for _, f := range []struct{ key, request, limit string }{{"cpu", requests.CPU, limits.CPU}, {"memory", requests.Memory, limits.Memory}} {
		req, err1 := resource.ParseQuantity(f.request)
		lim, err2 := resource.ParseQuantity(f.limit)
		if err1 != nil || err2 != nil || lim.Cmp(req) >= 0 {
			continue // unparsable values are reported by checkQuantities
		}
		pos := r.At.Pos()
		switch {
		case r.Limits.value(f.key) != "":
			pos = r.Limits.At.Field(f.key)
		case r.Requests != nil:
			pos = r.Requests.At.Field(f.key)
		}
		v.at(pos, fmt.Sprintf("raise limits.%s to at least %s, or lower the request", f.key, f.request),
			"%s: limits.%s %s is below requests.%s %s; Kubernetes refuses such a pod", what, f.key, f.limit, f.key, f.request)
	}
}

func quantitiesOf(q *quantitiesDoc) Quantities {
	return Quantities{}.merged(q)
}

func absentFields(requests, limits Quantities) []string {
	var out []string
	for i, value := range []string{requests.CPU, requests.Memory, limits.CPU, limits.Memory} {
		if value == "" {
			out = append(out, resourceFields[i])
		}
	}
	return out
}
