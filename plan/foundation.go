package plan

import (
	"maps"
	"slices"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/ident"
)

// buildFoundation is what the root stack declares for every environment:
// the project (and org), the teams' user groups, resource groups and role
// assignments, the GitHub and registry connectors with their secrets, the
// pipeline rules and the CI pipeline.
func buildFoundation(c *catalog.Catalog, f *catalog.Foundation, scope Scope) (*Foundation, error) {
	tags := managedTags(nil)
	out := &Foundation{
		Project: Project{Identifier: f.Project.Identifier, Name: f.Project.Name, Description: f.Project.Description, Tags: tags},
	}
	inProject := []Ref{{KindProject, scope.ProjectID}}
	if f.Org.Create {
		out.Organization = &Organization{Identifier: f.Org.Identifier, Name: f.Org.Name, Tags: tags}
		out.Project.Needs = []Ref{{KindOrganization, f.Org.Identifier}}
	}
	resources := teamResources(c, f)
	for _, t := range c.Teams {
		teamTags := managedTags(map[string]string{"team": t.Name})
		out.UserGroups = append(out.UserGroups, UserGroup{
			Identifier: t.UserGroup, Name: t.Name, Description: t.Description, Team: t.Name,
			Members: t.Members, Tags: teamTags, Needs: inProject,
		})
		// The platform team administers the project; every other team runs
		// its own services' pipelines and nothing else.
		role, group := AdminRole, AllProjectResources
		needs := []Ref{{KindUserGroup, t.UserGroup}}
		if t.Name != c.PlatformTeam {
			rg := teamResourceGroup(t, resources[t.Name], teamTags, inProject)
			out.ResourceGroups = append(out.ResourceGroups, rg)
			role, group = ExecutorRole, rg.Identifier
			needs = append(needs, Ref{KindResourceGroup, rg.Identifier})
		}
		out.RoleAssignments = append(out.RoleAssignments, RoleAssignment{
			Resource:      t.UserGroup + "-" + role,
			Identifier:    ident.RoleAssignment(t.UserGroup, role),
			UserGroup:     t.UserGroup,
			Role:          role,
			ResourceGroup: group,
			Needs:         needs,
		})
	}
	sm := f.SecretManager
	out.SecretManager = SecretManager{
		Identifier:  sm.ConnectorIdentifier,
		Name:        sm.ConnectorIdentifier,
		Description: "AWS Secrets Manager in " + sm.Region + ": the connectors' credentials, by reference",
		Region:      sm.Region,
		RoleArn:     sm.RoleArn,
		Tags:        tags,
		Needs:       inProject,
	}
	inManager := []Ref{{KindProject, scope.ProjectID}, {KindSecretManager, sm.ConnectorIdentifier}}
	gh := f.Github
	out.GithubAppKey = SecretText{
		Identifier:    GithubAppKeySecretID,
		Name:          "GitHub App " + gh.App.ApplicationID + " private key",
		Description:   "The key " + gh.ConnectorIdentifier + " signs the App's installation tokens with",
		SecretManager: sm.ConnectorIdentifier,
		Reference:     gh.App.PrivateKeySecret,
		Tags:          tags,
		Needs:         inManager,
	}
	app := GithubApp{ApplicationID: gh.App.ApplicationID, InstallationID: gh.App.InstallationID, PrivateKeyRef: GithubAppKeySecretID}
	out.GithubConnector = GithubConnector{
		Identifier:        gh.ConnectorIdentifier,
		Name:              gh.ConnectorIdentifier,
		Description:       "Cross-org access to the generated manifests",
		URL:               gh.URL,
		ConnectionType:    "Repo",
		App:               app,
		ExecuteOnDelegate: true,
		Tags:              tags,
		Needs:             []Ref{{KindProject, scope.ProjectID}, {KindSecret, GithubAppKeySecretID}},
	}
	reg := f.Registry
	out.Registry = DockerConnector{
		Identifier:        reg.ConnectorIdentifier,
		Name:              reg.ConnectorIdentifier,
		Description:       "Images of every catalog service, and their tags",
		URL:               reg.URL,
		Type:              reg.Type,
		ExecuteOnDelegate: true,
		Tags:              tags,
		Needs:             inProject,
	}
	if reg.Username != "" {
		out.RegistryPassword = &SecretText{
			Identifier:    RegistryPasswordID,
			Name:          "Docker registry password of " + reg.Username,
			Description:   "Read access to " + reg.Host + ", for " + reg.ConnectorIdentifier,
			SecretManager: sm.ConnectorIdentifier,
			Reference:     reg.PasswordSecret,
			Tags:          tags,
			Needs:         inManager,
		}
		out.Registry.Username = reg.Username
		out.Registry.PasswordRef = RegistryPasswordID
		out.Registry.Needs = []Ref{{KindProject, scope.ProjectID}, {KindSecret, RegistryPasswordID}}
	}
	out.PipelineRules = buildPipelineRules(c, tags, inProject)
	if f.Repository != "" {
		ci, err := buildCI(c, f, scope, app)
		if err != nil {
			return nil, err
		}
		out.CI = ci
	}
	return out, nil
}

// teamResources is, per team, what its resource group holds: the
// pipelines of its services in every stack of the chain, and what running
// them needs. Harness checks the executing user's access to the pipeline
// and to the service, environment, connectors and secrets it uses, so a
// group with the pipelines alone could not run them.
// https://developer.harness.io/docs/platform/role-based-access-control/configure-rbac
func teamResources(c *catalog.Catalog, f *catalog.Foundation) map[string]map[string]map[string]bool {
	out := map[string]map[string]map[string]bool{}
	add := func(team, typ string, ids ...string) {
		if out[team] == nil {
			out[team] = map[string]map[string]bool{}
		}
		if out[team][typ] == nil {
			out[team][typ] = map[string]bool{}
		}
		for _, id := range ids {
			out[team][typ][id] = true
		}
	}
	for i := range c.Services {
		s := &c.Services[i]
		add(s.Team, "SERVICE", ident.Service(s.Name))
		for _, name := range c.Chain {
			in, ok := s.In[name]
			if !ok {
				continue
			}
			env := c.Stacks[name].Environment.Identifier
			add(s.Team, "PIPELINE", ident.Pipeline(s.Name, env))
			add(s.Team, "ENVIRONMENT", env)
			for _, r := range in.Regions {
				add(s.Team, "CONNECTOR", ident.KubernetesConnector(env, r))
			}
			if c.Stacks[name].IsProduction() {
				// The image scan reads the Wiz credentials.
				add(s.Team, "SECRET", WizClientIDSecret, WizClientSecretSecret)
			}
		}
	}
	for _, t := range c.Teams {
		add(t.Name, "CONNECTOR", f.Github.ConnectorIdentifier, f.Registry.ConnectorIdentifier)
		add(t.Name, "SECRET", GithubAppKeySecretID)
		if f.Registry.Username != "" {
			add(t.Name, "SECRET", RegistryPasswordID)
		}
	}
	return out
}

// teamResourceGroup is t's resource group, holding sets (teamResources).
func teamResourceGroup(t catalog.Team, sets map[string]map[string]bool, tags []string, needs []Ref) ResourceGroup {
	rg := ResourceGroup{
		Identifier:  ident.ResourceGroup(t.UserGroup),
		Name:        t.Name + " deployments",
		Description: "The pipelines of " + t.Name + "'s services in every environment, and what running them needs",
		Team:        t.Name,
		Tags:        tags,
		Needs:       needs,
	}
	for _, typ := range []string{"PIPELINE", "SERVICE", "ENVIRONMENT", "CONNECTOR", "SECRET"} {
		if ids := slices.Sorted(maps.Keys(sets[typ])); len(ids) > 0 {
			rg.Resources = append(rg.Resources, ResourceSelection{Type: typ, Identifiers: ids})
		}
	}
	return rg
}
