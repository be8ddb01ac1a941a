package engine

import (
	"context"
	"strings"
	"testing"

	exampletest "github.com/company/harness-platform/internal/example"
	"github.com/company/harness-platform/simulated"
)

// The drift check's identity, offline: its reader token must read the
// organisation's webhook variables and secrets (a refresh reads them),
// which preflight checks first with the permission to grant, and without
// which the refresh meets GitHub's 403 (dev holds a webhook variable); and a read-only run given a
// deployer's Pulumi token is reported before anything runs, as that
// token can open the environments that hold writing credentials.
func TestDriftCheckIdentity(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	state := deployedDev(t)
	out := &syncBuffer{}
	QuietCLILog(t, state)
	s, err := Open(ctx, Options{ProjectDir: "..", Offline: true, Simulation: simulated.Simulation{}, ReadOnly: true, StateDir: state, Stdout: out, Stderr: out, Catalog: example(t), Env: testEnv})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if problems, err := s.PreflightWith(ctx, "dev", PreflightOptions{Drift: true}); err != nil || len(problems) != 0 {
		t.Fatalf("the drift check with its own identity: %v %v", problems, err)
	}

	reach := simulated.DefaultReach(s.Catalog)
	reach.GitHub = simulated.GitHubAccount{Variables: "none"}
	s.servers().SetReach(reach)
	problems, err := s.PreflightWith(ctx, "dev", PreflightOptions{Drift: true})
	want := exampletest.L(t, "GitHub organisation company: the token may not read its Actions variables")
	if err != nil || !strings.Contains(problemsText(problems), want) {
		t.Errorf("preflight without Variables: read: %v\n%s\nwant %q", err, problemsText(problems), want)
	}
	out.Reset()
	if err := s.Refresh(ctx, "dev", RefreshOptions{PreviewOnly: true, ExpectNoChanges: true}); err == nil ||
		!strings.Contains(out.String(), exampletest.L(t, "GET https://api.github.com/orgs/company/actions/variables/")) || !strings.Contains(out.String(), "403 Resource not accessible by integration") {
		t.Errorf("the drift check without Variables: read: %v, want GitHub's 403:\n%s", err, out)
	}

	reach = simulated.DefaultReach(s.Catalog)
	reach.PulumiTeam = "harness-platform-dev" // a deployer's token
	s.servers().SetReach(reach)
	problems, err = s.PreflightWith(ctx, "dev", PreflightOptions{Drift: true})
	for _, want := range []string{
		"ESC environment harness-platform/ci: this read-only run's token can open it, and it holds writing credentials",
		"ESC environment harness-platform/dev: this read-only run's token can open it",
		"ESC environment harness-platform/dev-preview: opening environment: [0] \nDiags: You do not have permission to perform this operation.",
	} {
		if err != nil || !strings.Contains(problemsText(problems), want) {
			t.Errorf("preflight of a drift check with a deployer's token: %v\n%s\nwant %q", err, problemsText(problems), want)
		}
	}
}
