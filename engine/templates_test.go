package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/plan"
	"github.com/company/harness-platform/simulated"
)

// Pipelines on deploy-stage templates, through the real CLI against the
// simulated Harness (which keeps template versions, refuses a pipeline on
// a missing version and a delete of a version in use):
//   - a stack deployed with full pipelines (as before templates) moves
//     to thin ones in place: every pipeline updated, none replaced or
//     deleted;
//   - an archetype change (cron's step timeout) writes only templates: a
//     new version of each cron template, the old one deleted, and no
//     pipeline;
//   - a pipeline on a template version that does not exist is refused,
//     in Harness's words, and changes nothing.
func TestTemplates(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := example(t)
	state := t.TempDir()
	const env = "dev"
	stacks := c.StacksOf(env)

	// Deployed as before templates: each pipeline saved in full.
	full := map[string]string{}
	for _, stack := range stacks {
		p, err := plan.Build(c, stack)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range p.Deployments {
			if full[d.Pipeline.Identifier], err = d.Pipeline.Resolved(); err != nil {
				t.Fatal(err)
			}
		}
	}
	before := openWith(t, state, c, func(_ context.Context, args *pulumi.ResourceTransformArgs) *pulumi.ResourceTransformResult {
		if args.Type != "harness:platform/pipeline:Pipeline" {
			return nil
		}
		id, _ := args.Props["identifier"].(pulumi.String)
		y, ok := full[string(id)]
		if !ok {
			return nil // the foundation's CI pipeline
		}
		args.Props["yaml"] = pulumi.String(y)
		return &pulumi.ResourceTransformResult{Props: args.Props, Opts: args.Opts}
	})
	if _, err := before.Up(ctx, env, UpOptions{}); err != nil {
		t.Fatalf("up with full pipelines: %v\n%s", err, before.out)
	}
	before.Close()
	for _, r := range cloudRecords(t, state) {
		if r.Type == "harness:platform/pipeline:Pipeline" && strings.Contains(r.Properties["yaml"].(string), "templateRef") && full[r.Properties["identifier"].(string)] != "" {
			t.Fatalf("pipeline %v was saved thin by the transform-free path", r.Properties["identifier"])
		}
	}

	s := open(t, state, c)
	res, err := s.Up(ctx, env, UpOptions{})
	if err != nil {
		t.Fatalf("migration: %v\n%s", err, s.out)
	}
	ops := opTypes(*res.Summary.ResourceChanges)
	if got := ops[apitype.OpUpdate]; got != len(full) {
		t.Errorf("migration: %d updates, want the %d pipelines: %v", got, len(full), ops)
	}
	for op, n := range ops {
		if op != apitype.OpSame && op != apitype.OpUpdate && n > 0 {
			t.Errorf("migration: %d %s, want only updates in place: %v", n, op, ops)
		}
	}
	thin := 0
	for _, r := range cloudRecords(t, state) {
		if r.Type == "harness:platform/pipeline:Pipeline" && strings.Contains(r.Properties["yaml"].(string), "templateRef: deploy_") {
			thin++
		}
	}
	if thin != len(full) {
		t.Errorf("%d of %d pipelines are on their templates after the migration", thin, len(full))
	}
	s.Close()

	// An archetype change: cron's step timeout.
	changed := exampleEdited(t, catalog.ArchetypesFile, "    stepTimeout: 15m\n", "    stepTimeout: 20m\n")
	s = open(t, state, changed)
	res, err = s.Up(ctx, env, UpOptions{})
	if err != nil {
		t.Fatalf("up after the archetype change: %v\n%s", err, s.out)
	}
	// dev's one cron template: its new version, the old one deleted.
	want := map[apitype.OpType]int{apitype.OpCreate: 1, apitype.OpDelete: 1}
	for op, n := range opTypes(*res.Summary.ResourceChanges) {
		if op != apitype.OpSame && n != want[op] {
			t.Errorf("after the archetype change: %d %s, want %v: %v", n, op, want, *res.Summary.ResourceChanges)
		}
	}
	versions := 0
	for _, r := range cloudRecords(t, state) {
		if r.Type == "harness:platform/template:Template" && r.Properties["identifier"] == "deploy_cron_int_stable_rolling" {
			versions++
			if !strings.Contains(r.Properties["templateYaml"].(string), "timeout: 20m") {
				t.Errorf("the cron template's version %v is not the changed one", r.Properties["version"])
			}
		}
	}
	if versions != 1 {
		t.Errorf("%d versions of the cron template, want the new one only", versions)
	}
	s.Close()

	// A pipeline on a version that does not exist.
	pinned := openWith(t, state, changed, func(_ context.Context, args *pulumi.ResourceTransformArgs) *pulumi.ResourceTransformResult {
		if args.Type != "harness:platform/pipeline:Pipeline" {
			return nil
		}
		y, _ := args.Props["yaml"].(pulumi.String)
		args.Props["yaml"] = pulumi.String(strings.Replace(string(y), "templateRef: deploy_cron_int_stable_rolling\n", "templateRef: deploy_cron_int_stable_rolling\n          versionLabel: v00000000\n", 1))
		return &pulumi.ResourceTransformResult{Props: args.Props, Opts: args.Opts}
	})
	cloud := cloudRecords(t, state)
	var refused bool
	for _, stack := range stacks[1:] {
		if _, err := pinned.Up(ctx, stack, UpOptions{}); err != nil {
			refused = true
		}
	}
	if want := "Template with the Identifier deploy_cron_int_stable_rolling and versionLabel v00000000 does not exist or has been deleted"; !refused || !strings.Contains(pinned.out.String(), want) {
		t.Errorf("a pipeline on a missing version: refused %v, want %q\n%s", refused, want, pinned.out)
	}
	after := cloudRecords(t, state)
	for id, r := range cloud {
		if r.Type == "harness:platform/pipeline:Pipeline" && after[id].Properties["yaml"] != r.Properties["yaml"] {
			t.Errorf("the refused up changed pipeline %v", r.Properties["identifier"])
		}
	}
}

// A change of a template's inputs writes exactly the pipelines that must
// reconcile, through the CLI: payment-service moving to another team
// changes its Production pipeline's inputs (the team approval's group and
// message) and nothing of any template, so production's up writes that
// one pipeline, no template, and leaves every other pipeline as it was.
func TestTemplateInputChangeWritesOnlyItsPipeline(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := example(t)
	state := deployedDev(t)
	s := open(t, state, c)
	for _, env := range []string{"staging", "production"} {
		if _, err := s.Up(ctx, env, UpOptions{}); err != nil {
			t.Fatalf("up %s: %v\n%s", env, err, s.out)
		}
	}
	s.Close()
	before := cloudRecords(t, state)

	moved := exampleEdited(t, catalog.ServicesFile, "  - name: payment-service\n    team: payments\n", "  - name: payment-service\n    team: checkout\n")
	s = open(t, state, moved)
	if _, err := s.Up(ctx, "production", UpOptions{}); err != nil {
		t.Fatalf("up production after the team change: %v\n%s", err, s.out)
	}
	after := cloudRecords(t, state)
	var pipelines, templates []string
	for key, r := range after {
		old, existed := before[key]
		switch r.Type {
		case "harness:platform/pipeline:Pipeline":
			if !existed || old.Properties["yaml"] != r.Properties["yaml"] {
				pipelines = append(pipelines, fmt.Sprint(r.Properties["identifier"]))
			}
		case "harness:platform/template:Template":
			if !existed || old.Properties["templateYaml"] != r.Properties["templateYaml"] {
				templates = append(templates, fmt.Sprint(r.Properties["identifier"], " ", r.Properties["version"]))
			}
		}
	}
	for key, r := range before {
		if _, ok := after[key]; !ok && r.Type == "harness:platform/template:Template" {
			templates = append(templates, fmt.Sprint(r.Properties["identifier"], " ", r.Properties["version"], " (deleted)"))
		}
	}
	if !slices.Equal(pipelines, []string{"payment_service_prod"}) || len(templates) != 0 {
		t.Errorf("the team change wrote pipelines %v (want payment_service_prod only) and templates %v (want none)", pipelines, templates)
	}
	y, _ := after[keyOfPipeline(t, after, "payment_service_prod")].Properties["yaml"].(string)
	if !strings.Contains(y, "checkout") {
		t.Errorf("payment_service_prod's inputs do not name its new team:\n%s", y)
	}
}

// keyOfPipeline is the cloud key of the pipeline with identifier id.
func keyOfPipeline(t *testing.T, recs map[string]simulated.Record, id string) string {
	t.Helper()
	for k, r := range recs {
		if r.Type == "harness:platform/pipeline:Pipeline" && r.Properties["identifier"] == id {
			return k
		}
	}
	t.Fatalf("no pipeline %s", id)
	return ""
}
