package delivery

import (
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/company/harness-platform/internal/catalogtest"
	"github.com/company/harness-platform/plan"
	"github.com/company/harness-platform/simulated/core"
	"github.com/company/harness-platform/simulated/harness"
)

// The service build's start step, run as GitHub runs it (bash, with the
// step's env), against the simulated Harness's webhook endpoint, which
// accepts every POST at once and decides later, as Harness does: the
// build passes only when Harness started the pipeline, prints the
// execution, fails with Harness's reason when the trigger refused the
// event, and never posts twice (a repeated POST may start the pipeline
// twice).
func TestDeployToHarnessFollowsTheEvent(t *testing.T) {
	for _, tool := range []string{"bash", "curl", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is not installed: the reusable workflow's step runs it (Debian: apt-get install %s)", tool, tool)
		}
	}
	w, _ := load(t, "deploy-to-harness.yml")
	start := w.Jobs["start"].Steps[1]

	c := catalogtest.Example(t, "..")
	p, err := plan.Build(c, catalogtest.OnlyServiceStack(t, c, "dev"))
	if err != nil {
		t.Fatal(err)
	}
	d := p.Deployments[0]
	cloud, err := core.OpenCloud(t.TempDir(), "harness")
	if err != nil {
		t.Fatal(err)
	}
	org, project := p.Scope.OrgID, p.Scope.ProjectID
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	// The templates the pipelines reference, stable, as the platform
	// stack saves them.
	tp, err := plan.Build(c, "dev")
	if err != nil {
		t.Fatal(err)
	}
	var tmpl plan.StageTemplate
	for _, tm := range tp.Templates {
		must(cloud.Put("Template/"+tm.Identifier+"/"+tm.Version, core.Record{Type: harness.TemplateType, Name: tm.Identifier + "-" + tm.Version,
			Properties: map[string]any{"identifier": tm.Identifier, "orgId": org, "projectId": project, "version": tm.Version, "isStable": true, "templateYaml": tm.YAML}}))
		if tm.Identifier == d.Pipeline.Template {
			tmpl = tm
		}
	}
	if tmpl.Identifier == "" {
		t.Fatalf("dev declares no template %s", d.Pipeline.Template)
	}
	must(cloud.Put("Pipeline/"+d.Pipeline.Identifier, core.Record{Type: "harness:platform/pipeline:Pipeline", Name: d.Pipeline.Identifier,
		Properties: map[string]any{"identifier": d.Pipeline.Identifier, "orgId": org, "projectId": project, "yaml": d.Pipeline.YAML}}))
	must(cloud.Put("Triggers/"+d.Trigger.Identifier, core.Record{Type: "harness:platform/triggers:Triggers", Name: d.Trigger.Identifier,
		Properties: map[string]any{"identifier": d.Trigger.Identifier, "orgId": org, "projectId": project, "targetId": d.Pipeline.Identifier, "yaml": d.Trigger.YAML}}))
	hooks := harness.NewWebhooks(cloud)
	hooks.Pending = 2
	srv := httptest.NewServer(hooks)
	defer srv.Close()
	url := strings.Replace(harness.CustomWebhookURL(org, project, d.Pipeline.Identifier, d.Trigger.Identifier), "https://app.harness.io", srv.URL, 1)
	region := c.Stacks["dev"].Regions[0].Name

	run := func(service, tag, region string) (string, string, error) {
		out := filepath.Join(t.TempDir(), "output")
		cmd := exec.Command("bash", "-e", "-o", "pipefail", "-c", start.Run)
		cmd.Env = append(os.Environ(), "WEBHOOK_URL="+url, "KEY_SECRET=", "HARNESS_API_KEY=", "SERVICE_NAME="+service, "IMAGE_TAG="+tag,
			"TARGET_REGION="+region, "GITHUB_OUTPUT="+out, "POLL_SECONDS=0.01", "POLLS=20")
		log, err := cmd.CombinedOutput()
		output, _ := os.ReadFile(out)
		return string(log), string(output), err
	}
	posts := hooks.Posts()
	log, output, err := run(d.Service, "1.4.2", region)
	if err != nil || !strings.Contains(log, "Harness started "+d.Pipeline.Identifier+": https://app.harness.io/ng/account/") || !strings.HasPrefix(output, "execution=") {
		t.Errorf("a matching event: %v\n%s\noutput: %s", err, log, output)
	}
	if hooks.Posts()-posts != 1 {
		t.Errorf("%d POSTs for one build, want 1", hooks.Posts()-posts)
	}
	for _, tc := range []struct{ name, service, region, want string }{
		{"another service's event", "not-" + d.Service, region, "Harness did not start the pipeline: NO_MATCHING_TRIGGER_FOR_PAYLOAD_CONDITIONS: No trigger matched payload after condition evaluation for project: " + project},
		{"a region the pipeline does not offer", d.Service, "mars1", `Harness did not start the pipeline: INVALID_RUNTIME_INPUT_YAML: Failed while requesting Pipeline Execution: variable targetRegion: value "mars1" is not one of the allowed values`},
	} {
		if log, _, err := run(tc.service, "1.4.2", tc.region); err == nil || !strings.Contains(log, tc.want) {
			t.Errorf("%s: %v\n%s", tc.name, err, log)
		}
	}
	// A stable version with a runtime input the pipeline's templateInputs
	// predate (a template changed under the pipeline): Harness merges the
	// inputs only where the template has <+input>, and the new one has no
	// value, so the pipeline is not started.
	changed := strings.Replace(tmpl.YAML, "versionLabel: "+tmpl.Version, "versionLabel: vnext", 1)
	changed = regexp.MustCompile(`(?m)^(\s+)timeout: \S+$`).ReplaceAllString(changed, "${1}timeout: <+input>")
	must(cloud.Put("Template/"+tmpl.Identifier+"/"+tmpl.Version, core.Record{Type: harness.TemplateType, Name: tmpl.Identifier + "-" + tmpl.Version,
		Properties: map[string]any{"identifier": tmpl.Identifier, "orgId": org, "projectId": project, "version": tmpl.Version, "isStable": false, "templateYaml": tmpl.YAML}}))
	must(cloud.Put("Template/"+tmpl.Identifier+"/vnext", core.Record{Type: harness.TemplateType, Name: tmpl.Identifier + "-vnext",
		Properties: map[string]any{"identifier": tmpl.Identifier, "orgId": org, "projectId": project, "version": "vnext", "isStable": true, "templateYaml": changed}}))
	want := "Harness did not start the pipeline: INVALID_RUNTIME_INPUT_YAML: Failed while requesting Pipeline Execution: stage deploy: template " + tmpl.Identifier + " version vnext has runtime inputs the pipeline gives no value"
	if log, _, err := run(d.Service, "1.4.2", region); err == nil || !strings.Contains(log, want) {
		t.Errorf("a pipeline out of step with its template's stable version: %v, want %q\n%s", err, want, log)
	}
	// Pinned to the version its inputs were written for (as the service
	// stacks pin a version in flight), it starts.
	pinned := regexp.MustCompile(`(?m)^(\s+)templateRef: `+regexp.QuoteMeta(tmpl.Identifier)+`\n`).ReplaceAllString(d.Pipeline.YAML, "${0}${1}versionLabel: "+tmpl.Version+"\n")
	must(cloud.Put("Pipeline/"+d.Pipeline.Identifier, core.Record{Type: "harness:platform/pipeline:Pipeline", Name: d.Pipeline.Identifier,
		Properties: map[string]any{"identifier": d.Pipeline.Identifier, "orgId": org, "projectId": project, "yaml": pinned}}))
	if log, _, err := run(d.Service, "1.4.2", region); err != nil || !strings.Contains(log, "Harness started "+d.Pipeline.Identifier) {
		t.Errorf("a pipeline pinned to the version its inputs were written for: %v\n%s", err, log)
	}
	// A POST the gateway fails is not repeated: it may have been queued.
	hooks.FailNextPosts = 1
	posts = hooks.Posts()
	if log, _, err := run(d.Service, "1.4.2", region); err == nil || !strings.Contains(log, "Harness refused the webhook (503)") || hooks.Posts()-posts != 1 {
		t.Errorf("a failed POST: %v, %d POSTs\n%s", err, hooks.Posts()-posts, log)
	}
}
