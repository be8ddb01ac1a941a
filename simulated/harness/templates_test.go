package harness

import (
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"

	"github.com/company/harness-platform/simulated/core"
)

const simStageTemplate = `template:
  name: Deploy
  identifier: deploy_rolling
  versionLabel: "%s"
  type: Stage
  spec:
    type: Deployment
    spec:
      service:
        serviceRef: <+input>
      execution:
        steps:
          - step:
              identifier: %s
              type: K8sRollingDeploy
              timeout: 10m
`

func simPipeline(version string) string {
	v := ""
	if version != "" {
		v = "\n          versionLabel: \"" + version + "\""
	}
	return `pipeline:
  identifier: payments_dev
  name: payments dev
  orgIdentifier: o
  projectIdentifier: p
  stages:
    - stage:
        identifier: deploy
        name: Deploy
        template:
          templateRef: deploy_rolling` + v + `
          templateInputs:
            type: Deployment
            spec:
              service:
                serviceRef: payments
`
}

// The simulated Harness keeps each template version as its own object,
// refuses a pipeline whose template or version does not exist (Harness's
// words), resolves an unlabelled reference to the stable version, refuses
// deleting a version a pipeline uses or the stable version while others
// remain, and evaluates on-save policies on the expanded pipeline.
func TestTemplates(t *testing.T) {
	cloud, err := core.OpenCloud(t.TempDir(), "harness")
	if err != nil {
		t.Fatal(err)
	}
	h := Behavior{}
	put := func(typ string, props map[string]any) string {
		t.Helper()
		id := h.ID(typ, "", resource.NewPropertyMapFromMap(props))
		if err := cloud.Put(id, core.Record{Type: typ, Properties: props}); err != nil {
			t.Fatal(err)
		}
		return id
	}
	save := func(y string) error {
		return h.CheckSave("harness:platform/pipeline:Pipeline", resource.NewPropertyMapFromMap(map[string]any{
			"identifier": "payments_dev", "orgId": "o", "projectId": "p", "yaml": y}), cloud)
	}
	tmpl := func(version, step string, stable bool) map[string]any {
		return map[string]any{"identifier": "deploy_rolling", "orgId": "o", "projectId": "p", "version": version, "isStable": stable,
			"templateYaml": strings.Replace(strings.Replace(simStageTemplate, "%s", version, 1), "%s", step, 1)}
	}
	if err := save(simPipeline("1")); err == nil || !strings.Contains(err.Error(), "Template with the Identifier deploy_rolling and versionLabel 1 does not exist or has been deleted") {
		t.Errorf("a pipeline on a missing template: %v", err)
	}
	v1 := put(TemplateType, tmpl("1", "rolling_deploy", false))
	v2 := put(TemplateType, tmpl("2", "rolling_deploy_v2", true))
	if v1 == v2 {
		t.Fatalf("two versions share the key %s", v1)
	}
	if err := save(simPipeline("1")); err != nil {
		t.Errorf("a pipeline on version 1: %v", err)
	}
	if err := save(simPipeline("3")); err == nil {
		t.Error("a pipeline on a version that does not exist was saved")
	}
	// Version 1 is used by a pipeline: not deleted.
	_ = put("harness:platform/pipeline:Pipeline", map[string]any{"identifier": "payments_dev", "orgId": "o", "projectId": "p", "yaml": simPipeline("1")})
	if err := h.CheckDelete(TemplateType, v1, cloud); err == nil || !strings.Contains(err.Error(), "Could not delete the template deploy_rolling as it is referenced by other entities") {
		t.Errorf("deleting a used version: %v", err)
	}
	// Version 2 is stable, with version 1 still there: not deleted.
	if err := h.CheckDelete(TemplateType, v2, cloud); err == nil || !strings.Contains(err.Error(), "is a stable template") {
		t.Errorf("deleting the stable version: %v", err)
	}
	// An unlabelled reference is the stable version's: a policy on the
	// expanded pipeline sees version 2's step.
	put("harness:platform/policy:Policy", map[string]any{"identifier": "no_v2", "orgId": "o", "projectId": "p",
		"rego": "package pipeline\ndeny[msg] {\n  input.pipeline.stages[_].stage.spec.execution.steps[_].step.identifier == \"rolling_deploy_v2\"\n  msg := \"v2 step\"\n}\n"})
	put("harness:platform/policySet:PolicySet", map[string]any{"identifier": "rules", "orgId": "o", "projectId": "p", "type": "pipeline",
		"action": "onsave", "enabled": true, "policies": []any{map[string]any{"identifier": "no_v2", "severity": "error"}}})
	if err := save(simPipeline("")); err == nil || !strings.Contains(err.Error(), "v2 step") {
		t.Errorf("the expanded stable version was not what the policy saw: %v", err)
	}
	// Saving version 1 stable again moves the stable version back: the
	// unlabelled reference now expands to version 1, which the policy
	// allows, and version 2 is no longer stable.
	v1stable := tmpl("1", "rolling_deploy", true)
	if err := cloud.Put(v1, core.Record{Type: TemplateType, Properties: v1stable}); err != nil {
		t.Fatal(err)
	}
	if err := h.Stored(TemplateType, v1, cloud); err != nil {
		t.Fatal(err)
	}
	if r, _ := cloud.Get(v2); r.Properties["isStable"] != false {
		t.Errorf("version 2 still stable after version 1 was saved stable: %v", r.Properties["isStable"])
	}
	if err := save(simPipeline("")); err != nil {
		t.Errorf("the unlabelled reference after the stable version moved: %v", err)
	}
	if err := save(simPipeline("1")); err != nil {
		t.Errorf("version 1, which the policy allows: %v", err)
	}
}

// A template's YAML names the version and scope the request does.
func TestTemplateYAML(t *testing.T) {
	h := Behavior{}
	props := func(version string) resource.PropertyMap {
		return resource.NewPropertyMapFromMap(map[string]any{"identifier": "deploy_rolling", "version": version, "orgId": "o", "projectId": "p",
			"templateYaml": strings.Replace(strings.Replace(simStageTemplate, "%s", "1", 1), "%s", "s", 1) +
				"  orgIdentifier: o\n  projectIdentifier: p\n"})
	}
	if err := h.CheckSave(TemplateType, props("1"), nil); err != nil {
		t.Errorf("a consistent template: %v", err)
	}
	if err := h.CheckSave(TemplateType, props("2"), nil); err == nil || !strings.Contains(err.Error(), `versionLabel "1" in the YAML, "2" in the request`) {
		t.Errorf("a template whose YAML says another version: %v", err)
	}
}
