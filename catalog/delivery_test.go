package catalog_test

import (
	"strings"
	"testing"

	"github.com/company/harness-platform/catalog"
)

// An environment is delivered by the merge workflow unless its stack file
// names another path; only its own path, or a person, may change it.
func TestDelivery(t *testing.T) {
	c, err := catalog.Load("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, env := range c.Chain {
		st := c.Stacks[env]
		if st.Delivery != catalog.DeliveryGitHubActions {
			t.Errorf("%s: delivered by %q, want the default github-actions", env, st.Delivery)
		}
		for path, ok := range map[string]bool{"": true, catalog.DeliveryGitHubActions: true, catalog.DeliveryOperator: false, catalog.DeliveryHarnessCI: false} {
			err := st.CheckDelivery(path)
			if (err == nil) != ok {
				t.Errorf("%s from %q: %v", env, path, err)
			}
			if err != nil && !strings.Contains(err.Error(), "it changes nothing") {
				t.Errorf("%s from %q: %v", env, path, err)
			}
		}
	}
}
