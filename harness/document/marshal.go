package document

import (
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
