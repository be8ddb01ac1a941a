package harness

import (
	"strings"
	"testing"
	"time"

	"github.com/company/harness-platform/apibudget"
	"github.com/company/harness-platform/simulated/core"
)

// The simulated Harness provider meets a spent key as the real one does:
// it backs off and retries, ten times, over about three minutes; a key
// whose window stays spent longer fails the step with the client's
// "giving up" and Harness's 429. (The GitHub provider's waits: package
// github's test of the same name.)
func TestSpendWaitsAsTheProvidersDo(t *testing.T) {
	const pipeline = "harness:platform/pipeline:Pipeline"
	harness := &core.Meters{}
	// One create a minute, at 6,000x: a minute is 10 ms.
	harness.Store(apibudget.NewMeter([]apibudget.Budget{{Name: "tight key", Limit: 2, Window: time.Minute, Counts: apibudget.Calls.Harness}}, 6000))
	for i := range 3 {
		if err := harness.Spend(Behavior{}, pipeline, apibudget.Create, "urn"); err != nil {
			t.Fatalf("create %d: %v", i, err)
		}
	}
	if w := harness.Load().Waited(); w < 30*time.Second {
		t.Errorf("three creates at one a minute waited %s", w)
	}
	// A window of a day: the retries (1 s doubling to 30 s, ten of them)
	// cannot outlast it.
	harness.Store(apibudget.NewMeter([]apibudget.Budget{{Name: "tight key", Limit: 2, Window: 24 * time.Hour, Counts: apibudget.Calls.Harness}}, 6000))
	if err := harness.Spend(Behavior{}, pipeline, apibudget.Create, "urn"); err != nil {
		t.Fatal(err)
	}
	err := harness.Spend(Behavior{}, pipeline, apibudget.Update, "urn")
	if err == nil || !strings.Contains(err.Error(), "PUT harness:platform/pipeline:Pipeline: giving up after 11 attempt(s): 429 Too Many Requests") {
		t.Fatalf("a spent key: %v", err)
	}
	if w := harness.Load().Waited(); w < 180*time.Second || w > 190*time.Second {
		t.Errorf("the retries waited %s, want the client's 181 s", w)
	}
}
