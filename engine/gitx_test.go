package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/company/harness-platform/simulated"
)

// In an account that enforces Git Experience, preflight reports, with
// Harness's words and the fix, what the up then meets: Harness refuses
// the inline templates and pipelines; nothing else of the stack's Harness
// objects is the refusal's.
func TestGitExperienceEnforcedAsPreflightSays(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := example(t)
	s := open(t, t.TempDir(), c)
	reach := simulated.DefaultReach(c)
	reach.HarnessGitExperienceEnforced = true
	s.servers().SetReach(reach)
	want := "Hence Interaction with INLINE entities is forbidden."
	problems, err := s.Preflight(ctx, "dev")
	if err != nil {
		t.Fatal(err)
	}
	if text := problemsText(problems); !strings.Contains(text, "Harness Git Experience of project") || !strings.Contains(text, want) || !strings.Contains(text, "enforce_git_experience") {
		t.Errorf("preflight: %s", text)
	}
	if _, err := s.Up(ctx, "dev", UpOptions{}); err == nil || !strings.Contains(err.Error()+s.out.String(), want) {
		t.Errorf("the up was not refused as preflight said: %v\n%s", err, s.out)
	}
}

// A manifest the config repository does not hold is what preflight
// reports, with the service's catalog line, before a pipeline fetches it;
// with every manifest there, nothing.
func TestManifestsContractAsPreflightSays(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := example(t)
	s := open(t, t.TempDir(), c)
	if problems, err := s.Preflight(ctx, "dev"); err != nil || len(problems) != 0 {
		t.Fatalf("every manifest there: %v %s", err, problemsText(problems))
	}
	reach := simulated.DefaultReach(c)
	for repo, files := range reach.GitHub.Files {
		reach.GitHub.Files[repo] = files[1:]
	}
	s.servers().SetReach(reach)
	problems, err := s.Preflight(ctx, "dev")
	if err != nil {
		t.Fatal(err)
	}
	if text := problemsText(problems); len(problems) != 1 || !strings.Contains(text, "is not on branch main of company/platform-next") || !strings.Contains(text, "catalog/services.yaml:") {
		t.Errorf("one manifest missing: %s", text)
	}
}
