package document

// The parts of a pipeline and a trigger only CI uses: the codebase, CI and
// Approval stage specs, Run steps, GitHub events.

// CIProperties hold the pipeline's codebase.
type CIProperties struct {
	CI CIProperty `yaml:"ci"`
}

// CIProperty is the ci property of a pipeline.
type CIProperty struct {
	Codebase Codebase `yaml:"codebase"`
}

// Codebase is the repository CI stages clone, through a Git connector;
// Build ("<+input>") is what to build, given by each trigger.
type Codebase struct {
	ConnectorRef string `yaml:"connectorRef"`
	Build        string `yaml:"build"`
}

// CIStageSpec is where a CI stage runs and what it runs.
type CIStageSpec struct {
	CloneCodebase bool        `yaml:"cloneCodebase"`
	Platform      Platform    `yaml:"platform"`
	Runtime       Runtime     `yaml:"runtime"`
	Execution     CIExecution `yaml:"execution"`
}

// ApprovalStageSpec holds an Approval stage's steps.
type ApprovalStageSpec struct {
	Execution CIExecution `yaml:"execution"`
}

// Platform is the build machine's OS and architecture.
type Platform struct {
	OS   string `yaml:"os"`
	Arch string `yaml:"arch"`
}

// Runtime is the build infrastructure: Docker is a local runner (a
// Harness Docker Runner and delegate on a host of ours), Cloud is
// Harness-hosted.
type Runtime struct {
	Type string         `yaml:"type"`
	Spec map[string]any `yaml:"spec"`
}

// CIExecution holds a stage's steps.
type CIExecution struct {
	Steps []StepElement `yaml:"steps"`
}

// RunSpec is a Run step: a script on the build infrastructure.
type RunSpec struct {
	// ConnectorRef and Image run the step in a container of that image
	// (without them a local runner's step runs on the host itself).
	ConnectorRef string            `yaml:"connectorRef,omitempty"`
	Image        string            `yaml:"image,omitempty"`
	Shell        string            `yaml:"shell"`
	Command      string            `yaml:"command"`
	EnvVariables map[string]string `yaml:"envVariables,omitempty"`
}

// StageWhen is a stage's run condition.
type StageWhen struct {
	PipelineStatus string `yaml:"pipelineStatus"`
	Condition      string `yaml:"condition,omitempty"`
}

// GithubEvent is a GitHub event type (PullRequest, Push) and its filter.
type GithubEvent struct {
	Type string          `yaml:"type"`
	Spec GithubEventSpec `yaml:"spec"`
}

// GithubEventSpec filters the events: the repository's connector, the
// payload's conditions, the pull request actions.
type GithubEventSpec struct {
	ConnectorRef                string      `yaml:"connectorRef"`
	AutoAbortPreviousExecutions bool        `yaml:"autoAbortPreviousExecutions"`
	PayloadConditions           []Condition `yaml:"payloadConditions"`
	HeaderConditions            []Condition `yaml:"headerConditions"`
	Actions                     []string    `yaml:"actions,omitempty"`
}

// CIInputSetDocument is a CI trigger's inputYaml: what to build.
type CIInputSetDocument struct {
	Pipeline CIRuntimeInputs `yaml:"pipeline"`
}

// CIRuntimeInputs give the codebase's build.
type CIRuntimeInputs struct {
	Identifier string            `yaml:"identifier"`
	Properties CIBuildProperties `yaml:"properties"`
}

// CIBuildProperties hold the codebase's build.
type CIBuildProperties struct {
	CI CIBuildProperty `yaml:"ci"`
}

// CIBuildProperty is the ci property of an input set.
type CIBuildProperty struct {
	Codebase CodebaseBuild `yaml:"codebase"`
}

// CodebaseBuild is the build of a codebase.
type CodebaseBuild struct {
	Build Build `yaml:"build"`
}

// Build is a pull request (PR, spec.number) or a branch (branch,
// spec.branch).
type Build struct {
	Type string            `yaml:"type"`
	Spec map[string]string `yaml:"spec"`
}
