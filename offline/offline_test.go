package offline_test

import (
	"os/exec"
	"strings"
	"testing"
)

// The engine's core never links the simulation: it knows the stand-in
// cloud only through this package's interfaces, and the command line
// composes the two.
func TestEngineDoesNotLinkTheSimulation(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/company/harness-platform/engine").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if pkg == "github.com/company/harness-platform/simulated" || strings.HasPrefix(pkg, "github.com/company/harness-platform/simulated/") {
			t.Errorf("package engine links %s; reach it through package offline", pkg)
		}
	}
}
