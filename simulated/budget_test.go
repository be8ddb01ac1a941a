package simulated

import (
	"strings"
	"testing"
	"time"

	"github.com/company/harness-platform/apibudget"
)

// The simulated Harness provider meets a spent key as the real one does:
// it backs off and retries, ten times, over about three minutes; a key
// whose window stays spent longer fails the step with the client's
// "giving up" and Harness's 429. The GitHub provider waits out its
// window, however long, and pauses a second after each write.
func TestSpendWaitsAsTheProvidersDo(t *testing.T) {
	const pipeline = "harness:platform/pipeline:Pipeline"
	harness := &Provider{name: "harness", meters: &meters{}}
	// One create a minute, at 6,000x: a minute is 10 ms.
	harness.meters.meter.Store(apibudget.NewMeter([]apibudget.Budget{{Name: "tight key", Limit: 2, Window: time.Minute, Counts: apibudget.Calls.Harness}}, 6000))
	for i := range 3 {
		if err := harness.spend(pipeline, apibudget.Create, "urn"); err != nil {
			t.Fatalf("create %d: %v", i, err)
		}
	}
	if w := harness.meters.meter.Load().Waited(); w < 30*time.Second {
		t.Errorf("three creates at one a minute waited %s", w)
	}
	// A window of a day: the retries (1 s doubling to 30 s, ten of them)
	// cannot outlast it.
	harness.meters.meter.Store(apibudget.NewMeter([]apibudget.Budget{{Name: "tight key", Limit: 2, Window: 24 * time.Hour, Counts: apibudget.Calls.Harness}}, 6000))
	if err := harness.spend(pipeline, apibudget.Create, "urn"); err != nil {
		t.Fatal(err)
	}
	err := harness.spend(pipeline, apibudget.Update, "urn")
	if err == nil || !strings.Contains(err.Error(), "PUT harness:platform/pipeline:Pipeline: giving up after 11 attempt(s): 429 Too Many Requests") {
		t.Fatalf("a spent key: %v", err)
	}
	if w := harness.meters.meter.Load().Waited(); w < 180*time.Second || w > 190*time.Second {
		t.Errorf("the retries waited %s, want the client's 181 s", w)
	}

	github := &Provider{name: "github", meters: &meters{}}
	github.meters.meter.Store(apibudget.NewMeter([]apibudget.Budget{{Name: "tight token", Limit: 2, Window: time.Hour, Counts: apibudget.Calls.GitHub}}, 360000))
	const env = "github:index/repositoryEnvironment:RepositoryEnvironment"
	for i := range 3 {
		if err := github.spend(env, apibudget.Create, "urn"); err != nil {
			t.Fatalf("create %d: %v", i, err)
		}
	}
	if w := github.meters.meter.Load().Waited(); w < 2*time.Second+30*time.Minute {
		t.Errorf("three GitHub creates at one an hour waited %s: the write delays and most of an hour", w)
	}

	// Counting only (no budgets, the default): every call counted, no
	// pause, no wait: an offline run is not slowed.
	counting := &Provider{name: "github", meters: &meters{}}
	counting.meters.meter.Store(apibudget.NewMeter(nil, 1))
	for range 3 {
		if err := counting.spend(env, apibudget.Create, "urn"); err != nil {
			t.Fatal(err)
		}
	}
	// The meter's own account of its waits, not the wall clock, which a
	// loaded machine stretches.
	if total, _ := counting.meters.meter.Load().Used(); total.GitHubWrites != 3 || counting.meters.meter.Load().Waited() != 0 {
		t.Errorf("counting only: %s, waited %s", total, counting.meters.meter.Load().Waited())
	}
}
