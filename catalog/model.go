// Package catalog loads and validates everything a platform team edits: the
// service catalog (services, teams, archetypes, regions) and the typed
// settings of every stack file. Load reports every problem at once, and
// nothing is declared from a catalog that has any.
package catalog

import "github.com/company/harness-platform/internal/yamlstrict"

// Service is one entry of catalog/services.yaml.
type Service struct {
	At           yamlstrict.At
	Name         string            `yaml:"name" required:"true" desc:"Service name: a Kubernetes name (lower-case letters, digits, '-'); its Harness identifier replaces '-' with '_'."`
	Team         string            `yaml:"team" required:"true" desc:"Owning team, a name from catalog/teams.yaml."`
	Archetype    string            `yaml:"archetype" required:"true" desc:"Archetype from catalog/archetypes.yaml: the pipeline shape and defaults."`
	Repo         string            `yaml:"repo" required:"true" desc:"Source repository, owner/name."`
	Image        string            `yaml:"image" required:"true" desc:"Container image without tag; the tag is a runtime input of the pipeline."`
	Description  string            `yaml:"description" desc:"One line about the service."`
	Environments []string          `yaml:"environments" desc:"Stacks the service is enabled in (default: all). An environment's upstream must have it too."`
	Regions      []string          `yaml:"regions" desc:"Regions to deploy to (default: all regions of each environment)."`
	Overrides    *Overrides        `yaml:"overrides" desc:"Overrides of the archetype's defaults."`
	Tags         map[string]string `yaml:"tags" desc:"Extra tags on the service's Harness resources."`
	Retired      bool              `yaml:"retired" desc:"Decommissioning: triggers are disabled and the service can then be removed."`

	// Resolved by validation.
	enabled map[string]bool
}

// Overrides changes an archetype's defaults for one service.
type Overrides struct {
	At                 yamlstrict.At
	ProductionStrategy string `yaml:"productionStrategy" enum:"canary|rolling" desc:"Deployment strategy in Production environments."`
	Replicas           *int   `yaml:"replicas" desc:"Number of replicas."`
	Verification       *bool  `yaml:"verification" desc:"Continuous verification after each canary phase."`
}

// Team is one entry of catalog/teams.yaml.
type Team struct {
	At          yamlstrict.At
	Name        string   `yaml:"name" required:"true" desc:"Team name."`
	Description string   `yaml:"description" desc:"What the team owns."`
	UserGroup   string   `yaml:"userGroup" desc:"Harness user group identifier (default: <name>_team)."`
	Members     []string `yaml:"members" desc:"E-mail addresses of the team's members (the user group's users)."`
}

// Archetype is one entry of catalog/archetypes.yaml.
type Archetype struct {
	At                 yamlstrict.At
	Name               string `yaml:"name" required:"true" desc:"Archetype name, referenced by services."`
	Description        string `yaml:"description" desc:"What kind of workload it is."`
	ProductionStrategy string `yaml:"productionStrategy" required:"true" enum:"canary|rolling" desc:"Strategy in Production environments; lower environments always roll."`
	Replicas           int    `yaml:"replicas" required:"true" desc:"Default replica count."`
	Verification       bool   `yaml:"verification" desc:"Continuous verification after each canary phase."`
	StepTimeout        string `yaml:"stepTimeout" desc:"Timeout of each deployment step (default 10m)."`
}

// Region is one entry of catalog/regions.yaml.
type Region struct {
	At          yamlstrict.At
	Name        string `yaml:"name" required:"true" desc:"Short region name used in identifiers, e.g. euw1."`
	AWSRegion   string `yaml:"awsRegion" required:"true" desc:"The cloud region, e.g. eu-west-1."`
	Description string `yaml:"description" desc:"Where it is."`
}

// Deployment is the resolved shape of one service in one environment.
type Deployment struct {
	Service      *Service
	Team         *Team
	PlatformTeam *Team
	Archetype    *Archetype
	Stack        *Stack
	Regions      []string
	Strategy     string // "rolling" or "canary"
	Replicas     int
	Verification bool
}
