package rego

import (
	"strings"
	"testing"
	"time"

	"github.com/company/harness-platform/internal/regotest"
)

// The image scan rules, on a minimal Production stage: the archetype's
// severity comes from the stage's deploy template, the default where the
// archetype is not listed; only the scan's denials are looked at (the
// stage keeps none of the other gates).
func TestImageScanRules(t *testing.T) {
	policy := PipelineRules(PipelineRulesSettings{ProductionEnvironments: []string{"prod"},
		ImageScan: ImageScanRules{FailOnSeverity: map[string]string{"cron": "high"}}})
	if !strings.Contains(policy, `"imageScan":{"failOnSeverity":{"cron":"high"},"default":"critical"}`) {
		t.Fatalf("settings: %s", policy[strings.LastIndex(policy, "rules :="):])
	}
	pipeline := func(template, severity string, scanFirst bool) map[string]any {
		scan := map[string]any{"stepGroup": map[string]any{"identifier": "image_scan", "steps": []any{map[string]any{"step": map[string]any{
			"identifier": "scan_image", "type": "Wiz", "spec": map[string]any{
				"mode":     "orchestration",
				"target":   map[string]any{"type": "container", "name": "<+artifacts.primary.imagePath>", "variant": "<+artifacts.primary.tag>"},
				"image":    map[string]any{"name": "<+artifacts.primary.imagePath>", "tag": "<+artifacts.primary.tag>"},
				"advanced": map[string]any{"fail_on_severity": severity},
			}}}}}}
		rollout := map[string]any{"step": map[string]any{"identifier": "rolling_deploy", "type": "K8sRollingDeploy"}}
		steps := []any{scan, rollout}
		if !scanFirst {
			steps = []any{rollout, scan}
		}
		return map[string]any{"pipeline": map[string]any{"stages": []any{map[string]any{"stage": map[string]any{
			"identifier": "deploy", "type": "Deployment", "template": map[string]any{"templateRef": template},
			"spec": map[string]any{"environment": map[string]any{"environmentRef": "prod"}, "execution": map[string]any{"steps": steps}},
		}}}}}
	}
	scanDenials := func(input any) []string {
		var out []string
		for _, m := range regotest.Deny(t, "pipeline_rules", policy, input, time.Time{}) {
			if strings.Contains(m, "scan") {
				out = append(out, m)
			}
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		input any
		want  string
	}{
		{"cron at its severity", pipeline("deploy_cron_prod_rolling", "high", true), ""},
		{"cron stricter", pipeline("deploy_cron_prod_rolling", "low", true), ""},
		{"cron laxer", pipeline("deploy_cron_prod_rolling", "critical", true), "fails on critical, and the archetype's scan fails on high"},
		{"an archetype not listed: the default", pipeline("deploy_api_prod_canary_verified", "critical", true), ""},
		{"no platform template: the default", pipeline("my_deploy", "critical", true), ""},
		{"none", pipeline("deploy_api_prod_rolling", "none", true), "fails on none, and the archetype's scan fails on critical"},
		{"after the rollout", pipeline("deploy_cron_prod_rolling", "high", false), "does not run before the rollout (rolling_deploy)"},
		{"another environment's template", pipeline("deploy_cron_pre_stable_rolling", "critical", true), ""},
	} {
		got := scanDenials(tc.input)
		switch {
		case tc.want == "" && len(got) > 0:
			t.Errorf("%s: denied: %q", tc.name, got)
		case tc.want != "" && (len(got) != 1 || !strings.Contains(got[0], tc.want)):
			t.Errorf("%s: got %q, want one denial containing %q", tc.name, got, tc.want)
		}
	}
}
