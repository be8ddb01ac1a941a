package summary

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"

	"github.com/company/harness-platform/apibudget"
)

func line(t *testing.T, e apitype.EngineEvent) string {
	t.Helper()
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

func step(op apitype.OpType, typ, name string) apitype.EngineEvent {
	return apitype.EngineEvent{ResourcePreEvent: &apitype.ResourcePreEvent{Metadata: apitype.StepEventMetadata{
		Op: op, Type: typ, URN: "urn:pulumi:dev::harness-platform::" + typ + "::" + name}}}
}

// 3,000 creates, a replacement (three steps, counted once), violations of
// both levels: the counts come first, mandatory violations before
// advisory ones, the lists are cut to fit, and the engine's totals win.
func TestMarkdown(t *testing.T) {
	var log strings.Builder
	for i := range 3000 {
		log.WriteString(line(t, step(apitype.OpCreate, "harness:platform/pipeline:Pipeline", fmt.Sprintf("svc_%04d_int_stable", i))))
	}
	for _, op := range []apitype.OpType{apitype.OpCreateReplacement, apitype.OpReplace, apitype.OpDeleteReplaced} {
		log.WriteString(line(t, step(op, "harness:platform/service:Service", "svc_0001")))
	}
	log.WriteString(line(t, step(apitype.OpSame, "harness:platform/project:Project", "platform")))
	log.WriteString(line(t, apitype.EngineEvent{PolicyEvent: &apitype.PolicyEvent{PolicyName: "helm-and-delegate-pinned", EnforcementLevel: "advisory", Message: "chart not pinned", ResourceURN: "urn:pulumi:dev::p::t::r1"}}))
	log.WriteString(line(t, apitype.EngineEvent{PolicyEvent: &apitype.PolicyEvent{PolicyName: "no-script-steps", EnforcementLevel: "mandatory", Message: "step x is a ShellScript step\nmore", ResourceURN: "urn:pulumi:dev::p::t::r2"}}))
	owner := func(urn resource.URN) string {
		name := urn.Name()
		if strings.HasPrefix(name, "svc_") {
			return "svc-" + name[4:8]
		}
		return ""
	}
	p, err := Read("dev", strings.NewReader(log.String()), owner)
	if err != nil {
		t.Fatal(err)
	}
	if p.Changes["create"] != 3000 || p.Changes["replace"] != 1 || p.Changes["delete"] != 0 || len(p.Services) != 3000 {
		t.Fatalf("counted %v, %d services", p.Changes, len(p.Services))
	}
	md := p.Markdown("https://ci/run/1", 8000)
	first := strings.SplitN(md, "\n", 2)[0]
	if first != "### ❌ `dev`: 3000 to create, 0 to update, 1 to replace, 0 to delete; 2 policy violations (1 mandatory)" {
		t.Errorf("first line %q", first)
	}
	if len(md) > 8000 {
		t.Errorf("%d bytes, more than the 8000 asked", len(md))
	}
	if !strings.Contains(md, "… and ") || !strings.Contains(md, "Full diff: https://ci/run/1") {
		t.Errorf("lists not cut, or no link:\n%s", md)
	}
	if i, j := strings.Index(md, "no-script-steps"), strings.Index(md, "helm-and-delegate-pinned"); i < 0 || j < 0 || i > j {
		t.Errorf("mandatory violations must come first:\n%s", md)
	}
	// The engine's totals, when it reports them, are the truth.
	log.WriteString(line(t, apitype.EngineEvent{SummaryEvent: &apitype.SummaryEvent{ResourceChanges: map[apitype.OpType]int{"create": 3001, "replace": 1, "same": 1}}}))
	p, err = Read("dev", strings.NewReader(log.String()), owner)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(p.Markdown("", 60000), "### ❌ `dev`: 3001 to create") {
		t.Errorf("the engine's totals were not used: %v", p.Changes)
	}
}

// A template change names the template, its versions' steps and how many
// pipelines it reaches.
func TestTemplatesInTheSummary(t *testing.T) {
	tmpl := func(op apitype.OpType, version string, state string) apitype.EngineEvent {
		e := step(op, templateType, "deploy_cron_int_stable_rolling-"+version)
		meta := &apitype.StepEventStateMetadata{Inputs: map[string]any{"identifier": "deploy_cron_int_stable_rolling", "version": version}}
		if state == "new" {
			e.ResourcePreEvent.Metadata.New = meta
		} else {
			e.ResourcePreEvent.Metadata.Old = meta
		}
		return e
	}
	log := line(t, tmpl(apitype.OpCreate, "v22222222", "new")) + line(t, tmpl(apitype.OpDelete, "v11111111", "old"))
	p, err := Read("dev", strings.NewReader(log), func(resource.URN) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	p.Reach = map[string]int{"deploy_cron_int_stable_rolling": 7}
	md := p.Markdown("", 8000)
	if want := "**Deploy templates changed** (1)\n- `deploy_cron_int_stable_rolling`: create v22222222, delete v11111111; reaches 7 pipeline(s)\n"; !strings.Contains(md, want) {
		t.Errorf("want %q in:\n%s", want, md)
	}
}

// The summary says what the change will cost each API budget: 3,000
// pipeline creates are 6,000 Harness calls, six minutes of one key's
// budget; 600 GitHub environment creates are 600 content-generating
// writes, an hour of GitHub's secondary limit; a replacement's three
// steps cost one replace; same and the providers cost nothing.
func TestSummaryCountsAPICalls(t *testing.T) {
	var log strings.Builder
	for i := range 3000 {
		log.WriteString(line(t, step(apitype.OpCreate, "harness:platform/pipeline:Pipeline", fmt.Sprintf("svc_%04d_dev", i))))
	}
	for i := range 600 {
		log.WriteString(line(t, step(apitype.OpCreate, "github:index/repositoryEnvironment:RepositoryEnvironment", fmt.Sprintf("svc_%04d-dev", i))))
	}
	for _, op := range []apitype.OpType{apitype.OpCreateReplacement, apitype.OpReplace, apitype.OpDeleteReplaced} {
		log.WriteString(line(t, step(op, "harness:platform/service:Service", "svc_0001")))
	}
	log.WriteString(line(t, step(apitype.OpSame, "harness:platform/project:Project", "platform")))
	log.WriteString(line(t, step(apitype.OpCreate, "pulumi:providers:github", "github")))
	owner := func(urn resource.URN) string {
		if name := urn.Name(); strings.HasPrefix(name, "svc_0001") {
			return "svc-0001"
		}
		return "other"
	}
	p, err := Read("dev", strings.NewReader(log.String()), owner)
	if err != nil {
		t.Fatal(err)
	}
	want := apibudget.Calls{HarnessReads: 3001, HarnessWrites: 3002, GitHubReads: 600, GitHubWrites: 600, GitHubContent: 600}
	if p.Calls != want {
		t.Fatalf("calls %+v, want %+v", p.Calls, want)
	}
	if got := p.ServiceCalls["svc-0001"]; got != (apibudget.Calls{HarnessReads: 2, HarnessWrites: 3, GitHubReads: 1, GitHubWrites: 1, GitHubContent: 1}) {
		t.Errorf("svc-0001's calls %+v", got)
	}
	p.Lookups = apibudget.Calls{GitHubReads: 1000}
	md := p.Markdown("", 20000)
	for _, s := range []string{
		"**API calls the up needs**",
		"Harness API key (1000 per minute): 6003 calls, at least 6m",
		"GitHub 2200 (1600 reads, 600 writes, 600 content-generating)",
		"the program's lookups (every preview and up): Harness 0 (0 reads, 0 writes); GitHub 1000 (1000 reads, 0 writes, 0 content-generating)",
		"GitHub content-generating (per hour) (500 per hour): 600 calls, at least 1h",
		"; at least 1h\n",
		"- `svc-0001`: Harness 5",
	} {
		if !strings.Contains(md, s) {
			t.Errorf("the summary lacks %q:\n%s", s, md)
		}
	}
}
