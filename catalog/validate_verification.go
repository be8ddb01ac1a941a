package catalog

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
)

// checkVerification checks each stack's Prometheus settings and that every
// service that verifies where it is deployed has queries for its
// archetype: a Verify step with no monitored service behind it is
// skipped, and would check nothing.
// checkVerification holds every stack that deploys a service that
// verifies to verification settings with queries for its archetype.
func (v *validator) checkVerification() {
	for _, name := range sortedKeys(v.stacks) {
		st := v.stacks[name]
		needs := map[string][]string{} // archetype -> services that verify here
		for _, s := range v.files.services {
			if v.services[s.Name] == s && v.enabled[s][name] && s.verifies(v.archetypes[s.Archetype]) {
				needs[s.Archetype] = append(needs[s.Archetype], s.Name)
			}
		}
		vd := st.Verification
		if vd == nil {
			if len(needs) > 0 {
				v.at(st.At.Pos(), "add "+Namespace+":verification (prometheusUrl, queries per archetype)",
					"stack %q deploys services that verify (%s) but has no verification settings", name, firstFew(needs))
			}
			continue
		}
		if vd.PrometheusURL != "" && !strings.HasPrefix(vd.PrometheusURL, "https://") {
			v.at(vd.At.Field("prometheusUrl"), "use the https URL of the Prometheus API", "prometheusUrl %q is not an https URL", vd.PrometheusURL)
		}
		seen := map[string]bool{}
		for i, q := range vd.Queries {
			if _, ok := v.archetypes[q.Archetype]; !ok && q.Archetype != "" {
				v.at(q.At.Field("archetype"), v.suggestion(q.Archetype, keys(v.archetypes), ArchetypesFile), "unknown archetype %q", q.Archetype)
			}
			if seen[q.Archetype] {
				v.at(vd.At.Item("queries", i), "remove the duplicate", "archetype %q has queries twice", q.Archetype)
			}
			seen[q.Archetype] = true
			for _, f := range []struct{ key, query string }{{"errorRate", q.ErrorRate}, {"latency", q.Latency}} {
				if f.query != "" {
					v.checkQuery(q.At.Field(f.key), q.Archetype, f.key, f.query)
				}
			}
		}
		for _, a := range sortedKeys(needs) {
			if !seen[a] {
				v.at(vd.At.Field("queries"), fmt.Sprintf("add queries for archetype %q", a),
					"no queries for archetype %q, which %s verify in stack %q", a, strings.Join(needs[a], ", "), name)
			}
		}
		v.checkScraper(&vd.Scraper)
	}
}

// checkScraper checks the scraper's selector with Kubernetes' own
// validation of names and labels (k8s.io/apimachinery's
// util/validation, what the API server applies to a NetworkPolicy's
// selectors): a selector the API server refuses would fail every
// namespace's NetworkPolicy halfway through an up.
func (v *validator) checkScraper(s *scraperDoc) {
	if s.At.Pos().Line == 0 {
		return // missing: the required-field check says so
	}
	if s.Namespace != "" {
		for _, msg := range validation.IsDNS1123Label(s.Namespace) {
			v.at(s.At.Field("namespace"), "write a Kubernetes namespace name, e.g. monitoring", "scraper namespace %q: %s", s.Namespace, msg)
		}
	}
	for _, k := range sortedKeys(s.PodLabels) {
		for _, msg := range validation.IsQualifiedName(k) {
			v.at(s.At.Field("podLabels"), "write a Kubernetes label key, e.g. app.kubernetes.io/name", "scraper label key %q: %s", k, msg)
		}
		for _, msg := range validation.IsValidLabelValue(s.PodLabels[k]) {
			v.at(s.At.Field("podLabels"), "write a Kubernetes label value, e.g. prometheus", "scraper label %s value %q: %s", k, s.PodLabels[k], msg)
		}
	}
}

// firstFew names up to three services of needs.
func firstFew(needs map[string][]string) string {
	var all []string
	for _, a := range sortedKeys(needs) {
		all = append(all, needs[a]...)
	}
	if len(all) > 3 {
		return strings.Join(all[:3], ", ") + fmt.Sprintf(" and %d more", len(all)-3)
	}
	return strings.Join(all, ", ")
}
