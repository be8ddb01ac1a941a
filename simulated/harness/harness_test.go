package harness

import (
	"context"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/company/harness-platform/harness/importid"
	"github.com/company/harness-platform/harness/provider"
	"github.com/company/harness-platform/internal/bindings"
	"github.com/company/harness-platform/policy/rego"
	"github.com/company/harness-platform/simulated/core"
)

func harnessBehavior(t *testing.T) Behavior {
	facts, constraints, err := provider.Load()
	if err != nil {
		t.Fatal(err)
	}
	return New(facts, constraints)
}

func harnessProvider(t *testing.T) *core.Provider {
	cloud, err := core.OpenCloud(t.TempDir(), "harness")
	if err != nil {
		t.Fatal(err)
	}
	return core.NewProvider(core.Config{Name: "harness", Version: Version, Cloud: cloud, Behavior: harnessBehavior(t)})
}

func check(t *testing.T, p *core.Provider, typ, name string, in map[string]any) (resource.PropertyMap, []*pulumirpc.CheckFailure) {
	news, err := core.Marshal(resource.NewPropertyMapFromMap(in))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := p.Check(context.Background(), &pulumirpc.CheckRequest{Type: typ, Name: name, News: news})
	if err != nil {
		t.Fatal(err)
	}
	out, err := core.Unmarshal(resp.GetInputs())
	if err != nil {
		t.Fatal(err)
	}
	return out, resp.GetFailures()
}

// Check refuses the conflicting connector in the real provider's words,
// and returns the defaults the real provider fills in.
func TestHarnessCheckEnforcesConstraints(t *testing.T) {
	p := harnessProvider(t)
	_, failures := check(t, p, "harness:platform/kubernetesConnector:KubernetesConnector", "k8s_int_stable_euw1", map[string]any{
		"identifier": "k8s_int_stable_euw1", "orgId": "default", "projectId": "platform",
		"delegateSelectors":   []any{"d"},
		"inheritFromDelegate": map[string]any{"delegateSelectors": []any{"d"}},
	})
	want := `Conflicting configuration arguments. "delegate_selectors": conflicts with inherit_from_delegate. Examine values at 'k8s_int_stable_euw1.delegateSelectors'.`
	if len(failures) != 1 || failures[0].GetReason() != want {
		t.Fatalf("failures %v, want %q", failures, want)
	}
	out, failures := check(t, p, "harness:platform/githubConnector:GithubConnector", "gh", map[string]any{
		"identifier": "gh", "orgId": "default", "projectId": "platform", "connectionType": "Repo", "url": "https://github.com/x/y",
		"credentials": map[string]any{"http": map[string]any{"username": "bot", "tokenRef": "tok"}},
	})
	if len(failures) != 0 {
		t.Fatalf("a valid connector was refused: %v", failures)
	}
	if v := out["executeOnDelegate"]; !v.IsBool() || !v.BoolValue() {
		t.Errorf("Check did not fill executeOnDelegate: %v", out)
	}
}

// A Prometheus health source whose spec the provider cannot read is
// refused; one it can read is accepted.
func TestHarnessCheckReadsHealthSources(t *testing.T) {
	p := harnessProvider(t)
	ms := func(spec string) map[string]any {
		return map[string]any{"identifier": "svc_prod", "orgId": "default", "projectId": "platform", "request": map[string]any{
			"name": "svc-prod", "type": "Application", "serviceRef": "svc", "environmentRef": "prod",
			"healthSources": []any{map[string]any{"identifier": "prometheus", "name": "Prometheus", "type": "Prometheus", "spec": spec}},
		}}
	}
	good := `{"connectorRef":"prometheus_prod","metricDefinitions":[{"identifier":"error_rate","metricName":"Error rate","query":"sum(x{namespace=\"a\"})"}]}`
	if _, failures := check(t, p, "harness:platform/monitoredService:MonitoredService", "svc_prod", ms(good)); len(failures) != 0 {
		t.Fatalf("a readable health source was refused: %v", failures)
	}
	for name, spec := range map[string]string{
		"not JSON":          `connectorRef: x`,
		"no connector":      `{"metricDefinitions":[]}`,
		"unfiltered query":  `{"connectorRef":"c","metricDefinitions":[{"identifier":"e","metricName":"E","query":"sum(x)"}]}`,
		"no metric defined": `{"connectorRef":"c"}`,
	} {
		if _, failures := check(t, p, "harness:platform/monitoredService:MonitoredService", "svc_prod", ms(spec)); len(failures) != 1 {
			t.Errorf("%s: failures %v, want one", name, failures)
		}
	}
}

// Diff replaces on a forceNew change and updates otherwise.
func TestHarnessDiffReplacesOnForceNew(t *testing.T) {
	p := harnessProvider(t)
	diff := func(olds, news map[string]any) *pulumirpc.DiffResponse {
		o, _ := core.Marshal(resource.NewPropertyMapFromMap(olds))
		n, _ := core.Marshal(resource.NewPropertyMapFromMap(news))
		resp, err := p.Diff(context.Background(), &pulumirpc.DiffRequest{Type: "harness:platform/pipeline:Pipeline", OldInputs: o, News: n})
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	base := map[string]any{"identifier": "a", "orgId": "o", "projectId": "p", "yaml": "x"}
	changedYAML := map[string]any{"identifier": "a", "orgId": "o", "projectId": "p", "yaml": "y"}
	if r := diff(base, changedYAML); len(r.GetReplaces()) != 0 || r.GetChanges() != pulumirpc.DiffResponse_DIFF_SOME {
		t.Errorf("a yaml change: %v", r)
	}
	moved := map[string]any{"identifier": "a", "orgId": "o", "projectId": "q", "yaml": "x"}
	if r := diff(base, moved); strings.Join(r.GetReplaces(), ",") != "projectId" {
		t.Errorf("a project change must replace: %v", r)
	}
}

// hasPath says whether v has the property path, where "a[]" steps into
// every element of the array a (and there must be one).
func hasPath(v resource.PropertyValue, path []string) bool {
	if len(path) == 0 {
		return true
	}
	if !v.IsObject() {
		return false
	}
	key, each := strings.CutSuffix(path[0], "[]")
	next, ok := v.ObjectValue()[resource.PropertyKey(key)]
	if !ok {
		return false
	}
	if !each {
		return hasPath(next, path[1:])
	}
	if !next.IsArray() || len(next.ArrayValue()) == 0 {
		return false
	}
	for _, e := range next.ArrayValue() {
		if !hasPath(e, path[1:]) {
			return false
		}
	}
	return true
}

// Every property only the real provider sets, on every Harness type the
// project binds, is in the state the simulation writes: a real preview
// against simulated state would otherwise show it added.
func TestHarnessCreateWritesComputedOnlyProperties(t *testing.T) {
	_, constraints, err := provider.Load()
	if err != nil {
		t.Fatal(err)
	}
	inputs := resource.NewPropertyMapFromMap(map[string]any{"identifier": "x", "name": "x", "parentIdentifier": "Root", "orgId": "o", "projectId": "p"})
	for token := range bindings.Resources {
		computed := Behavior{}.Computed(token, "x", inputs)
		for _, prop := range constraints.ComputedOnly(token) {
			if !hasPath(resource.NewObjectProperty(computed), strings.Split(prop, ".")) {
				t.Errorf("%s: the provider computes %q; the simulation does not (add it to computedValues)", token, prop)
			}
		}
	}
	p := harnessProvider(t)
	props, err := core.Marshal(resource.NewPropertyMapFromMap(map[string]any{"identifier": "platform", "orgId": "default", "name": "Platform"}))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := p.Create(context.Background(), &pulumirpc.CreateRequest{Type: "harness:platform/project:Project", Name: "platform", Properties: props})
	if err != nil {
		t.Fatal(err)
	}
	out, err := core.Unmarshal(resp.GetProperties())
	if err != nil {
		t.Fatal(err)
	}
	if !out["modules"].IsArray() || len(out["modules"].ArrayValue()) == 0 {
		t.Errorf("created project without modules: %v", out)
	}
	preview, err := p.Create(context.Background(), &pulumirpc.CreateRequest{Type: "harness:platform/project:Project", Name: "other", Properties: props, Preview: true})
	if err != nil {
		t.Fatal(err)
	}
	if out, _ := core.Unmarshal(preview.GetProperties()); !out["modules"].IsComputed() {
		t.Errorf("in a preview the project's modules must be unknown, got %v", out["modules"])
	}
}

// Like Harness, the simulation refuses to delete a service a pipeline
// still deploys, and deletes it once the pipeline is gone.
func TestHarnessRefusesDeletingReferencedService(t *testing.T) {
	p := harnessProvider(t)
	ctx := context.Background()
	// The engine deletes an object by its id, with its state.
	type object struct {
		id    string
		state *structpb.Struct
	}
	create := func(typ, name string, in map[string]any) object {
		props, err := core.Marshal(resource.NewPropertyMapFromMap(in))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := p.Create(ctx, &pulumirpc.CreateRequest{Type: typ, Name: name, Properties: props})
		if err != nil {
			t.Fatal(err)
		}
		if resp.GetId() != in["identifier"] {
			t.Fatalf("the provider's id of %s is %q, want its identifier %q", typ, resp.GetId(), in["identifier"])
		}
		return object{resp.GetId(), resp.GetProperties()}
	}
	svc := create("harness:platform/service:Service", "svc", map[string]any{"identifier": "svc", "orgId": "default", "projectId": "platform"})
	other := create("harness:platform/service:Service", "svc2", map[string]any{"identifier": "svc2", "orgId": "default", "projectId": "platform"})
	pipe := create("harness:platform/pipeline:Pipeline", "svc_prod", map[string]any{"identifier": "svc_prod", "orgId": "default", "projectId": "platform",
		"yaml": "pipeline:\n  stages:\n    - stage:\n        spec:\n          service:\n            serviceRef: svc\n"})
	del := func(typ string, o object) error {
		_, err := p.Delete(ctx, &pulumirpc.DeleteRequest{Type: typ, Id: o.id, Properties: o.state})
		return err
	}
	if err := del("harness:platform/service:Service", svc); err == nil || !strings.Contains(err.Error(), "referenced by pipeline(s) svc_prod") {
		t.Fatalf("deleting a referenced service: %v", err)
	}
	if err := del("harness:platform/service:Service", other); err != nil {
		t.Fatalf("deleting an unreferenced service (svc2 is a prefix match only): %v", err)
	}
	if err := del("harness:platform/pipeline:Pipeline", pipe); err != nil {
		t.Fatal(err)
	}
	if err := del("harness:platform/service:Service", svc); err != nil {
		t.Fatalf("deleting the service once its pipeline is gone: %v", err)
	}
}

// A pipeline that chains another is saved only when the child exists in
// its scope and chains nothing itself.
func TestHarnessRefusesChainingWhatCannotRun(t *testing.T) {
	p := harnessProvider(t)
	ctx := context.Background()
	const typ = "harness:platform/pipeline:Pipeline"
	chain := func(child string) string {
		return "pipeline:\n  stages:\n    - stage:\n        identifier: tested_upstream\n        type: Pipeline\n        spec:\n          org: default\n          project: platform\n          pipeline: " + child + "\n"
	}
	create := func(id, y string) error {
		props, err := core.Marshal(resource.NewPropertyMapFromMap(map[string]any{"identifier": id, "orgId": "default", "projectId": "platform", "yaml": y}))
		if err != nil {
			t.Fatal(err)
		}
		_, err = p.Create(ctx, &pulumirpc.CreateRequest{Type: typ, Name: id, Properties: props})
		return err
	}
	if err := create("svc_prod", chain("svc_pre_stable")); err == nil || !strings.Contains(err.Error(), "stage tested_upstream: pipeline svc_pre_stable does not exist in default/platform") {
		t.Fatalf("chaining a pipeline that does not exist: %v", err)
	}
	if err := create("svc_pre_stable", "pipeline:\n  stages:\n    - stage:\n        identifier: deploy\n        type: Deployment\n"); err != nil {
		t.Fatal(err)
	}
	if err := create("svc_prod", chain("svc_pre_stable")); err != nil {
		t.Fatalf("chaining an existing pipeline: %v", err)
	}
	if err := create("svc_promote", chain("svc_prod")); err == nil || !strings.Contains(err.Error(), "pipeline svc_prod has a Pipeline stage itself") {
		t.Fatalf("chaining a pipeline that chains: %v", err)
	}
}

// As the real provider: an object's id is its bare identifier; a refresh
// reads it by that id and its state; an import reads it by the import ID
// in the provider's format (package importid), reporting the identifier as
// its id and its inputs as the state holds them; an ID of another form is
// refused, one that names nothing reads as gone.
func TestHarnessIDsAndImportAsTheProvider(t *testing.T) {
	p := harnessProvider(t)
	ctx := context.Background()
	typ := "harness:platform/pipeline:Pipeline"
	in := resource.NewPropertyMapFromMap(map[string]any{"identifier": "svc_prod", "orgId": "default", "projectId": "platform", "name": "svc prod", "yaml": "pipeline: {}\n"})
	props, _ := core.Marshal(in)
	created, err := p.Create(ctx, &pulumirpc.CreateRequest{Type: typ, Name: "svc_prod", Properties: props})
	if err != nil {
		t.Fatal(err)
	}
	if created.GetId() != "svc_prod" {
		t.Fatalf("id %q, want the identifier", created.GetId())
	}
	refreshed, err := p.Read(ctx, &pulumirpc.ReadRequest{Type: typ, Id: "svc_prod", Properties: created.GetProperties(), Inputs: props})
	if err != nil || refreshed.GetId() != "svc_prod" || refreshed.GetProperties() == nil {
		t.Fatalf("refresh by id and state: %v, %v", refreshed, err)
	}
	importID, err := importid.Format(typ, map[string]string{"orgId": "default", "projectId": "platform", "identifier": "svc_prod"})
	if err != nil {
		t.Fatal(err)
	}
	imported, err := p.Read(ctx, &pulumirpc.ReadRequest{Type: typ, Id: importID})
	if err != nil {
		t.Fatalf("import by %q: %v", importID, err)
	}
	if imported.GetId() != "svc_prod" {
		t.Errorf("an import reports id %q, want the identifier", imported.GetId())
	}
	inputs, _ := core.Unmarshal(imported.GetInputs())
	if !inputs.DeepEquals(in) {
		t.Errorf("an import reports inputs %v, want %v", inputs, in)
	}
	if r, err := p.Read(ctx, &pulumirpc.ReadRequest{Type: typ, Id: "default/platform/nothing"}); err != nil || r.GetId() != "" {
		t.Errorf("importing an object that does not exist: %v, %v; want it read as gone", r, err)
	}
	if _, err := p.Read(ctx, &pulumirpc.ReadRequest{Type: typ, Id: "svc_prod"}); err == nil {
		t.Error("an import by a bare identifier (not the provider's org/project/identifier) was accepted")
	}
}

// The list data sources answer as the provider's: one scope's objects, a
// page at a time, sorted; no id when the scope holds none.
func TestHarnessListsAsTheProvider(t *testing.T) {
	p := harnessProvider(t)
	ctx := context.Background()
	typ := "harness:platform/pipeline:Pipeline"
	for i, scope := range [][2]string{{"default", "payments"}, {"default", "payments"}, {"default", "payments"}, {"default", "search"}, {"other", "payments"}} {
		in := resource.NewPropertyMapFromMap(map[string]any{"identifier": "p" + string(rune('a'+i)), "orgId": scope[0], "projectId": scope[1],
			"name": "pipeline", "yaml": "pipeline: {}\n"})
		props, _ := core.Marshal(in)
		if _, err := p.Create(ctx, &pulumirpc.CreateRequest{Type: typ, Name: "p", Properties: props}); err != nil {
			t.Fatal(err)
		}
	}
	list := func(args map[string]any) resource.PropertyMap {
		t.Helper()
		in, _ := core.Marshal(resource.NewPropertyMapFromMap(args))
		resp, err := p.Invoke(ctx, &pulumirpc.InvokeRequest{Tok: "harness:platform/getPipelineList:getPipelineList", Args: in})
		if err != nil || len(resp.GetFailures()) > 0 {
			t.Fatalf("list %v: %v %v", args, err, resp.GetFailures())
		}
		out, _ := core.Unmarshal(resp.GetReturn())
		return out
	}
	identifiers := func(out resource.PropertyMap) []string {
		var ids []string
		if v, ok := out["pipelines"]; ok {
			for _, e := range v.ArrayValue() {
				ids = append(ids, e.ObjectValue()["identifier"].StringValue())
			}
		}
		return ids
	}
	if got := identifiers(list(map[string]any{"orgId": "default", "projectId": "payments", "page": 0, "limit": 2})); strings.Join(got, ",") != "pa,pb" {
		t.Errorf("first page %v, want pa,pb", got)
	}
	if got := identifiers(list(map[string]any{"orgId": "default", "projectId": "payments", "page": 1, "limit": 2})); strings.Join(got, ",") != "pc" {
		t.Errorf("second page %v, want pc", got)
	}
	empty := list(map[string]any{"orgId": "default", "projectId": "nothing", "page": 0, "limit": 2})
	if got := identifiers(empty); len(got) != 0 || empty["id"].StringValue() != "" {
		t.Errorf("an empty project lists %v with id %v, want nothing and no id", got, empty["id"])
	}
}

// The state holds what the bridged provider's holds for optional nested
// properties left unset ([] and "", a principal's scope level), and the
// diff, like the bridged provider's, holds them equal to unset: an
// object read back (an import, a refresh) is not changed by the next up.
func TestHarnessNestedStateAsTheProvider(t *testing.T) {
	p := harnessProvider(t)
	ctx := context.Background()
	typ := "harness:platform/monitoredService:MonitoredService"
	in := resource.NewPropertyMapFromMap(map[string]any{"identifier": "svc_dev", "orgId": "default", "projectId": "payments",
		"request": map[string]any{"name": "svc", "type": "Application", "serviceRef": "svc", "environmentRef": "dev",
			"healthSources": []any{map[string]any{"identifier": "prom", "name": "prom", "type": "Prometheus", "spec": "{}"}}}})
	props, _ := core.Marshal(in)
	created, err := p.Create(ctx, &pulumirpc.CreateRequest{Type: typ, Name: "svc_dev", Properties: props})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := core.Unmarshal(created.GetProperties())
	req := out["request"].ObjectValue()
	for _, k := range []resource.PropertyKey{"changeSources", "dependencies", "notificationRuleRefs"} {
		if v, ok := req[k]; !ok || !v.IsArray() || len(v.ArrayValue()) != 0 {
			t.Errorf("request.%s is %v, want [] as the provider's state holds it", k, v)
		}
	}
	if v := req["healthSources"].ArrayValue()[0].ObjectValue()["version"]; !v.IsString() || v.StringValue() != "" {
		t.Errorf("a health source's version is %v, want \"\"", v)
	}
	importID := "default/payments/svc_dev"
	imported, err := p.Read(ctx, &pulumirpc.ReadRequest{Type: typ, Id: importID})
	if err != nil {
		t.Fatal(err)
	}
	diff, err := p.Diff(ctx, &pulumirpc.DiffRequest{Type: typ, Id: "svc_dev", OldInputs: imported.GetInputs(), Olds: imported.GetProperties(), News: props})
	if err != nil {
		t.Fatal(err)
	}
	if diff.GetChanges() != pulumirpc.DiffResponse_DIFF_NONE {
		t.Errorf("the imported object differs from its own declaration in %v", diff.GetDiffs())
	}
	edited := in.Copy()
	r := edited["request"].ObjectValue().Copy()
	r["dependencies"] = resource.NewArrayProperty([]resource.PropertyValue{resource.NewObjectProperty(resource.NewPropertyMapFromMap(
		map[string]any{"monitoredServiceIdentifier": "db", "type": "Application"}))})
	edited["request"] = resource.NewObjectProperty(r)
	news, _ := core.Marshal(edited)
	diff, err = p.Diff(ctx, &pulumirpc.DiffRequest{Type: typ, Id: "svc_dev", OldInputs: imported.GetInputs(), Olds: imported.GetProperties(), News: news})
	if err != nil {
		t.Fatal(err)
	}
	if diff.GetChanges() != pulumirpc.DiffResponse_DIFF_SOME {
		t.Error("a dependency added to an object whose state holds none is no change")
	}

	rolesTyp := "harness:platform/roleAssignments:RoleAssignments"
	ra := resource.NewPropertyMapFromMap(map[string]any{"identifier": "ra", "orgId": "default", "projectId": "payments",
		"roleIdentifier": "_project_viewer", "resourceGroupIdentifier": "rg", "principals": []any{map[string]any{"identifier": "team", "type": "USER_GROUP"}}})
	raProps, _ := core.Marshal(ra)
	created, err = p.Create(ctx, &pulumirpc.CreateRequest{Type: rolesTyp, Name: "ra", Properties: raProps})
	if err != nil {
		t.Fatal(err)
	}
	out, _ = core.Unmarshal(created.GetProperties())
	if v := out["principals"].ArrayValue()[0].ObjectValue()["scopeLevel"]; !v.IsString() || v.StringValue() != "project" {
		t.Errorf("a principal of a project's role assignment has scope level %v, want project", v)
	}
	// The scope level is optional and computed (constraints.json
	// principals[].scopeLevel): a declaration leaving it unset keeps it.
	read, err := p.Read(ctx, &pulumirpc.ReadRequest{Type: rolesTyp, Id: "default/payments/ra"})
	if err != nil {
		t.Fatal(err)
	}
	diff, err = p.Diff(ctx, &pulumirpc.DiffRequest{Type: rolesTyp, Id: "ra", OldInputs: read.GetInputs(), Olds: read.GetProperties(), News: raProps})
	if err != nil {
		t.Fatal(err)
	}
	if diff.GetChanges() != pulumirpc.DiffResponse_DIFF_NONE {
		t.Errorf("an imported role assignment differs from its declaration in %v", diff.GetDiffs())
	}
}

// The project's on-save pipeline policies hold for every pipeline saved,
// as in Harness: a denied pipeline is refused with every message; a set of
// another project, a disabled one or a warning does not refuse.
func TestHarnessEnforcesOnSavePolicies(t *testing.T) {
	p := harnessProvider(t)
	ctx := context.Background()
	create := func(typ, id string, in map[string]any) error {
		in["identifier"] = id
		if _, ok := in["orgId"]; !ok {
			in["orgId"], in["projectId"] = "default", "platform"
		}
		props, err := core.Marshal(resource.NewPropertyMapFromMap(in))
		if err != nil {
			t.Fatal(err)
		}
		_, err = p.Create(ctx, &pulumirpc.CreateRequest{Type: typ, Name: id, Properties: props})
		return err
	}
	pipeline := func(stepType string) map[string]any {
		return map[string]any{"yaml": "pipeline:\n  identifier: x\n  stages:\n    - stage:\n        identifier: deploy\n        type: Deployment\n" +
			"        spec:\n          execution:\n            steps:\n              - step:\n                  identifier: s\n                  type: " + stepType + "\n"}
	}
	policy := rego.PipelineRules(rego.PipelineRulesSettings{PlatformGroup: "platform_team", MinApprovers: 1})
	if err := create("harness:platform/policy:Policy", "pipeline_rules", map[string]any{"rego": policy}); err != nil {
		t.Fatal(err)
	}
	set := func(id string, enabled bool, severity string, scope map[string]any) {
		in := map[string]any{"action": "onsave", "type": "pipeline", "enabled": enabled,
			"policies": []any{map[string]any{"identifier": "pipeline_rules", "severity": severity}}}
		for k, v := range scope {
			in[k] = v
		}
		if err := create("harness:platform/policySet:PolicySet", id, in); err != nil {
			t.Fatal(err)
		}
	}
	// Before any set, anything is saved.
	if err := create("harness:platform/pipeline:Pipeline", "before", pipeline("ShellScript")); err != nil {
		t.Fatalf("no policy set yet: %v", err)
	}
	set("elsewhere", true, "error", map[string]any{"orgId": "default", "projectId": "other"})
	set("off", false, "error", nil)
	set("advice", true, "warning", nil)
	if err := create("harness:platform/pipeline:Pipeline", "still", pipeline("ShellScript")); err != nil {
		t.Fatalf("sets of another project, disabled or warning only: %v", err)
	}
	set("pipeline_rules_onsave", true, "error", nil)
	err := create("harness:platform/pipeline:Pipeline", "scripted", pipeline("ShellScript"))
	if err == nil || !strings.Contains(err.Error(), "POLICY_EVALUATION_FAILURE: pipeline scripted was refused on save") ||
		!strings.Contains(err.Error(), "pipeline_rules_onsave/pipeline_rules: stage deploy: step s is a ShellScript step") {
		t.Fatalf("a script step: %v", err)
	}
	if err := create("harness:platform/pipeline:Pipeline", "rolling", pipeline("K8sRollingDeploy")); err != nil {
		t.Fatalf("a pipeline the rules allow: %v", err)
	}
}

// An import reads an object back as the bridge extracts its inputs: what
// is zero or default and not required is elided at every depth, so the
// imported inputs pass the provider's own Check (an inline service's git
// details, a connector's empty anonymous block beside its username).
func TestImportedInputsPassCheck(t *testing.T) {
	p := harnessProvider(t)
	h := harnessBehavior(t)
	for _, c := range []struct {
		typ   string
		state map[string]any
		want  map[string]any
	}{
		{"harness:platform/service:Service",
			map[string]any{"identifier": "s", "name": "s", "orgId": "default", "projectId": "platform", "description": "", "forceDelete": false,
				"gitDetails": map[string]any{"storeType": "", "branch": "", "isHarnessCodeRepo": true, "isNewBranch": false}},
			map[string]any{"identifier": "s", "name": "s", "orgId": "default", "projectId": "platform",
				"gitDetails": map[string]any{"isHarnessCodeRepo": true}}},
		{"harness:platform/githubConnector:GithubConnector",
			map[string]any{"identifier": "gh", "name": "gh", "orgId": "default", "projectId": "platform", "connectionType": "Repo", "url": "https://github.com/x/y",
				"credentials": map[string]any{"http": map[string]any{"username": "bot", "tokenRef": "tok", "anonymouses": []any{}, "usernameRef": ""}}},
			map[string]any{"identifier": "gh", "name": "gh", "orgId": "default", "projectId": "platform", "connectionType": "Repo", "url": "https://github.com/x/y",
				"credentials": map[string]any{"http": map[string]any{"username": "bot", "tokenRef": "tok"}}}},
	} {
		got := h.ImportedInputs(c.typ, resource.NewPropertyMapFromMap(c.state))
		if want := resource.NewPropertyMapFromMap(c.want); !got.DeepEquals(want) {
			t.Errorf("%s: imported inputs %v, want %v", c.typ, got.Mappable(), c.want)
		}
		if _, failures := check(t, p, c.typ, "imported", got.Mappable()); len(failures) != 0 {
			t.Errorf("%s: the imported inputs fail the provider's Check: %v", c.typ, failures)
		}
	}
}

// A template policy set (type template, action onsave) does not refuse a
// stage template the provider saves, whatever its rules deny: the
// provider's template API (the OpenAPI v1 templates endpoints) never
// evaluates template governance in harness-core (CheckSave's citations);
// CrossGuard is the gate for the program's templates. A pipeline set
// applies to pipelines, with their templates applied.
func TestProviderTemplateSavesAreNotGoverned(t *testing.T) {
	p := harnessProvider(t)
	ctx := context.Background()
	create := func(typ, id string, in map[string]any) error {
		in["identifier"] = id
		in["orgId"], in["projectId"] = "default", "platform"
		props, err := core.Marshal(resource.NewPropertyMapFromMap(in))
		if err != nil {
			t.Fatal(err)
		}
		_, err = p.Create(ctx, &pulumirpc.CreateRequest{Type: typ, Name: id, Properties: props})
		return err
	}
	template := func(id, stepType string) map[string]any {
		return map[string]any{"version": "v1", "isStable": true, "templateYaml": "template:\n  identifier: " + id + "\n  versionLabel: v1\n  type: Stage\n" +
			"  orgIdentifier: default\n  projectIdentifier: platform\n  spec:\n    type: Deployment\n    spec:\n      execution:\n        steps:\n" +
			"          - step:\n              identifier: s\n              type: " + stepType + "\n"}
	}
	settings := rego.PipelineRulesSettings{PlatformGroup: "platform_team", MinApprovers: 1}
	for id, policy := range map[string]string{"pipeline_rules": rego.PipelineRules(settings), "template_rules": rego.TemplateRules(settings)} {
		if err := create("harness:platform/policy:Policy", id, map[string]any{"rego": policy}); err != nil {
			t.Fatal(err)
		}
	}
	if err := create("harness:platform/policySet:PolicySet", "pipeline_rules_onsave", map[string]any{"action": "onsave", "type": "pipeline", "enabled": true,
		"policies": []any{map[string]any{"identifier": "pipeline_rules", "severity": "error"}}}); err != nil {
		t.Fatal(err)
	}
	if err := create(TemplateType, "scripted_before", template("scripted_before", "ShellScript")); err != nil {
		t.Fatalf("a pipeline set applied to a template: %v", err)
	}
	if err := create("harness:platform/policySet:PolicySet", "template_rules_onsave", map[string]any{"action": "onsave", "type": "template", "enabled": true,
		"policies": []any{map[string]any{"identifier": "template_rules", "severity": "error"}}}); err != nil {
		t.Fatal(err)
	}
	if err := create(TemplateType, "scripted", template("scripted", "ShellScript")); err != nil {
		t.Fatalf("a template set refused a provider's save: %v", err)
	}
	if err := create(TemplateType, "rolling", template("rolling", "K8sRollingDeploy")); err != nil {
		t.Fatalf("a template the rules allow: %v", err)
	}
}
