package simulated

import (
	"context"
	"strings"
	"testing"

	"github.com/company/harness-platform/preflight"
)

// ESC opens an environment for the Reach's Pulumi team as esc/ allows:
// the preview team cannot open the production deployer's environment
// (ESC's refusal), and opens its own. (GitHub's 403 to a refresh's read
// of an organisation variable or secret without the permission: package
// github's test of the same name.)
func TestOpenEnvironmentAndOrgReads(t *testing.T) {
	s := &Servers{}
	s.SetReach(Reach{PulumiTeam: "harness-platform-preview"})
	ctx := context.Background()
	if err := s.OpenEnvironment(ctx, "harness-platform/production"); err == nil || !strings.Contains(err.Error(), "You do not have permission to perform this operation.") {
		t.Errorf("the preview team opening production: %v", err)
	}
	if err := s.OpenEnvironment(ctx, "harness-platform/production-preview"); err != nil {
		t.Errorf("the preview team opening production-preview: %v", err)
	}
}

// The simulation's manifests are what Pod Security's restricted level
// admits (preflight refuses the others).
func TestSimulatedManifestsAreAdmitted(t *testing.T) {
	objects, err := preflight.ManifestObjects([]byte(Manifest("payments")))
	if err != nil {
		t.Fatal(err)
	}
	got, err := preflight.PodSecurityRefusals(objects, "restricted", "v1.34")
	if err != nil || len(got) > 0 {
		t.Errorf("%v %v", got, err)
	}
}
