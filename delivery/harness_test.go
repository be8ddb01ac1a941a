package delivery

import (
	"os"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/internal/conformance"
)

// The Harness pipeline validates against the schema Harness publishes,
// previews on pull requests, and on main approves then ups each stack in
// chain order.
func TestHarnessPipeline(t *testing.T) {
	data, err := os.ReadFile("../.harness/pipeline.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := conformance.ValidatePipeline(data); err != nil {
		t.Fatalf("against ../shared/harness-schema/pipeline.json: %v", err)
	}
	var doc struct {
		Pipeline struct {
			Stages []struct {
				Stage struct {
					Identifier string `yaml:"identifier"`
					Type       string `yaml:"type"`
					When       struct {
						Condition string `yaml:"condition"`
					} `yaml:"when"`
					Spec struct {
						Execution struct {
							Steps []struct {
								Step struct {
									Type string         `yaml:"type"`
									Spec map[string]any `yaml:"spec"`
								} `yaml:"step"`
							} `yaml:"steps"`
						} `yaml:"execution"`
					} `yaml:"spec"`
				} `yaml:"stage"`
			} `yaml:"stages"`
		} `yaml:"pipeline"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, s := range doc.Pipeline.Stages {
		st := s.Stage
		order = append(order, st.Identifier+":"+st.Type)
		onMain := st.When.Condition == `<+trigger.sourceBranch> == "main"`
		if st.Identifier == "preview" && st.When.Condition != `<+trigger.event> == "PR"` || st.Identifier != "preview" && !onMain {
			t.Errorf("stage %s runs when %q", st.Identifier, st.When.Condition)
		}
		for _, step := range st.Spec.Execution.Steps {
			cmd, _ := step.Step.Spec["command"].(string)
			if step.Step.Type == "Run" && (!strings.Contains(cmd, `esc open "company/harness-platform/`) || !strings.Contains(cmd, "--policy-pack") || !strings.Contains(cmd, "--policy-pack-config policy/config.json")) {
				t.Errorf("stage %s: a Run step without ESC or the policy pack:\n%s", st.Identifier, cmd)
			}
			if strings.Contains(cmd, "AWS_SECRET_ACCESS_KEY") {
				t.Errorf("stage %s uses static AWS keys", st.Identifier)
			}
		}
	}
	want := "preview:CI approve_dev:Approval up_dev:CI approve_staging:Approval up_staging:CI approve_production:Approval up_production:CI"
	if got := strings.Join(order, " "); got != want {
		t.Errorf("stages %s\nwant   %s", got, want)
	}
}
