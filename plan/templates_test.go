package plan

import (
	"bytes"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/internal/catalogtest"
	"github.com/company/harness-platform/internal/conformance"
)

// Every pipeline of every stack references its deploy stage's template
// and resolves (Harness's expansion) to exactly the full pipeline it was
// split from; the services of one archetype, strategy and verification in
// an environment share one template, which the environment's platform
// stack declares (the same version); and an environment holds a handful
// of templates, not one per pipeline. At 300 services.
func TestStageTemplates(t *testing.T) {
	for name, c := range map[string]*catalog.Catalog{"example": example(t), "synthetic 300": catalogtest.SyntheticCatalog(t, "..", 300)} {
		t.Run(name, func(t *testing.T) {
			for _, stack := range c.AllStacks() {
				// Each plan from a catalog of its own: plans of one catalog
				// share the templates the first derived (catalog.Derived).
				p := mustBuild(t, reparsed(t, c), stack)
				platform := p
				if !p.IsPlatform() {
					platform = mustBuild(t, reparsed(t, c), p.Platform)
				}
				declared := map[string]StageTemplate{}
				for _, tmpl := range platform.Templates {
					declared[tmpl.Identifier] = tmpl
				}
				for _, tmpl := range p.Templates {
					if d := declared[tmpl.Identifier]; !reflect.DeepEqual(d, tmpl) {
						t.Fatalf("%s: template %s is not the one platform stack %s declares", stack, tmpl.Identifier, p.Platform)
					}
				}
				for i, d := range p.Deployments {
					var full map[string]any
					if err := yaml.Unmarshal([]byte(resolvedOf(t, d.Pipeline)), &full); err != nil {
						t.Fatal(err)
					}
					resolved, err := Resolve(d.Pipeline.YAML, platform.Templates)
					if err != nil {
						t.Fatalf("%s %s: %v", stack, d.Service, err)
					}
					if !reflect.DeepEqual(resolved, full) {
						got, _ := yaml.Marshal(resolved)
						t.Fatalf("%s %s: the resolved pipeline differs from the full one:\n%s\n---\n%s", stack, d.Service, got, resolvedOf(t, d.Pipeline))
					}
					if strings.Contains(d.Pipeline.YAML, "name: Rolling deployment\n") || strings.Contains(d.Pipeline.YAML, "name: Full rollout\n") || !strings.Contains(d.Pipeline.YAML, "templateRef: "+d.Pipeline.Template+"\n") {
						t.Fatalf("%s %s: the saved pipeline is not thin:\n%s", stack, d.Service, d.Pipeline.YAML)
					}
					// The thin pipeline is valid against Harness's pipeline
					// schema (a template stage node).
					if i < 3 { // of each stack: schema validation is slow
						if err := conformance.ValidatePipeline([]byte(d.Pipeline.YAML)); err != nil {
							t.Fatalf("%s %s: the thin pipeline: %v\n%s", stack, d.Service, err, d.Pipeline.YAML)
						}
					}
				}
				for _, tmpl := range p.Templates {
					if err := conformance.ValidateTemplate([]byte(tmpl.YAML)); err != nil {
						t.Errorf("%s: template %s: %v\n%s", stack, tmpl.Identifier, err, tmpl.YAML)
					}
				}
				if len(p.Templates) > 8 {
					t.Errorf("%s: %d templates for %d pipelines", stack, len(p.Templates), len(p.Deployments))
				}
				t.Logf("%s: %d pipelines, %d stage templates", stack, len(p.Deployments), len(p.Templates))
			}
		})
	}
}

// What a catalog change writes: a change of a template's content (an
// archetype's step timeout, an environment's approval settings) writes
// the templates it changes and no pipeline; a change of what a service
// gives its template (its team: the approver group and messages) writes
// that service's pipelines and no template.
func TestTemplateChangesWritePipelinesOnlyWhenTheirInputsChange(t *testing.T) {
	base := catalogtest.ShippedFiles(t, "..")
	edited := func(file, old, new string) *catalog.Catalog {
		t.Helper()
		files := maps.Clone(base)
		if !bytes.Contains(files[file], []byte(old)) {
			t.Fatalf("%s has no %q; update the test", file, old)
		}
		files[file] = bytes.Replace(files[file], []byte(old), []byte(new), 1)
		c, err := catalog.Parse(files)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	before := example(t)
	// writes lists the templates (identifier) and pipelines whose saved
	// YAML differs between the two catalogs, over every stack.
	writes := func(after *catalog.Catalog) (templates, pipelines []string) {
		for _, stack := range before.AllStacks() {
			was, is := mustBuild(t, before, stack), mustBuild(t, after, stack)
			if was.IsPlatform() {
				old := map[string]StageTemplate{}
				for _, tmpl := range was.Templates {
					old[tmpl.Identifier] = tmpl
				}
				for _, tmpl := range is.Templates {
					if o := old[tmpl.Identifier]; o.YAML != tmpl.YAML {
						if o.Version == tmpl.Version {
							t.Errorf("%s: template %s changed but kept version %s", stack, tmpl.Identifier, tmpl.Version)
						}
						templates = append(templates, tmpl.Identifier)
					}
				}
			}
			old := map[string]string{}
			for _, d := range was.Deployments {
				old[d.Pipeline.Identifier] = d.Pipeline.YAML
			}
			for _, d := range is.Deployments {
				if old[d.Pipeline.Identifier] != d.Pipeline.YAML {
					pipelines = append(pipelines, d.Pipeline.Identifier)
				}
			}
		}
		return templates, pipelines
	}
	templates, pipelines := writes(edited(catalog.ArchetypesFile, "    stepTimeout: 15m\n", "    stepTimeout: 20m\n"))
	if want := []string{"deploy_cron_int_stable_rolling", "deploy_cron_pre_stable_rolling", "deploy_cron_prod_rolling"}; !slices.Equal(templates, want) || len(pipelines) > 0 {
		t.Errorf("cron's step timeout: templates %v (want %v), pipelines %v (want none)", templates, want, pipelines)
	}
	templates, pipelines = writes(edited("Pulumi.production.yaml", "    teamApprovals: 1\n", "    teamApprovals: 2\n"))
	if len(templates) != 5 || len(pipelines) > 0 || !strings.HasSuffix(templates[0], "_prod_canary_verified") {
		t.Errorf("production's team approvals: templates %v (want production's 5), pipelines %v (want none)", templates, pipelines)
	}
	templates, pipelines = writes(edited(catalog.ServicesFile, "  - name: payment-service\n    team: payments\n", "  - name: payment-service\n    team: checkout\n"))
	if want := []string{"payment_service_int_stable", "payment_service_pre_stable", "payment_service_prod"}; len(templates) > 0 || !slices.Equal(pipelines, want) {
		t.Errorf("payment-service's team: templates %v (want none), pipelines %v (want %v)", templates, pipelines, want)
	}
}

// reparsed is c resolved again from its files.
func reparsed(t *testing.T, c *catalog.Catalog) *catalog.Catalog {
	t.Helper()
	again, err := catalog.Parse(c.Files())
	if err != nil {
		t.Fatal(err)
	}
	return again
}
