package apibudget

import (
	"testing"
	"time"
)

// The figures: dev's 2,003 GitHub writes at 1,000 services need
// four hours of the content budget; 9,304 Harness calls nine minutes of
// a key's.
func TestLeastTime(t *testing.T) {
	for _, c := range []struct {
		b    Budget
		n    int
		want time.Duration
	}{
		{GitHubContentHour, 0, 0},
		{GitHubContentHour, 500, 0},
		{GitHubContentHour, 501, time.Hour},
		{GitHubContentHour, 2003, 4 * time.Hour},
		{HarnessKey, 9304, 9 * time.Minute},
		{HarnessKey, 1000, 0},
	} {
		if got := c.b.LeastTime(c.n); got != c.want {
			t.Errorf("%s, %d calls: %s, want %s", c.b.Name, c.n, got, c.want)
		}
	}
	needs := (Calls{HarnessReads: 4652, HarnessWrites: 4652, GitHubReads: 2003, GitHubWrites: 2003, GitHubContent: 2003}).Needs(Budgets)
	if got := Least(needs); got != 4*time.Hour {
		t.Errorf("least %s, want 4h", got)
	}
	if got := needs[len(needs)-1]; got.Least != 2003*time.Second {
		t.Errorf("the provider's write delay: %s", got)
	}
}

func TestDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{0: "0s", 1500 * time.Millisecond: "2s", 9 * time.Minute: "9m", 4 * time.Hour: "4h", 4*time.Hour + 20*time.Minute: "4h 20m"} {
		if got := Duration(d); got != want {
			t.Errorf("%s: %q, want %q", d, got, want)
		}
	}
}

// A meter spends within a window, refuses what exceeds it with the time
// to the next window, and spends again once that window opens, in
// simulated time.
func TestMeterWindows(t *testing.T) {
	b := Budget{Name: "tight", Limit: 3, Window: time.Hour, Counts: Calls.Harness}
	m := NewMeter([]Budget{b}, 3600*10) // an hour in a tenth of a second
	write := Of("harness:platform/pipeline:Pipeline", Create)
	if over, _ := m.Spend("a", write); over != nil {
		t.Fatal("the first create is refused")
	}
	over, wait := m.Spend("b", write)
	if over == nil || over.Name != "tight" || wait <= 0 || wait > time.Hour {
		t.Fatalf("a second create (4 calls of 3) spent: %v, wait %s", over, wait)
	}
	if left, _, _ := m.Remaining("tight"); left != 1 {
		t.Errorf("remaining %d, want 1", left)
	}
	m.Sleep(wait)
	if over, _ := m.Spend("b", write); over != nil {
		t.Fatal("refused after the window reset")
	}
	total, byKey := m.Used()
	if total.Harness() != 4 || byKey["a"].HarnessWrites != 1 || byKey["b"].HarnessReads != 1 {
		t.Errorf("used %+v, by key %+v", total, byKey)
	}
	m.Reset()
	if total, _ := m.Used(); !total.IsZero() {
		t.Errorf("after Reset: %+v", total)
	}
}

// What each provider's step costs.
func TestOf(t *testing.T) {
	for _, c := range []struct {
		typ  string
		op   Op
		want Calls
	}{
		{"harness:platform/pipeline:Pipeline", Create, Calls{HarnessReads: 1, HarnessWrites: 1}},
		{"harness:platform/template:Template", Delete, Calls{HarnessWrites: 1}},
		{"harness:platform/pipeline:Pipeline", Read, Calls{HarnessReads: 1}},
		{"github:index/actionsOrganizationVariable:ActionsOrganizationVariable", Update, Calls{GitHubReads: 2, GitHubWrites: 1, GitHubContent: 1}},
		{"github:index/actionsOrganizationVariable:ActionsOrganizationVariable", Read, Calls{GitHubReads: 2}},
		{"github:index/actionsOrganizationSecret:ActionsOrganizationSecret", Create, Calls{GitHubReads: 3, GitHubWrites: 1, GitHubContent: 1}},
		{"github:index/actionsOrganizationSecret:ActionsOrganizationSecret", Delete, Calls{GitHubWrites: 1, GitHubContent: 1}},
		// A runner group's Read lists its repositories; its Update also
		// sets them.
		{"github:index/actionsRunnerGroup:ActionsRunnerGroup", Update, Calls{GitHubReads: 2, GitHubWrites: 2, GitHubContent: 2}},
		{"github:index/actionsRunnerGroup:ActionsRunnerGroup", Read, Calls{GitHubReads: 2}},
		{"github:index/teamRepository:TeamRepository", Update, Calls{GitHubReads: 1, GitHubWrites: 1, GitHubContent: 1}},
		{"github:index/repositoryEnvironment:RepositoryEnvironment", Replace, Calls{GitHubReads: 1, GitHubWrites: 2, GitHubContent: 2}},
		{"aws:eks/cluster:Cluster", Create, Calls{}},
		{"pulumi:providers:harness", Create, Calls{}},
	} {
		if got := Of(c.typ, c.op); got != c.want {
			t.Errorf("%s %s: %+v, want %+v", c.op, c.typ, got, c.want)
		}
	}
	if _, ok := OpOf("create-replacement"); ok {
		t.Error("a replacement's half is counted besides the replace")
	}
}
