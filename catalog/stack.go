package catalog

import "github.com/company/harness-platform/internal/yamlstrict"

// Namespace is the project's config namespace in the stack files.
const Namespace = "harness-platform"

// Stack holds the typed settings of one Pulumi.<stack>.yaml.
type Stack struct {
	At           yamlstrict.At
	Environment  Environment   `yaml:"harness-platform:environment" required:"true" desc:"The Harness environment this stack owns."`
	Upstream     string        `yaml:"harness-platform:upstream" desc:"The stack this one promotes from; absent on the stack that owns the foundation."`
	Regions      []StackRegion `yaml:"harness-platform:regions" required:"true" desc:"Regions of this environment, one cluster each."`
	Foundation   *Foundation   `yaml:"harness-platform:foundation" desc:"Organization, project and GitHub settings; only on the stack with no upstream."`
	Approval     *Approval     `yaml:"harness-platform:approval" desc:"Approval gate of Production pipelines."`
	ChangeWindow *ChangeWindow `yaml:"harness-platform:changeWindow" desc:"When Production deployments may run."`
	GithubToken  *SecretValue  `yaml:"harness-platform:githubToken" desc:"The GitHub token of the cross-org connector (a secret, on the foundation stack)."`

	// Name is the stack name, from the file name.
	Name string
	// File is the stack file's path relative to the project directory.
	File string
}

// SecretValue is a config value encrypted by Pulumi.
type SecretValue struct {
	Secure string `yaml:"secure" required:"true" desc:"Ciphertext written by pulumi config set --secret."`
}

// Environment is a Harness environment.
type Environment struct {
	At          yamlstrict.At
	Name        string `yaml:"name" required:"true" desc:"Environment name, e.g. int-stable; a Kubernetes name."`
	Identifier  string `yaml:"identifier" desc:"Harness identifier (default: the name with '-' as '_')."`
	Type        string `yaml:"type" required:"true" enum:"PreProduction|Production" desc:"Harness environment type."`
	Description string `yaml:"description" desc:"What the environment is for."`
}

// StackRegion is one region of an environment.
type StackRegion struct {
	At          yamlstrict.At
	Name        string `yaml:"name" required:"true" desc:"A region from catalog/regions.yaml."`
	NetworkCIDR string `yaml:"networkCidr" desc:"The environment's network in this region, e.g. 10.3.0.0/16."`
}

// Foundation configures the account-level resources the root stack owns.
type Foundation struct {
	At      yamlstrict.At
	Org     OrgSettings     `yaml:"org" required:"true" desc:"Harness organization."`
	Project ProjectSettings `yaml:"project" required:"true" desc:"Harness project holding every pipeline."`
	Github  GithubSettings  `yaml:"github" required:"true" desc:"Cross-org GitHub connector to the manifests repository."`
}

// OrgSettings names the Harness organization.
type OrgSettings struct {
	Identifier string `yaml:"identifier" required:"true" desc:"Organization identifier."`
	Name       string `yaml:"name" desc:"Display name."`
	Create     bool   `yaml:"create" desc:"Create the organization (default: it exists)."`
}

// ProjectSettings names the Harness project.
type ProjectSettings struct {
	Identifier  string `yaml:"identifier" required:"true" desc:"Project identifier."`
	Name        string `yaml:"name" desc:"Display name."`
	Description string `yaml:"description" desc:"Description."`
}

// GithubSettings configures the manifests connector.
type GithubSettings struct {
	At                  yamlstrict.At
	ConnectorIdentifier string `yaml:"connectorIdentifier" desc:"Connector identifier (default github_manifests)."`
	URL                 string `yaml:"url" required:"true" desc:"https URL of the manifests repository."`
	Username            string `yaml:"username" required:"true" desc:"The bot account the token belongs to."`
	Branch              string `yaml:"branch" desc:"Branch the manifests are read from (default main)."`
}

// Approval configures the Production approval gate.
type Approval struct {
	MinimumCount int    `yaml:"minimumCount" desc:"Approvals needed (default 2)."`
	Timeout      string `yaml:"timeout" desc:"How long the gate waits (default 1d)."`
}

// ChangeWindow is when Production deployments are allowed.
type ChangeWindow struct {
	At    yamlstrict.At
	Days  []string `yaml:"days" required:"true" desc:"Allowed weekdays: Mon, Tue, Wed, Thu, Fri, Sat, Sun."`
	Start string   `yaml:"start" required:"true" desc:"Start time, HH:MM UTC."`
	End   string   `yaml:"end" required:"true" desc:"End time, HH:MM UTC."`
}

// IsProduction reports whether the stack's environment is Production.
func (s *Stack) IsProduction() bool { return s.Environment.Type == "Production" }

// OwnsFoundation reports whether this stack declares the foundation.
func (s *Stack) OwnsFoundation() bool { return s.Upstream == "" }

// RegionNames lists the stack's regions.
func (s *Stack) RegionNames() []string {
	out := make([]string, len(s.Regions))
	for i, r := range s.Regions {
		out[i] = r.Name
	}
	return out
}
