package document

// TriggerDocument is a trigger YAML document.
type TriggerDocument struct {
	Trigger Trigger `yaml:"trigger"`
}

// Trigger is a webhook trigger of one pipeline: a custom webhook, or a Git
// provider's events of the pipeline's codebase.
type Trigger struct {
	Name               string            `yaml:"name"`
	Identifier         string            `yaml:"identifier"`
	Enabled            bool              `yaml:"enabled"`
	Description        string            `yaml:"description,omitempty"`
	Tags               map[string]string `yaml:"tags"`
	OrgIdentifier      string            `yaml:"orgIdentifier"`
	ProjectIdentifier  string            `yaml:"projectIdentifier"`
	PipelineIdentifier string            `yaml:"pipelineIdentifier"`
	Source             TriggerSource     `yaml:"source"`
	InputYaml          string            `yaml:"inputYaml"`
}

// TriggerSource is the webhook source.
type TriggerSource struct {
	Type string        `yaml:"type"`
	Spec WebhookSource `yaml:"spec"`
}

// WebhookSource is the webhook's kind: Custom (Spec is a CustomWebhook)
// or Github (Spec is a GithubEvent).
type WebhookSource struct {
	Type string `yaml:"type"`
	Spec any    `yaml:"spec"`
}

// CustomWebhook holds the payload conditions.
type CustomWebhook struct {
	PayloadConditions []Condition `yaml:"payloadConditions"`
	HeaderConditions  []Condition `yaml:"headerConditions"`
}

// Condition filters webhook calls.
type Condition struct {
	Key      string `yaml:"key"`
	Operator string `yaml:"operator"`
	Value    string `yaml:"value"`
}

// InputSetDocument is what a trigger's inputYaml holds: the runtime inputs.
type InputSetDocument struct {
	Pipeline RuntimeInputs `yaml:"pipeline"`
}

// RuntimeInputs are values for a pipeline's runtime inputs.
type RuntimeInputs struct {
	Identifier string       `yaml:"identifier"`
	Variables  []InputValue `yaml:"variables"`
}

// InputValue gives one runtime input its value.
type InputValue struct {
	Name  string `yaml:"name"`
	Type  string `yaml:"type"`
	Value string `yaml:"value"`
}
