package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/plan"
	"github.com/company/harness-platform/program"
	"github.com/company/harness-platform/simulated/core"
	"github.com/company/harness-platform/simulated/harness"
)

// A template version whose runtime inputs differ from the stable one's,
// through the CLI against the simulated Harness, which merges a
// pipeline's inputs only where the version it runs has <+input> and
// refuses to start a pipeline that leaves one without a value.
//
// dev is deployed, then made to look as an older program left it: one
// deploy template's stable version has no serviceRef input (a program
// upgrade lifts it). The upgraded program's up of dev, with its service
// stack failing: the platform stack saves the new version non-stable
// beside the stable one, and the pipelines, unpinned, still start. The
// next up: the service stack pins its pipelines to the new version with
// their inputs, and they start; the one after: the version is stable,
// the old one deleted, and the pipelines unpinned, and they start; the
// next is quiet. (Saved stable at once instead, as before, the version
// leaves every pipeline unable to start: TestDeployToHarnessFollowsTheEvent.)
func TestTemplateVersionInFlight(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := example(t)
	state := deployedDev(t)
	services := c.StacksOf("dev")[1]
	sp, err := plan.Build(c, services)
	if err != nil {
		t.Fatal(err)
	}
	d := sp.Deployments[0]
	var next plan.StageTemplate
	for _, tm := range sp.Templates {
		if tm.Identifier == d.Pipeline.Template {
			next = tm
		}
	}
	const oldVersion = "v0000old"
	old := strings.Replace(strings.Replace(next.YAML, "serviceRef: <+input>", "serviceRef: "+d.Service, 1), "versionLabel: "+next.Version, "versionLabel: "+oldVersion, 1)
	if old == next.YAML {
		t.Fatalf("template %s has no serviceRef input", next.Identifier)
	}

	// What an older program left: the template's version in Harness, in
	// the platform stack's state and in its contract.
	s := open(t, state, c)
	stack, err := s.Stack(ctx, "dev")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.editState(ctx, stack, func(dep map[string]any) (bool, error) {
		resources, _ := dep["resources"].([]any)
		for _, e := range resources {
			r, _ := e.(map[string]any)
			switch r["type"] {
			case "pulumi:pulumi:Stack":
				outputs, _ := r["outputs"].(map[string]any)
				templates, _ := outputs[program.OutTemplates].(map[string]any)
				entry, _ := templates[next.Identifier].(map[string]any)
				if entry == nil {
					return false, fmt.Errorf("dev's contract has no template %s", next.Identifier)
				}
				entry["version"], entry["yaml"] = oldVersion, old
			case "harness:platform/template:Template":
				inputs, _ := r["inputs"].(map[string]any)
				if inputs["identifier"] != next.Identifier {
					continue
				}
				r["urn"] = strings.TrimSuffix(r["urn"].(string), next.Version) + oldVersion
				for _, props := range []string{"inputs", "outputs"} {
					m, _ := r[props].(map[string]any)
					m["version"], m["templateYaml"] = oldVersion, old
				}
			}
		}
		return true, nil
	}); err != nil {
		t.Fatal(err)
	}
	recs := cloudRecords(t, state)
	moved := false
	for key, rec := range recs {
		if rec.Type == harness.TemplateType && rec.Properties["identifier"] == next.Identifier && rec.Properties["version"] == next.Version {
			// Harness keeps one object per version (keyed "...@version").
			delete(recs, key)
			rec.Properties["version"], rec.Properties["templateYaml"] = oldVersion, old
			recs[strings.TrimSuffix(key, next.Version)+oldVersion] = rec
			moved = true
		}
	}
	if !moved {
		t.Fatalf("the simulated Harness holds no version %s of %s", next.Version, next.Identifier)
	}
	writeCloud(t, state, recs)
	s.Close()

	versions := func() map[string]bool {
		out := map[string]bool{}
		for _, r := range cloudRecords(t, state) {
			if r.Type == harness.TemplateType && r.Properties["identifier"] == next.Identifier {
				out[fmt.Sprint(r.Properties["version"])] = r.Properties["isStable"] == true
			}
		}
		return out
	}
	pipelineYAML := func() string {
		recs := cloudRecords(t, state)
		y, _ := recs[keyOfPipeline(t, recs, d.Pipeline.Identifier)].Properties["yaml"].(string)
		return y
	}
	// starts posts a build's event to the pipeline's webhook and waits
	// for Harness's verdict.
	starts := func(step string) {
		t.Helper()
		cloud, err := core.OpenCloud(filepath.Join(state, "cloud"), "harness")
		if err != nil {
			t.Fatal(err)
		}
		hooks := harness.NewWebhooks(cloud)
		hooks.Pending = 0
		srv := httptest.NewServer(hooks)
		defer srv.Close()
		url := strings.Replace(harness.CustomWebhookURL(sp.Scope.OrgID, sp.Scope.ProjectID, d.Pipeline.Identifier, d.Trigger.Identifier), "https://app.harness.io", srv.URL, 1)
		region := c.Stacks["dev"].Regions[0].Name
		body := fmt.Sprintf(`{"service_name": %q, "image_tag": "1.4.2", "target_region": %q}`, d.Service, region)
		var posted struct {
			Data struct{ APIURL string } `json:"data"`
		}
		resp, err := http.Post(url, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		err = json.NewDecoder(resp.Body).Decode(&posted)
		resp.Body.Close()
		if err != nil || posted.Data.APIURL == "" {
			t.Fatalf("%s: the webhook's answer: %v %+v", step, err, posted)
		}
		time.Sleep(time.Millisecond)
		resp, err = http.Get(posted.Data.APIURL)
		if err != nil {
			t.Fatal(err)
		}
		details, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(details), `"status":"TARGET_EXECUTION_REQUESTED"`) {
			t.Errorf("%s: Harness did not start %s: %s", step, d.Pipeline.Identifier, details)
		}
	}
	starts("as the older program left it")

	// 1. The upgrade, its service stack failing (Harness refuses its
	// pipelines: their template does not exist): the new version is saved non-stable.
	ours := map[string]bool{}
	for _, d := range sp.Deployments {
		ours[d.Pipeline.Identifier] = true
	}
	failing := openWith(t, state, c, func(_ context.Context, args *pulumi.ResourceTransformArgs) *pulumi.ResourceTransformResult {
		id, _ := args.Props["identifier"].(pulumi.String)
		if args.Type != "harness:platform/pipeline:Pipeline" || !ours[string(id)] {
			return nil
		}
		y, _ := args.Props["yaml"].(pulumi.String)
		args.Props["yaml"] = pulumi.String(strings.ReplaceAll(string(y), "templateRef: deploy_", "templateRef: missing_deploy_"))
		return &pulumi.ResourceTransformResult{Props: args.Props, Opts: args.Opts}
	})
	if _, err := failing.Up(ctx, "dev", UpOptions{}); err == nil {
		t.Fatalf("the service stack's up did not fail\n%s", failing.out)
	}
	failing.Close()
	if got := versions(); len(got) != 2 || !got[oldVersion] || got[next.Version] {
		t.Fatalf("after the platform stack's up: versions %v (version: stable), want %s stable and %s not\n%s", got, oldVersion, next.Version, failing.out)
	}
	if !strings.Contains(failing.out.String(), "version "+next.Version+" is saved non-stable") {
		t.Errorf("the platform stack does not say the version is in flight:\n%s", failing.out)
	}
	if strings.Contains(pipelineYAML(), "versionLabel:") {
		t.Error("the failed service stack's pipeline is pinned")
	}
	starts("the service stack failed")

	// 2. The service stack pins its pipelines.
	s = open(t, state, c)
	if _, err := s.Up(ctx, "dev", UpOptions{}); err != nil {
		t.Fatalf("up: %v\n%s", err, s.out)
	}
	s.Close()
	if got := versions(); len(got) != 2 || !got[oldVersion] || got[next.Version] {
		t.Errorf("after the service stack moved: versions %v, want %s stable and %s not", got, oldVersion, next.Version)
	}
	if y := pipelineYAML(); !strings.Contains(y, "versionLabel: "+next.Version+"\n") || !strings.Contains(y, "serviceRef: ") {
		t.Errorf("the pipeline is not pinned to %s with its inputs:\n%s", next.Version, y)
	}
	starts("pinned")

	// 3. Every pipeline moved: stable, the old version deleted, unpinned.
	s = open(t, state, c)
	if _, err := s.Up(ctx, "dev", UpOptions{}); err != nil {
		t.Fatalf("up: %v\n%s", err, s.out)
	}
	s.Close()
	if got := versions(); len(got) != 1 || !got[next.Version] {
		t.Errorf("once every pipeline moved: versions %v, want %s alone, stable", got, next.Version)
	}
	if strings.Contains(pipelineYAML(), "versionLabel:") {
		t.Error("the pipeline is still pinned once its version is stable")
	}
	starts("stable")

	// 4. Quiet.
	s = open(t, state, c)
	res, err := s.Up(ctx, "dev", UpOptions{})
	if err != nil {
		t.Fatalf("up: %v\n%s", err, s.out)
	}
	for op, n := range opTypes(*res.Summary.ResourceChanges) {
		if op != apitype.OpSame && n > 0 {
			t.Errorf("the up after the change converged: %d %s", n, op)
		}
	}
	s.Close()
}
