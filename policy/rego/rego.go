// Package rego holds the Rego policies Harness evaluates, as files, and
// renders them with their stack settings.
package rego

import (
	_ "embed"
	"encoding/json"

	"github.com/company/harness-platform/catalog"
)

//go:embed change_window.rego
var changeWindow string

// ChangeWindow returns the change-window policy for w: the policy file with
// the window appended as a Rego value (JSON is valid Rego).
func ChangeWindow(w *catalog.ChangeWindow) string {
	freeze := w.Freeze
	if freeze == nil {
		freeze = []string{}
	}
	window, err := json.Marshal(struct {
		Days   []string `json:"days"`
		Start  string   `json:"start"`
		End    string   `json:"end"`
		Freeze []string `json:"freeze"`
	}{w.Days, w.Start, w.End, freeze})
	if err != nil {
		panic(err) // strings always marshal
	}
	return changeWindow + "\nwindow := " + string(window) + "\n"
}

//go:embed pipeline_rules.rego
var pipelineRules string

//go:embed template_rules.rego
var templateRules string

//go:embed stage_rules.rego
var stageRules string

// PipelineRulesSettings are what the pipeline rules need to know of the
// organisation: which environments are Production, each one's
// change-window policy set, the platform team's group and the least
// approvals of an approval step.
type PipelineRulesSettings struct {
	ProductionEnvironments []string          `json:"productionEnvironments"`
	ChangeWindowSets       map[string]string `json:"changeWindowSets"`
	// UpstreamEnvironments: the environment each Production environment's
	// tags are deployed to first, in the same run.
	UpstreamEnvironments map[string]string `json:"upstreamEnvironments"`
	PlatformGroup        string            `json:"platformGroup"`
	MinApprovers         int               `json:"minApprovers"`
	// ImageScan is what Production stages' image scans fail on.
	ImageScan ImageScanRules `json:"imageScan"`
}

// ImageScanRules are the image scan gate's thresholds: by archetype (its
// identifier, as the deploy templates name it), and Default for an
// archetype not listed or a stage on no platform template.
type ImageScanRules struct {
	FailOnSeverity map[string]string `json:"failOnSeverity"`
	Default        string            `json:"default"`
}

// PipelineRules returns the pipeline rules policy for s: the policy file
// with s appended as a Rego value.
func PipelineRules(s PipelineRulesSettings) string {
	return pipelineRules + "\n" + stageRulesWith(s)
}

// stageRulesWith is the stage rules with s appended as a Rego value: the
// part the pipeline and template rules share.
func stageRulesWith(s PipelineRulesSettings) string {
	if s.ProductionEnvironments == nil {
		s.ProductionEnvironments = []string{}
	}
	if s.ChangeWindowSets == nil {
		s.ChangeWindowSets = map[string]string{}
	}
	if s.UpstreamEnvironments == nil {
		s.UpstreamEnvironments = map[string]string{}
	}
	if s.ImageScan.FailOnSeverity == nil {
		s.ImageScan.FailOnSeverity = map[string]string{}
	}
	if s.ImageScan.Default == "" {
		s.ImageScan.Default = catalog.DefaultFailOnSeverity
	}
	rules, err := json.Marshal(s)
	if err != nil {
		panic(err) // strings, a map of strings and an int always marshal
	}
	return stageRules + "\nrules := " + string(rules) + "\n"
}

// TemplateRules returns the template rules policy for s: the stage rules
// of PipelineRules, on a stage template (template_rules.rego).
func TemplateRules(s PipelineRulesSettings) string {
	return templateRules + "\n" + stageRulesWith(s)
}
