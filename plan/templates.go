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
	// Candidate: this version is saved non-stable, beside the stable one,
	// while the pipelines move to it (TemplateVersions).
	Candidate bool
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

// deployStage is the deploy stage of a service's full pipeline.
func deployStage(doc document.Document) (*document.Stage, error) {
	for i := range doc.Pipeline.Stages {
		if st := &doc.Pipeline.Stages[i].Stage; st.Identifier == DeployStageID {
			return st, nil
		}
	}
	return nil, fmt.Errorf("pipeline %s has no %s stage", doc.Pipeline.Identifier, DeployStageID)
}

// deployTemplate is the stage template of the deploy stage of a
// service's full pipeline (doc, as pipelineDocument built it): the stage
// with what differs per service (liftInputs) left as runtime inputs. The
// services of one key share it. Its tags are in its YAML: the provider
// declares tags on the template resource but neither sends nor reads them
// (terraform-provider-harness v0.45.0, resource_template.go), so only the
// YAML's reach Harness, and a tag edited in Harness is drift the next
// refresh reads back. The version is the spec's hash: tags do not make a
// new version.
func deployTemplate(doc document.Document, key TemplateKey, scope Scope, envID, envName string, tags map[string]string) (StageTemplate, error) {
	deploy, err := deployStage(doc)
	if err != nil {
		return StageTemplate{}, err
	}
	// The stage as Harness reads it: its YAML, decoded.
	y, err := document.MarshalString(document.Stage{Type: deploy.Type, Spec: deploy.Spec, FailureStrategies: deploy.FailureStrategies, When: deploy.When})
	if err != nil {
		return StageTemplate{}, err
	}
	spec := map[string]any{}
	if err := yaml.Unmarshal([]byte(y), &spec); err != nil {
		return StageTemplate{}, err
	}
	delete(spec, "name")
	delete(spec, "identifier")
	liftInputs(spec)
	body, err := document.MarshalString(spec)
	if err != nil {
		return StageTemplate{}, err
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
		"tags":              tags,
		"spec":              spec,
	}})
	return t, err
}

// thinStage is the deploy stage of a service's pipeline on its template:
// the template's stable version (no versionLabel) and, as
// templateInputs, the values liftInputs leaves as inputs in the template,
// read from the typed stage (no YAML round trip: this runs per service;
// TestStageTemplates holds the two to one result).
func thinStage(deploy *document.Stage, templateID string) document.StageElement {
	spec, _ := deploy.Spec.(document.DeploymentSpec)
	in := map[string]any{"service": map[string]any{"serviceRef": spec.Service.ServiceRef}}
	var steps []any
	for _, e := range spec.Execution.Steps {
		st := e.Step
		spIn := map[string]any{}
		switch sp := st.Spec.(type) {
		case document.HarnessApprovalSpec:
			spIn["approvalMessage"] = sp.ApprovalMessage
			if st.Identifier == TeamApprovalID {
				spIn["approvers"] = map[string]any{"userGroups": sp.Approvers.UserGroups}
			}
		case document.PolicySpec:
			spIn["policySpec"] = map[string]any{"payload": sp.PolicySpec.Payload}
		}
		if len(spIn) > 0 {
			steps = append(steps, map[string]any{"step": map[string]any{"identifier": st.Identifier, "type": st.Type, "spec": spIn}})
		}
	}
	if steps != nil {
		in["execution"] = map[string]any{"steps": steps}
	}
	return document.StageElement{Stage: document.Stage{
		Name: deploy.Name, Identifier: deploy.Identifier, Description: deploy.Description,
		Template: &document.TemplateLink{TemplateRef: templateID, TemplateInputs: map[string]any{"type": deploy.Type, "spec": in}},
	}}
}

// liftInputs replaces, in a deploy stage's spec (decoded YAML), what
// differs per service with <+input>: the service, the team approval's
// group, the approvals' messages (they name the service and team) and the
// change window's payload (it names the service and pipeline); thinStage
// gives the same values as each pipeline's templateInputs. What is the
// same for every service of a template (steps, timeouts, minimum
// approvals, the platform group) is the template's, so changing it writes
// the template and no pipeline.
func liftInputs(spec map[string]any) {
	s, _ := spec["spec"].(map[string]any)
	if svc, ok := s["service"].(map[string]any); ok {
		input(svc, "serviceRef")
	}
	exec, _ := s["execution"].(map[string]any)
	steps, _ := exec["steps"].([]any)
	for _, e := range steps {
		st, _ := e.(map[string]any)["step"].(map[string]any)
		sp, _ := st["spec"].(map[string]any)
		switch st["type"] {
		case "HarnessApproval":
			input(sp, "approvalMessage")
			if a, ok := sp["approvers"].(map[string]any); ok && st["identifier"] == TeamApprovalID {
				input(a, "userGroups")
			}
		case "Policy":
			if ps, ok := sp["policySpec"].(map[string]any); ok {
				input(ps, "payload")
			}
		}
	}
}

// input makes node[key], when set, a runtime input.
func input(node map[string]any, key string) {
	if _, ok := node[key]; ok {
		node[key] = "<+input>"
	}
}

// Resolve is a pipeline (its saved YAML) with its templates applied as
// Harness applies them and each reference left out: what runs, and what
// equals the full pipeline it was split from.
func Resolve(pipelineYAML string, templates []StageTemplate) (map[string]any, error) {
	out, err := Expanded(pipelineYAML, templates)
	if err != nil {
		return nil, err
	}
	p, _ := out["pipeline"].(map[string]any)
	stages, _ := p["stages"].([]any)
	for _, e := range stages {
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
	return template.Expand(doc, func(r template.Ref) (map[string]any, error) {
		t, ok := byID[r.Template]
		if !ok || r.Version != "" && r.Version != t.Version {
			return nil, fmt.Errorf("Template with the Identifier %s and versionLabel %s does not exist or has been deleted", r.Template, r.Version)
		}
		var doc map[string]any
		err := yaml.Unmarshal([]byte(t.YAML), &doc)
		return doc, err
	})
}

// StoreType is where the program's pipelines and templates are saved:
// INLINE, in Harness. It is declared on each (git_details.store_type), so
// an account whose default_store_type_for_entities is REMOTE does not
// make them remote entities without a repository; an account that
// enforces Git Experience (enforce_git_experience) refuses INLINE
// entities altogether, which preflight reports (GitExperience).
const StoreType = "INLINE"
