package catalog

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/yamlstrict"
)

// Config is the settings of the stack a program runs, as Pulumi config
// gives them to it: the stack file's values (`pulumi config set` and `-c`
// write them there before the program starts), and the `pulumiConfig` of
// the ESC environments the stack file imports, which the stack file
// overrides. Resolve lays them over the stack file's config.
type Config struct {
	// Stack is the stack the program runs: an environment's platform
	// stack (dev) or one of its service stacks (dev.payments), whose
	// settings are its environment's.
	Stack string
	// Values maps config keys to what the Pulumi SDK returns for them
	// (objects and lists as JSON). Keys of other namespaces, secrets and
	// keys without a value are left as the stack file has them.
	Values map[string]string
}

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

// A Resolver resolves one project's files for every run of a process (the
// program runs once per stack in an engine session): a run whose config
// holds nothing its stack file does not already say gets the catalog
// resolved without config, resolved once; any other resolves the files
// with its config (Resolve). The catalogs are read-only and may be shared.
type Resolver struct {
	files Files
	once  sync.Once
	plain *Catalog
	err   error

	// What every stack's config is compared with, parsed once: a
	// session asks for each of its stacks (a hundred at 1,000 services).
	defaultsOnce sync.Once
	defaults     map[string]any
	mu           sync.Mutex
	configs      map[string]*yaml.Node // by environment
}

// NewResolver returns a Resolver of files.
func NewResolver(files Files) *Resolver { return &Resolver{files: files} }

// Resolve is Resolve(files, cfg).
func (r *Resolver) Resolve(cfg *Config) (*Catalog, error) {
	if cfg != nil {
		r.defaultsOnce.Do(func() { r.defaults = projectDefaults(r.files[ProjectFile]) })
		over := overlayOn(r.defaults, cfg)
		if over.changes(r.stackConfig(over.env)) {
			return resolveFiles(r.files, over)
		}
	}
	r.once.Do(func() { r.plain, r.err = Resolve(r.files, nil) })
	return r.plain, r.err
}

// stackConfig is stackConfig(r.files, env), parsed once. The node is
// only read: overlay.apply builds a new mapping.
func (r *Resolver) stackConfig(env string) *yaml.Node {
	r.mu.Lock()
	defer r.mu.Unlock()
	n, ok := r.configs[env]
	if !ok {
		if r.configs == nil {
			r.configs = map[string]*yaml.Node{}
		}
		n = stackConfig(r.files, env)
		r.configs[env] = n
	}
	return n
}

// stackConfig is the config mapping of stack's file, or nil; problems are
// left for Resolve to report.
func stackConfig(files Files, stack string) *yaml.Node {
	var root yaml.Node
	if yaml.Unmarshal(files["Pulumi."+stack+".yaml"], &root) != nil || len(root.Content) == 0 {
		return nil
	}
	return yamlstrict.Value(root.Content[0], "config")
}

// overlay is a Config laid over its environment's stack file: the values
// that differ from the file's, each read as a YAML node whose problems are
// reported at the config key it came from.
type overlay struct {
	cfg      *Config
	env      string
	values   map[string]string
	defaults map[string]any
}

func newOverlay(files Files, cfg *Config) *overlay {
	if cfg == nil {
		return nil
	}
	return overlayOn(projectDefaults(files[ProjectFile]), cfg)
}

// overlayOn is the overlay of cfg over Pulumi.yaml's defaults.
func overlayOn(defaults map[string]any, cfg *Config) *overlay {
	env, shard := SplitStack(cfg.Stack)
	o := &overlay{cfg: cfg, env: env, values: map[string]string{}, defaults: defaults}
	for k, raw := range cfg.Values {
		if !strings.HasPrefix(k, Namespace+":") || secretKeys[k] {
			continue
		}
		if shard != "" && o.isDefault(k, raw) {
			// A service stack receives Pulumi.yaml's defaults for what
			// its own file does not set; its environment's setting stands.
			continue
		}
		o.values[k] = raw
	}
	return o
}

// changes reports whether the overlay (nil: no config) changes anything
// in config, its stack file's config mapping: whether apply takes any
// value from the Config.
func (o *overlay) changes(config *yaml.Node) bool {
	if o == nil {
		return false
	}
	sources := yamlstrict.Sources{}
	o.apply("", config, nil, sources)
	return len(sources) > 0
}

func (o *overlay) isDefault(key, raw string) bool {
	def, ok := o.defaults[key]
	return ok && reflect.DeepEqual(def, configValue(raw))
}

// apply returns the stack file's config mapping with the config's values
// in place of the file's where they differ, marking in sources the nodes
// that came from config. imports are the ESC environments the file imports.
func (o *overlay) apply(file string, config *yaml.Node, imports []string, sources yamlstrict.Sources) *yaml.Node {
	if config != nil && config.Kind != yaml.MappingNode {
		return config // reported as it is
	}
	out := &yaml.Node{Kind: yaml.MappingNode, Line: 1, Column: 1}
	inFile := map[string]bool{}
	if config != nil {
		out.Line, out.Column = config.Line, config.Column
		for i := 0; i+1 < len(config.Content); i += 2 {
			k, v := config.Content[i], config.Content[i+1]
			inFile[k.Value] = true
			if raw, ok := o.values[k.Value]; ok && !sameValue(v, raw) {
				v = o.node(k.Value, raw, o.from(file, true, imports), sources)
			}
			out.Content = append(out.Content, k, v)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(o.values)) {
		raw := o.values[k]
		if inFile[k] || o.isDefault(k, raw) {
			continue // the file's, or the project's default, which resolve applies too
		}
		v := o.node(k, raw, o.from(file, false, imports), sources)
		key := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k}
		sources.Mark(key, sources[v])
		out.Content = append(out.Content, key, v)
	}
	return out
}

// from says where a value that is not the stack file's came from. The
// stack file overrides its ESC environments, and `pulumi config set` and
// `-c` write to it before the program starts, so a value the file lacks
// came from the ESC environments it imports (which the engine makes its
// service stacks import too), and one the file holds otherwise came with
// --config-file, the Automation API's config or a service stack's own.
func (o *overlay) from(file string, inFile bool, imports []string) string {
	switch {
	case !inFile && len(imports) > 0:
		return "from the ESC environment " + strings.Join(imports, " or ") + " that " + file + " imports"
	case o.cfg.Stack != o.env:
		return "from the service stack's own config, not " + file
	case inFile:
		return "from Pulumi config, which differs from " + file + ": --config-file or the Automation API"
	default:
		return "from Pulumi config, not " + file
	}
}

// node reads a config value as YAML (JSON objects and lists as their
// structure, anything else as a string) and marks it as config key's.
func (o *overlay) node(key, raw, from string, sources yamlstrict.Sources) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: raw}
	if _, structured := configValue(raw).(string); !structured {
		var doc yaml.Node
		if yaml.Unmarshal([]byte(raw), &doc) == nil && len(doc.Content) == 1 {
			n = doc.Content[0]
		}
	}
	sources.Mark(n, fmt.Sprintf("config %s (stack %s, %s)", key, o.cfg.Stack, from))
	return n
}

// sameValue reports whether the file's node holds the value raw, as Pulumi
// config gives it.
func sameValue(n *yaml.Node, raw string) bool {
	var v any
	if n.Decode(&v) != nil {
		return false
	}
	return reflect.DeepEqual(plainValue(v), configValue(raw))
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

// plainValue is a YAML value as plain data comparable with configValue's
// (scalars as the strings Pulumi gives).
func plainValue(v any) any {
	switch v.(type) {
	case map[string]any, []any:
		js, err := json.Marshal(v)
		if err != nil {
			return nil
		}
		return configValue(string(js))
	default:
		return fmt.Sprint(v)
	}
}

// projectDefaults are the defaults Pulumi.yaml declares for config keys
// (Pulumi gives them to the program when a stack sets no value).
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
			values[k] = plainValue(v.Default)
		}
	}
	return values
}
