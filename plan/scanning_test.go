package plan

import (
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/harness/document"
	"github.com/company/harness-platform/internal/conformance"
)

// stageSteps decodes a template's or pipeline's deploy stage steps.
func templateSteps(t *testing.T, tmpl StageTemplate) []document.StepElement {
	t.Helper()
	var doc struct {
		Template struct {
			Spec struct {
				Spec document.DeploymentSpec `yaml:"spec"`
			} `yaml:"spec"`
		} `yaml:"template"`
	}
	if err := yaml.Unmarshal([]byte(tmpl.YAML), &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Template.Spec.Spec.Execution.Steps
}

// Every Production deploy-stage template scans the image it deploys
// first, before the approvals and the rollout, with the Wiz step the
// archetype's severity fails; no other environment's template scans.
func TestImageScanGate(t *testing.T) {
	c := example(t)
	severities := map[string]string{}
	for _, a := range c.Archetypes {
		severities[a.Name] = a.FailOnSeverity
	}
	if severities["cron"] != "high" || severities["api"] != "critical" {
		t.Fatalf("the example's archetypes fail on %v", severities)
	}
	reg := c.Root().Foundation.Registry
	scanned := 0
	for _, stack := range c.AllStacks() {
		p := mustBuild(t, c, stack)
		if !p.IsPlatform() {
			continue
		}
		for _, tmpl := range p.Templates {
			steps := templateSteps(t, tmpl)
			g := steps[0].StepGroup
			if !p.Production {
				for _, e := range steps {
					if e.StepGroup != nil || e.Step.Type == ImageScanStepType {
						t.Errorf("%s: template %s scans outside Production", stack, tmpl.Identifier)
					}
				}
				continue
			}
			if g == nil || g.Identifier != ImageScanGroupID || len(g.Steps) != 1 || steps[1].Step.Type != "HarnessApproval" {
				t.Fatalf("%s: template %s does not scan first: %+v", stack, tmpl.Identifier, steps[0])
			}
			infra := document.StepGroupInfra{Type: "KubernetesDirect", Spec: document.ContainerInfra{ConnectorRef: "<+infra.connectorRef>", Namespace: ImageScanNamespace}}
			if g.StepGroupInfra == nil || *g.StepGroupInfra != infra || len(g.FailureStrategies) != 1 || g.FailureStrategies[0].OnFailure.Action.Type != "Abort" {
				t.Errorf("%s: template %s: group %+v", stack, tmpl.Identifier, g)
			}
			var spec document.WizSpec
			if err := g.Steps[0].Step.DecodeSpec(&spec); err != nil {
				t.Fatal(err)
			}
			want := document.WizSpec{Mode: "orchestration", Config: "default",
				Target:   document.STOTarget{Type: "container", Detection: "manual", Name: ScannedImagePath, Variant: ScannedImageTag},
				Image:    document.STOImage{Type: "docker_v2", Domain: reg.Host, Name: ScannedImagePath, Tag: ScannedImageTag, AccessID: reg.Username, AccessToken: `<+secrets.getValue("docker_registry_password")>`},
				Auth:     document.STOAuth{AccessID: `<+secrets.getValue("wiz_client_id")>`, AccessToken: `<+secrets.getValue("wiz_client_secret")>`},
				Settings: map[string]string{"docker_mode": "without-docker-in-docker"},
				Advanced: document.STOAdvanced{FailOnSeverity: severities[tmpl.Key.Archetype], Log: document.STOLog{Level: "info"}}}
			if st := g.Steps[0].Step; st.Type != "Wiz" || st.Identifier != ImageScanStepID || !reflect.DeepEqual(spec, want) {
				t.Errorf("%s: template %s: scan %+v\n%+v, want\n%+v", stack, tmpl.Identifier, st, spec, want)
			}
			scanned++
		}
	}
	if scanned < 3 {
		t.Fatalf("only %d Production templates scan", scanned)
	}
}

// The schema check reaches into the gate: a severity Harness does not
// know, a scan mode it does not know, a group with no cluster are
// refused; the gate as generated passes (TestStageTemplates).
func TestImageScanGateMatchesHarnessSchema(t *testing.T) {
	c := example(t)
	var tmpl string
	for _, t2 := range mustBuild(t, c, "production").Templates {
		if strings.Contains(t2.YAML, "type: Wiz\n") {
			tmpl = t2.YAML
			break
		}
	}
	if tmpl == "" {
		t.Fatal("no Production template scans")
	}
	if err := conformance.ValidateTemplate([]byte(tmpl)); err != nil {
		t.Fatalf("the generated gate: %v", err)
	}
	for name, edit := range map[string][2]string{
		"an unknown severity":   {"fail_on_severity: critical\n", "fail_on_severity: info\n"},
		"an unknown mode":       {"mode: orchestration\n", "mode: scan\n"},
		"an unknown image type": {"type: docker_v2\n", "type: oci\n"},
		"no cluster":            {"connectorRef: <+infra.connectorRef>\n", "cluster: <+infra.connectorRef>\n"},
		"an unknown step type":  {"type: Wiz\n", "type: AquaTrivy\n"},
	} {
		broken := strings.Replace(tmpl, edit[0], edit[1], 1)
		if broken == tmpl {
			t.Fatalf("%s: %q not in the template", name, edit[0])
		}
		if err := conformance.ValidateTemplate([]byte(broken)); err == nil {
			t.Errorf("%s: the broken gate passed the schema", name)
		}
	}
}

// The pipeline rules refuse a Production pipeline whose stage does not
// scan the image it deploys, before the rollout, at its archetype's
// severity, stopping the run on failure; each case at its boundary.
func TestImageScanGateRules(t *testing.T) {
	c := example(t)
	policy := mustBuild(t, c, "dev").Foundation.PipelineRules.Policy.Rego
	api := expandedYAML(t, c, "production.services", "payment-service")   // fails on critical
	cron := expandedYAML(t, c, "production.services", "settlement-batch") // fails on high
	stage := func(doc map[string]any) map[string]any {
		all := doc["pipeline"].(map[string]any)["stages"].([]any)
		return all[len(all)-1].(map[string]any)["stage"].(map[string]any)
	}
	steps := func(doc map[string]any) []any {
		return stage(doc)["spec"].(map[string]any)["execution"].(map[string]any)["steps"].([]any)
	}
	setSteps := func(doc map[string]any, s []any) {
		stage(doc)["spec"].(map[string]any)["execution"].(map[string]any)["steps"] = s
	}
	group := func(doc map[string]any) map[string]any {
		return steps(doc)[0].(map[string]any)["stepGroup"].(map[string]any)
	}
	scan := func(doc map[string]any) map[string]any {
		return group(doc)["steps"].([]any)[0].(map[string]any)["step"].(map[string]any)
	}
	spec := func(doc map[string]any) map[string]any { return scan(doc)["spec"].(map[string]any) }
	severity := func(v any) func(map[string]any) {
		return func(doc map[string]any) { spec(doc)["advanced"].(map[string]any)["fail_on_severity"] = v }
	}
	checkRuleCases(t, policy, []ruleCase{
		{"as generated", api, func(map[string]any) {}, ""},
		{"cron as generated", cron, func(map[string]any) {}, ""},
		{"no scan", api, func(doc map[string]any) { setSteps(doc, steps(doc)[1:]) },
			"stage deploy deploys to Production (prod) without scanning its image first; keep the platform's image scan before the rollout (a Harness STO Wiz step in a containerized step group, scanning <+artifacts.primary.imagePath>:<+artifacts.primary.tag> and failing on critical)"},
		{"cron without a scan names its severity", cron, func(doc map[string]any) { setSteps(doc, steps(doc)[1:]) }, "failing on high)"},
		{"the scan out of its group", api, func(doc map[string]any) {
			// Harness would not run it outside a containerized group;
			// the rule judges what it scans and when.
			setSteps(doc, append([]any{map[string]any{"step": scan(doc)}}, steps(doc)[1:]...))
		}, ""},
		{"a stricter severity", api, severity("medium"), ""},
		{"a laxer severity", cron, severity("critical"),
			"its image scan step scan_image fails on critical, and the archetype's scan fails on high; set spec.advanced.fail_on_severity: high"},
		{"none", api, severity("none"), "fails on none, and the archetype's scan fails on critical"},
		{"a runtime input", api, severity("<+input>"), "fails on <+input>, and the archetype's scan fails on critical"},
		{"no severity", api, func(doc map[string]any) { delete(spec(doc)["advanced"].(map[string]any), "fail_on_severity") }, "fails on nothing"},
		{"another image", api, func(doc map[string]any) { spec(doc)["image"].(map[string]any)["tag"] = "latest" },
			"does not scan the image the stage deploys; set spec.mode: orchestration"},
		{"another target", api, func(doc map[string]any) { spec(doc)["target"].(map[string]any)["variant"] = "main" }, "does not scan the image the stage deploys"},
		{"ingesting a file", api, func(doc map[string]any) { spec(doc)["mode"] = "ingestion" }, "does not scan the image the stage deploys"},
		{"after the rollout", api, func(doc map[string]any) {
			s := steps(doc)
			setSteps(doc, append(append([]any{}, s[1:]...), s[0]))
		}, "does not run before the rollout (canary_10, canary_50, full_rollout); move the scan before the rollout steps"},
		{"beside the rollout", api, func(doc map[string]any) {
			s := steps(doc)
			var rest []any
			var canary any
			for _, e := range s[1:] {
				if st, _ := e.(map[string]any)["step"].(map[string]any); st != nil && st["identifier"] == "canary_10" {
					canary = e
					continue
				}
				rest = append(rest, e)
			}
			setSteps(doc, append([]any{map[string]any{"parallel": []any{s[0], canary}}}, rest...))
		}, "does not run before the rollout (canary_10)"},
		{"failure ignored by the group", api, func(doc map[string]any) {
			group(doc)["failureStrategies"] = []any{map[string]any{"onFailure": map[string]any{"errors": []any{"AllErrors"}, "action": map[string]any{"type": "Ignore"}}}}
		}, "would not stop the run: image_scan has failure strategy Ignore"},
		{"failure marked a success by the step", api, func(doc map[string]any) {
			scan(doc)["failureStrategies"] = []any{map[string]any{"onFailure": map[string]any{"errors": []any{"AllErrors"}, "action": map[string]any{"type": "MarkAsSuccess"}}}}
		}, "would not stop the run: scan_image has failure strategy MarkAsSuccess"},
		{"skipped by a condition", api, func(doc map[string]any) {
			group(doc)["when"] = map[string]any{"stageStatus": "Success", "condition": "<+pipeline.variables.imageTag> == \"hotfix\""}
		}, "may be skipped: image_scan has a when condition"},
		{"a good scan beside a bad one", api, func(doc map[string]any) {
			bad := map[string]any{"step": map[string]any{"type": "Wiz", "identifier": "other_scan", "spec": map[string]any{"mode": "ingestion"}}}
			setSteps(doc, append([]any{bad}, steps(doc)...))
		}, ""},
		{"pre-stable needs none", expandedYAML(t, c, "staging.services", "payment-service"), func(map[string]any) {}, ""},
	})
}

// A team whose services reach Production may read the Wiz secrets their
// pipelines' image scans use: Harness checks the run's executor's access
// to every secret a pipeline reads.
func TestTeamsReadTheScanSecrets(t *testing.T) {
	c := example(t)
	production := map[string]bool{}
	for _, s := range c.Services {
		if s.EnabledIn("production") {
			production[s.Team] = true
		}
	}
	groups := 0
	for _, g := range mustBuild(t, c, "dev").Foundation.ResourceGroups {
		var secrets []string
		for _, sel := range g.Resources {
			if sel.Type == "SECRET" {
				secrets = sel.Identifiers
			}
		}
		reads := strings.Contains(strings.Join(secrets, ","), WizClientIDSecret) && strings.Contains(strings.Join(secrets, ","), WizClientSecretSecret)
		if reads != production[g.Team] {
			t.Errorf("team %s (services in Production: %v) may read %v", g.Team, production[g.Team], secrets)
		}
		groups++
	}
	if groups == 0 {
		t.Fatal("no resource groups")
	}
}
