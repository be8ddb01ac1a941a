package document

// ServiceDocument is a Harness service definition.
type ServiceDocument struct {
	Service Service `yaml:"service"`
}

// Service is a Kubernetes service whose manifests come from Git.
type Service struct {
	Name              string            `yaml:"name"`
	Identifier        string            `yaml:"identifier"`
	OrgIdentifier     string            `yaml:"orgIdentifier"`
	ProjectIdentifier string            `yaml:"projectIdentifier"`
	Description       string            `yaml:"description,omitempty"`
	Tags              map[string]string `yaml:"tags"`
	ServiceDefinition ServiceDefinition `yaml:"serviceDefinition"`
}

// ServiceDefinition is the Kubernetes service spec.
type ServiceDefinition struct {
	Type string      `yaml:"type"`
	Spec ServiceSpec `yaml:"spec"`
}

// ServiceSpec holds manifests and variables.
type ServiceSpec struct {
	Manifests []ManifestElement `yaml:"manifests"`
	Variables []ServiceVariable `yaml:"variables"`
}

// ManifestElement wraps a manifest.
type ManifestElement struct {
	Manifest Manifest `yaml:"manifest"`
}

// Manifest is a K8sManifest read from GitHub.
type Manifest struct {
	Identifier string       `yaml:"identifier"`
	Type       string       `yaml:"type"`
	Spec       ManifestSpec `yaml:"spec"`
}

// ManifestSpec says where the manifests are.
type ManifestSpec struct {
	Store                  Store `yaml:"store"`
	SkipResourceVersioning bool  `yaml:"skipResourceVersioning"`
}

// Store is a Git store.
type Store struct {
	Type string    `yaml:"type"`
	Spec GitSource `yaml:"spec"`
}

// GitSource is a branch and paths of a repository behind a connector.
type GitSource struct {
	ConnectorRef string   `yaml:"connectorRef"`
	GitFetchType string   `yaml:"gitFetchType"`
	Branch       string   `yaml:"branch"`
	Paths        []string `yaml:"paths"`
}

// ServiceVariable is a service variable.
type ServiceVariable struct {
	Name  string `yaml:"name"`
	Type  string `yaml:"type"`
	Value string `yaml:"value"`
}
