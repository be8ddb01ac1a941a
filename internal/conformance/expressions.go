package conformance

import "strings"

// TargetRegionInfrastructure is the expression pipelines use to name the
// infrastructure of the region chosen at run time (ident.InfrastructureExpr).
const TargetRegionInfrastructure = `<+<+pipeline.variables.targetRegion>.replace("-", "_")>`

// ResolveTargetRegion evaluates that expression in s as Harness does for a
// run whose targetRegion is region: Java's String.replace.
func ResolveTargetRegion(s, region string) string {
	return strings.Replace(s, TargetRegionInfrastructure, strings.ReplaceAll(region, "-", "_"), 1)
}
