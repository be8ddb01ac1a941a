package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/harness/importid"
	"github.com/company/harness-platform/internal/catalogtest"
)

// noRecreation fails unless a preview of name changes objects only in
// place: no create, delete or replacement of any resource but a provider
// (a state move copies the providers the moved resources use and leaves
// them in the source stack, and a new stack gets the engine's own
// provider for its contract reads: providers are no cloud objects) or a
// stack's own webhook variable.
func noRecreation(t *testing.T, s harnessSession, name string) {
	t.Helper()
	var log bytes.Buffer
	if _, err := s.Preview(context.Background(), name, PreviewOptions{EventLog: &log}); err != nil {
		t.Fatalf("preview %s: %v\n%s", name, err, s.out)
	}
	for _, line := range bytes.Split(log.Bytes(), []byte("\n")) {
		var e apitype.EngineEvent
		if len(line) == 0 || json.Unmarshal(line, &e) != nil || e.ResourcePreEvent == nil {
			continue
		}
		m := e.ResourcePreEvent.Metadata
		switch {
		case m.Op == apitype.OpSame || m.Op == apitype.OpUpdate:
		case strings.HasPrefix(m.Type, "pulumi:providers:") && (m.Op == apitype.OpDelete || m.Op == apitype.OpCreate):
		case m.Type == "pulumi:pulumi:Stack" && m.Op == apitype.OpCreate:
		case m.Type == importid.GitHubOrgVariable && (m.Op == apitype.OpDelete || m.Op == apitype.OpCreate):
			// A stack's webhook variable is the stack's, named after it:
			// the destination's is created (or updated), the source's
			// deleted when it holds no service any more. No service
			// object is among them.
		default:
			t.Errorf("preview %s after the move: %s %s, want objects kept", name, m.Op, m.URN)
		}
	}
}

// harnessObjects is the simulated Harness account, by id.
func harnessObjects(t *testing.T, state string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(state, "cloud", "harness.json"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// An environment deployed as one stack (before the split: its platform
// stack held every object) is migrated into its service stacks by
// platformctl move, a `pulumi state move`: the next preview recreates
// nothing and the update leaves Harness as it was. Then a service moved
// to another service stack keeps its Harness objects the same way, an
// update before the move is refused, and promotion holds across the
// stacks of the upstream environment.
func TestMoveBetweenStacks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	state := deployedDev(t)
	c := example(t)
	s := open(t, state, c)
	if _, err := s.Up(ctx, "staging", UpOptions{}); err != nil {
		t.Fatalf("up staging: %v\n%s", err, s.out)
	}
	services := catalogtest.OnlyServiceStack(t, c, "dev")

	t.Run("one stack per environment migrates", func(t *testing.T) {
		// The one-stack layout: every object of dev.services in dev, at
		// the same URNs (the split kept them).
		resources, err := s.stateOf(ctx, services)
		if err != nil {
			t.Fatal(err)
		}
		var roots []string
		for _, r := range resources {
			if r.Parent != "" && r.Parent.Type() == "pulumi:pulumi:Stack" && !strings.HasPrefix(string(r.Type), "pulumi:providers:") {
				roots = append(roots, string(r.URN))
			}
		}
		if err := s.ApplyMove(ctx, Move{From: services, To: "dev", URNs: roots, Services: []string{"all"}}); err != nil {
			t.Fatal(err)
		}
		if n := len(stateURNs(t, state, "dev")); n < len(resources) {
			t.Fatalf("the one-stack dev holds %d resources", n)
		}
		before := harnessObjects(t, state)
		moves, err := s.PlanMoves(ctx, "dev")
		if err != nil {
			t.Fatal(err)
		}
		if len(moves) != 1 || moves[0].From != "dev" || moves[0].To != services || len(moves[0].Services) != len(c.ServicesOf("services")) {
			t.Fatalf("moves %+v: want every service from dev to %s", moves, services)
		}
		if err := s.ApplyMove(ctx, moves[0]); err != nil {
			t.Fatal(err)
		}
		noRecreation(t, s, "dev")
		if _, err := s.Up(ctx, "dev", UpOptions{}); err != nil {
			t.Fatalf("up after the migration: %v\n%s", err, s.out)
		}
		if !bytes.Equal(before, harnessObjects(t, state)) {
			t.Error("the migration changed Harness")
		}
		if again, err := s.PlanMoves(ctx, "dev"); err != nil || len(again) != 0 {
			t.Errorf("moves after the migration: %+v %v, want none", again, err)
		}
	})

	t.Run("a service moved between service stacks", func(t *testing.T) {
		entry := "  - name: refund-service\n    team: payments\n"
		moved := exampleEdited(t, catalog.ServicesFile, entry, entry+"    stack: refunds\n")
		m := open(t, state, moved)
		before := harnessObjects(t, state)
		// Before the move, the new stack would create what the old one
		// deletes: refused, nothing changed.
		if _, err := m.Up(ctx, "dev", UpOptions{}); err == nil || !strings.Contains(err.Error()+m.out.String(), "platformctl move") {
			t.Fatalf("up before the move: want a refusal naming platformctl move, got %v", err)
		}
		if !bytes.Equal(before, harnessObjects(t, state)) {
			t.Fatal("the refused up changed Harness")
		}
		for _, env := range []string{"dev", "staging"} {
			moves, err := m.PlanMoves(ctx, env)
			if err != nil {
				t.Fatal(err)
			}
			want := catalog.ServiceStackName(env, "refunds")
			if len(moves) != 1 || moves[0].To != want || !slices.Equal(moves[0].Services, []string{"refund-service"}) {
				t.Fatalf("%s: moves %+v, want refund-service to %s", env, moves, want)
			}
			if err := m.ApplyMove(ctx, moves[0]); err != nil {
				t.Fatal(err)
			}
			// Promotion reads the whole upstream environment: staging's
			// refunds stack promotes what dev holds in another stack.
			noRecreation(t, m, env)
			if _, err := m.Up(ctx, env, UpOptions{}); err != nil {
				t.Fatalf("up %s after the move: %v\n%s", env, err, m.out)
			}
		}
		if !bytes.Equal(before, harnessObjects(t, state)) {
			t.Error("moving refund-service changed Harness")
		}
		for _, id := range []string{"Pipeline/default/platform/refund_service_int_stable", "Pipeline/default/platform/refund_service_pre_stable"} {
			if _, ok := cloudRecords(t, state)[id]; !ok {
				t.Errorf("%s is gone", id)
			}
		}
	})
}

// A platform stack deployed before the credentials stacks holds its
// delegate tokens: an up refuses, naming the move; platformctl move puts
// them in the credentials stack, and the up that follows neither revokes
// nor makes a token (the credentials program's alias takes them in).
func TestDelegateTokensMoveToTheCredentialsStack(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	state := deployedDev(t)
	s := open(t, state, example(t))
	creds := catalog.CredentialsStackName("dev")
	// The layout of before: the tokens in dev, at its root.
	resources, err := s.stateOf(ctx, creds)
	if err != nil {
		t.Fatal(err)
	}
	back := Move{From: creds, To: "dev"}
	for _, r := range resources {
		if string(r.Type) == delegateTokenType {
			back.URNs = append(back.URNs, string(r.URN))
			back.Tokens = append(back.Tokens, r.URN.Name())
		}
	}
	if len(back.URNs) != 2 {
		t.Fatalf("%s holds %d delegate tokens, want 2", creds, len(back.URNs))
	}
	if err := s.ApplyMove(ctx, back); err != nil {
		t.Fatal(err)
	}
	before := tokenStatus(t, state)

	if _, err := s.Up(ctx, "dev", UpOptions{}); err == nil || !strings.Contains(err.Error(), "nothing was changed: stack dev holds delegate tokens") ||
		!strings.Contains(err.Error(), "platformctl move --stack dev --yes") {
		t.Fatalf("an up with the tokens in the platform stack: %v", err)
	}
	moves, err := s.PlanMoves(ctx, "dev")
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) != 1 || moves[0].To != creds || len(moves[0].Tokens) != 2 {
		t.Fatalf("moves: %+v", moves)
	}
	if err := s.ApplyMove(ctx, moves[0]); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Up(ctx, "dev", UpOptions{}); err != nil {
		t.Fatalf("up after the move: %v\n%s", err, s.out)
	}
	if after := tokenStatus(t, state); !maps.Equal(after, before) {
		t.Errorf("the tokens changed: %v, were %v", after, before)
	}
	if moves, err := s.PlanMoves(ctx, "dev"); err != nil || len(moves) != 0 {
		t.Errorf("moves after the move: %+v %v", moves, err)
	}
}
