package plan

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/harness/template"
	"github.com/company/harness-platform/ident"
)

// Stage templates (issue 31, in progress: computed and proven here, not
// yet declared). Each environment's deploy stage of an archetype becomes
// a Harness stage template, one per archetype, strategy and verification
// (the steps differ between them), versioned by its content; a service's
// pipeline keeps its identity, variables, notification rules and chained
// stage, and its deploy stage references the template with only what
// differs per service as templateInputs.
//
// A stage template rather than a pipeline template: a pipeline's
// notification rules, variables (the run's region choices) and the
// chained pre-stable stage differ per service, and Harness lets a
// pipeline built on a pipeline template change none of them.
// https://developer.harness.io/docs/platform/templates/add-a-stage-template
// https://developer.harness.io/docs/platform/templates/templates-best-practices

// StageTemplate is one version of a deploy-stage template.
type StageTemplate struct {
	Identifier, Name, Version string
	// YAML is the template document (template: {..., type: Stage, spec}).
	YAML string
}

// TemplateKey is what a deploy stage's template depends on besides its
// environment.
type TemplateKey struct {
	Archetype, Strategy string
	Verification        bool
}

// Identifier is the template's identifier in an environment.
func (k TemplateKey) Identifier(envID string) string {
	return ident.DeployTemplate(k.Archetype, envID, k.Strategy, k.Verification)
}

// DeployStageID is the identifier of every pipeline's deploy stage.
const DeployStageID = "deploy"

// SplitPipeline splits a full pipeline (its YAML) into the template of its
// deploy stage and the thin pipeline that references it (the template's
// stable version: no versionLabel). The template's runtime inputs are
// what differs per service: the service, each step's timeout, the
// approvals' groups, minimums and messages, and the change window's
// payload; the rest (strategy, steps, verification, rollback, failure
// strategies, the environment and its infrastructure) is the template's.
func SplitPipeline(full string, key TemplateKey, scope Scope, envID, envName string) (StageTemplate, map[string]any, error) {
	var doc map[string]any
	if err := yaml.Unmarshal([]byte(full), &doc); err != nil {
		return StageTemplate{}, nil, err
	}
	p, _ := doc["pipeline"].(map[string]any)
	stages, _ := p["stages"].([]any)
	var stage map[string]any
	var at int
	for i, e := range stages {
		if st, _ := e.(map[string]any)["stage"].(map[string]any); st["identifier"] == DeployStageID {
			stage, at = st, i
		}
	}
	if stage == nil {
		return StageTemplate{}, nil, fmt.Errorf("pipeline %v has no %s stage", p["identifier"], DeployStageID)
	}
	spec := map[string]any{}
	for k, v := range stage {
		if k != "identifier" && k != "name" && k != "description" {
			spec[k] = v
		}
	}
	inputs := map[string]any{"type": spec["type"]}
	liftInputs(spec, inputs)
	id := key.Identifier(envID)
	body, err := yaml.Marshal(spec)
	if err != nil {
		return StageTemplate{}, nil, err
	}
	sum := sha256.Sum256(body)
	version := "v" + hex.EncodeToString(sum[:4])
	tdoc := map[string]any{"template": map[string]any{
		"name":              fmt.Sprintf("Deploy %s to %s (%s%s)", key.Archetype, envName, strings.ToLower(key.Strategy), map[bool]string{true: ", verified"}[key.Verification]),
		"identifier":        id,
		"versionLabel":      version,
		"type":              "Stage",
		"orgIdentifier":     scope.OrgID,
		"projectIdentifier": scope.ProjectID,
		"spec":              spec,
	}}
	ty, err := yaml.Marshal(tdoc)
	if err != nil {
		return StageTemplate{}, nil, err
	}
	thin := map[string]any{"identifier": stage["identifier"], "name": stage["name"], "template": map[string]any{
		"templateRef": id, "templateInputs": inputs}}
	if d, ok := stage["description"]; ok {
		thin["description"] = d
	}
	stages[at] = map[string]any{"stage": thin}
	return StageTemplate{Identifier: id, Name: tdoc["template"].(map[string]any)["name"].(string), Version: version, YAML: string(ty)}, doc, nil
}

// liftInputs replaces, in a deploy stage's spec, what differs per service
// with <+input>, writing each value at the same place in inputs (the
// shape of Harness's templateInputs: steps by identifier, with their
// type).
func liftInputs(spec, inputs map[string]any) {
	s, _ := spec["spec"].(map[string]any)
	in := map[string]any{}
	inputs["spec"] = in
	if svc, ok := s["service"].(map[string]any); ok {
		in["service"] = map[string]any{"serviceRef": svc["serviceRef"]}
		svc["serviceRef"] = "<+input>"
	}
	exec, _ := s["execution"].(map[string]any)
	execIn := map[string]any{}
	for _, list := range []string{"steps", "rollbackSteps"} {
		steps, _ := exec[list].([]any)
		var stepsIn []any
		for _, e := range steps {
			st, _ := e.(map[string]any)["step"].(map[string]any)
			if st == nil {
				continue
			}
			stIn := map[string]any{"identifier": st["identifier"], "type": st["type"]}
			lift(st, stIn, "timeout")
			if sp, ok := st["spec"].(map[string]any); ok {
				spIn := map[string]any{}
				switch st["type"] {
				case "HarnessApproval":
					lift(sp, spIn, "approvalMessage")
					if a, ok := sp["approvers"].(map[string]any); ok {
						aIn := map[string]any{}
						lift(a, aIn, "userGroups")
						lift(a, aIn, "minimumCount")
						spIn["approvers"] = aIn
					}
				case "Policy":
					if ps, ok := sp["policySpec"].(map[string]any); ok {
						psIn := map[string]any{}
						lift(ps, psIn, "payload")
						spIn["policySpec"] = psIn
					}
				}
				if len(spIn) > 0 {
					stIn["spec"] = spIn
				}
			}
			stepsIn = append(stepsIn, map[string]any{"step": stIn})
		}
		if stepsIn != nil {
			execIn[list] = stepsIn
		}
	}
	if len(execIn) > 0 {
		in["execution"] = execIn
	}
}

// lift moves node[key] to in[key], leaving <+input> in node.
func lift(node, in map[string]any, key string) {
	if v, ok := node[key]; ok {
		in[key] = v
		node[key] = "<+input>"
	}
}

// ResolvePipeline is a thin pipeline with its templates expanded as
// Harness expands them, each reference left out: what runs, and what
// equals the full pipeline it was split from.
func ResolvePipeline(thin map[string]any, templates map[string]StageTemplate) (map[string]any, error) {
	out, err := template.Expand(thin, func(r template.Ref) (map[string]any, error) {
		t, ok := templates[r.Template]
		if !ok || r.Version != "" && r.Version != t.Version {
			return nil, fmt.Errorf("Template with the Identifier %s and versionLabel %s does not exist or has been deleted", r.Template, r.Version)
		}
		var doc map[string]any
		err := yaml.Unmarshal([]byte(t.YAML), &doc)
		return doc, err
	})
	if err != nil {
		return nil, err
	}
	p, _ := out["pipeline"].(map[string]any)
	for _, e := range p["stages"].([]any) {
		if st, ok := e.(map[string]any)["stage"].(map[string]any); ok {
			delete(st, "template")
		}
	}
	return out, nil
}
