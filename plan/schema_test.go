package plan

import (
	"testing"

	"github.com/company/harness-platform/harness/document"
	"github.com/company/harness-platform/internal/conformance"
)

// Every pipeline and trigger of the example catalog, in every stack, is
// valid against the schemas Harness publishes.
func TestDocumentsMatchHarnessSchemas(t *testing.T) {
	c := example(t)
	n := 0
	for _, name := range c.AllStacks() {
		for _, d := range mustBuild(t, c, name).Deployments {
			// What is saved, and what runs.
			for _, y := range []string{d.Pipeline.YAML, resolvedOf(t, d.Pipeline)} {
				if err := conformance.ValidatePipeline([]byte(y)); err != nil {
					t.Errorf("%s/%s pipeline: %v\n%s", name, d.Service, err, y)
				}
			}
			if err := conformance.ValidateTrigger([]byte(d.Trigger.YAML)); err != nil {
				t.Errorf("%s/%s trigger: %v\n%s", name, d.Service, err, d.Trigger.YAML)
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
	c := example(t)
	st := c.Stacks["production"]
	in := inputFor(t, c, st, c.Services[0].Name)
	cases := map[string]func(*document.Document){
		"identifier with a dash": func(doc *document.Document) { doc.Pipeline.Identifier = "payment-service-prod" },
		"unknown step type": func(doc *document.Document) {
			last := &doc.Pipeline.Stages[len(doc.Pipeline.Stages)-1].Stage
			spec := last.Spec.(document.DeploymentSpec)
			spec.Execution.Steps[0].Step.Type = "K8sTeleport"
			last.Spec = spec
		},
		"no stages": func(doc *document.Document) { doc.Pipeline.Stages = nil },
	}
	for name, breakIt := range cases {
		t.Run(name, func(t *testing.T) {
			doc := pipelineDocument(in)
			if y, _ := document.Marshal(doc); conformance.ValidatePipeline(y) != nil {
				t.Fatal("the unbroken pipeline must pass first")
			}
			breakIt(&doc)
			y, err := document.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			if err := conformance.ValidatePipeline(y); err == nil {
				t.Fatalf("broken pipeline passed validation:\n%s", y)
			}
		})
	}
	tr, _ := triggerDocument(in)
	tr.Trigger.Source.Spec.Type = "Carrier-Pigeon"
	y, _ := document.Marshal(tr)
	if err := conformance.ValidateTrigger(y); err == nil {
		t.Fatalf("broken trigger passed validation:\n%s", y)
	}
}
