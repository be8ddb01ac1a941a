package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"

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
	// A new environment: its clusters first, from a plan of their own,
	// then the rest, from a plan made once they exist; with the policy
	// pack, as the merge workflow runs them (the first step's targeted
	// preview and up show the pack the resources left for later without
	// their inputs: it runs on the whole preview before them instead).
	pack, err := BuildPolicyPack("..")
	if err != nil {
		t.Fatal(err)
	}
	config, err := PolicyConfig("..")
	if err != nil {
		t.Fatal(err)
	}
	policy := PreviewOptions{PolicyPacks: []string{pack}, PolicyPackConfigs: []string{config}}
	first := t.TempDir()
	if _, err := s.Preview(ctx, "dev", PreviewOptions{PlanDir: first, PolicyPacks: policy.PolicyPacks, PolicyPackConfigs: policy.PolicyPackConfigs}); err != nil {
		t.Fatalf("preview --save-plan: %v\n%s", err, s.out)
	}
	step, err := readFirstStep(first, "dev")
	if err != nil || step == nil || !slices.ContainsFunc(step.Targets, func(u string) bool { return strings.HasSuffix(u, "aws:eks/cluster:Cluster::int-stable-euw1") }) ||
		slices.ContainsFunc(step.Targets, func(u string) bool {
			typ := string(resource.URN(u).Type())
			return strings.HasPrefix(typ, "kubernetes:") || strings.HasPrefix(typ, "harness:platform") || strings.HasPrefix(typ, "github:")
		}) || step.Waiting == 0 {
		t.Fatalf("the first step of a new environment: %+v %v", step, err)
	}
	if _, err := os.Stat(planFile(first, "dev.services")); !os.IsNotExist(err) {
		t.Errorf("the service stack was planned before the first step: %v", err)
	}
	if _, err := s.Up(ctx, "dev", UpOptions{PlanDir: first, PolicyPacks: policy.PolicyPacks, PolicyPackConfigs: policy.PolicyPackConfigs}); err != nil {
		t.Fatalf("up --plan of the first step: %v\n%s", err, s.out)
	}
	kinds := map[string]int{}
	for _, r := range providerRecords(t, state, "aws") {
		kinds[r.Type]++
	}
	if kinds["aws:eks/cluster:Cluster"] != 2 || len(providerRecords(t, state, "kubernetes")) != 0 {
		t.Errorf("the first step made %v, and %d Kubernetes objects", kinds, len(providerRecords(t, state, "kubernetes")))
	}
	plans := t.TempDir()
	if _, err := s.Preview(ctx, "dev", PreviewOptions{PlanDir: plans}); err != nil {
		t.Fatalf("preview --save-plan after the first step: %v\n%s", err, s.out)
	}
	for _, stack := range c.StacksOf("dev") {
		if _, err := os.Stat(planFile(plans, stack)); err != nil {
			t.Errorf("no update plan for %s: %v", stack, err)
		}
		if step, err := readFirstStep(plans, stack); step != nil || err != nil {
			t.Errorf("a second first step for %s: %+v %v", stack, step, err)
		}
	}
	if _, err := s.Up(ctx, "dev", UpOptions{PlanDir: plans}); err != nil {
		t.Fatalf("up --plan: %v\n%s", err, s.out)
	}

	// Plans saved, then another up of the stacks before theirs (another
	// merge's): the plans are stale, and their up refuses before
	// anything changes, naming the stacks and what to do.
	stale := t.TempDir()
	if _, err := s.Preview(ctx, "dev", PreviewOptions{PlanDir: stale}); err != nil {
		t.Fatalf("preview --save-plan: %v\n%s", err, s.out)
	}
	if _, err := s.Up(ctx, "dev", UpOptions{}); err != nil {
		t.Fatalf("the other up: %v\n%s", err, s.out)
	}
	unchanged := cloudRecords(t, state)
	_, err = s.Up(ctx, "dev", UpOptions{PlanDir: stale})
	if !errors.Is(err, ErrStalePlan) || !strings.Contains(err.Error(), "dev (planned after update ") || !strings.Contains(err.Error(), "--save-plan") {
		t.Errorf("up --plan after another up: %v, want ErrStalePlan naming dev and --save-plan", err)
	}
	if after := cloudRecords(t, state); !reflect.DeepEqual(unchanged, after) {
		t.Error("the refused stale up changed the cloud")
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
	_, err = s.Up(ctx, "dev", UpOptions{PlanDir: approved})
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

// A whole plan of a new cluster's resources is refused by the up, as the
// real Kubernetes provider refuses it: the preview could not ask the
// release's Check (its provider's kubeconfig unknown), the up does.
func TestWholePlanOfANewClusterIsRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := open(t, t.TempDir(), example(t))
	stack, err := s.Stack(ctx, "dev")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "dev.plan.json")
	if _, err := stack.Preview(ctx, optpreview.Plan(file)); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	_, err = stack.Up(ctx, optup.Plan(file), optup.ProgressStreams(&out))
	if err == nil || !strings.Contains(out.String(), "violates plan: properties changed:") || !strings.Contains(out.String(), "+-compat[{true}]") ||
		!strings.Contains(out.String(), "=+atomic[{false}]") {
		t.Errorf("the up from a whole plan: %v\n%s", err, out.String())
	}
}
