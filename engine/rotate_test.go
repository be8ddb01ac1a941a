package engine

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/company/harness-platform/simulated"
)

// tokenStatus is each delegate token's status in the simulated Harness,
// by name.
func tokenStatus(t *testing.T, state string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, r := range cloudRecords(t, state) {
		if r.Type == delegateTokenType {
			out[r.Properties["name"].(string)] = r.Properties["tokenStatus"].(string)
		}
	}
	return out
}

// A rotation gives euw1's delegates a new token and revokes the old one
// only once Harness hears from them with it: while they are silent it
// stops with the old token valid, and run again it finishes. Going back
// to the revoked name is what preflight reports, and Harness refuses.
func TestRotateDelegateToken(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	state := deployedDev(t)
	const old, next = "harness-delegate-int-stable-euw1-token", "harness-delegate-int-stable-euw1-g2-token"
	rotated := exampleEdited(t, "Pulumi.dev.yaml", "    - name: euw1\n", "    - name: euw1\n      delegateTokenGeneration: 2\n")
	s := open(t, state, rotated)
	if g, err := s.NextTokenGeneration(ctx, "dev", "euw1", 1); err != nil || g != 2 {
		t.Fatalf("next generation: %d %v", g, err)
	}

	// Silent delegates: the new token is made and rolled out, the old
	// one stays valid.
	reach := simulated.DefaultReach(rotated)
	reach.HarnessDelegatesSilent = true
	s.servers().SetReach(reach)
	_, err := s.RotateDelegateTokens(ctx, "dev", RotateOptions{ReportTimeout: time.Second, Poll: 100 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "Harness has not heard from harness-delegate-int-stable-euw1 (token "+next+": 0 of 2 replicas)") || !strings.Contains(err.Error(), "stay valid") {
		t.Fatalf("silent delegates: %v", err)
	}
	if st := tokenStatus(t, state); st[old] != "ACTIVE" || st[next] != "ACTIVE" {
		t.Fatalf("after step 1 both tokens are valid: %v", st)
	}
	if stale, err := s.StaleDelegateTokens(ctx, "dev"); err != nil || len(stale) != 1 || stale[0] != old {
		t.Fatalf("the rotation under way: %v %v", stale, err)
	}

	// They report in: the rotation finishes.
	s.servers().SetReach(simulated.DefaultReach(rotated))
	r, err := s.RotateDelegateTokens(ctx, "dev", RotateOptions{Poll: 100 * time.Millisecond})
	if err != nil {
		t.Fatalf("%v\n%s", err, s.out)
	}
	if len(r.Revoked) != 1 || r.Revoked[0] != old || len(r.Created) != 0 || len(r.Reported) != 2 || len(r.Backups) != 3 {
		t.Errorf("rotation: %+v", r)
	}
	if st := tokenStatus(t, state); st[old] != "REVOKED" || st[next] != "ACTIVE" || st["harness-delegate-int-stable-euw2-token"] != "ACTIVE" {
		t.Errorf("after the rotation: %v", st)
	}
	if _, err := s.Preview(ctx, "dev", PreviewOptions{ExpectNoChanges: true}); err != nil {
		t.Errorf("a preview after the rotation has changes: %v", err)
	}
	s.Close()

	// Back to the revoked name (a revert, or a region removed and added
	// again): preflight says so with the generation to take, and Harness
	// refuses it.
	s = open(t, state, example(t))
	problems, err := s.Preflight(ctx, "dev")
	if err != nil {
		t.Fatal(err)
	}
	text := problemsText(problems)
	if len(problems) != 1 || !strings.Contains(text, "delegate token "+old+" of region euw1") || !strings.Contains(text, "Token with given name already exists") ||
		!strings.Contains(text, "set delegateTokenGeneration: 3 on region euw1 (Pulumi.dev.yaml:12:") {
		t.Errorf("preflight: %s", text)
	}
	if _, err := s.Up(ctx, "dev", UpOptions{}); err == nil || !strings.Contains(err.Error()+s.out.String(), "Token with given name already exists for given account, org and project") ||
		!strings.Contains(err.Error(), "stays taken 30 days") {
		t.Errorf("the up was not refused as preflight said: %v", err)
	}
}
