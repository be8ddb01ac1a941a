package template

import (
	"errors"
	"reflect"
	"testing"

	"gopkg.in/yaml.v3"
)

const stageTemplate = `
template:
  name: Deploy
  identifier: deploy_rolling
  versionLabel: "1"
  type: Stage
  spec:
    type: Deployment
    spec:
      deploymentType: Kubernetes
      service:
        serviceRef: <+input>
      environment:
        environmentRef: dev
        infrastructureDefinitions: <+input>
      execution:
        steps:
          - step:
              identifier: rolling_deploy
              type: K8sRollingDeploy
              timeout: <+input>
          - step:
              identifier: verify
              type: Verify
              timeout: 20m
    failureStrategies:
      - onFailure:
          errors: [AllErrors]
          action:
            type: StageRollback
`

const thinPipeline = `
pipeline:
  identifier: payments_dev
  name: payments dev
  stages:
    - stage:
        identifier: deploy
        name: Deploy to dev
        template:
          templateRef: deploy_rolling
          versionLabel: "1"
          templateInputs:
            type: Deployment
            spec:
              service:
                serviceRef: payments
              execution:
                steps:
                  - step:
                      identifier: rolling_deploy
                      type: K8sRollingDeploy
                      timeout: 15m
`

func decode(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := yaml.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// A stage built from a template is the template's stage with the
// reference's inputs in place of its runtime inputs; an input the
// reference leaves out stays a runtime input; the reference stays beside
// the expanded content; the pipeline itself is untouched.
func TestExpand(t *testing.T) {
	tmpl := decode(t, stageTemplate)
	doc := decode(t, thinPipeline)
	var asked []Ref
	out, err := Expand(doc, func(r Ref) (map[string]any, error) {
		asked = append(asked, r)
		return tmpl, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []Ref{{Where: "deploy", Template: "deploy_rolling", Version: "1"}}; !reflect.DeepEqual(asked, want) {
		t.Errorf("looked up %v, want %v", asked, want)
	}
	st := stages(out["pipeline"].(map[string]any))[0]
	spec := st["spec"].(map[string]any)
	if got := spec["service"].(map[string]any)["serviceRef"]; got != "payments" {
		t.Errorf("serviceRef = %v, want the input payments", got)
	}
	if got := spec["environment"].(map[string]any)["infrastructureDefinitions"]; got != "<+input>" {
		t.Errorf("an input not given = %v, want it left <+input>", got)
	}
	steps := spec["execution"].(map[string]any)["steps"].([]any)
	if got := steps[0].(map[string]any)["step"].(map[string]any)["timeout"]; got != "15m" {
		t.Errorf("rolling_deploy timeout = %v, want 15m", got)
	}
	if got := steps[1].(map[string]any)["step"].(map[string]any)["timeout"]; got != "20m" {
		t.Errorf("verify timeout = %v, want the template's fixed 20m", got)
	}
	if st["type"] != "Deployment" || st["failureStrategies"] == nil || st["template"] == nil || st["name"] != "Deploy to dev" {
		t.Errorf("expanded stage %v", st)
	}
	if _, ok := stages(doc["pipeline"].(map[string]any))[0]["spec"]; ok {
		t.Error("Expand modified its input")
	}
	if got, want := Inputs(tmpl["template"].(map[string]any)["spec"]), []string{
		"spec.environment.infrastructureDefinitions", "spec.execution.steps.rolling_deploy.step.timeout", "spec.service.serviceRef",
	}; !reflect.DeepEqual(got, want) {
		t.Errorf("Inputs = %v, want %v", got, want)
	}
	missing := errors.New("Template with the Identifier deploy_rolling and versionLabel 1 does not exist or has been deleted")
	if _, err := Expand(doc, func(Ref) (map[string]any, error) { return nil, missing }); !errors.Is(err, missing) {
		t.Errorf("a missing template: %v", err)
	}
}

func TestRefScope(t *testing.T) {
	for ref, want := range map[string][2]string{"x": {"project", "x"}, "org.x": {"org", "x"}, "account.x": {"account", "x"}} {
		s, id := Ref{Template: ref}.Scope()
		if s != want[0] || id != want[1] {
			t.Errorf("%s: %s %s", ref, s, id)
		}
	}
}
