// Package harnessyaml builds the YAML bodies of the Harness service and
// infrastructure definition resources as typed values (pipelines and
// triggers are in package pipeline).
package harnessyaml

import (
	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/internal/pipeline"
)

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
	Variables []Variable        `yaml:"variables"`
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

// Variable is a service variable.
type Variable struct {
	Name  string `yaml:"name"`
	Type  string `yaml:"type"`
	Value string `yaml:"value"`
}

// BuildService returns the Harness service of s. Its manifests are the
// generated ones of the environment and region being deployed, and its
// image tag is the pipeline's runtime input.
func BuildService(s *catalog.Service, gh catalog.GithubSettings, orgID, projectID string) ServiceDocument {
	return ServiceDocument{Service: Service{
		Name:              s.Name,
		Identifier:        catalog.ServiceIdentifier(s),
		OrgIdentifier:     orgID,
		ProjectIdentifier: projectID,
		Description:       s.Description,
		Tags:              pipeline.ServiceTags(s),
		ServiceDefinition: ServiceDefinition{Type: "Kubernetes", Spec: ServiceSpec{
			Manifests: []ManifestElement{{Manifest: Manifest{
				Identifier: "manifests",
				Type:       "K8sManifest",
				Spec: ManifestSpec{Store: Store{Type: "Github", Spec: GitSource{
					ConnectorRef: gh.ConnectorIdentifier,
					GitFetchType: "Branch",
					Branch:       gh.Branch,
					Paths:        []string{"generated/" + s.Name + "/<+env.name>/<+pipeline.variables." + pipeline.TargetRegionInput + ">/manifests.yaml"},
				}}},
			}}},
			Variables: []Variable{
				{Name: "image", Type: "String", Value: s.Image},
				{Name: "imageTag", Type: "String", Value: "<+pipeline.variables." + pipeline.ImageTagInput + ">"},
			},
		}},
	}}
}

// InfrastructureDocument is a Harness infrastructure definition.
type InfrastructureDocument struct {
	InfrastructureDefinition Infrastructure `yaml:"infrastructureDefinition"`
}

// Infrastructure is a KubernetesDirect infrastructure of one cluster.
type Infrastructure struct {
	Name                         string    `yaml:"name"`
	Identifier                   string    `yaml:"identifier"`
	OrgIdentifier                string    `yaml:"orgIdentifier"`
	ProjectIdentifier            string    `yaml:"projectIdentifier"`
	EnvironmentRef               string    `yaml:"environmentRef"`
	DeploymentType               string    `yaml:"deploymentType"`
	Type                         string    `yaml:"type"`
	AllowSimultaneousDeployments bool      `yaml:"allowSimultaneousDeployments"`
	Spec                         InfraSpec `yaml:"spec"`
}

// InfraSpec is where and under which name releases go.
type InfraSpec struct {
	ConnectorRef string `yaml:"connectorRef"`
	Namespace    string `yaml:"namespace"`
	ReleaseName  string `yaml:"releaseName"`
}

// BuildInfrastructure returns the infrastructure definition of st's cluster
// in region: one namespace per service (<env>-<service>-<region>).
func BuildInfrastructure(st *catalog.Stack, region, orgID, projectID string) InfrastructureDocument {
	return InfrastructureDocument{InfrastructureDefinition: Infrastructure{
		Name:              st.Environment.Name + "-" + region,
		Identifier:        catalog.InfrastructureIdentifier(st, region),
		OrgIdentifier:     orgID,
		ProjectIdentifier: projectID,
		EnvironmentRef:    st.Environment.Identifier,
		DeploymentType:    "Kubernetes",
		Type:              "KubernetesDirect",
		Spec: InfraSpec{
			ConnectorRef: catalog.ConnectorIdentifier(st, region),
			Namespace:    "<+env.name>-<+service.name>-" + region,
			ReleaseName:  "<+service.name>",
		},
	}}
}
