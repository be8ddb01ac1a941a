package document

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
