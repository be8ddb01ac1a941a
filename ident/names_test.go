package ident

import (
	"testing"

	"github.com/company/harness-platform/internal/conformance"
)

// Harness computes the infrastructure of the region picked at run time with
// a replace("-", "_") on the region name; for every Kubernetes name that is
// exactly what Infrastructure computes at plan time.
func TestInfrastructureExprMatchesInfrastructure(t *testing.T) {
	for _, region := range []string{"euw1", "eu-w1", "eu-west-1", "a"} {
		if err := CheckDNSLabel(region); err != nil {
			t.Fatal(err)
		}
		expr := InfrastructureExpr("prod", "pipeline.variables.targetRegion")
		// Evaluate the expression the way Harness does for this region.
		evaluated := conformance.ResolveTargetRegion(expr, region)
		if want := Infrastructure("prod", region); evaluated != want {
			t.Errorf("region %q: Harness would resolve %q, the stack declares %q", region, evaluated, want)
		}
	}
}

func TestGitHubName(t *testing.T) {
	for stack, want := range map[string]string{"dev.payments-2": "DEV_PAYMENTS_2", "production.services": "PRODUCTION_SERVICES", "dev": "DEV"} {
		if got := GitHubName(stack); got != want {
			t.Errorf("GitHubName(%q) = %q, want %q", stack, got, want)
		}
	}
}
