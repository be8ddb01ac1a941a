package backstage

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/ident"
	"github.com/company/harness-platform/internal/example"
	"github.com/company/harness-platform/plan"
)

var update = flag.Bool("update", false, "rewrite backstage/templates from the catalog")

// root is the project directory: the tests run in backstage/.
const root = ".."

// The committed templates are the generated ones.
func TestTemplatesAreGenerated(t *testing.T) {
	want, err := Templates(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range sortedKeys(want) {
		path := filepath.Join(root, name)
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, want[name], 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(got, want[name]) {
			t.Errorf("%s is stale or missing (the catalog or its schema changed); run `go test ./backstage -update` and review the diff", name)
		}
	}
}

// Every field of a service entry is asked by the form or left to the
// platform team with a reason, so a field added to the catalog fails here
// until someone decides; and the form requires what the schema requires.
func TestFormCoversTheSchema(t *testing.T) {
	svc := serviceSchema(t)
	asked := map[string]bool{}
	for _, p := range pages {
		for _, k := range p.keys {
			if asked[k] {
				t.Errorf("%s is on two pages", k)
			}
			asked[k] = true
		}
	}
	for _, k := range sortedKeys(svc.Properties) {
		switch _, left := notAsked[k]; {
		case asked[k] && left:
			t.Errorf("%s is both asked and left to the platform team (backstage/generate.go: pages, notAsked)", k)
		case !asked[k] && !left:
			t.Errorf("%s: the field %s of a service entry is neither on a page of the onboarding form nor in notAsked; add it to pages or to notAsked with the reason in backstage/generate.go, then run `go test ./backstage -update`",
				catalog.SchemaFiles[catalog.ServicesFile], k)
		}
	}
	for k := range asked {
		if svc.Properties[k] == nil {
			t.Errorf("the form asks %s, which is no field of a service entry; remove it from pages in backstage/generate.go", k)
		}
	}
	for k := range notAsked {
		if svc.Properties[k] == nil {
			t.Errorf("notAsked names %s, which is no field of a service entry; remove it", k)
		}
		if slices.Contains(svc.Required, k) {
			t.Errorf("%s is required by the catalog: the form must ask it", k)
		}
	}
	var required []string
	for _, pg := range formPages(t, OnboardFile) {
		req, _ := pg["required"].([]any)
		for _, r := range req {
			required = append(required, r.(string))
		}
	}
	if !slices.Equal(required, svc.Required) {
		t.Errorf("the form requires %v, the catalog %v", required, svc.Required)
	}
}

// Backstage's own packages accept both templates and the catalog-info.yaml
// the program writes for every service that asks for one.
func TestBackstageAcceptsTheFiles(t *testing.T) {
	t.Parallel()
	c := load(t)
	dir := t.TempDir()
	files := []string{filepath.Join(root, OnboardFile), filepath.Join(root, DeployFile)}
	infos := catalogInfos(t, c)
	for _, ci := range infos {
		f := filepath.Join(dir, ci.Service+"-catalog-info.yaml")
		if err := os.WriteFile(f, []byte(ci.Content), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	if len(infos) == 0 {
		t.Fatal("no service of the example catalog has backstage: true: nothing checks the catalog-info.yaml shape")
	}
	out, err := check(t, append([]string{"validate"}, files...)...)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if want := fmt.Sprintf("ok: %d entities in %d file(s)", len(files), len(files)); !strings.Contains(out, want) {
		t.Errorf("want %q, got:\n%s", want, out)
	}
}

// A bad template is reported at its file and line, with the fix.
func TestTheCheckReportsBadDocuments(t *testing.T) {
	t.Parallel()
	good, err := os.ReadFile(filepath.Join(root, OnboardFile))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, old, new string
		want           string // in the problem's message
		fix            string // in its fix
		above          int    // how far above the change it may be reported: a missing key at its mapping
	}{
		{"unknown action", "action: fetch:plain:file", "action: fetch:plain:files",
			"action fetch:plain:files is not one the Backstage instance installs", "use one of", 0},
		{"no action", "action: publish:github:pull-request", "actions: publish:github:pull-request",
			"/spec/steps/2 must have required property 'action'", "add action", 2},
		{"bad name", "name: " + OnboardName, "name: onboard service",
			"metadata.name is not valid", "write it as", 0},
		{"undeclared parameter", "Onboard ${{ parameters.name }}", "Onboard ${{ parameters.nam }}",
			"parameters.nam is not a field of the form", "add nam to a page", 0},
		{"unknown filter", "${{ parameters.team | dump }}", "${{ parameters.team | dumpp }}",
			`Unknown template filter "dumpp"`, "use one of the scaffolder's filters", 0},
		{"later step", "${{ steps.openPullRequest.output.remoteUrl }}", "${{ steps.openPR.output.remoteUrl }}",
			"steps.openPR is no step of the template", "name an earlier step", 0},
		{"dashed step id", "id: addEntry", "id: add-entry",
			"step id add-entry is not an identifier", "camelCase", 0},
		{"foreign root field", "apiVersion: scaffolder", "steps: []\napiVersion: scaffolder",
			"unknown root field steps", "move it under spec", 0},
	}
	dir := t.TempDir()
	var files []string
	lines, above := map[string]int{}, map[string]int{}
	for i, tc := range cases {
		if !bytes.Contains(good, []byte(tc.old)) {
			t.Fatalf("%s: %q is not in %s", tc.name, tc.old, OnboardFile)
		}
		bad := bytes.Replace(good, []byte(tc.old), []byte(tc.new), 1)
		f := filepath.Join(dir, fmt.Sprintf("bad%d.yaml", i))
		if err := os.WriteFile(f, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
		lines[f] = bytes.Count(bad[:bytes.Index(bad, []byte(tc.new))], []byte("\n")) + 1
		above[f] = tc.above
	}
	out, err := check(t, append([]string{"validate"}, files...)...)
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("want exit status 1, got %v:\n%s", err, out)
	}
	for i, tc := range cases {
		f := files[i]
		var found bool
		for _, l := range strings.Split(out, "\n") {
			rest, ok := strings.CutPrefix(l, f+":")
			if !ok || !strings.Contains(rest, tc.want) {
				continue
			}
			found = true
			var line, col int
			if _, err := fmt.Sscanf(rest, "%d:%d:", &line, &col); err != nil || line < lines[f]-above[f] || line > lines[f] || col < 1 {
				t.Errorf("%s: reported at line %d col %d, the change is on line %d: %s", tc.name, line, col, lines[f], l)
			}
			if _, fix, _ := strings.Cut(rest, "; "); !strings.Contains(fix, tc.fix) {
				t.Errorf("%s: want a fix with %q: %s", tc.name, tc.fix, l)
			}
		}
		if !found {
			t.Errorf("%s: no problem %q reported for %s:\n%s", tc.name, tc.want, f, out)
		}
	}
}

// Answers of the onboarding form: what the form accepts, turned into the
// entry by the scaffolder's template engine and appended to the real
// catalog/services.yaml, passes the catalog's JSON Schema and the
// catalog's validation; what it refuses, the catalog refuses too.
func TestOnboardingAnswers(t *testing.T) {
	t.Parallel()
	// The example's organisation and registry, as the files name them.
	l := func(s string) string { return example.L(t, s) }
	good := []struct {
		name    string
		answers map[string]any
		check   func(*testing.T, catalog.Service)
	}{
		{"required only", map[string]any{"name": "fraud-scorer", "team": "payments", "archetype": "api",
			"repo": l("company/fraud"), "image": l("registry.company.io/payments/fraud-scorer"), "backstage": true},
			func(t *testing.T, s catalog.Service) {
				if !s.Backstage || len(s.Environments) != 3 || s.Replicas != 3 {
					t.Errorf("got %+v", s)
				}
			}},
		{"every field", map[string]any{"name": "fraud-scorer", "team": "payments", "archetype": "worker",
			"repo": l("company/fraud"), "image": l("registry.company.io/payments/fraud-scorer"),
			"description":  `Scores "card" payments: fast, # not a comment`,
			"environments": []any{"dev", "staging"}, "regions": []any{"euw2"},
			"overrides": map[string]any{"productionStrategy": "rolling", "replicas": 4, "verification": false,
				"resources": map[string]any{"requests": map[string]any{}, "limits": map[string]any{"cpu": "2", "memory": "1Gi"}}},
			"tags": map[string]any{"tier": "critical", "cost-center": "42"}, "backstage": false},
			func(t *testing.T, s catalog.Service) {
				if s.Description != `Scores "card" payments: fast, # not a comment` || !slices.Equal(s.Environments, []string{"dev", "staging"}) ||
					!slices.Equal(s.Regions, []string{"euw2"}) || s.Replicas != 4 || s.Verification || s.Backstage ||
					s.ProductionStrategy != "rolling" || s.Limits != (catalog.Quantities{CPU: "2", Memory: "1Gi"}) ||
					s.Tags["cost-center"] != "42" {
					t.Errorf("got %+v", s)
				}
			}},
	}
	original := services(t)
	var answers []map[string]any
	for _, tc := range good {
		answers = append(answers, tc.answers)
	}
	goodEntries := entries(t, answers...)
	for i, tc := range good {
		t.Run(tc.name, func(t *testing.T) {
			if errs := formErrors(t, OnboardFile, tc.answers); errs != nil {
				t.Fatalf("the form refuses it: %v", errs)
			}
			entry := goodEntries[i]
			data := append(slices.Clone(original), entry...)
			if err := validateServicesSchema(t, data); err != nil {
				t.Fatalf("the catalog's JSON Schema refuses the file with the entry:\n%s\n%v", entry, err)
			}
			c, err := resolveWith(t, data)
			if err != nil {
				t.Fatalf("the catalog refuses the entry:\n%s\n%v", entry, err)
			}
			s, ok := c.Service("fraud-scorer")
			if !ok {
				t.Fatal("no fraud-scorer in the catalog")
			}
			tc.check(t, s)
		})
	}

	base := good[0].answers
	bad := []struct {
		name    string
		change  map[string]any
		catalog string // what the catalog says of the entry, "" if it cannot take the answer
	}{
		{"name not a Kubernetes name", map[string]any{"name": "Fraud_Scorer"}, "must be lower-case letters"},
		{"name too long", map[string]any{"name": strings.Repeat("a", MaxNameLength(load(t))+1)}, "shorten the service name"},
		{"unknown team", map[string]any{"team": "nobody"}, `unknown team "nobody"`},
		{"unknown archetype", map[string]any{"archetype": "batch"}, `unknown archetype "batch"`},
		{"repo not owner/name", map[string]any{"repo": "fraud"}, "is not owner/name"},
		{"image with a tag", map[string]any{"image": l("registry.company.io/payments/fraud-scorer:v1")}, "has a tag"},
		{"image of another registry", map[string]any{"image": "docker.io/payments/fraud-scorer"}, "is not in the registry"},
		{"staging without dev", map[string]any{"environments": []any{"staging"}}, `is enabled in "staging" but not in its upstream "dev"`},
		{"unknown region", map[string]any{"regions": []any{"use1"}}, `unknown region "use1"`},
		{"no replicas", map[string]any{"overrides": map[string]any{"replicas": 0}}, "replicas must be positive"},
		{"missing image", map[string]any{"image": nil}, ""},
		{"reserved word", map[string]any{"name": "status"}, `is a word Harness reserves`},
		{"name starting with a digit", map[string]any{"name": "3ds-check"}, "must start with a letter"},
	}
	answers = nil
	for _, tc := range bad {
		answers = append(answers, maps(base, tc.change))
	}
	// A service the catalog has: the form cannot know the catalog's names
	// at the time of the run, the pull request's check refuses it.
	answers = append(answers, maps(base, map[string]any{"name": "payment-service"}))
	badEntries := entries(t, answers...)
	for i, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			if errs := formErrors(t, OnboardFile, answers[i]); errs == nil {
				t.Errorf("the form accepts %v", tc.change)
			}
			if tc.catalog == "" {
				return
			}
			// The catalog, the pull request's check, refuses the same
			// entry at its file and line, with the fix.
			entry := badEntries[i]
			_, err := resolveWith(t, append(slices.Clone(original), entry...))
			line := bytes.Count(original, []byte("\n")) + 1
			if err == nil || !strings.Contains(err.Error(), tc.catalog) {
				t.Fatalf("want the catalog to say %q of\n%s\ngot %v", tc.catalog, entry, err)
			}
			for _, l := range strings.Split(err.Error(), "\n") {
				if strings.Contains(l, tc.catalog) && !strings.HasPrefix(l, catalog.ServicesFile+":") {
					t.Errorf("not at %s:<line> (the entry starts on line %d): %s", catalog.ServicesFile, line, l)
				}
			}
		})
	}

	if errs := formErrors(t, OnboardFile, answers[len(bad)]); errs != nil {
		t.Fatal(errs)
	}
	if _, err := resolveWith(t, append(slices.Clone(original), badEntries[len(bad)]...)); err == nil || !strings.Contains(err.Error(), "payment-service") {
		t.Errorf("a second payment-service passes the catalog: %v", err)
	}
}

// The form's rules for names, repositories and images say what the
// catalog's validation says, value by value.
func TestFormAgreesWithTheCatalog(t *testing.T) {
	t.Parallel()
	// The example's organisation and registry, as the files name them.
	l := func(s string) string { return example.L(t, s) }
	c := load(t)
	max := MaxNameLength(c)
	values := map[string][]string{
		"name": {"a", "fraud-scorer", "f00", "0ab", "-ab", "ab-", "a--b", "A", "a_b", "a.b", "a b",
			strings.Repeat("a", max), strings.Repeat("a", max+1), "true", "null", "org", "status", "step", "123", "3ds", "a1"},
		"repo": {l("company/fraud"), l("company/fraud.go"), "Company/Fraud_x", "fraud", l("company/"), "/fraud", "a/b/c", l("company/fr aud")},
		"image": {l("registry.company.io/payments/fraud"), l("registry.company.io/fraud"), l("registry.company.io/a/b/c-d_e.f"),
			l("registry.company.io/Payments/fraud"), l("registry.company.io/payments/fraud:v1"), l("registry.company.io/payments/fraud@sha256:") + strings.Repeat("a", 64),
			l("registry.company.io/payments//fraud"), l("registry.company.io/-fraud"), "other.io/payments/fraud", l("registry.company.io"), l("registry.company.io/a__b"), l("registry.company.io/a___b")},
	}
	original := services(t)
	base := map[string]any{"name": "fraud-scorer", "team": "payments", "archetype": "api",
		"repo": l("company/fraud"), "image": l("registry.company.io/payments/fraud-scorer")}
	type candidate struct{ field, value string }
	var cands []candidate
	var answers []map[string]any
	for _, field := range sortedKeys(values) {
		for _, v := range values[field] {
			cands = append(cands, candidate{field, v})
			answers = append(answers, maps(base, map[string]any{field: v}))
		}
	}
	for i, entry := range entries(t, answers...) {
		form := formErrors(t, OnboardFile, answers[i]) == nil
		_, err := resolveWith(t, append(slices.Clone(original), entry...))
		if form != (err == nil) {
			t.Errorf("%s %q: the form accepts it: %v; the catalog: %v", cands[i].field, cands[i].value, form, err)
		}
	}
}

// The deploy template runs the pipeline the plan declares for the service
// and environment, with the pipeline's own runtime inputs.
func TestDeployTemplate(t *testing.T) {
	t.Parallel()
	c := load(t)
	type target struct{ service, stack, region string }
	targets := []target{{"payment-service", "production", "euw1"}, {"export-scheduler", "dev", "euw2"}, {"refund-service", "staging", "euw1"}}
	var all []map[string]any
	for _, tg := range targets {
		answers := map[string]any{"service": "component:default/" + tg.service, "environment": c.Stacks[tg.stack].Environment.Identifier,
			"region": tg.region, "imageTag": "v2.3.1"}
		if errs := formErrors(t, DeployFile, answers); errs != nil {
			t.Fatalf("%v: the form refuses it: %v", tg, errs)
		}
		all = append(all, map[string]any{"parameters": answers, "environment": map[string]any{AccountParameter: "acct"},
			"steps": map[string]any{"runPipeline": map[string]any{"code": "200", "body": map[string]any{"data": map[string]any{"planExecution": map[string]any{"uuid": "exec1"}}}}}})
	}
	runs := render(t, DeployFile, all...)
	for i, tg := range targets {
		st := c.Stacks[tg.stack]
		r := runs[i]
		in := r.Steps[0].Input
		id := ident.Pipeline(tg.service, st.Environment.Identifier)
		var pipeline *plan.Pipeline
		for _, shard := range c.StacksOf(tg.stack) {
			p, err := plan.Build(c, shard)
			if err != nil {
				t.Fatal(err)
			}
			for i := range p.Deployments {
				if p.Deployments[i].Service == tg.service {
					pipeline = &p.Deployments[i].Pipeline
				}
			}
		}
		if pipeline == nil || pipeline.Identifier != id {
			t.Fatalf("%v: the plan has no pipeline %s", tg, id)
		}
		if want := HarnessProxy + "/gateway/pipeline/api/pipeline/execute/" + id; in["path"] != want {
			t.Errorf("%v: path %v, want %s", tg, in["path"], want)
		}
		root := c.Root().Foundation
		if p := in["params"].(map[string]any); p["accountIdentifier"] != "acct" || p["orgIdentifier"] != root.Org.Identifier || p["projectIdentifier"] != root.Project.Identifier {
			t.Errorf("%v: params %v", tg, p)
		}
		// The body is the pipeline's runtime input YAML: its identifier
		// and a value for each of its variables that is a runtime input.
		var body struct {
			Pipeline struct {
				Identifier string
				Variables  []struct{ Name, Type, Value string }
			}
		}
		if err := yaml.Unmarshal([]byte(in["body"].(string)), &body); err != nil || body.Pipeline.Identifier != id {
			t.Fatalf("%v: body %v: %v", tg, in["body"], err)
		}
		var declared struct {
			Pipeline struct {
				Variables []struct{ Name, Type, Value string }
			}
		}
		if err := yaml.Unmarshal([]byte(pipeline.YAML), &declared); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{plan.ImageTagInput: "v2.3.1", plan.TargetRegionInput: tg.region}
		var inputs []string
		for _, v := range declared.Pipeline.Variables {
			if strings.HasPrefix(v.Value, "<+input>") {
				inputs = append(inputs, v.Name)
				if v.Name == plan.TargetRegionInput && !strings.Contains(v.Value, tg.region) {
					t.Errorf("%v: %s allows %s", tg, v.Name, v.Value)
				}
			}
		}
		var given []string
		for _, v := range body.Pipeline.Variables {
			given = append(given, v.Name)
			if v.Type != "String" || want[v.Name] != v.Value {
				t.Errorf("%v: variable %+v", tg, v)
			}
		}
		slices.Sort(inputs)
		slices.Sort(given)
		if !slices.Equal(inputs, given) {
			t.Errorf("%v: the pipeline's runtime inputs are %v, the template gives %v", tg, inputs, given)
		}
		links := r.Output["links"].([]any)
		if url := links[0].(map[string]any)["url"]; url != plan.PipelineURL("acct", plan.Scope{OrgID: root.Org.Identifier, ProjectID: root.Project.Identifier}, id)+"/exec1/pipeline" {
			t.Errorf("%v: run link %v", tg, url)
		}
	}
	for _, bad := range []map[string]any{{"imageTag": "v1 final"}, {"imageTag": ".v1"}, {"environment": "qa"}, {"region": "use1"}, {"service": nil}} {
		answers := maps(map[string]any{"service": "component:default/payment-service", "environment": "prod", "region": "euw1", "imageTag": "v1"}, bad)
		if formErrors(t, DeployFile, answers) == nil {
			t.Errorf("the deploy form accepts %v", bad)
		}
	}
}

// A service page's deploy link (the first link of the catalog-info.yaml the
// program writes) opens this template in the foundation's Backstage
// instance with the service filled in: the scaffolder's route
// /create/templates/<namespace>/<name>, the form's first state the JSON in
// formData (useFormDataFromQuery). What it fills in, the rest answered, is
// what the form accepts, and runs the service's pipeline of the chosen
// environment, for every service with a catalog-info.yaml, in every
// environment it runs in.
func TestDeployLinkFillsTheForm(t *testing.T) {
	t.Parallel()
	c := load(t)
	base := c.Root().Foundation.BackstageURL
	if base == "" {
		t.Fatal("the example foundation has no backstageUrl: no catalog-info.yaml carries the deploy link")
	}
	var tpl struct {
		Metadata struct{ Name, Namespace string }
	}
	if err := yaml.Unmarshal(mustRead(t, filepath.Join(root, DeployFile)), &tpl); err != nil {
		t.Fatal(err)
	}
	if tpl.Metadata.Namespace == "" {
		tpl.Metadata.Namespace = "default"
	}
	type run struct{ service, ref, env, pipeline string }
	var runs []run
	var all []map[string]any
	for _, ci := range catalogInfos(t, c) {
		var entity struct {
			Kind     string
			Metadata struct {
				Name, Namespace string
				Links           []struct{ URL, Title, Icon string }
			}
		}
		if err := yaml.Unmarshal([]byte(ci.Content), &entity); err != nil {
			t.Fatal(err)
		}
		if len(entity.Metadata.Links) == 0 || entity.Metadata.Links[0].Title != plan.DeployLinkTitle {
			t.Errorf("%s: the first link is not %q: %+v", ci.Service, plan.DeployLinkTitle, entity.Metadata.Links)
			continue
		}
		link, err := url.Parse(entity.Metadata.Links[0].URL)
		if err != nil {
			t.Fatal(err)
		}
		if want := base + "/create/templates/" + tpl.Metadata.Namespace + "/" + tpl.Metadata.Name; link.Scheme+"://"+link.Host+link.Path != want {
			t.Errorf("%s: the deploy link opens %s, the template's page is %s", ci.Service, link, want)
		}
		var formData map[string]any
		if err := json.Unmarshal([]byte(link.Query().Get("formData")), &formData); err != nil {
			t.Fatalf("%s: formData of %s: %v", ci.Service, link, err)
		}
		// The EntityPicker selects the entity whose
		// stringifyEntityRef is the value: kind:namespace/name in
		// lower case, the namespace default when the entity names none.
		ns := entity.Metadata.Namespace
		if ns == "" {
			ns = "default"
		}
		ref := strings.ToLower(entity.Kind + ":" + ns + "/" + entity.Metadata.Name)
		if len(formData) != 1 || formData[plan.DeployServiceField] != ref {
			t.Errorf("%s: the link fills in %v, want {%s: %s}", ci.Service, formData, plan.DeployServiceField, ref)
		}
		s, _ := c.Service(ci.Service)
		for _, env := range s.Environments {
			e := c.Stacks[env].Environment
			answers := maps(formData, map[string]any{"environment": e.Identifier, "region": s.In[env].Regions[0], "imageTag": "v2.3.1"})
			if errs := formErrors(t, DeployFile, answers); errs != nil {
				t.Errorf("%s in %s: the form refuses the link's answers: %v", ci.Service, env, errs)
			}
			runs = append(runs, run{ci.Service, ref, env, ident.Pipeline(ci.Service, e.Identifier)})
			all = append(all, map[string]any{"parameters": answers, "environment": map[string]any{AccountParameter: "acct"},
				"steps": map[string]any{"runPipeline": map[string]any{"body": map[string]any{"data": map[string]any{"planExecution": map[string]any{"uuid": "exec1"}}}}}})
		}
	}
	if len(runs) == 0 {
		t.Fatal("no service of the example catalog has backstage: true")
	}
	for i, r := range render(t, DeployFile, all...) {
		want := runs[i]
		if len(r.FormErrors) != 0 {
			t.Errorf("%+v: the scaffolder's form refuses it: %v", want, r.FormErrors)
		}
		if path := HarnessProxy + "/gateway/pipeline/api/pipeline/execute/" + want.pipeline; r.Steps[0].Input["path"] != path {
			t.Errorf("%+v: runs %v, want %s", want, r.Steps[0].Input["path"], path)
		}
		links := r.Output["links"].([]any)
		if got := links[1].(map[string]any)["entityRef"]; got != want.ref {
			t.Errorf("%+v: the run links to %v", want, got)
		}
	}
}

// The check's own files parse in their own languages, and the lockfile
// pins what package.json asks (npm ci refuses one that does not).
func TestCheckFilesParse(t *testing.T) {
	for _, tool := range []string{"bash", "node"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	for _, cmd := range [][]string{{"bash", "-n", "check/run.sh"}, {"node", "--check", "check/check.cjs"}} {
		if out, err := exec.Command(cmd[0], cmd[1:]...).CombinedOutput(); err != nil {
			t.Errorf("%v: %v\n%s", cmd, err, out)
		}
	}
	var pkg struct{ Dependencies map[string]string }
	var lock struct {
		LockfileVersion int
		Packages        map[string]struct {
			Version      string
			Dependencies map[string]string
		}
	}
	if err := json.Unmarshal(mustRead(t, "check/package.json"), &pkg); err != nil {
		t.Fatalf("check/package.json: %v", err)
	}
	if err := json.Unmarshal(mustRead(t, "check/package-lock.json"), &lock); err != nil {
		t.Fatalf("check/package-lock.json: %v", err)
	}
	for name, version := range pkg.Dependencies {
		if got := lock.Packages["node_modules/"+name].Version; got != version {
			t.Errorf("check/package.json pins %s %s, the lockfile has %q; pin an exact version and run npm install --package-lock-only in backstage/check", name, version, got)
		}
		if lock.Packages[""].Dependencies[name] != version {
			t.Errorf("check/package-lock.json is not the lockfile of check/package.json (%s); run npm install --package-lock-only in backstage/check", name)
		}
	}
}

// ---- helpers ----

var (
	loadOnce sync.Once
	loaded   *catalog.Catalog
	loadErr  error
)

func load(t *testing.T) *catalog.Catalog {
	t.Helper()
	loadOnce.Do(func() { loaded, loadErr = catalog.Load(root) })
	if loadErr != nil {
		t.Fatal(loadErr)
	}
	return loaded
}

func serviceSchema(t *testing.T) *Schema {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, catalog.SchemaFiles[catalog.ServicesFile]))
	if err != nil {
		t.Fatal(err)
	}
	s, err := ServiceSchema(data)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func services(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, catalog.ServicesFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(data, []byte("\n")) {
		t.Fatalf("%s does not end with a newline: the onboarding template appends its entry", catalog.ServicesFile)
	}
	return data
}

// resolveWith resolves the project's files with services as
// catalog/services.yaml, as platformctl validate does.
func resolveWith(t *testing.T, services []byte) (*catalog.Catalog, error) {
	t.Helper()
	files, err := catalog.ReadFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	files[catalog.ServicesFile] = services
	return catalog.Resolve(files, nil)
}

func validateServicesSchema(t *testing.T, data []byte) error {
	t.Helper()
	schema := compile(t, catalog.SchemaFiles[catalog.ServicesFile], mustRead(t, filepath.Join(root, catalog.SchemaFiles[catalog.ServicesFile])))
	js, err := sigsyaml.YAMLToJSON(data)
	if err != nil {
		return err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		return err
	}
	return schema.Validate(v)
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func compile(t *testing.T, name string, js []byte) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft7)
	if err := c.AddResource(name, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s
}

// formPages are the parameters pages of a committed template.
func formPages(t *testing.T, file string) []map[string]any {
	t.Helper()
	var tpl struct {
		Spec struct{ Parameters []map[string]any }
	}
	if err := yaml.Unmarshal(mustRead(t, filepath.Join(root, file)), &tpl); err != nil {
		t.Fatal(err)
	}
	return tpl.Spec.Parameters
}

// formErrors validates answers against each page of a template's form as
// a JSON Schema (draft-07, as the scaffolder's form validator does): nil
// when every page accepts them.
func formErrors(t *testing.T, file string, answers map[string]any) []string {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(mustJSON(t, answers)))
	if err != nil {
		t.Fatal(err)
	}
	var errs []string
	for i, pg := range formPages(t, file) {
		s := compile(t, fmt.Sprintf("%s.page%d.json", file, i), mustJSON(t, pg))
		if err := s.Validate(v); err != nil {
			errs = append(errs, fmt.Sprintf("page %d (%s): %v", i+1, pg["title"], err))
		}
	}
	return errs
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// maps is base with change laid over it; a nil value removes the key.
func maps(base, change map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range base {
		out[k] = v
	}
	for k, v := range change {
		if v == nil {
			delete(out, k)
		} else {
			out[k] = v
		}
	}
	return out
}

type rendered struct {
	FormErrors []string `json:"formErrors"`
	Steps      []struct {
		ID     string         `json:"id"`
		Action string         `json:"action"`
		Input  map[string]any `json:"input"`
	} `json:"steps"`
	Output map[string]any `json:"output"`
}

// render renders a template's steps for each set of answers through the
// scaffolder's template engine, in one run of check.cjs render; and
// checks that its form validator (ajv) and this package's (jsonschema)
// agree on each.
func render(t *testing.T, file string, answers ...map[string]any) []rendered {
	t.Helper()
	f := filepath.Join(t.TempDir(), "answers.json")
	if err := os.WriteFile(f, mustJSON(t, answers), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := check(t, "render", filepath.Join(root, file), f)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var r []rendered
	if err := json.Unmarshal([]byte(out), &r); err != nil || len(r) != len(answers) {
		t.Fatalf("%v\n%s", err, out)
	}
	for i, a := range answers {
		params := a["parameters"].(map[string]any)
		if goErrs := formErrors(t, file, params); (goErrs == nil) != (len(r[i].FormErrors) == 0) {
			t.Errorf("the form validators disagree on %v: jsonschema %v, ajv %v", params, goErrs, r[i].FormErrors)
		}
	}
	return r
}

// entries are the texts the onboarding template appends for each set of
// answers.
func entries(t *testing.T, answers ...map[string]any) [][]byte {
	t.Helper()
	var all []map[string]any
	for _, a := range answers {
		all = append(all, map[string]any{"parameters": a, "user": map[string]any{"ref": "user:default/dan"}})
	}
	var out [][]byte
	for _, r := range render(t, OnboardFile, all...) {
		var entry []byte
		for _, s := range r.Steps {
			if s.Action == "roadiehq:utils:fs:append" && s.Input["path"] == catalog.ServicesFile {
				entry = []byte(s.Input["content"].(string))
			}
		}
		if entry == nil {
			t.Fatalf("no step appends to %s: %+v", catalog.ServicesFile, r.Steps)
		}
		out = append(out, entry)
	}
	return out
}

// check runs backstage/check/run.sh: the Node check with Backstage's
// packages, installed on first use.
func check(t *testing.T, args ...string) (string, error) {
	t.Helper()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: the Backstage check needs Node.js and npm (apt-get install nodejs npm)", tool)
		}
	}
	cmd := exec.Command(filepath.Join("check", "run.sh"), args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err != nil && stdout.Len() == 0 {
		return stderr.String(), err
	}
	return stdout.String(), err
}

// catalogInfo is a service's catalog-info.yaml as the program writes it.
type catalogInfo struct{ Service, Content string }

// catalogInfos are the catalog-info.yaml files the example catalog's
// stacks write, one per service (the first stack to write one; every
// stack writes the same), in the stacks' order.
func catalogInfos(t *testing.T, c *catalog.Catalog) []catalogInfo {
	t.Helper()
	var out []catalogInfo
	seen := map[string]bool{}
	for _, stack := range c.AllStacks() {
		p, err := plan.Build(c, stack)
		if err != nil {
			t.Fatal(err)
		}
		for _, ci := range p.GitHub.CatalogInfo {
			if seen[ci.Service] {
				continue
			}
			seen[ci.Service] = true
			content, err := ci.Content("account_id")
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, catalogInfo{Service: ci.Service, Content: content})
		}
	}
	return out
}
