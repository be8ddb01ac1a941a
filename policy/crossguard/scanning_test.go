package crossguard

import (
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/policyx"
)

// A Production template, and a Production stage copied inline, scan
// their image before the rollout at failOnSeverity or lower, and stop the
// run on a failed scan; each case at its boundary, in a pipeline and in a
// template. A pipeline on a template scans as its template does.
func TestProductionImageScan(t *testing.T) {
	y, full, tmpl := productionPipeline(t)
	scan := func(r policyx.AnalyzerResource, cfg map[string]any) []string {
		return validate(t, "production-image-scan", r, cfg)
	}
	template := func(yaml string) policyx.AnalyzerResource {
		return res(t, templateType, map[string]any{"templateYaml": yaml})
	}
	pipeline := func(yaml string) policyx.AnalyzerResource {
		return res(t, pipelineType, map[string]any{"yaml": yaml})
	}
	edit := func(s, old, new string) string {
		t.Helper()
		out := strings.Replace(s, old, new, 1)
		if out == s {
			t.Fatalf("edit target %q not found", old)
		}
		return out
	}
	// cut removes the image scan group: the lines from its element to the
	// next step element at its indentation.
	cut := func(s, indent string) string {
		t.Helper()
		start := strings.Index(s, "\n"+indent+"- stepGroup:\n")
		end := strings.Index(s[start+1:], "\n"+indent+"- step:\n")
		if start < 0 || end < 0 {
			t.Fatal("no image scan group")
		}
		return s[:start] + s[start+1+end:]
	}
	expect(t, "generated template", scan(template(tmpl), nil))
	expect(t, "generated pipeline", scan(pipeline(y), nil))
	expect(t, "a hand-made copy with the scan", scan(pipeline(full), nil))
	noScan := "template deploy_api_prod_canary_verified deploys to Production (prod) without scanning its image first; keep the platform's image scan before the rollout"
	expect(t, "template without the scan", scan(template(cut(tmpl, "          ")), nil), noScan)
	expect(t, "a copy without the scan", scan(pipeline(cut(full, "              ")), nil),
		"stage deploy deploys to Production (prod) without scanning its image first")
	expect(t, "the scan no longer Wiz", scan(template(edit(tmpl, "type: Wiz", "type: CustomIngest")), nil), noScan)
	expect(t, "another image", scan(template(edit(tmpl, "tag: <+artifacts.primary.tag>", "tag: latest")), nil),
		"its image scan step scan_image does not scan the image the stage deploys")
	expect(t, "ingesting a file", scan(template(edit(tmpl, "mode: orchestration", "mode: ingestion")), nil), "does not scan the image the stage deploys")
	expect(t, "none", scan(template(edit(tmpl, "fail_on_severity: critical", "fail_on_severity: none")), nil),
		"fails on none, and a Production scan must fail on critical or a lower severity")
	expect(t, "a stricter severity", scan(template(edit(tmpl, "fail_on_severity: critical", "fail_on_severity: low")), nil))
	expect(t, "laxer than the organisation asks", scan(template(tmpl), map[string]any{"failOnSeverity": "high"}),
		"fails on critical, and a Production scan must fail on high or a lower severity")
	expect(t, "failure ignored", scan(template(edit(tmpl, "                      type: Abort\n                    errors:\n                      - AllErrors\n              identifier: image_scan",
		"                      type: Ignore\n                    errors:\n                      - AllErrors\n              identifier: image_scan")), nil),
		"would not stop the run: image_scan has failure strategy Ignore")
	expect(t, "skipped by a condition", scan(template(edit(tmpl, "              identifier: image_scan\n", "              identifier: image_scan\n              when:\n                stageStatus: Success\n                condition: \"false\"\n")), nil),
		"may be skipped: image_scan has a when condition")
	// After the rollout: the group moved to the end of the steps.
	start := strings.Index(tmpl, "\n          - stepGroup:\n") + 1
	end := start + strings.Index(tmpl[start:], "\n          - step:\n") + 1
	// The steps list ends at the first line indented less than its items.
	stop := end
	for stop < len(tmpl) && strings.HasPrefix(tmpl[stop:], "          ") {
		stop += strings.Index(tmpl[stop:], "\n") + 1
	}
	moved := tmpl[:start] + tmpl[end:stop] + tmpl[start:end] + tmpl[stop:]
	expect(t, "after the rollout", scan(template(moved), nil),
		"does not run before the rollout (canary_10, canary_50, full_rollout); move the scan before the rollout steps")
	// Other environments, and a pipeline on the template, are not judged here.
	expect(t, "staging template", scan(template(strings.ReplaceAll(cut(tmpl, "          "), "environmentRef: prod", "environmentRef: pre_stable")), nil))
	expect(t, "another environment list", scan(template(cut(tmpl, "          ")), map[string]any{"productionEnvironments": []any{"live"}}))
}

// A scan in a parallel block with a rollout step does not run before it;
// one in a step group before it does.
func TestImageScanBesideTheRollout(t *testing.T) {
	scan := map[string]any{"step": map[string]any{"identifier": "scan_image", "type": "Wiz", "spec": map[string]any{
		"mode":     "orchestration",
		"target":   map[string]any{"type": "container", "name": deployedImagePath, "variant": deployedImageTag},
		"image":    map[string]any{"name": deployedImagePath, "tag": deployedImageTag},
		"advanced": map[string]any{"fail_on_severity": "high"},
	}}}
	group := map[string]any{"stepGroup": map[string]any{"identifier": "image_scan", "steps": []any{scan}}}
	rollout := map[string]any{"step": map[string]any{"identifier": "rolling_deploy", "type": "K8sRollingDeploy"}}
	before := stage{Environment: "prod", Elements: []map[string]any{group, rollout}}
	expect(t, "before", checkImageScan("stage deploy", before, "critical"))
	beside := stage{Environment: "prod", Elements: []map[string]any{{"parallel": []any{group, rollout}}}}
	expect(t, "beside", checkImageScan("stage deploy", beside, "critical"),
		"stage deploy deploys to Production (prod), and its image scan step scan_image does not run before the rollout (rolling_deploy)")
}
