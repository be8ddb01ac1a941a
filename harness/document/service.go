package document

// ServiceDocument is a Harness service definition.
type ServiceDocument struct {
	Service Service `yaml:"service"`
}

// Service is a Kubernetes service: its manifests come from Git, its
// Values file from the Harness File Store and its image from a registry.
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

// ServiceSpec holds the artifact, manifests and variables.
type ServiceSpec struct {
	Artifacts *Artifacts        `yaml:"artifacts,omitempty"`
	Manifests []ManifestElement `yaml:"manifests"`
	Variables []ServiceVariable `yaml:"variables"`
}

// Artifacts are a service's images; the primary one is what
// <+artifacts.primary.image> resolves to in Values files.
type Artifacts struct {
	Primary PrimaryArtifact `yaml:"primary"`
}

// PrimaryArtifact names which of its sources a deployment uses.
type PrimaryArtifact struct {
	PrimaryArtifactRef string           `yaml:"primaryArtifactRef"`
	Sources            []ArtifactSource `yaml:"sources"`
}

// ArtifactSource is one place the image can come from.
type ArtifactSource struct {
	Identifier string         `yaml:"identifier"`
	Type       string         `yaml:"type"`
	Spec       DockerArtifact `yaml:"spec"`
}

// DockerArtifact is an image in a Docker registry.
type DockerArtifact struct {
	ConnectorRef string `yaml:"connectorRef"`
	ImagePath    string `yaml:"imagePath"`
	Tag          string `yaml:"tag"`
}

// ManifestElement wraps a manifest.
type ManifestElement struct {
	Manifest Manifest `yaml:"manifest"`
}

// Manifest is a K8sManifest read from GitHub, or a Values file.
type Manifest struct {
	Identifier string       `yaml:"identifier"`
	Type       string       `yaml:"type"`
	Spec       ManifestSpec `yaml:"spec"`
}

// ManifestSpec says where the manifests are.
type ManifestSpec struct {
	Store Store `yaml:"store"`
	// SkipResourceVersioning is for K8sManifest only.
	SkipResourceVersioning *bool `yaml:"skipResourceVersioning,omitempty"`
}

// Store is a Git store (GitSource) or the Harness File Store (FileStore).
type Store struct {
	Type string `yaml:"type"`
	Spec any    `yaml:"spec"`
}

// FileStore is files of the Harness File Store, by path ("/name" at the
// project's root).
type FileStore struct {
	Files []string `yaml:"files"`
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
