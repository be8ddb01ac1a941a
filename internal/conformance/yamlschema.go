// Package conformance checks what the project generates against Harness's
// own documents in ../shared: pipeline and trigger YAML against the JSON
// Schemas Harness publishes, and how Harness resolves the expressions the
// pipelines use. It is used by tests only; the provider's facts, which
// offline runs need too, are package harness/provider.
package conformance

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/company/harness-platform/harness/provider"
	"github.com/dlclark/regexp2"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"sigs.k8s.io/yaml"
)

// Harness's patterns are ECMAScript regular expressions (some use
// look-ahead), which Go's regexp cannot compile.
type ecmaRegexp struct{ re *regexp2.Regexp }

func (r ecmaRegexp) MatchString(s string) bool {
	ok, err := r.re.MatchString(s)
	return err == nil && ok
}

func (r ecmaRegexp) String() string { return r.re.String() }

func compileECMA(s string) (jsonschema.Regexp, error) {
	re, err := regexp2.Compile(s, regexp2.ECMAScript)
	if err != nil {
		return nil, err
	}
	return ecmaRegexp{re}, nil
}

func compileSchema(file string) (*jsonschema.Schema, error) {
	shared, err := provider.SharedDir()
	if err != nil {
		return nil, err
	}
	path := filepath.Join(shared, "harness-schema", file)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft7)
	c.UseRegexpEngine(compileECMA)
	if err := c.AddResource(file, doc); err != nil {
		return nil, err
	}
	return c.Compile(file)
}

var (
	pipelineSchema = sync.OnceValues(func() (*jsonschema.Schema, error) { return compileSchema("pipeline.json") })
	triggerSchema  = sync.OnceValues(func() (*jsonschema.Schema, error) { return compileSchema("trigger.json") })
)

// ValidatePipeline validates a `pipeline:` YAML document against the
// schema Harness publishes.
func ValidatePipeline(doc []byte) error { return validate(pipelineSchema, doc) }

// ValidateTrigger validates a `trigger:` YAML document.
func ValidateTrigger(doc []byte) error { return validate(triggerSchema, doc) }

func validate(schema func() (*jsonschema.Schema, error), doc []byte) error {
	s, err := schema()
	if err != nil {
		return err
	}
	js, err := yaml.YAMLToJSON(doc)
	if err != nil {
		return err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		return err
	}
	return s.Validate(v)
}

// ValidateTemplate validates a stage template's `template:` YAML document.
// ../shared holds no template schema (Harness publishes
// v0/template.json, whose Stage template spec is the pipeline schema's
// stage), so the envelope's required fields are checked here and the
// spec as a stage of a pipeline against the pipeline schema.
func ValidateTemplate(doc []byte) error {
	var t struct {
		Template struct {
			Name, Identifier, VersionLabel, Type string
			OrgIdentifier, ProjectIdentifier     string
			Spec                                 map[string]any
		}
	}
	if err := yaml.Unmarshal(doc, &t); err != nil {
		return err
	}
	var missing []string
	for field, v := range map[string]string{"name": t.Template.Name, "identifier": t.Template.Identifier, "versionLabel": t.Template.VersionLabel} {
		if v == "" {
			missing = append(missing, "template."+field)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return fmt.Errorf("missing %s", strings.Join(missing, ", "))
	}
	if t.Template.Type != "Stage" {
		return fmt.Errorf("template.type is %q; only Stage templates are checked", t.Template.Type)
	}
	stage := map[string]any{"identifier": t.Template.Identifier, "name": t.Template.Name}
	for k, v := range t.Template.Spec {
		stage[k] = v
	}
	p, err := yaml.Marshal(map[string]any{"pipeline": map[string]any{"identifier": "template_check", "name": "template check",
		"stages": []any{map[string]any{"stage": stage}}}})
	if err != nil {
		return err
	}
	return ValidatePipeline(p)
}
