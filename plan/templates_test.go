package plan

import (
	"reflect"
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
				p := mustBuild(t, c, stack)
				platform := p
				if !p.IsPlatform() {
					platform = mustBuild(t, c, p.Platform)
				}
				declared := map[string]StageTemplate{}
				for _, tmpl := range platform.Templates {
					declared[tmpl.Identifier] = tmpl
				}
				for _, tmpl := range p.Templates {
					if d := declared[tmpl.Identifier]; d.YAML != tmpl.YAML || d.Version != tmpl.Version {
						t.Fatalf("%s: template %s is not the one platform stack %s declares", stack, tmpl.Identifier, p.Platform)
					}
				}
				for i, d := range p.Deployments {
					var thin, full map[string]any
					if err := yaml.Unmarshal([]byte(d.Pipeline.YAML), &thin); err != nil {
						t.Fatal(err)
					}
					if err := yaml.Unmarshal([]byte(d.Pipeline.Resolved), &full); err != nil {
						t.Fatal(err)
					}
					resolved, err := ResolvePipeline(thin, declared)
					if err != nil {
						t.Fatalf("%s %s: %v", stack, d.Service, err)
					}
					if !reflect.DeepEqual(resolved, full) {
						got, _ := yaml.Marshal(resolved)
						t.Fatalf("%s %s: the resolved pipeline differs from the full one:\n%s\n---\n%s", stack, d.Service, got, d.Pipeline.Resolved)
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
