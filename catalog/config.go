package catalog

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/diag"
)

// SettingKeys are the config keys of a stack's settings
// ("harness-platform:environment", ...), the secrets excepted.
func SettingKeys() []string {
	var keys []string
	t := reflect.TypeFor[stackDoc]()
	for i := range t.NumField() {
		key, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
		if strings.HasPrefix(key, Namespace+":") && !secretKeys[key] {
			keys = append(keys, key)
		}
	}
	return keys
}

// WithConfig returns the catalog with stack's settings as the program
// receives them through Pulumi config: the stack file's values, overridden
// by `pulumi config set` or `-c`, or supplied by the ESC environments the
// file imports. values maps config keys to what the Pulumi SDK returns for
// them (objects and lists as JSON); keys without a value are left as the
// file has them. The result is validated as the files are: a value that
// equals the file's keeps its file:line:col, one that came from elsewhere is
// named by its config key. When nothing differs, c itself is returned.
func (c *Catalog) WithConfig(stack string, values map[string]string) (*Catalog, error) {
	st, err := c.Stack(stack)
	if err != nil {
		return nil, err
	}
	cfg := &stackConfig{stack: stack, file: st.File}
	fileValues := fileSettings(c.files[st.File])
	defaults := projectDefaults(c.files[ProjectFile])
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !strings.HasPrefix(k, Namespace+":") || secretKeys[k] {
			continue
		}
		given := configValue(values[k])
		if file, ok := fileValues[k]; ok && reflect.DeepEqual(file, given) {
			continue
		}
		if def, ok := defaults[k]; ok && reflect.DeepEqual(def, given) {
			if _, inFile := fileValues[k]; !inFile {
				continue // the project's default, which the catalog applies too
			}
		}
		cfg.add(k, values[k])
	}
	if len(cfg.keys) == 0 {
		return c, nil
	}
	return parse(c.files, cfg)
}

// configValue is a config value as plain data: JSON objects and lists
// decoded, anything else the string itself.
func configValue(raw string) any {
	var v any
	if err := json.Unmarshal([]byte(raw), &v); err == nil {
		switch v.(type) {
		case map[string]any, []any:
			return v
		}
	}
	return raw
}

// fileSettings are the project's config values in a stack file, as plain
// data comparable with configValue's (scalars as the strings Pulumi gives).
func fileSettings(data []byte) map[string]any {
	var doc struct {
		Config map[string]any `yaml:"config"`
	}
	if yaml.Unmarshal(data, &doc) != nil {
		return nil
	}
	return plainValues(doc.Config)
}

// projectDefaults are the defaults Pulumi.yaml declares for config keys
// (Pulumi gives them to the program when a stack sets no value).
// IsProjectDefault reports whether raw, as Pulumi config gives it, is
// key's default in Pulumi.yaml: what every stack receives when nothing
// sets the key. A service stack receives the defaults too, and they must
// not override its environment's settings.
func (c *Catalog) IsProjectDefault(key, raw string) bool {
	def, ok := projectDefaults(c.files[ProjectFile])[key]
	return ok && reflect.DeepEqual(def, configValue(raw))
}

func projectDefaults(data []byte) map[string]any {
	var doc struct {
		Config map[string]struct {
			Default any `yaml:"default"`
		} `yaml:"config"`
	}
	if yaml.Unmarshal(data, &doc) != nil {
		return nil
	}
	values := map[string]any{}
	for k, v := range doc.Config {
		if v.Default != nil {
			values[k] = v.Default
		}
	}
	return plainValues(values)
}

func plainValues(in map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range in {
		switch v.(type) {
		case map[string]any, []any:
			js, err := json.Marshal(v)
			if err != nil {
				continue
			}
			out[k] = configValue(string(js))
		default:
			out[k] = fmt.Sprint(v)
		}
	}
	return out
}

// configLineBase shifts the lines of config values' nodes far beyond any
// stack file's, so that problems found in them can be told apart and named
// by their config key (see rename).
const configLineBase = 1 << 20

// stackConfig are the settings of one stack that come from Pulumi config
// rather than from its stack file.
type stackConfig struct {
	stack, file string
	keys        []string
	values      []*yaml.Node
}

func (c *stackConfig) add(key, raw string) {
	base := (len(c.keys) + 1) * configLineBase
	node := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: raw, Line: base + 1, Column: 1}
	if _, structured := configValue(raw).(string); !structured {
		var doc yaml.Node
		if yaml.Unmarshal([]byte(raw), &doc) == nil && len(doc.Content) == 1 {
			node = doc.Content[0]
			shift(node, base)
		}
	}
	c.keys = append(c.keys, key)
	c.values = append(c.values, node)
}

func shift(n *yaml.Node, by int) {
	n.Line += by
	for _, c := range n.Content {
		shift(c, by)
	}
}

// merge returns the stack file's config mapping with the config values in
// place of the file's.
func (c *stackConfig) merge(config *yaml.Node) *yaml.Node {
	out := &yaml.Node{Kind: yaml.MappingNode, Line: 1, Column: 1}
	if config != nil && config.Kind == yaml.MappingNode {
		out.Line, out.Column = config.Line, config.Column
		for i := 0; i+1 < len(config.Content); i += 2 {
			if !slices.Contains(c.keys, config.Content[i].Value) {
				out.Content = append(out.Content, config.Content[i], config.Content[i+1])
			}
		}
	} else if config != nil {
		return config // reported as it is
	}
	for i, k := range c.keys {
		key := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k, Line: c.values[i].Line, Column: 1}
		out.Content = append(out.Content, key, c.values[i])
	}
	return out
}

// rename points the problems found in config values at their config key.
func (c *stackConfig) rename(diags diag.List) {
	for i, d := range diags {
		if d.File != c.file || d.Line < configLineBase {
			continue
		}
		if k := d.Line/configLineBase - 1; k < len(c.keys) {
			diags[i].File = fmt.Sprintf("config %s (stack %s, from pulumi config or ESC)", c.keys[k], c.stack)
			diags[i].Line, diags[i].Col = 0, 0
		}
	}
}

// File returns the content of a file the catalog was parsed from (a
// catalog file, a stack file or Pulumi.yaml).
func (c *Catalog) File(name string) ([]byte, bool) {
	data, ok := c.files[name]
	return data, ok
}
