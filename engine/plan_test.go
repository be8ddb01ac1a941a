package engine

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/company/harness-platform/catalog"
)

// An up with update plans (preview --save-plan, up --plan) does what the
// approved preview showed: it applies a plan, and refuses, changing
// nothing, when the program would now do something the plan does not
// hold (a catalog change merged after the approval).
func TestUpdatePlans(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := example(t)
	state := t.TempDir()
	s := open(t, state, c)
	plans := t.TempDir()
	if _, err := s.Preview(ctx, "dev", PreviewOptions{PlanDir: plans}); err != nil {
		t.Fatalf("preview --save-plan: %v\n%s", err, s.out)
	}
	for _, stack := range c.StacksOf("dev") {
		if _, err := os.Stat(planFile(plans, stack)); err != nil {
			t.Errorf("no update plan for %s: %v", stack, err)
		}
	}
	if _, err := s.Up(ctx, "dev", UpOptions{PlanDir: plans}); err != nil {
		t.Fatalf("up --plan: %v\n%s", err, s.out)
	}

	approved := t.TempDir()
	if _, err := s.Preview(ctx, "dev", PreviewOptions{PlanDir: approved, ExpectNoChanges: true}); err != nil {
		t.Fatalf("the approved preview: %v\n%s", err, s.out)
	}
	s.Close()
	before := cloudRecords(t, state)
	// Merged after the approval: a service's description.
	changed := exampleEdited(t, catalog.ServicesFile, "description: Card and wallet payments.", "description: changed after the approval")
	s = open(t, state, changed)
	_, err := s.Up(ctx, "dev", UpOptions{PlanDir: approved})
	if err == nil {
		t.Fatal("up --plan applied a change the approved plan does not hold")
	}
	if !strings.Contains(s.out.String(), "plan") {
		t.Errorf("the refusal does not say the plan was violated:\n%s", s.out)
	}
	if after := cloudRecords(t, state); !reflect.DeepEqual(before, after) {
		t.Error("the refused up changed the cloud")
	}
	if _, err := s.Up(ctx, "dev", UpOptions{PlanDir: filepath.Join(t.TempDir(), "none")}); err == nil || !strings.Contains(err.Error(), "--save-plan") {
		t.Errorf("up --plan without plans: %v, want a refusal naming preview --save-plan", err)
	}
}
