package program

import (
	"strings"
	"testing"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/internal/catalogtest"
)

// One delivery path per environment: an up from a path the environment
// does not name (the operator's Stack, with dev delivered by the merge
// workflow) refuses before anything is registered, naming the setting
// and the fixes; its preview, a person's up and the path's own up run.
func TestUpFromAnotherDeliveryPathRefused(t *testing.T) {
	c := example(t)
	outputs := deployedChain(c)
	stack := catalogtest.OnlyServiceStack(t, c, "dev")
	for _, tc := range []struct {
		name    string
		path    string
		dryRun  bool
		refused bool
	}{
		{"the operator's up", catalog.DeliveryOperator, false, true},
		{"the Harness pipeline's up", catalog.DeliveryHarnessCI, false, true},
		{"the operator's preview", catalog.DeliveryOperator, true, false},
		{"the merge workflow's up", catalog.DeliveryGitHubActions, false, false},
		{"a person's up", "", false, false},
	} {
		for _, name := range []string{"dev", stack} {
			rec, err := runProgram(New(c.Files(), Delivery(tc.path)), outputs, c, name, tc.dryRun)
			if !tc.refused {
				if err != nil {
					t.Errorf("%s of %s: %v", tc.name, name, err)
				}
				continue
			}
			if err == nil || !strings.Contains(err.Error(), "Pulumi.dev.yaml: stack dev is delivered by github-actions (harness-platform:delivery), not by "+tc.path) ||
				!strings.Contains(err.Error(), "it changes nothing; apply it from github-actions, or name "+tc.path+" in harness-platform:delivery") {
				t.Errorf("%s of %s: %v", tc.name, name, err)
			}
			if n := len(rec.Resources()); n != 0 {
				t.Errorf("%s of %s registered %d resources", tc.name, name, n)
			}
		}
	}
}
