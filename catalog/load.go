package catalog

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/diag"
	"github.com/company/harness-platform/yamlstrict"
)

// The catalog files, relative to the project directory.
const (
	ServicesFile   = "catalog/services.yaml"
	TeamsFile      = "catalog/teams.yaml"
	ArchetypesFile = "catalog/archetypes.yaml"
	RegionsFile    = "catalog/regions.yaml"
	ProjectFile    = "Pulumi.yaml"
	// AccessFile is the Pulumi Cloud organisation's settings; the
	// catalog reads its organization, in which the ESC environments are
	// (the Harness CI pipeline opens them by name).
	AccessFile = "esc/pulumi/access.yaml"
)

// stackFile is a Pulumi stack file's top level besides config; only this
// project's config keys are decoded. `environment:` (the ESC environments
// the stack imports) is read by escImports.
type stackFile struct {
	SecretsProvider string `yaml:"secretsprovider"`
	EncryptedKey    string `yaml:"encryptedkey"`
	EncryptionSalt  string `yaml:"encryptionsalt"`
}

// secretKeys are the stack settings that must be Pulumi secrets.
var secretKeys = map[string]bool{KubeconfigsKey: true, WebhookAPIKeyKey: true}

// retiredKeys are config keys the program no longer reads, with what
// replaced them: Harness reads the connectors' credentials from AWS
// Secrets Manager by reference, so no stack's config or state holds them.
var retiredKeys = map[string]string{
	Namespace + ":githubToken": "Harness's GitHub connectors authenticate as a GitHub App whose private key is in AWS Secrets Manager: " +
		"set foundation.github.app (applicationId, installationId, privateKeySecret) and foundation.secretManager, then remove " + Namespace + ":githubToken",
	Namespace + ":registryPassword": "Harness reads the registry password from AWS Secrets Manager: " +
		"set foundation.registry.passwordSecret and foundation.secretManager, then remove " + Namespace + ":registryPassword",
}

// WebhookAPIKeyKey is the optional config secret holding the Harness API
// key that services' builds send with their webhook calls.
const WebhookAPIKeyKey = Namespace + ":webhookApiKey"

// WorkloadsKey is the setting that scales the catalog's workloads in an
// environment.
const WorkloadsKey = Namespace + ":workloads"

// KubeconfigsKey is the config secret holding the kubeconfigs of a stack's
// existing clusters, a JSON object by region name.
const KubeconfigsKey = Namespace + ":kubeconfigs"

// Files are the project's input files keyed by their path relative to the
// project directory: the four catalog files, Pulumi.yaml and the
// Pulumi.<stack>.yaml files. They are read once and resolved by Resolve.
type Files map[string][]byte

// ReadFiles reads the project's input files in dir. The error, if any, is
// a *diag.Error naming every file it could not read.
func ReadFiles(dir string) (Files, error) {
	files := Files{}
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
	// The project file declares config defaults the program also receives.
	for _, name := range []string{ProjectFile, AccessFile} {
		if data, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
			files[name] = data
		}
	}
	for _, p := range stackPaths {
		data, err := os.ReadFile(p)
		if err != nil {
			diags.Add(filepath.Base(p), 0, 0, "", "cannot read: %v", err)
			continue
		}
		files[filepath.Base(p)] = data
	}
	if err := diags.Err(); err != nil {
		return nil, err
	}
	return files, nil
}

// Load reads the project's files in dir and resolves them without a
// stack's Pulumi config (see Resolve).
func Load(dir string) (*Catalog, error) {
	files, err := ReadFiles(dir)
	if err != nil {
		return nil, err
	}
	return Resolve(files, nil)
}

// Parse resolves files without a stack's Pulumi config (see Resolve).
func Parse(files Files) (*Catalog, error) {
	return Resolve(files, nil)
}

// Resolve validates files and resolves them into the catalog the plan
// takes. cfg, when not nil, is the settings of the stack a program runs as
// Pulumi config gives them: they are laid over that stack's environment's
// stack file before anything is validated, so every problem, in a file or
// in config, is found once and named where it came from (file:line:col, or
// the config key and its source). The error, if any, is a *diag.Error
// listing every problem.
func Resolve(files Files, cfg *Config) (*Catalog, error) {
	return resolveFiles(files, newOverlay(files, cfg))
}

// resolveFiles is Resolve with cfg read as an overlay (nil: no config).
func resolveFiles(files Files, over *overlay) (*Catalog, error) {
	var diags diag.List
	var sf servicesFile
	var tf teamsFile
	var af archetypesFile
	var rf regionsFile
	decodeFile(files, ServicesFile, &sf, &diags)
	decodeFile(files, TeamsFile, &tf, &diags)
	decodeFile(files, ArchetypesFile, &af, &diags)
	decodeFile(files, RegionsFile, &rf, &diags)
	docs := decoded{
		services: compact(sf.Services), teams: compact(tf.Teams),
		archetypes: compact(af.Archetypes), regions: compact(rf.Regions),
		stacks: map[string]*stackDoc{},
	}

	names := make([]string, 0, len(files))
	for name := range files {
		if strings.HasPrefix(name, "Pulumi.") && strings.HasSuffix(name, ".yaml") && name != ProjectFile {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		if strings.Contains(strings.TrimSuffix(strings.TrimPrefix(name, "Pulumi."), ".yaml"), StackSeparator) {
			// A service stack's file: its settings are its environment's.
			docs.serviceStackFiles = append(docs.serviceStackFiles, name)
			continue
		}
		if st := parseStack(name, files[name], over, &diags); st != nil {
			docs.stacks[st.name] = st
		}
	}

	v := newValidator(&docs, &diags)
	v.checkRegions()
	v.checkTeams(tf.PlatformTeam, tf.At.Field("platformTeam"))
	v.checkArchetypes()
	v.checkStacks()
	v.checkServices()
	v.checkNotifications()
	v.checkWorkloads()
	v.checkServiceStacks(tf.ServiceStacks)
	v.checkServiceStackFiles()
	v.checkVerification()
	v.checkCIRunners()
	v.checkPreviewRunners()
	v.checkScanning()
	if err := diags.Err(); err != nil {
		return nil, err
	}
	c := resolve(v)
	v.checkCapacity(c)
	if err := diags.Err(); err != nil {
		return nil, err
	}
	c.files = files
	c.PulumiOrganization = pulumiOrganization(files[AccessFile])
	c.Warnings = v.warns.Sorted()
	return c, nil
}

// decoded are the documents of every file, as decoded.
type decoded struct {
	services   []*serviceDoc
	teams      []*teamDoc
	archetypes []*archetypeDoc
	regions    []*regionDoc
	stacks     map[string]*stackDoc
	// serviceStackFiles are Pulumi.<env>.<shard>.yaml files.
	serviceStackFiles []string
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

func decodeFile(files Files, name string, into any, diags *diag.List) {
	data, ok := files[name]
	if !ok {
		diags.Add(name, 0, 0, "create it (see docs/onboarding.md, \"The catalog\")", "file is missing")
		return
	}
	if n := yamlstrict.ParseFile(name, data, diags); n != nil {
		yamlstrict.Decode(name, n, into, nil, diags)
	}
}

// parseStack decodes the project's keys of one stack file, with over's
// config laid over them when it is this stack's; keys of other namespaces
// (aws:region, ...) belong to other programs and are left alone.
func parseStack(file string, data []byte, over *overlay, diags *diag.List) *stackDoc {
	root := yamlstrict.ParseFile(file, data, diags)
	if root == nil {
		return nil
	}
	st := &stackDoc{name: strings.TrimSuffix(strings.TrimPrefix(file, "Pulumi."), ".yaml"), file: file}
	if root.Kind != yaml.MappingNode {
		diags.Add(file, root.Line, root.Column, "start the file with config:", "expected a mapping")
		return nil
	}
	var config *yaml.Node
	top := &yaml.Node{Kind: yaml.MappingNode, Line: root.Line, Column: root.Column}
	for i := 0; i+1 < len(root.Content); i += 2 {
		switch root.Content[i].Value {
		case "config":
			config = root.Content[i+1]
		case "environment":
			st.imports = escImports(file, root.Content[i+1], diags)
		default:
			top.Content = append(top.Content, root.Content[i], root.Content[i+1])
		}
	}
	var sf stackFile
	yamlstrict.Decode(file, top, &sf, nil, diags)
	sources := yamlstrict.Sources{}
	if over != nil && over.env == st.name {
		config = over.apply(file, config, st.imports, sources)
	}
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
		if fix, ok := retiredKeys[k.Value]; ok {
			pos := diag.Pos{File: file, Line: k.Line, Col: k.Column}
			if src, ok := sources[k]; ok {
				pos = diag.Pos{File: src}
			}
			diags.At(pos, fix+" (pulumi config rm "+k.Value+" --stack "+st.name+", or its ESC environment's pulumiConfig)", "%s is no longer read: no credential is kept in a stack's config", k.Value)
			continue
		}
		if secretKeys[k.Value] && v.Kind == yaml.ScalarNode {
			diags.Add(file, v.Line, v.Column, "remove it and run: pulumi config set --secret "+k.Value+" --stack "+st.name, "%s is stored in plaintext", k.Value)
			continue
		}
		own.Content = append(own.Content, k, v)
	}
	yamlstrict.Decode(file, own, st, sources, diags)
	return st
}

// escImports reads a stack file's `environment:` key: the Pulumi ESC
// environments the stack imports, as a list of names or, in the older form,
// under `imports:`. Their values reach the program as Pulumi config.
func escImports(file string, n *yaml.Node, diags *diag.List) []string {
	if imports := yamlstrict.Value(n, "imports"); imports != nil {
		return escImports(file, imports, diags)
	}
	if n.Kind != yaml.SequenceNode {
		diags.Add(file, n.Line, n.Column, "write the ESC environments to import as a list: environment: [project/env]",
			"environment must be a list of ESC environment names")
		return nil
	}
	var out []string
	for _, e := range n.Content {
		if e.Kind != yaml.ScalarNode || e.Value == "" {
			diags.Add(file, e.Line, e.Column, "name an ESC environment, such as platform/production", "expected an ESC environment name")
			continue
		}
		out = append(out, e.Value)
	}
	return out
}

// pulumiOrganization is the organization AccessFile names, or "".
func pulumiOrganization(data []byte) string {
	var access struct {
		Organization string `yaml:"organization"`
	}
	if yaml.Unmarshal(data, &access) != nil {
		return ""
	}
	return access.Organization
}
