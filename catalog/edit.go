package catalog

import (
	"bytes"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/yamlstrict"
)

// SetTokenGeneration sets delegateTokenGeneration on region's entry of
// harness-platform:regions in a stack file's data, as a person would: the
// value replaced where it is written, else a line added under the entry's
// name; every other byte is kept (comments, order, spacing).
func SetTokenGeneration(data []byte, file, region string, gen int) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 {
		return nil, fmt.Errorf("%s: not a stack file: %v", file, err)
	}
	regions := yamlstrict.Value(yamlstrict.Value(doc.Content[0], "config"), Namespace+":regions")
	if regions == nil || regions.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("%s: no %s:regions list", file, Namespace)
	}
	for _, item := range regions.Content {
		name := yamlstrict.Value(item, "name")
		if name == nil || name.Value != region {
			continue
		}
		lines := bytes.SplitAfter(data, []byte("\n"))
		if v := yamlstrict.Value(item, "delegateTokenGeneration"); v != nil {
			line := string(lines[v.Line-1])
			col := v.Column - 1
			rest := line[col+len(v.Value):]
			lines[v.Line-1] = []byte(line[:col] + fmt.Sprint(gen) + rest)
			return bytes.Join(lines, nil), nil
		}
		// The key of name: the line to add goes under it, as indented.
		var key *yaml.Node
		for i := 0; i+1 < len(item.Content); i += 2 {
			if item.Content[i+1] == name {
				key = item.Content[i]
			}
		}
		if item.Style&yaml.FlowStyle != 0 || key == nil {
			return nil, fmt.Errorf("%s:%d: region %s is written inline; write delegateTokenGeneration: %d in it by hand", file, item.Line, region, gen)
		}
		add := strings.Repeat(" ", key.Column-1) + fmt.Sprintf("delegateTokenGeneration: %d\n", gen)
		out := append([][]byte{}, lines[:name.Line]...)
		if n := len(out); n > 0 && !bytes.HasSuffix(out[n-1], []byte("\n")) {
			out[n-1] = append(append([]byte{}, out[n-1]...), '\n')
		}
		out = append(out, []byte(add))
		out = append(out, lines[name.Line:]...)
		return bytes.Join(out, nil), nil
	}
	return nil, fmt.Errorf("%s: no region %s in %s:regions", file, region, Namespace)
}
