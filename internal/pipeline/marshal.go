package pipeline

import (
	"github.com/company/harness-platform/catalog"

	"bytes"

	"gopkg.in/yaml.v3"
)

// Marshal encodes v as canonical YAML: two-space indentation, struct fields
// in declaration order, map keys sorted.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Rendered is the YAML of one deployment's pipeline and trigger.
type Rendered struct {
	PipelineYAML []byte
	TriggerYAML  []byte
}

// Render builds and marshals d's pipeline and trigger.
func Render(d catalog.Deployment, refs Refs) (Rendered, error) {
	p, err := Marshal(Build(d, refs))
	if err != nil {
		return Rendered{}, err
	}
	t, err := BuildTrigger(d, refs)
	if err != nil {
		return Rendered{}, err
	}
	ty, err := Marshal(t)
	if err != nil {
		return Rendered{}, err
	}
	return Rendered{PipelineYAML: p, TriggerYAML: ty}, nil
}
