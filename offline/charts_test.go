package offline

import (
	"testing"

	"github.com/company/harness-platform/catalog"
)

// check-plugins --charts points every stack's delegates at the loopback
// chart repository, keeping the catalog valid and every other setting.
func TestWithChartRepository(t *testing.T) {
	t.Parallel()
	c, err := catalog.Load("..")
	if err != nil {
		t.Fatal(err)
	}
	got, err := WithChartRepository(c, "https://127.0.0.1:8443/")
	if err != nil {
		t.Fatal(err)
	}
	for _, env := range got.Chain {
		if d := got.Stacks[env].Delegate; d.ChartRepository != "https://127.0.0.1:8443/" || d.ChartVersion != c.Stacks[env].Delegate.ChartVersion {
			t.Errorf("%s: delegate %+v", env, d)
		}
	}
}
