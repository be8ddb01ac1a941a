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
