package delivery

import (
	"flag"
	"os"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/internal/catalogtest"
	"github.com/company/harness-platform/internal/conformance"
	"github.com/company/harness-platform/internal/example"
	"github.com/company/harness-platform/plan"
)

var update = flag.Bool("update", false, "rewrite .harness/pipeline.yaml from the plan")

// pipelineHeader heads .harness/pipeline.yaml, which is the pipeline the
// foundation stack declares, byte for byte.
const pipelineHeader = `# The Harness CI pipeline that runs this program (seed 000), as the
# foundation stack declares it in Harness (plan/ci.go), with its triggers
# (pull requests to main, pushes to main) and its codebase's connector:
# previews, and the ups of the environments whose delivery path it is
# (harness-platform:delivery; the example's are the merge workflow's).
# Generated: go test ./delivery -run TestHarnessPipeline -update
`

// The Harness CI pipeline is the one the foundation stack declares (the
// committed file is its rendering), valid against the schema Harness
// publishes, as are its triggers; it clones this repository through its
// own connector; on pull requests it runs preflight and then previews
// every stack; on pushes to main, per environment in chain order, an
// approval of the platform team then preflight and up; every step
// reads its credentials from ESC, none from a static key.
func TestHarnessPipeline(t *testing.T) {
	c := catalogtest.Example(t, "..")
	p, err := plan.Build(c, c.Chain[0])
	if err != nil {
		t.Fatal(err)
	}
	ci := p.Foundation.CI
	if ci == nil {
		t.Fatal("the foundation declares no CI pipeline")
	}
	if *update {
		if err := os.WriteFile("../.harness/pipeline.yaml", []byte(pipelineHeader+ci.Pipeline.YAML), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile("../.harness/pipeline.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != pipelineHeader+ci.Pipeline.YAML {
		t.Fatal(".harness/pipeline.yaml is not the pipeline the foundation declares: go test ./delivery -run TestHarnessPipeline -update")
	}
	if err := conformance.ValidatePipeline([]byte(ci.Pipeline.YAML)); err != nil {
		t.Fatalf("against ../shared/harness-schema/pipeline.json: %v", err)
	}
	// The example's environments are delivered by the merge workflow
	// (harness-platform:delivery's default): this pipeline only previews,
	// and never races it to an up.
	if n := strings.Count(ci.Pipeline.YAML, "- stage:"); n != 1 || !strings.Contains(ci.Pipeline.YAML, "identifier: preview\n") {
		t.Errorf("the example's pipeline has %d stages; want the preview alone (no environment names harness-ci)", n)
	}
	// Every environment delivered by this pipeline: per environment, an
	// approval and the up, each naming its path.
	for _, env := range c.Chain {
		c.Stacks[env].Delivery = catalog.DeliveryHarnessCI
	}
	if p, err = plan.Build(c, c.Chain[0]); err != nil {
		t.Fatal(err)
	}
	ci = p.Foundation.CI
	data = []byte(ci.Pipeline.YAML)
	if err := conformance.ValidatePipeline(data); err != nil {
		t.Fatalf("against ../shared/harness-schema/pipeline.json: %v", err)
	}
	var doc struct {
		Pipeline struct {
			Properties struct {
				CI struct {
					Codebase struct {
						ConnectorRef string `yaml:"connectorRef"`
					} `yaml:"codebase"`
				} `yaml:"ci"`
			} `yaml:"properties"`
			Stages []struct {
				Stage struct {
					Identifier string `yaml:"identifier"`
					Type       string `yaml:"type"`
					When       struct {
						Condition string `yaml:"condition"`
					} `yaml:"when"`
					DelegateSelectors []string `yaml:"delegateSelectors"`
					Spec              struct {
						Runtime struct {
							Type string `yaml:"type"`
						} `yaml:"runtime"`
						Execution struct {
							Steps []struct {
								Step struct {
									Type    string         `yaml:"type"`
									Timeout string         `yaml:"timeout"`
									Spec    map[string]any `yaml:"spec"`
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
	root := c.Stacks[c.Chain[0]].Foundation
	if got := doc.Pipeline.Properties.CI.Codebase.ConnectorRef; got != ci.Connector.Identifier || ci.Connector.URL != "https://github.com/"+root.Repository {
		t.Errorf("the codebase clones through %s (%s), want this repository's own connector", got, ci.Connector.URL)
	}
	// Runs by hand, pull requests and pushes all have the codebase's
	// build (the triggers set it; a run by hand picks it), where
	// <+trigger.event> is null in a run by hand.
	onMain, onOther := plan.CIConditions()
	if !strings.Contains(onMain, `<+pipeline.properties.ci.codebase.build.type> == "branch"`) || strings.Contains(onMain+onOther, "<+trigger.") {
		t.Errorf("stages run when %q / %q: a run by hand has no trigger", onMain, onOther)
	}
	var order []string
	queues := 0
	for i, s := range doc.Pipeline.Stages {
		st := s.Stage
		order = append(order, st.Identifier+":"+st.Type)
		if want := onMain; st.Identifier == "preview" {
			if want = onOther; st.When.Condition != want {
				t.Errorf("stage %s runs when %q, want %q", st.Identifier, st.When.Condition, want)
			}
		} else if st.When.Condition != want {
			t.Errorf("stage %s runs when %q, want %q", st.Identifier, st.When.Condition, want)
		}
		if st.Type == "CI" && st.Spec.Runtime.Type != "Docker" {
			t.Errorf("stage %s runs on %s, not on the runners that reach the clusters (a local runner: Docker)", st.Identifier, st.Spec.Runtime.Type)
		}
		// Each CI stage selects the runner hosts' delegates of the
		// environments it reaches, never leaving it to the account.
		if st.Type == "CI" {
			want := c.Stacks[c.Chain[0]].Runner.PreviewDelegateSelectors
			if env, ok := strings.CutPrefix(st.Identifier, "up_"); ok {
				want = c.Stacks[env].Runner.DelegateSelectors
			}
			if len(st.DelegateSelectors) == 0 || strings.Join(st.DelegateSelectors, ",") != strings.Join(want, ",") {
				t.Errorf("stage %s selects delegates %v, want the runners' %v", st.Identifier, st.DelegateSelectors, want)
			}
		}
		for j, step := range st.Spec.Execution.Steps {
			switch step.Step.Type {
			case "Queue":
				// The first approval of main's run takes the pipeline's
				// key for the whole run: one up of the chain at a time.
				queues++
				if i != 1 || j != 0 || step.Step.Spec["scope"] != "Pipeline" || step.Step.Spec["key"] == "" || step.Step.Timeout == "" {
					t.Errorf("stage %s step %d: queue %+v", st.Identifier, j, step.Step)
				}
			case "HarnessApproval":
				if msg, _ := step.Step.Spec["approvalMessage"].(string); !strings.Contains(msg, plan.StartedBy) {
					t.Errorf("stage %s: the approval does not say who started the run: %q", st.Identifier, msg)
				}
			}
			cmd, _ := step.Step.Spec["command"].(string)
			if step.Step.Type != "Run" {
				continue
			}
			preflight := strings.Index(cmd, "platformctl preflight --stack")
			operation := strings.Index(cmd, "pulumi preview --stack")
			if i := strings.Index(cmd, "platformctl up --stack"); i >= 0 {
				operation = i
			}
			if env, _ := step.Step.Spec["envVariables"].(map[string]any); strings.HasPrefix(st.Identifier, "up_") && env[catalog.DeliveryEnv] != catalog.DeliveryHarnessCI {
				t.Errorf("stage %s: the up does not name its delivery path (%s: %v)", st.Identifier, catalog.DeliveryEnv, env[catalog.DeliveryEnv])
			}
			if preflight < 0 || operation < 0 || preflight > operation {
				t.Errorf("stage %s: preflight does not run before the Pulumi operation:\n%s", st.Identifier, cmd)
			}
			if !strings.Contains(cmd, example.L(t, `pulumi env run "company/harness-platform/`)) {
				t.Errorf("stage %s: a Run step without ESC:\n%s", st.Identifier, cmd)
			}
			if st.Identifier == "preview" && (!strings.Contains(cmd, "--policy-pack") || !strings.Contains(cmd, "--policy-pack-config policy/config.json")) {
				t.Errorf("stage %s: previews without the policy pack and its config:\n%s", st.Identifier, cmd)
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
	if queues != 1 {
		t.Errorf("%d queue steps, want one, first in the first approval", queues)
	}
	var events []string
	for _, tr := range ci.Triggers {
		if err := conformance.ValidateTrigger([]byte(tr.YAML)); err != nil {
			t.Errorf("trigger %s against ../shared/harness-schema/trigger.json: %v", tr.Identifier, err)
		}
		var td struct {
			Trigger struct {
				PipelineIdentifier string `yaml:"pipelineIdentifier"`
				Source             struct {
					Spec struct {
						Spec struct {
							Type string `yaml:"type"`
							Spec struct {
								ConnectorRef      string `yaml:"connectorRef"`
								PayloadConditions []struct {
									Key, Value string
								} `yaml:"payloadConditions"`
							} `yaml:"spec"`
						} `yaml:"spec"`
					} `yaml:"spec"`
				} `yaml:"source"`
			} `yaml:"trigger"`
		}
		if err := yaml.Unmarshal([]byte(tr.YAML), &td); err != nil {
			t.Fatal(err)
		}
		ev := td.Trigger.Source.Spec.Spec
		if td.Trigger.PipelineIdentifier != ci.Pipeline.Identifier || ev.Spec.ConnectorRef != ci.Connector.Identifier ||
			len(ev.Spec.PayloadConditions) != 1 || ev.Spec.PayloadConditions[0].Key != "targetBranch" || ev.Spec.PayloadConditions[0].Value != "main" {
			t.Errorf("trigger %s: %+v", tr.Identifier, td.Trigger)
		}
		events = append(events, ev.Type)
	}
	if strings.Join(events, ",") != "PullRequest,Push" {
		t.Errorf("triggers on %v, want pull requests and pushes to main", events)
	}
}
