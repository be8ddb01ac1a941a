package engine

import (
	"context"
	"strings"
	"testing"
)

// An up records the commit it applied on each stack it applies
// (DeployedCommitTag, read back by DeployedCommit), and one given Only
// applies those stacks alone: the service stack without its platform
// stack (or the credentials stack), and with none, nothing.
func TestUpRecordsItsCommitAndAppliesOnlyWhatIsAsked(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := open(t, deployedDev(t), example(t))
	defer s.Close()
	commit := func(stack string) string {
		t.Helper()
		c, err := s.DeployedCommit(ctx, stack)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	if c := commit("dev"); c != "" {
		t.Fatalf("dev records %q before any up recorded one", c)
	}
	if _, err := s.Up(ctx, "dev", UpOptions{Commit: "aaaa"}); err != nil {
		t.Fatalf("up: %v\n%s", err, s.out)
	}
	if commit("dev") != "aaaa" || commit("dev.services") != "aaaa" {
		t.Errorf("after an up of aaaa: dev %q, dev.services %q", commit("dev"), commit("dev.services"))
	}
	if !strings.Contains(s.out.String(), "credentials.dev") {
		t.Errorf("the whole up does not show the credentials stack:\n%s", s.out)
	}
	s.out.b.Reset()
	if _, err := s.Up(ctx, "dev", UpOptions{Commit: "bbbb", Only: []string{"dev.services"}}); err != nil {
		t.Fatalf("up of dev.services only: %v\n%s", err, s.out)
	}
	if commit("dev") != "aaaa" || commit("dev.services") != "bbbb" {
		t.Errorf("after an up of dev.services alone: dev %q, dev.services %q", commit("dev"), commit("dev.services"))
	}
	if out := s.out.String(); strings.Contains(out, "credentials.dev") {
		t.Errorf("the up of dev.services alone ran the credentials stack:\n%s", out)
	}
	s.out.b.Reset()
	if _, err := s.Up(ctx, "dev", UpOptions{Commit: "cccc", Only: []string{}}); err != nil || !strings.Contains(s.out.String(), "dev: no stack to update") {
		t.Errorf("an up of nothing: %v\n%s", err, s.out)
	}
	if commit("dev") != "aaaa" || commit("dev.services") != "bbbb" {
		t.Errorf("an up of nothing moved the commits: dev %q, dev.services %q", commit("dev"), commit("dev.services"))
	}
}
