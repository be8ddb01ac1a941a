package adopt

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"

	"github.com/company/harness-platform/harness/importid"
)

// What a preview of an empty dev declares, in part: the stack, a
// component, a project and a pipeline in it through the default Harness
// provider, a delegate token, and a GitHub organisation variable through
// its owner's explicit provider, under a component the state holds.
const (
	stackURN      = "urn:pulumi:dev::harness-platform::pulumi:pulumi:Stack::harness-platform-dev"
	foundationURN = "urn:pulumi:dev::harness-platform::harness-platform:index:Foundation::dev"
	defaultRef    = "urn:pulumi:dev::harness-platform::pulumi:providers:harness::default_0_16_0::04da6b54"
	projectURN    = "urn:pulumi:dev::harness-platform::harness-platform:index:Foundation$harness:platform/project:Project::payments"
	pipelineURN   = "urn:pulumi:dev::harness-platform::harness-platform:index:Foundation$harness:platform/pipeline:Pipeline::deploy"
	tokenURN      = "urn:pulumi:dev::harness-platform::harness-platform:index:Foundation$harness:platform/delegatetoken:Delegatetoken::dev-token"
	githubURN     = "urn:pulumi:dev::harness-platform::harness-platform:index:GitHub::company"
	ownerURN      = "urn:pulumi:dev::harness-platform::pulumi:providers:github::github-company"
	variableURN   = "urn:pulumi:dev::harness-platform::harness-platform:index:GitHub$github:index/actionsOrganizationVariable:ActionsOrganizationVariable::webhook"
)

var plan = []Declared{
	{URN: stackURN, Type: "pulumi:pulumi:Stack", Create: true},
	{URN: foundationURN, Type: "harness-platform:index:Foundation", Parent: stackURN, Create: true},
	{URN: projectURN, Type: "harness:platform/project:Project", Parent: foundationURN, Provider: defaultRef, Create: true,
		Inputs: map[string]any{"orgId": "acme", "identifier": "payments", "name": "payments"}},
	{URN: pipelineURN, Type: "harness:platform/pipeline:Pipeline", Parent: foundationURN, Provider: defaultRef, Create: true,
		Inputs: map[string]any{"orgId": "acme", "projectId": "payments", "identifier": "deploy", "yaml": "pipeline: {}\n"}},
	{URN: tokenURN, Type: "harness:platform/delegatetoken:Delegatetoken", Parent: foundationURN, Provider: defaultRef, Create: true,
		Inputs: map[string]any{"orgId": "acme", "name": "dev-token"}},
	{URN: githubURN, Type: "harness-platform:index:GitHub", Parent: stackURN},
	{URN: ownerURN, Type: "pulumi:providers:github", Parent: stackURN, Create: true,
		Inputs: map[string]any{"owner": "company", "version": "6.4.0"}},
	{URN: variableURN, Type: importid.GitHubOrgVariable, Parent: githubURN, Provider: ownerURN + "::c3e2", Create: true,
		Inputs: map[string]any{"variableName": "WEBHOOK", "value": "https://hooks", "visibility": "selected", "selectedRepositoryIds": []any{1.0, 2.0}}},
}

func TestDeclaredBy(t *testing.T) {
	e := apitype.EngineEvent{ResourcePreEvent: &apitype.ResourcePreEvent{Metadata: apitype.StepEventMetadata{
		Op: apitype.OpCreate, URN: pipelineURN, Type: "harness:platform/pipeline:Pipeline",
		New: &apitype.StepEventStateMetadata{Parent: foundationURN, Provider: defaultRef, Inputs: plan[3].Inputs},
	}}}
	got, ok := DeclaredBy(e)
	if !ok {
		t.Fatal("a resource's pre-event declares nothing")
	}
	if diff := cmp.Diff(plan[3], got); diff != "" {
		t.Errorf("DeclaredBy (-want +got):\n%s", diff)
	}
	if got.ImportID() != "acme/payments/deploy" {
		t.Errorf("import ID %q, want acme/payments/deploy", got.ImportID())
	}
	if _, ok := DeclaredBy(apitype.EngineEvent{PreludeEvent: &apitype.PreludeEvent{}}); ok {
		t.Error("a prelude declares a resource")
	}
}

// A probe looks up what the stack would create through the default
// provider, and lists each GitHub owner's variables; what the state holds
// already is not asked about.
func TestProbeAsksAboutWhatTheStackCreates(t *testing.T) {
	p, err := NewRun(false).Probe(plan)
	if err != nil {
		t.Fatal(err)
	}
	var lookups []string
	for _, d := range p.lookups {
		lookups = append(lookups, d.URN)
	}
	if want := []string{projectURN, pipelineURN, tokenURN}; !slices.Equal(lookups, want) {
		t.Errorf("lookups %v, want %v", lookups, want)
	}
	if p.version != "0.16.0" || len(p.lists) != 0 {
		t.Errorf("version %q, listings %v: want 0.16.0 and none without listing", p.version, p.lists)
	}
	if len(p.github) != 1 || p.github[0].provider.URN != ownerURN || len(p.github[0].variables) != 1 {
		t.Errorf("GitHub probes %+v, want the variable under its owner's provider", p.github)
	}

	held := slices.Clone(plan)
	for i := range held {
		held[i].Create = false
	}
	if p, err := NewRun(false).Probe(held); err != nil || p != nil {
		t.Errorf("probe of a stack whose state holds everything: %+v, %v; want none", p, err)
	}
}

// A run lists each declared organisation's projects and each declared
// project's pipelines, services and environments, once across its stacks.
func TestScopes(t *testing.T) {
	r := NewRun(true)
	type call struct {
		token string
		args  string
	}
	var got []call
	for _, l := range r.scopes(plan) {
		got = append(got, call{l.Token, fmt.Sprint(l.args)})
	}
	want := []call{
		{"harness:platform/getProjectList:getProjectList", "map[orgId:acme]"},
		{"harness:platform/getPipelineList:getPipelineList", "map[orgId:acme projectId:payments]"},
		{"harness:platform/getServiceList:getServiceList", "map[orgId:acme projectId:payments]"},
		{"harness:platform/getEnvironmentList:getEnvironmentList", "map[orgId:acme projectId:payments]"},
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(call{})); diff != "" {
		t.Errorf("listings (-want +got):\n%s", diff)
	}
	if again := r.scopes(plan); len(again) != 0 {
		t.Errorf("a second stack in the same scopes lists again: %v", again)
	}
	if none := NewRun(false).scopes(plan); none != nil {
		t.Errorf("a run that does not list lists %v", none)
	}
}

// The findings: what exists is adopted, as declared or different; a
// GitHub variable is compared on what the organisation's listing shows;
// what is listed and no stack declares is reported apart.
func TestFindings(t *testing.T) {
	r := NewRun(true)
	p, err := r.Probe(plan)
	if err != nil {
		t.Fatal(err)
	}
	p.found[pipelineURN] = map[string]any{"id": "deploy", "orgId": "acme", "projectId": "payments", "identifier": "deploy", "yaml": "pipeline: {edited: true}\n"}
	p.found[projectURN] = map[string]any{"id": "payments", "orgId": "acme", "identifier": "payments", "name": "payments", "color": "#0063f7"}
	p.found[variableURN] = map[string]any{"variableName": "WEBHOOK", "value": "https://hooks", "visibility": "selected"}
	p.listed = []Adoption{
		{Type: "harness:platform/pipeline:Pipeline", ImportID: "acme/payments/deploy", Status: NotDeclared},
		{Type: "harness:platform/pipeline:Pipeline", ImportID: "acme/payments/legacy", Status: NotDeclared},
	}
	want := []Adoption{
		{Stack: "dev", URN: projectURN, Type: "harness:platform/project:Project", ImportID: "acme/payments", Status: Adopted},
		{Stack: "dev", URN: pipelineURN, Type: "harness:platform/pipeline:Pipeline", ImportID: "acme/payments/deploy", Status: Different, Fields: []string{"yaml"}},
		{Stack: "dev", URN: tokenURN, Type: "harness:platform/delegatetoken:Delegatetoken", ImportID: "acme/dev-token", Status: ToCreate},
		{Stack: "dev", URN: variableURN, Type: importid.GitHubOrgVariable, ImportID: "WEBHOOK", Status: Adopted},
	}
	if diff := cmp.Diff(want, p.Findings("dev")); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(p.listed[1:], r.Undeclared()); diff != "" {
		t.Errorf("undeclared (-want +got):\n%s", diff)
	}
}

// The import file: each adopted object by its import ID under the URN the
// program declares, with its chain of components; through the default
// provider by version, through an explicit one by reference (the provider
// created with its configuration); what the state holds by name. A
// delegate token, which the import cannot read back, is left for
// IntoState, its component in the file.
func TestImports(t *testing.T) {
	found := []Adoption{
		{URN: pipelineURN, Type: "harness:platform/pipeline:Pipeline", ImportID: "acme/payments/deploy", Status: Different},
		{URN: projectURN, Type: "harness:platform/project:Project", ImportID: "acme/payments", Status: ToCreate},
		{URN: variableURN, Type: importid.GitHubOrgVariable, ImportID: "WEBHOOK", Status: Adopted},
		{URN: tokenURN, Type: "harness:platform/delegatetoken:Delegatetoken", ImportID: "acme/dev-token", Status: Adopted},
	}
	file, unreadable := Imports(plan, found)
	want := ImportFile{
		NameTable: map[string]string{"r3": githubURN},
		Resources: []ImportResource{
			{Type: "harness-platform:index:Foundation", Name: "r1", LogicalName: "dev", Component: true},
			{Type: "harness:platform/pipeline:Pipeline", Name: "r0", LogicalName: "deploy", ID: "acme/payments/deploy", Parent: "r1", Version: "0.16.0"},
			{Type: "pulumi:providers:github", Name: "r4", LogicalName: "github-company", Version: "6.4.0", Inputs: map[string]any{"owner": "company", "version": "6.4.0"}},
			{Type: importid.GitHubOrgVariable, Name: "r2", LogicalName: "webhook", ID: "WEBHOOK", Parent: "r3", Provider: "r4"},
		},
	}
	if diff := cmp.Diff(want, file); diff != "" {
		t.Errorf("import file (-want +got):\n%s", diff)
	}
	if len(unreadable) != 1 || unreadable[0].URN != tokenURN {
		t.Errorf("adopted through the state: %v, want the delegate token", unreadable)
	}
}

// A token is written into the state under its provider there, by its
// name, for a refresh to read back.
func TestIntoState(t *testing.T) {
	provider := "urn:pulumi:dev::harness-platform::pulumi:providers:harness::default_0_16_0"
	deployment := map[string]any{"resources": []any{
		map[string]any{"urn": stackURN, "type": "pulumi:pulumi:Stack"},
		map[string]any{"urn": provider, "type": "pulumi:providers:harness", "id": "9f1e"},
	}}
	token := plan[4]
	targets, err := IntoState(deployment, []Declared{token})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(targets, []string{tokenURN}) {
		t.Errorf("targets %v, want the token", targets)
	}
	resources := deployment["resources"].([]any)
	want := map[string]any{"urn": tokenURN, "custom": true, "type": token.Type, "id": "dev-token", "parent": foundationURN,
		"provider": provider + "::9f1e", "inputs": token.Inputs, "outputs": token.Inputs}
	if diff := cmp.Diff(want, resources[len(resources)-1]); diff != "" {
		t.Errorf("state entry (-want +got):\n%s", diff)
	}

	if _, err := IntoState(map[string]any{}, []Declared{token}); err == nil {
		t.Error("a token whose provider is not in the state was written")
	}
}

// An object is "different" only where the provider's Diff would update
// it: what Harness or the provider fills in (a principal's scope level,
// an SDKv2 block's unset attributes read back as [] or "") is not a
// difference; a declared value the object holds otherwise is, nested or
// not.
func TestDifferingAsTheProviderDiffs(t *testing.T) {
	for _, c := range []struct {
		name            string
		declared, state map[string]any
		want            []string
	}{
		{"a principal's scope level read back",
			map[string]any{"principals": []any{map[string]any{"identifier": "team_a", "type": "USER_GROUP"}}},
			map[string]any{"principals": []any{map[string]any{"identifier": "team_a", "type": "USER_GROUP", "scopeLevel": "project"}}}, nil},
		{"an unset block attribute read back empty",
			map[string]any{"credentials": map[string]any{"http": map[string]any{"username": "bot", "tokenRef": "account.gh"}}},
			map[string]any{"credentials": map[string]any{"http": map[string]any{"username": "bot", "tokenRef": "account.gh", "anonymouses": []any{}, "usernameRef": ""}}}, nil},
		{"unset lists of a monitored service",
			map[string]any{"request": map[string]any{"name": "m", "changeSources": []any{}}},
			map[string]any{"request": map[string]any{"name": "m", "dependencies": []any{}}}, nil},
		{"an empty declared string against an absent one", map[string]any{"description": ""}, map[string]any{}, nil},
		{"a nested value edited by hand",
			map[string]any{"principals": []any{map[string]any{"identifier": "team_a", "type": "USER_GROUP"}}},
			map[string]any{"principals": []any{map[string]any{"identifier": "team_b", "type": "USER_GROUP", "scopeLevel": "project"}}}, []string{"principals"}},
		{"a principal added by hand",
			map[string]any{"principals": []any{map[string]any{"identifier": "team_a"}}},
			map[string]any{"principals": []any{map[string]any{"identifier": "team_a"}, map[string]any{"identifier": "team_b"}}}, []string{"principals"}},
		{"a declared value missing", map[string]any{"description": "d", "name": "n"}, map[string]any{"name": "n"}, []string{"description"}},
		{"a number as JSON reads it", map[string]any{"replicas": 2}, map[string]any{"replicas": 2.0}, nil},
		{"a value the preview does not know yet (an object still to create gives it)",
			map[string]any{"inheritFromDelegate": map[string]any{"delegateSelectors": []any{plugin.UnknownStringValue}}},
			map[string]any{"inheritFromDelegate": map[string]any{"delegateSelectors": []any{"dev-euw1"}}}, nil},
		{"a secret, which the preview masks",
			map[string]any{"value": "[secret]"}, map[string]any{"value": "s3cr3t"}, nil},
	} {
		if got := differing(c.declared, c.state); !slices.Equal(got, c.want) {
			t.Errorf("%s: differing %v, want %v", c.name, got, c.want)
		}
	}
}
