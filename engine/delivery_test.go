package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/company/harness-platform/catalog"
)

// Every operation that changes a stack refuses, before it runs anything,
// when the session is another delivery path than the one the stack's
// environment names; a drift check (which changes nothing) runs.
func TestOperationsRefuseAnotherDeliveryPath(t *testing.T) {
	c, err := catalog.Load("..")
	if err != nil {
		t.Fatal(err)
	}
	// No workspace, no CLI: a refused operation must not reach them.
	s := &Session{Catalog: c, opts: Options{Env: map[string]string{catalog.DeliveryEnv: catalog.DeliveryOperator}}}
	ctx := context.Background()
	stack := c.StacksOf("dev")[1]
	for name, op := range map[string]func() error{
		"up":      func() error { _, err := s.Up(ctx, "dev", UpOptions{}); return err },
		"refresh": func() error { return s.Refresh(ctx, stack, RefreshOptions{}) },
		"destroy": func() error { return s.Destroy(ctx, "dev", DestroyOptions{}) },
		"restore": func() error { _, err := s.Restore(ctx, stack, "backup.json", RepairOptions{}); return err },
		"recover": func() error { _, err := s.Recover(ctx, "dev", RepairOptions{}); return err },
		"import":  func() error { _, err := s.Import(ctx, "dev", ImportOptions{Yes: true}); return err },
		"move":    func() error { return s.ApplyMove(ctx, Move{From: stack, To: "dev"}) },
	} {
		if err := op(); err == nil || !strings.Contains(err.Error(), "is delivered by github-actions (harness-platform:delivery), not by operator") {
			t.Errorf("%s from the operator: %v", name, err)
		}
	}
	if err := s.checkDelivery(stack); err == nil {
		t.Error("a service stack is not its environment's")
	}
	s.opts.Env[catalog.DeliveryEnv] = catalog.DeliveryGitHubActions
	if err := s.checkDelivery("dev"); err != nil {
		t.Errorf("the environment's own path: %v", err)
	}
}
