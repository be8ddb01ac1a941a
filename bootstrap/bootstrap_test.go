package bootstrap

import (
	"errors"
	"flag"
	"slices"
	"strings"
	"testing"

	"github.com/company/harness-platform/credentials"
	"github.com/company/harness-platform/internal/catalogtest"
	"github.com/company/harness-platform/internal/doccheck"
	"github.com/company/harness-platform/internal/example"
	"github.com/company/harness-platform/preflight"
	"github.com/company/harness-platform/trust"
)

var update = flag.Bool("update", false, "rewrite docs/runbook.md's bootstrap checklist")

func steps(t *testing.T) []Step {
	t.Helper()
	m, err := trust.Load()
	if err != nil {
		t.Fatal(err)
	}
	return Steps(catalogtest.Example(t, ".."), m)
}

// The checklist names, from the files, what each step makes: the
// accounts of the stack files, the Apps of esc/github, the ESC
// environments of esc/; every owner of credentials has a step; the steps
// bootstrap --check cannot run say so.
func TestStepsNameWhatTheFilesHold(t *testing.T) {
	s := steps(t)
	if len(s) != 8 {
		t.Fatalf("%d steps, want 8", len(s))
	}
	for _, want := range []string{"111111111111", "222222222222", "333333333333"} {
		want = example.L(t, want)
		if !strings.Contains(s[1].Title, want) || !strings.Contains(s[1].Do, "esc/aws/"+want+".json") {
			t.Errorf("the AWS step does not name account %s: %+v", want, s[1])
		}
	}
	for _, want := range []string{"esc/github/1000001.json", "esc/github/1000002.json", "esc/github/1000003.json"} {
		want = example.L(t, want)
		if !strings.Contains(s[2].Title, want) {
			t.Errorf("the GitHub step does not name %s: %q", want, s[2].Title)
		}
	}
	if !strings.Contains(s[3].Do, example.L(t, "company/harness-platform/dev-preview")) || !strings.Contains(s[3].Do, example.L(t, "company/harness-platform/shared-reader")) {
		t.Errorf("the ESC step does not name the environments: %q", s[3].Do)
	}
	owners := map[string]bool{}
	for _, st := range s {
		owners[st.Owner] = true
		if st.Title == "" || st.Do == "" || st.Check == "" {
			t.Errorf("step %+v says nothing of what to do or how to check it", st)
		}
		if !st.Checked() && !strings.Contains(st.Check, "not checked here") {
			t.Errorf("step %q has no check here and does not say so: %q", st.Title, st.Check)
		}
	}
	for _, o := range []string{credentials.PulumiAdmin, credentials.AWSAdmin, credentials.GitHubOwner, credentials.HarnessAdmin, credentials.PlatformTeam} {
		if !owners[o] {
			t.Errorf("no step for %s", o)
		}
	}
}

// Judge gives a problem to the step whose check it is, leaves warnings
// out and keeps the rest apart.
func TestJudge(t *testing.T) {
	s := steps(t)
	problem := func(check string, warning bool) Finding {
		return Finding{Env: "dev", Problem: preflight.Problem{Check: check, Err: errors.New("refused"), Fix: "fix it", Warning: warning}}
	}
	r := Judge(s, []Finding{
		problem("Harness API key for account abc", false),
		problem("ESC environment harness-platform/dev", false),
		problem("EKS add-on vpc-cni of cluster x in euw1 (Kubernetes 1.34)", true),
		problem("the API budgets of this run of dev", false),
	})
	var missing []string
	for _, v := range r.Missing() {
		missing = append(missing, v.Title)
	}
	if !slices.Equal(missing, []string{"ESC environments", "Harness account"}) {
		t.Errorf("missing %q, want the ESC environments and the Harness account", missing)
	}
	if len(r.Other) != 1 || !strings.HasPrefix(r.Other[0].Problem.Check, "the API budgets") {
		t.Errorf("other problems %v, want the API budgets'", r.Other)
	}
}

// docs/runbook.md's Bootstrap section is the checklist.
func TestRunbookShowsTheChecklist(t *testing.T) {
	want := Markdown(steps(t))
	const doc = "../docs/runbook.md"
	if _, ok := doccheck.Section(t, doc, "bootstrap", want, *update); !ok {
		t.Errorf("%s's bootstrap checklist is stale: go test ./bootstrap -update rewrites it", doc)
	}
}
