package pipeline

import (
	"github.com/company/harness-platform/internal/catalogtest"
	"testing"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/internal/conformance"
)

func exampleCatalog(t testing.TB) *catalog.Catalog { return catalogtest.Example(t, "../..") }

var exampleRefs = Refs{OrgID: "default", ProjectID: "platform"}

// Every pipeline and trigger of the example catalog, in every stack, is
// valid against the schemas Harness publishes.
func TestRenderedDocumentsMatchHarnessSchemas(t *testing.T) {
	c := exampleCatalog(t)
	n := 0
	for _, name := range c.Chain {
		for _, d := range c.Deployments(c.Stacks[name]) {
			r, err := Render(d, exampleRefs)
			if err != nil {
				t.Fatal(err)
			}
			if err := conformance.ValidatePipeline(r.PipelineYAML); err != nil {
				t.Errorf("%s/%s pipeline: %v\n%s", name, d.Service.Name, err, r.PipelineYAML)
			}
			if err := conformance.ValidateTrigger(r.TriggerYAML); err != nil {
				t.Errorf("%s/%s trigger: %v\n%s", name, d.Service.Name, err, r.TriggerYAML)
			}
			n++
		}
	}
	if n < 30 {
		t.Fatalf("validated only %d deployments", n)
	}
}

// The schema check can fail: a bad identifier and an unknown step type are
// refused.
func TestSchemaValidationRejectsBrokenPipelines(t *testing.T) {
	c := exampleCatalog(t)
	d := c.Deployments(c.Stacks["production"])[0]
	cases := map[string]func(*Document){
		"identifier with a dash": func(doc *Document) { doc.Pipeline.Identifier = "payment-service-prod" },
		"unknown step type":      func(doc *Document) { doc.Pipeline.Stages[0].Stage.Spec.Execution.Steps[0].Step.Type = "K8sTeleport" },
		"no stages":              func(doc *Document) { doc.Pipeline.Stages = nil },
	}
	for name, breakIt := range cases {
		t.Run(name, func(t *testing.T) {
			doc := Build(d, exampleRefs)
			breakIt(&doc)
			y, err := Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			if err := conformance.ValidatePipeline(y); err == nil {
				t.Fatalf("broken pipeline passed validation:\n%s", y)
			}
		})
	}
	tr, _ := BuildTrigger(d, exampleRefs)
	tr.Trigger.Source.Spec.Type = "Carrier-Pigeon"
	y, _ := Marshal(tr)
	if err := conformance.ValidateTrigger(y); err == nil {
		t.Fatalf("broken trigger passed validation:\n%s", y)
	}
}
