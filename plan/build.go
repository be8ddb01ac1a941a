package plan

import (
	"github.com/company/harness-platform/catalog"
)

// Harness built-ins and fixed names the foundation uses.
const (
	AllProjectResources = "_all_project_level_resources"
	ExecutorRole        = "_pipeline_executor"
	AdminRole           = "_project_admin"
	// GithubAppKeySecretID is the Harness secret referencing the GitHub
	// App's private key.
	GithubAppKeySecretID = "github_app_private_key"
	RegistryPasswordID   = "docker_registry_password"
	// PrimaryArtifact is the identifier of every service's image source.
	PrimaryArtifact = "image"
	// FileStoreRoot is the identifier of the Harness File Store's root.
	FileStoreRoot = "Root"
)

// Build computes the plan of stack. The catalog must be valid (catalog.Resolve
// returns only valid ones); Build does no I/O and always gives the same
// plan for the same catalog.
//
// stack is a platform stack (dev) or a service stack (dev.payments).
func Build(c *catalog.Catalog, stack string) (*Plan, error) {
	st, shard, err := c.EnvironmentOf(stack)
	if err != nil {
		return nil, err
	}
	root := c.Root().Foundation
	p := &Plan{
		Stack:      stack,
		Platform:   st.Name,
		Shard:      shard,
		Upstream:   st.Upstream,
		Production: st.IsProduction(),
		Scope:      Scope{OrgID: root.Org.Identifier, ProjectID: root.Project.Identifier},
	}
	if shard != "" && st.Upstream != "" {
		p.Upstream = catalog.ServiceStackName(st.Upstream, shard)
	}
	switch {
	case st.OwnsFoundation() && p.IsPlatform():
		if p.Foundation, err = buildFoundation(c, st.Foundation, p.Scope); err != nil {
			return nil, err
		}
	case st.OwnsFoundation():
		if p.CatalogServices, err = buildServices(c, st.Foundation, p.Scope, shard); err != nil {
			return nil, err
		}
	}
	if err := buildEnvironment(p, c, st); err != nil {
		return nil, err
	}
	if p.IsPlatform() {
		if err := buildTemplates(p, c, st); err != nil {
			return nil, err
		}
	} else if err := buildDeployments(p, c, st); err != nil {
		return nil, err
	}
	buildGitHub(p, c, st)
	return p, nil
}
