package plan

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/harness/document"
	"github.com/company/harness-platform/harness/template"
	"github.com/company/harness-platform/ident"
)

// Stage templates. Each environment's deploy stage of an archetype becomes
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
	Key                       TemplateKey
	Tags                      []string
	// Needs are what its stage refers to: the environment, its
	// infrastructures, and in Production the change window's policy set.
	Needs []Ref
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

// splitDeployStage cuts the deploy stage of a service's full pipeline
// (doc, as pipelineDocument built it) into its stage template and the
// stage that references the template's stable version (no versionLabel)
// with what differs per service as templateInputs: the service, each
// step's timeout, the approvals' groups, minimums and messages, and the
// change window's payload. The rest (strategy, steps, verification,
// rollback, failure strategies, the environment and its infrastructure)
// is the template's. doc is not modified.
func splitDeployStage(doc document.Document, key TemplateKey, scope Scope, envID, envName string) (StageTemplate, document.StageElement, error) {
	var deploy *document.Stage
	for i := range doc.Pipeline.Stages {
		if st := &doc.Pipeline.Stages[i].Stage; st.Identifier == DeployStageID {
			deploy = st
		}
	}
	if deploy == nil {
		return StageTemplate{}, document.StageElement{}, fmt.Errorf("pipeline %s has no %s stage", doc.Pipeline.Identifier, DeployStageID)
	}
	// The stage as Harness reads it: its YAML, decoded.
	y, err := document.MarshalString(document.Stage{Type: deploy.Type, Spec: deploy.Spec, FailureStrategies: deploy.FailureStrategies, When: deploy.When})
	if err != nil {
		return StageTemplate{}, document.StageElement{}, err
	}
	spec := map[string]any{}
	if err := yaml.Unmarshal([]byte(y), &spec); err != nil {
		return StageTemplate{}, document.StageElement{}, err
	}
	delete(spec, "name")
	delete(spec, "identifier")
	inputs := map[string]any{"type": spec["type"]}
	liftInputs(spec, inputs)
	body, err := document.MarshalString(spec)
	if err != nil {
		return StageTemplate{}, document.StageElement{}, err
	}
	sum := sha256.Sum256([]byte(body))
	id := key.Identifier(envID)
	t := StageTemplate{
		Identifier: id,
		Name:       fmt.Sprintf("Deploy %s to %s - %s%s", key.Archetype, envName, strings.ToLower(key.Strategy), map[bool]string{true: " - verified"}[key.Verification]),
		Version:    "v" + hex.EncodeToString(sum[:4]),
		Key:        key,
	}
	t.YAML, err = document.MarshalString(map[string]any{"template": map[string]any{
		"name":              t.Name,
		"identifier":        id,
		"versionLabel":      t.Version,
		"type":              "Stage",
		"orgIdentifier":     scope.OrgID,
		"projectIdentifier": scope.ProjectID,
		"spec":              spec,
	}})
	if err != nil {
		return StageTemplate{}, document.StageElement{}, err
	}
	thin := document.StageElement{Stage: document.Stage{
		Name: deploy.Name, Identifier: deploy.Identifier, Description: deploy.Description,
		Template: &document.TemplateLink{TemplateRef: id, TemplateInputs: inputs},
	}}
	return t, thin, nil
}

// liftInputs replaces, in a deploy stage's spec, what differs per service
// with <+input>, writing each value at the same place in inputs (the
// shape of Harness's templateInputs: steps by identifier, with their
// type): the service, the team approval's group, the approvals' messages
// (they name the service and team) and the change window's payload (it
// names the service and pipeline). What is the same for every service of
// a template (steps, timeouts, minimum approvals, the platform group) is
// the template's, so changing it writes the template and no pipeline.
func liftInputs(spec, inputs map[string]any) {
	s, _ := spec["spec"].(map[string]any)
	in := map[string]any{}
	inputs["spec"] = in
	if svc, ok := s["service"].(map[string]any); ok {
		in["service"] = map[string]any{"serviceRef": svc["serviceRef"]}
		svc["serviceRef"] = "<+input>"
	}
	exec, _ := s["execution"].(map[string]any)
	steps, _ := exec["steps"].([]any)
	var stepsIn []any
	for _, e := range steps {
		st, _ := e.(map[string]any)["step"].(map[string]any)
		sp, _ := st["spec"].(map[string]any)
		if st == nil || sp == nil {
			continue
		}
		spIn := map[string]any{}
		switch st["type"] {
		case "HarnessApproval":
			lift(sp, spIn, "approvalMessage")
			if a, ok := sp["approvers"].(map[string]any); ok && st["identifier"] == "team_approval" {
				aIn := map[string]any{}
				lift(a, aIn, "userGroups")
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
			stepsIn = append(stepsIn, map[string]any{"step": map[string]any{"identifier": st["identifier"], "type": st["type"], "spec": spIn}})
		}
	}
	if stepsIn != nil {
		in["execution"] = map[string]any{"steps": stepsIn}
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
	out, err := template.Expand(thin, lookup(templates))
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

// Expanded is a pipeline (its saved YAML) as Harness's pipeline policies
// see it on save and on run: each template applied to its inputs, with
// the template's reference kept beside what it resolved to (harness-core
// evaluates mergedPipelineYamlWithTemplateRef), decoded as JSON would be.
func Expanded(pipelineYAML string, templates []StageTemplate) (map[string]any, error) {
	var doc map[string]any
	if err := yaml.Unmarshal([]byte(pipelineYAML), &doc); err != nil {
		return nil, err
	}
	byID := make(map[string]StageTemplate, len(templates))
	for _, t := range templates {
		byID[t.Identifier] = t
	}
	return template.Expand(doc, lookup(byID))
}

// lookup finds a reference's template among templates, in Harness's words
// when it does not exist.
func lookup(templates map[string]StageTemplate) template.Lookup {
	return func(r template.Ref) (map[string]any, error) {
		t, ok := templates[r.Template]
		if !ok || r.Version != "" && r.Version != t.Version {
			return nil, fmt.Errorf("Template with the Identifier %s and versionLabel %s does not exist or has been deleted", r.Template, r.Version)
		}
		var doc map[string]any
		err := yaml.Unmarshal([]byte(t.YAML), &doc)
		return doc, err
	}
}
