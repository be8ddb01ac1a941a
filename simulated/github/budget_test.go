package github

import (
	"testing"
	"time"

	"github.com/company/harness-platform/apibudget"
	"github.com/company/harness-platform/simulated/core"
)

// The GitHub provider waits out its window, however long, and pauses a
// second after each write; counting only, it neither pauses nor waits.
// (The Harness provider's retries: package harness's test of the same
// name.)
func TestSpendWaitsAsTheProvidersDo(t *testing.T) {
	github := &core.Meters{}
	github.Store(apibudget.NewMeter([]apibudget.Budget{{Name: "tight token", Limit: 2, Window: time.Hour, Counts: apibudget.Calls.GitHub}}, 360000))
	const env = "github:index/repositoryEnvironment:RepositoryEnvironment"
	for i := range 3 {
		if err := github.Spend(New(), env, apibudget.Create, "urn"); err != nil {
			t.Fatalf("create %d: %v", i, err)
		}
	}
	if w := github.Load().Waited(); w < 2*time.Second+30*time.Minute {
		t.Errorf("three GitHub creates at one an hour waited %s: the write delays and most of an hour", w)
	}

	// Counting only (no budgets, the default): every call counted, no
	// pause, no wait: an offline run is not slowed.
	counting := &core.Meters{}
	counting.Store(apibudget.NewMeter(nil, 1))
	for range 3 {
		if err := counting.Spend(New(), env, apibudget.Create, "urn"); err != nil {
			t.Fatal(err)
		}
	}
	// The meter's own account of its waits, not the wall clock, which a
	// loaded machine stretches.
	if total, _ := counting.Load().Used(); total.GitHubWrites != 3 || counting.Load().Waited() != 0 {
		t.Errorf("counting only: %s, waited %s", total, counting.Load().Waited())
	}
}
