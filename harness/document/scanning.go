package document

// The parts of a Deploy stage that scan the image it deploys: a
// containerized step group (a pod in a Kubernetes cluster, which Harness
// runs CD's container steps in) holding a Harness STO scan step.
// https://developer.harness.io/docs/continuous-delivery/x-platform-cd-features/cd-steps/containerized-steps/containerized-step-groups
// https://developer.harness.io/docs/continuous-delivery/x-platform-cd-features/cd-steps/containerized-steps/wiz-artifact-scan

// StepGroup is a group of steps; with StepGroupInfra a containerized step
// group, whose steps run as containers of one pod.
type StepGroup struct {
	Name              string            `yaml:"name"`
	Identifier        string            `yaml:"identifier"`
	Steps             []StepElement     `yaml:"steps"`
	StepGroupInfra    *StepGroupInfra   `yaml:"stepGroupInfra,omitempty"`
	FailureStrategies []FailureStrategy `yaml:"failureStrategies,omitempty"`
}

// StepGroupInfra is where a containerized step group's pod runs: type
// KubernetesDirect, in a cluster through a Kubernetes connector.
type StepGroupInfra struct {
	Type string         `yaml:"type"`
	Spec ContainerInfra `yaml:"spec"`
}

// ContainerInfra is the cluster (its Kubernetes connector) and namespace
// of a containerized step group's pod.
type ContainerInfra struct {
	ConnectorRef string `yaml:"connectorRef"`
	Namespace    string `yaml:"namespace"`
}

// WizSpec is the spec of a Wiz step (Harness STO): in orchestration mode
// it scans the container image with the Wiz CLI, ingests the issues into
// STO and fails when one is at Advanced.FailOnSeverity or higher.
// https://developer.harness.io/docs/security-testing-orchestration/sto-techref-category/wiz/artifact-scans-with-wiz
type WizSpec struct {
	Mode   string    `yaml:"mode"`
	Config string    `yaml:"config"`
	Target STOTarget `yaml:"target"`
	Image  STOImage  `yaml:"image"`
	Auth   STOAuth   `yaml:"auth"`
	// Settings are the scanner's key/value settings (docker_mode).
	Settings map[string]string `yaml:"settings,omitempty"`
	Advanced STOAdvanced       `yaml:"advanced"`
}

// STOTarget is what STO records the scan's issues against: a container
// image's name and variant (its tag), given (detection manual).
type STOTarget struct {
	Type      string `yaml:"type"`
	Detection string `yaml:"detection"`
	Name      string `yaml:"name"`
	Variant   string `yaml:"variant"`
}

// STOImage is the image an orchestration scan pulls: a Docker v2
// registry's domain, the image's name and tag, and the registry's
// credentials when it needs them (the token an expression of a secret).
type STOImage struct {
	Type        string `yaml:"type"`
	Domain      string `yaml:"domain"`
	Name        string `yaml:"name"`
	Tag         string `yaml:"tag"`
	AccessID    string `yaml:"access_id,omitempty"`
	AccessToken string `yaml:"access_token,omitempty"`
}

// STOAuth is the scanner's credentials, expressions of Harness secrets.
type STOAuth struct {
	AccessID    string `yaml:"access_id"`
	AccessToken string `yaml:"access_token"`
}

// STOAdvanced holds the severity that fails the step (critical, high,
// medium, low; none never fails) and the log level.
type STOAdvanced struct {
	FailOnSeverity string `yaml:"fail_on_severity"`
	Log            STOLog `yaml:"log"`
}

// STOLog is a scan step's log level.
type STOLog struct {
	Level string `yaml:"level"`
}
