package plan

import (
	"reflect"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/internal/catalogtest"
	"github.com/company/harness-platform/internal/conformance"
)

// Every pipeline of every stack, split into its deploy stage's template
// and a thin pipeline, resolves (Harness's expansion) to exactly the full
// pipeline; the services of one archetype, strategy and verification in
// an environment share one template (one version); and an environment
// holds a handful of templates, not one per pipeline. At 300 services.
func TestStageTemplates(t *testing.T) {
	for name, c := range map[string]*catalog.Catalog{"example": example(t), "synthetic 300": catalogtest.SyntheticCatalog(t, "..", 300)} {
		t.Run(name, func(t *testing.T) {
			for _, stack := range c.AllStacks() {
				p := mustBuild(t, c, stack)
				if len(p.Deployments) == 0 {
					continue
				}
				st := c.Stacks[p.Platform]
				templates := map[string]StageTemplate{}
				for i, d := range p.Deployments {
					svc, _ := c.Service(d.Service)
					key := TemplateKey{Archetype: svc.Archetype, Strategy: svc.In[st.Name].Strategy, Verification: svc.Verification}
					tmpl, thin, err := SplitPipeline(d.Pipeline.YAML, key, p.Scope, st.Environment.Identifier, st.Environment.Name)
					if err != nil {
						t.Fatalf("%s %s: %v", stack, d.Service, err)
					}
					if prev, ok := templates[tmpl.Identifier]; ok && prev != tmpl {
						t.Fatalf("%s: %s's deploy stage differs from another %v service's beyond the template's inputs:\n%s\n---\n%s",
							stack, d.Service, key, prev.YAML, tmpl.YAML)
					}
					templates[tmpl.Identifier] = tmpl
					resolved, err := ResolvePipeline(thin, templates)
					if err != nil {
						t.Fatalf("%s %s: %v", stack, d.Service, err)
					}
					var full map[string]any
					if err := yaml.Unmarshal([]byte(d.Pipeline.YAML), &full); err != nil {
						t.Fatal(err)
					}
					// The thin pipeline is valid against Harness's pipeline
					// schema (a template stage node), and so is the template's
					// stage in a pipeline of its own.
					if i < 3 { // of each stack: schema validation is slow
						ty, _ := yaml.Marshal(thin)
						if err := conformance.ValidatePipeline(ty); err != nil {
							t.Fatalf("%s %s: the thin pipeline: %v\n%s", stack, d.Service, err, ty)
						}
					}
					if !reflect.DeepEqual(resolved, full) {
						got, _ := yaml.Marshal(resolved)
						t.Fatalf("%s %s: the resolved pipeline differs from the full one:\n%s\n---\n%s", stack, d.Service, got, d.Pipeline.YAML)
					}
				}
				for _, tmpl := range templates {
					var doc map[string]any
					if err := yaml.Unmarshal([]byte(tmpl.YAML), &doc); err != nil {
						t.Fatal(err)
					}
					stage := map[string]any{"identifier": "deploy", "name": "deploy"}
					for k, v := range doc["template"].(map[string]any)["spec"].(map[string]any) {
						stage[k] = v
					}
					y, _ := yaml.Marshal(map[string]any{"pipeline": map[string]any{"identifier": "t", "name": "t",
						"stages": []any{map[string]any{"stage": stage}}}})
					if err := conformance.ValidatePipeline(y); err != nil {
						t.Errorf("%s: template %s's stage: %v", stack, tmpl.Identifier, err)
					}
				}
				if len(templates) > 8 {
					t.Errorf("%s: %d templates for %d pipelines", stack, len(templates), len(p.Deployments))
				}
				t.Logf("%s: %d pipelines, %d stage templates", stack, len(p.Deployments), len(templates))
			}
		})
	}
}
