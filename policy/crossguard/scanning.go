package crossguard

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/policyx"
)

// The image scan gate (docs/delivery.md, The image scan gate; the same
// rule as the image scan rules of policy/rego/pipeline_rules.rego): a
// Production deploy stage scans the image it deploys before the rollout,
// with a Harness STO scanner step on the run's primary artifact, failing
// on failOnSeverity or a lower severity, and a failed scan stops the run.

// scanStepTypes are the STO scanner steps Harness's pipeline schema
// accepts in a Deployment stage that scan an image themselves.
var scanStepTypes = []string{"Wiz"}

// rolloutStepTypes change what runs in the cluster.
var rolloutStepTypes = []string{"K8sRollingDeploy", "K8sCanaryDeploy", "K8sBlueGreenDeploy", "K8sApply", "HelmDeploy"}

// severityRank orders Harness STO's fail_on_severity, the laxest first;
// none (never fails) has no rank.
var severityRank = map[string]int{"critical": 1, "high": 2, "medium": 3, "low": 4}

// The image a stage deploys: its service's primary artifact.
const (
	deployedImagePath = "<+artifacts.primary.imagePath>"
	deployedImageTag  = "<+artifacts.primary.tag>"
)

var productionImageScan = resourcePolicy("production-image-scan",
	"Production deploy stages and their templates scan the image they deploy before the rollout (a Harness STO Wiz step in orchestration mode "+
		"on the run's primary artifact), failing on failOnSeverity or a lower severity, and a failed scan stops the run.",
	policyx.EnforcementLevelMandatory,
	&policyx.ConfigSchema{Properties: map[string]map[string]any{
		"productionEnvironments": {"type": "array", "items": map[string]any{"type": "string"}, "default": []any{"prod"},
			"description": "Harness environment identifiers whose deployments are Production."},
		"failOnSeverity": {"type": "string", "enum": []any{"critical", "high", "medium", "low"}, "default": "critical",
			"description": "The laxest severity a Production scan may fail on: a scan failing only on a higher severity, or never (none), is refused."},
	}},
	func(r policyx.AnalyzerResource, cfg config) []string {
		envs, floor := cfg.strings("productionEnvironments"), cfg.string("failOnSeverity")
		if t, ok, err := readTemplate(r); ok || err != nil {
			if err != nil || t.Type != "Deployment" || !slices.Contains(envs, t.Environment) {
				return nil // production-pipeline-gates reports YAML that does not parse
			}
			return checkImageScan("template "+t.Identifier, t, floor)
		}
		p, ok, err := readPipeline(r)
		if !ok || err != nil {
			return nil
		}
		var out []string
		for _, s := range p.Stages {
			// A stage on a template scans as its template does, checked
			// on the template's resource.
			if s.Template == "" && s.Type == "Deployment" && slices.Contains(envs, s.Environment) {
				out = append(out, checkImageScan("stage "+s.Identifier, s, floor)...)
			}
		}
		return out
	})

// placedStep is a step of a stage, with the position of the element of
// execution.steps that holds it and the step groups around it.
type placedStep struct {
	at     int
	step   map[string]any
	groups []map[string]any
}

// placed lists the steps of a stage's elements whose type is in types.
func placed(elements []map[string]any, types []string) []placedStep {
	var out []placedStep
	var visit func(at int, e map[string]any, groups []map[string]any)
	visit = func(at int, e map[string]any, groups []map[string]any) {
		if s, ok := e["step"].(map[string]any); ok && slices.Contains(types, fmt.Sprint(s["type"])) {
			out = append(out, placedStep{at: at, step: s, groups: groups})
		}
		if p, ok := e["parallel"].([]any); ok {
			for _, inner := range maps(p) {
				visit(at, inner, groups)
			}
		}
		if g, ok := e["stepGroup"].(map[string]any); ok {
			steps, _ := g["steps"].([]any)
			for _, inner := range maps(steps) {
				visit(at, inner, append(slices.Clip(groups), g))
			}
		}
	}
	for i, e := range elements {
		visit(i, e, nil)
	}
	return out
}

// checkImageScan reports what keeps a Production stage (or template)
// from scanning its image before the rollout: nothing when one of its
// scan steps passes every check, else each scan's problems.
func checkImageScan(what string, s stage, floor string) []string {
	scans := placed(s.Elements, scanStepTypes)
	if len(scans) == 0 {
		return []string{fmt.Sprintf("%s deploys to Production (%s) without scanning its image first; keep the platform's image scan before the rollout "+
			"(a Harness STO Wiz step in a containerized step group, scanning %s:%s and failing on %s or a lower severity): deploy stages come from the catalog's archetypes",
			what, s.Environment, deployedImagePath, deployedImageTag, floor)}
	}
	rollouts := placed(s.Elements, rolloutStepTypes)
	var out []string
	for _, scan := range scans {
		problems := scanProblems(scan, rollouts, floor)
		if len(problems) == 0 {
			return nil
		}
		for _, p := range problems {
			out = append(out, fmt.Sprintf("%s deploys to Production (%s), and its image scan step %v %s", what, s.Environment, scan.step["identifier"], p))
		}
	}
	return out
}

func scanProblems(scan placedStep, rollouts []placedStep, floor string) []string {
	var out []string
	spec, _ := scan.step["spec"].(map[string]any)
	field := func(path ...string) any {
		var v any = spec
		for _, k := range path {
			m, _ := v.(map[string]any)
			v = m[k]
		}
		return v
	}
	if field("mode") != "orchestration" || field("target", "type") != "container" ||
		field("target", "name") != deployedImagePath || field("target", "variant") != deployedImageTag ||
		field("image", "name") != deployedImagePath || field("image", "tag") != deployedImageTag {
		out = append(out, fmt.Sprintf("does not scan the image the stage deploys; set spec.mode: orchestration, spec.target type: container, name: %s, variant: %s, and spec.image name: %s, tag: %s",
			deployedImagePath, deployedImageTag, deployedImagePath, deployedImageTag))
	}
	severity := field("advanced", "fail_on_severity")
	if rank, ok := severityRank[fmt.Sprint(severity)]; !ok || rank < severityRank[floor] {
		if severity == nil {
			severity = "nothing"
		}
		out = append(out, fmt.Sprintf("fails on %v, and a Production scan must fail on %s or a lower severity; set spec.advanced.fail_on_severity (the catalog's archetypes.yaml imageScan sets it)", severity, floor))
	}
	var late []string
	for _, r := range rollouts {
		if r.at <= scan.at {
			late = append(late, fmt.Sprint(r.step["identifier"]))
		}
	}
	if len(late) > 0 {
		slices.Sort(late)
		out = append(out, fmt.Sprintf("does not run before the rollout (%s); move the scan before the rollout steps", strings.Join(late, ", ")))
	}
	for _, holder := range append([]map[string]any{scan.step}, scan.groups...) {
		strategies, _ := holder["failureStrategies"].([]any)
		for _, fs := range maps(strategies) {
			onFailure, _ := fs["onFailure"].(map[string]any)
			action, _ := onFailure["action"].(map[string]any)
			if t := action["type"]; t == "Ignore" || t == "MarkAsSuccess" {
				out = append(out, fmt.Sprintf("would not stop the run: %v has failure strategy %v; a failed scan must fail the stage (Abort)", holder["identifier"], t))
			}
		}
		if _, ok := holder["when"]; ok {
			out = append(out, fmt.Sprintf("may be skipped: %v has a when condition; the scan must run on every deployment", holder["identifier"]))
		}
	}
	return out
}
