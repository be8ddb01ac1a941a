package plan

import (
	"fmt"
	"maps"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/harness/document"
	"github.com/company/harness-platform/ident"
	"github.com/company/harness-platform/policy/rego"
)

// Harness built-ins and fixed names the foundation uses.
const (
	AllProjectResources = "_all_project_level_resources"
	ExecutorRole        = "_pipeline_executor"
	AdminRole           = "_project_admin"
	GithubTokenSecretID = "github_manifests_token"
	HarnessSecretStore  = "harnessSecretManager"
	// GithubTokenConfigKey is the Pulumi config secret holding the token.
	GithubTokenConfigKey = catalog.Namespace + ":githubToken"
)

// Build computes the plan of stack. The catalog must be valid (catalog.Load
// returns only valid ones); Build does no I/O and always gives the same
// plan for the same catalog.
func Build(c *catalog.Catalog, stack string) (*Plan, error) {
	st, err := c.Stack(stack)
	if err != nil {
		return nil, err
	}
	root := c.Root().Foundation
	p := &Plan{
		Stack:      st.Name,
		Upstream:   st.Upstream,
		Production: st.IsProduction(),
		Scope:      Scope{OrgID: root.Org.Identifier, ProjectID: root.Project.Identifier},
	}
	if st.OwnsFoundation() {
		if p.Foundation, err = buildFoundation(c, st.Foundation, p.Scope); err != nil {
			return nil, err
		}
	}
	if err := buildEnvironment(p, st); err != nil {
		return nil, err
	}
	if err := buildDeployments(p, c, st); err != nil {
		return nil, err
	}
	return p, nil
}

func managedTags(extra map[string]string) []string {
	tags := map[string]string{"managed-by": ManagedBy}
	maps.Copy(tags, extra)
	return TagList(tags)
}

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
	for _, t := range c.Teams {
		out.UserGroups = append(out.UserGroups, UserGroup{
			Identifier: t.UserGroup, Name: t.Name, Description: t.Description, Team: t.Name,
			Members: t.Members, Tags: managedTags(map[string]string{"team": t.Name}), Needs: inProject,
		})
		role := ExecutorRole
		if t.Name == c.PlatformTeam {
			role = AdminRole
		}
		out.RoleAssignments = append(out.RoleAssignments, RoleAssignment{
			Resource:      t.UserGroup + "-" + role,
			Identifier:    ident.RoleAssignment(t.UserGroup, role),
			UserGroup:     t.UserGroup,
			Role:          role,
			ResourceGroup: AllProjectResources,
			Needs:         []Ref{{KindUserGroup, t.UserGroup}},
		})
	}
	gh := f.Github
	out.GithubToken = SecretText{
		Identifier:    GithubTokenSecretID,
		Name:          "GitHub token of " + gh.Username,
		Description:   "Read access to the manifests repository, for " + gh.ConnectorIdentifier,
		SecretManager: HarnessSecretStore,
		ConfigKey:     GithubTokenConfigKey,
		Tags:          tags,
		Needs:         inProject,
	}
	out.GithubConnector = GithubConnector{
		Identifier:        gh.ConnectorIdentifier,
		Name:              gh.ConnectorIdentifier,
		Description:       "Cross-org access to the generated manifests",
		URL:               gh.URL,
		ConnectionType:    "Repo",
		Username:          gh.Username,
		TokenRef:          GithubTokenSecretID,
		ExecuteOnDelegate: true,
		Tags:              tags,
		Needs:             []Ref{{KindProject, scope.ProjectID}, {KindSecret, GithubTokenSecretID}},
	}
	out.Services = make([]Service, len(c.Services))
	err := parallel(len(c.Services), func(i int) error {
		s := &c.Services[i]
		tags := serviceTags(s)
		y, err := document.Marshal(serviceDocument(s, tags, gh, scope))
		if err != nil {
			return fmt.Errorf("service %s: %w", s.Name, err)
		}
		out.Services[i] = Service{
			Identifier:  ident.Service(s.Name),
			Name:        s.Name,
			Description: s.Description,
			Tags:        TagList(tags),
			YAML:        string(y),
			Needs:       []Ref{{KindProject, scope.ProjectID}, {KindGithubConnector, gh.ConnectorIdentifier}},
		}
		return nil
	})
	return out, err
}

// serviceDocument is the Harness service of s. Its manifests are the
// generated ones of the environment and region being deployed, and its
// image tag is the pipeline's runtime input.
func serviceDocument(s *catalog.Service, tags map[string]string, gh catalog.Github, scope Scope) document.ServiceDocument {
	return document.ServiceDocument{Service: document.Service{
		Name:              s.Name,
		Identifier:        ident.Service(s.Name),
		OrgIdentifier:     scope.OrgID,
		ProjectIdentifier: scope.ProjectID,
		Description:       s.Description,
		Tags:              tags,
		ServiceDefinition: document.ServiceDefinition{Type: "Kubernetes", Spec: document.ServiceSpec{
			Manifests: []document.ManifestElement{{Manifest: document.Manifest{
				Identifier: "manifests",
				Type:       "K8sManifest",
				Spec: document.ManifestSpec{Store: document.Store{Type: "Github", Spec: document.GitSource{
					ConnectorRef: gh.ConnectorIdentifier,
					GitFetchType: "Branch",
					Branch:       gh.Branch,
					Paths:        []string{ident.ManifestPath(s.Name, "<+env.name>", "<+pipeline.variables."+TargetRegionInput+">") + "/manifests.yaml"},
				}}},
			}}},
			Variables: []document.ServiceVariable{
				{Name: "image", Type: "String", Value: s.Image},
				{Name: "imageTag", Type: "String", Value: "<+pipeline.variables." + ImageTagInput + ">"},
			},
		}},
	}}
}

func buildEnvironment(p *Plan, st *catalog.Stack) error {
	env := st.Environment
	inProject := []Ref{{KindProject, p.Scope.ProjectID}}
	p.Environment = Environment{
		Identifier: env.Identifier, Name: env.Name, Description: env.Description, Type: env.Type,
		Tags:  managedTags(map[string]string{"environment": env.Name}),
		Needs: inProject,
	}
	for _, region := range st.RegionNames() {
		delegate := ident.DelegateName(env.Name, region)
		tags := managedTags(map[string]string{"environment": env.Name, "region": region})
		conn := KubernetesConnector{
			Identifier:        ident.KubernetesConnector(env.Identifier, region),
			Name:              env.Name + "-" + region,
			Description:       "Cluster " + env.Name + "/" + region + " through delegate " + delegate,
			DelegateSelectors: []string{delegate},
			Tags:              tags,
			Needs:             inProject,
		}
		infraID := ident.Infrastructure(env.Identifier, region)
		y, err := document.Marshal(document.InfrastructureDocument{InfrastructureDefinition: document.Infrastructure{
			Name:              env.Name + "-" + region,
			Identifier:        infraID,
			OrgIdentifier:     p.Scope.OrgID,
			ProjectIdentifier: p.Scope.ProjectID,
			EnvironmentRef:    env.Identifier,
			DeploymentType:    "Kubernetes",
			Type:              "KubernetesDirect",
			Spec: document.InfraSpec{
				ConnectorRef: conn.Identifier,
				Namespace:    ident.NamespaceExpr(region),
				ReleaseName:  "<+service.name>",
			},
		}})
		if err != nil {
			return fmt.Errorf("infrastructure %s: %w", infraID, err)
		}
		p.Clusters = append(p.Clusters, Cluster{
			Region:    region,
			Delegate:  delegate,
			Connector: conn,
			Infrastructure: Infrastructure{
				Identifier: infraID, Name: env.Name + "-" + region, EnvID: env.Identifier,
				Type: "KubernetesDirect", DeploymentType: "Kubernetes", Tags: tags, YAML: string(y),
				Needs: []Ref{{KindEnvironment, env.Identifier}, {KindKubernetesConnector, conn.Identifier}},
			},
		})
	}
	if w := st.ChangeWindow; w != nil {
		tags := managedTags(map[string]string{"environment": env.Name})
		policyID := ident.ChangeWindowPolicy(env.Identifier)
		p.ChangeWindow = &ChangeWindow{
			Policy: Policy{
				Identifier:  policyID,
				Name:        "Change window " + env.Name,
				Description: "Deployments to " + env.Name + " run only inside the change window",
				Rego:        rego.ChangeWindow(w),
				Tags:        tags,
				Needs:       inProject,
			},
			PolicySet: PolicySet{
				Identifier: ident.ChangeWindowPolicySet(env.Identifier),
				Name:       "Change window " + env.Name,
				Action:     "onstep",
				Type:       "custom",
				Enabled:    true,
				Policies:   []string{policyID},
				Severity:   "error",
				Tags:       tags,
				Needs:      []Ref{{KindPolicy, policyID}},
			},
		}
	}
	return nil
}

func buildDeployments(p *Plan, c *catalog.Catalog, st *catalog.Stack) error {
	var inputs []*deploymentInput
	platform, _ := c.Team(c.PlatformTeam)
	for i := range c.Services {
		s := &c.Services[i]
		if !s.EnabledIn(st.Name) {
			continue
		}
		team, _ := c.Team(s.Team)
		inputs = append(inputs, &deploymentInput{
			svc: s, stack: st, scope: p.Scope,
			teamGroup: team.UserGroup, platformTeam: platform.UserGroup,
			regions: s.RegionsIn(st), strategy: s.StrategyIn(st),
			tags: deploymentTags(s, st),
		})
	}
	p.Deployments = make([]Deployment, len(inputs))
	return parallel(len(inputs), func(i int) error {
		d := inputs[i]
		py, err := document.Marshal(pipelineDocument(d))
		if err != nil {
			return fmt.Errorf("pipeline of %s: %w", d.svc.Name, err)
		}
		tdoc, err := triggerDocument(d)
		if err != nil {
			return fmt.Errorf("trigger of %s: %w", d.svc.Name, err)
		}
		ty, err := document.Marshal(tdoc)
		if err != nil {
			return fmt.Errorf("trigger of %s: %w", d.svc.Name, err)
		}
		tags := TagList(d.tags)
		needs := []Ref{
			{KindService, ident.Service(d.svc.Name)},
			{KindEnvironment, st.Environment.Identifier},
		}
		for _, r := range d.regions {
			needs = append(needs, Ref{KindInfrastructure, ident.Infrastructure(st.Environment.Identifier, r)})
		}
		if p.ChangeWindow != nil {
			needs = append(needs, Ref{KindPolicySet, p.ChangeWindow.PolicySet.Identifier})
		}
		pipelineID := d.pipelineID()
		p.Deployments[i] = Deployment{
			Service:   d.svc.Name,
			Retired:   d.svc.Retired,
			Protected: st.IsProduction() && !d.svc.Retired,
			Pipeline: Pipeline{
				Identifier:  pipelineID,
				Name:        d.pipelineName(),
				Description: fmt.Sprintf("Deploys %s to %s", d.svc.Name, st.Environment.Name),
				Tags:        tags,
				YAML:        string(py),
				Needs:       needs,
			},
			Trigger: Trigger{
				Identifier: ident.Trigger(d.svc.Name, st.Environment.Identifier),
				Name:       d.pipelineName() + "-webhook",
				TargetID:   pipelineID,
				Tags:       tags,
				YAML:       string(ty),
				Needs:      []Ref{{KindPipeline, pipelineID}},
			},
		}
		return nil
	})
}
