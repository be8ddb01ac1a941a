package catalog

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/internal/diag"
	"github.com/company/harness-platform/internal/yamlstrict"
)

// The catalog files, relative to the project directory.
const (
	ServicesFile   = "catalog/services.yaml"
	TeamsFile      = "catalog/teams.yaml"
	ArchetypesFile = "catalog/archetypes.yaml"
	RegionsFile    = "catalog/regions.yaml"
)

// Catalog is the validated input of the program.
type Catalog struct {
	Services     []*Service
	Teams        []*Team
	PlatformTeam *Team
	Archetypes   []*Archetype
	Regions      []*Region
	// Stacks by name, and their names in promotion order (root first).
	Stacks map[string]*Stack
	Chain  []string

	services   map[string]*Service
	teams      map[string]*Team
	archetypes map[string]*Archetype
	regions    map[string]*Region
}

type servicesFile struct {
	Services []*Service `yaml:"services" required:"true" desc:"Every service the platform deploys."`
}

type teamsFile struct {
	At           yamlstrict.At
	PlatformTeam string  `yaml:"platformTeam" required:"true" desc:"The team that co-approves every Production deployment."`
	Teams        []*Team `yaml:"teams" required:"true" desc:"Teams that own services."`
}

type archetypesFile struct {
	Archetypes []*Archetype `yaml:"archetypes" required:"true" desc:"Pipeline shapes and defaults."`
}

type regionsFile struct {
	Regions []*Region `yaml:"regions" required:"true" desc:"Regions environments may use."`
}

// stackFile is a Pulumi stack file; only this project's keys are decoded.
type stackFile struct {
	SecretsProvider string `yaml:"secretsprovider"`
	EncryptedKey    string `yaml:"encryptedkey"`
	EncryptionSalt  string `yaml:"encryptionsalt"`
	Environment     string `yaml:"environment"`
}

// Load reads and validates the catalog and every Pulumi.<stack>.yaml in dir.
// The error, if any, is a *diag.Error listing every problem.
func Load(dir string) (*Catalog, error) {
	files := map[string][]byte{}
	var diags diag.List
	for _, name := range []string{ServicesFile, TeamsFile, ArchetypesFile, RegionsFile} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			diags.Add(name, 0, 0, "run from the project directory, or create the file", "cannot read: %v", err)
			continue
		}
		files[name] = data
	}
	stackPaths, _ := filepath.Glob(filepath.Join(dir, "Pulumi.*.yaml"))
	if len(stackPaths) == 0 {
		diags.Add("Pulumi.<stack>.yaml", 0, 0, "add Pulumi.dev.yaml", "no stack files found in %s", dir)
	}
	for _, p := range stackPaths {
		data, err := os.ReadFile(p)
		if err != nil {
			diags.Add(filepath.Base(p), 0, 0, "", "cannot read: %v", err)
			continue
		}
		files[filepath.Base(p)] = data
	}
	if len(diags) > 0 {
		return nil, diags.Err()
	}
	return Parse(files)
}

// Parse validates the catalog given as file contents keyed by their path
// relative to the project directory (the four catalog files and the
// Pulumi.<stack>.yaml files).
func Parse(files map[string][]byte) (*Catalog, error) {
	var diags diag.List
	c := &Catalog{Stacks: map[string]*Stack{}}

	var sf servicesFile
	var tf teamsFile
	var af archetypesFile
	var rf regionsFile
	decodeFile(files, ServicesFile, &sf, &diags)
	decodeFile(files, TeamsFile, &tf, &diags)
	decodeFile(files, ArchetypesFile, &af, &diags)
	decodeFile(files, RegionsFile, &rf, &diags)
	c.Services, c.Teams, c.Archetypes, c.Regions = compact(sf.Services), compact(tf.Teams), compact(af.Archetypes), compact(rf.Regions)

	names := make([]string, 0, len(files))
	for name := range files {
		if strings.HasPrefix(name, "Pulumi.") && strings.HasSuffix(name, ".yaml") {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		if st := parseStack(name, files[name], &diags); st != nil {
			c.Stacks[st.Name] = st
		}
	}

	v := validator{c: c, diags: &diags}
	v.regions()
	v.teams(tf.PlatformTeam, tf.At.Field("platformTeam"))
	v.archetypes()
	v.stacks()
	v.services()
	if err := diags.Err(); err != nil {
		return nil, err
	}
	return c, nil
}

func compact[T any](in []*T) []*T {
	out := in[:0]
	for _, x := range in {
		if x != nil {
			out = append(out, x)
		}
	}
	return out
}

func decodeFile(files map[string][]byte, name string, into any, diags *diag.List) {
	data, ok := files[name]
	if !ok {
		diags.Add(name, 0, 0, "create it (see README, \"The catalog\")", "file is missing")
		return
	}
	if n := yamlstrict.ParseFile(name, data, diags); n != nil {
		yamlstrict.Decode(name, n, into, diags)
	}
}

// parseStack decodes the project's keys of one stack file; keys of other
// namespaces (aws:region, ...) belong to other programs and are left alone.
func parseStack(file string, data []byte, diags *diag.List) *Stack {
	root := yamlstrict.ParseFile(file, data, diags)
	if root == nil {
		return nil
	}
	st := &Stack{Name: strings.TrimSuffix(strings.TrimPrefix(file, "Pulumi."), ".yaml"), File: file}
	if root.Kind != yaml.MappingNode {
		diags.Add(file, root.Line, root.Column, "start the file with config:", "expected a mapping")
		return nil
	}
	var config *yaml.Node
	top := &yaml.Node{Kind: yaml.MappingNode, Line: root.Line, Column: root.Column}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "config" {
			config = root.Content[i+1]
			continue
		}
		top.Content = append(top.Content, root.Content[i], root.Content[i+1])
	}
	var sf stackFile
	yamlstrict.Decode(file, top, &sf, diags)
	if config == nil {
		diags.Add(file, root.Line, root.Column, "add a config: section with "+Namespace+":environment and "+Namespace+":regions", "no config section")
		return nil
	}
	if config.Kind != yaml.MappingNode {
		diags.Add(file, config.Line, config.Column, "write config as key: value pairs", "config must be a mapping")
		return nil
	}
	own := &yaml.Node{Kind: yaml.MappingNode, Line: config.Line, Column: config.Column}
	for i := 0; i+1 < len(config.Content); i += 2 {
		k, v := config.Content[i], config.Content[i+1]
		if !strings.HasPrefix(k.Value, Namespace+":") {
			continue
		}
		if k.Value == Namespace+":githubToken" && v.Kind == yaml.ScalarNode {
			diags.Add(file, v.Line, v.Column, "remove it and run: pulumi config set --secret "+Namespace+":githubToken --stack "+st.Name, "%s is stored in plaintext", k.Value)
			continue
		}
		own.Content = append(own.Content, k, v)
	}
	yamlstrict.Decode(file, own, st, diags)
	return st
}
