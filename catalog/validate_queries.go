package catalog

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/prometheus/prometheus/promql/parser"

	"github.com/company/harness-platform/diag"
)

// InstanceLabel is the Prometheus label that names a service instance (a
// pod): the health source's serviceInstanceFieldName. Harness's canary
// analysis compares the canary's instances with the primary's by this
// label, so every deployment-verification query keeps it through every
// aggregation; a query that sums it away gives one series for all
// instances, and there is nothing to compare.
// https://developer.harness.io/docs/service-reliability-management/monitored-service/health-source/prometheus/
// (the service instance identifier of a Prometheus health source) and the
// SRM FAQ (host-based queries return metrics grouped by pod name).
const InstanceLabel = "pod"

// placeholder matches the template placeholders of verification queries.
var placeholder = regexp.MustCompile(`{{\s*([^}]*?)\s*}}`)

// checkQuery checks one verification query template: its placeholders,
// that it parses as PromQL (Prometheus's own parser, the placeholders
// filled with sample values), and that every aggregation, vector
// matching and function keeps InstanceLabel.
func (v *validator) checkQuery(at diag.Pos, archetype, key, query string) {
	if !strings.Contains(query, "{{namespace}}") {
		v.at(at, `filter on the service's namespaces, e.g. {namespace=~"{{namespace}}"}`,
			"%s query of %q does not use {{namespace}}: it would measure every service", key, archetype)
	}
	for _, m := range placeholder.FindAllStringSubmatch(query, -1) {
		if m[1] != "namespace" && m[1] != "service" {
			v.at(at, "use {{namespace}} or {{service}}", "unknown placeholder {{%s}} in the %s query of %q", m[1], key, archetype)
			return
		}
	}
	filled := strings.NewReplacer("{{namespace}}", sampleNamespace, "{{service}}", sampleService).Replace(query) // same length: error columns hold
	expr, err := parser.ParseExpr(filled)
	if err != nil {
		v.at(at, "write a PromQL expression (https://prometheus.io/docs/prometheus/latest/querying/basics/)",
			"%s query of %q is not PromQL: %v", key, archetype, err)
		return
	}
	if drop := dropsInstance(expr); drop != "" {
		v.at(at, fmt.Sprintf("keep %q in every aggregation, e.g. sum by (%s) (...), sum by (le, %s) (...)", InstanceLabel, InstanceLabel, InstanceLabel),
			"%s query of %q drops the instance label %q at %s: Harness's canary analysis compares instances by it, and would have nothing to compare",
			key, archetype, InstanceLabel, drop)
	}
}

// dropsInstance returns the first part of expr (in source order) whose
// result no longer carries InstanceLabel, or "".
func dropsInstance(expr parser.Expr) string {
	var found string
	parser.Inspect(expr, func(node parser.Node, _ []parser.Node) error {
		if found != "" {
			return nil
		}
		switch n := node.(type) {
		case *parser.AggregateExpr:
			keeps := slices.Contains(n.Grouping, InstanceLabel)
			if n.Without {
				keeps = !keeps
			}
			if !keeps {
				found = shorten(n.String())
			}
		case *parser.BinaryExpr:
			if m := n.VectorMatching; m != nil && n.LHS.Type() == parser.ValueTypeVector && n.RHS.Type() == parser.ValueTypeVector {
				if m.On && !slices.Contains(m.MatchingLabels, InstanceLabel) || !m.On && slices.Contains(m.MatchingLabels, InstanceLabel) {
					found = shorten(n.String())
				}
			}
		case *parser.Call:
			switch n.Func.Name {
			case "scalar", "vector", "absent", "absent_over_time":
				found = shorten(n.String())
			}
		}
		return nil
	})
	return found
}

// The values placeholders are parsed with (as long as the placeholders,
// so the parser's columns are the template's), shown back as templates.
const sampleNamespace, sampleService = "__namespace__", "__service__"

// shorten keeps a message readable, in the template's terms.
func shorten(s string) string {
	s = strings.NewReplacer(sampleNamespace, "{{namespace}}", sampleService, "{{service}}").Replace(s)
	if len(s) > 120 {
		return s[:117] + "..."
	}
	return s
}
