package plan

import (
	"fmt"
	"maps"
	"slices"
	"strings"

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
	RegistryPasswordID   = "docker_registry_password"
	// RegistryPasswordConfigKey is the Pulumi config secret holding the
	// registry password.
	RegistryPasswordConfigKey = catalog.Namespace + ":registryPassword"
	// PrimaryArtifact is the identifier of every service's image source.
	PrimaryArtifact = "image"
	// FileStoreRoot is the identifier of the Harness File Store's root.
	FileStoreRoot = "Root"
)

// Build computes the plan of stack. The catalog must be valid (catalog.Load
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
	if !p.IsPlatform() {
		if err := buildDeployments(p, c, st); err != nil {
			return nil, err
		}
	}
	buildGitHub(p, c, st)
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
			SecretManager: HarnessSecretStore,
			ConfigKey:     RegistryPasswordConfigKey,
			Tags:          tags,
			Needs:         inProject,
		}
		out.Registry.Username = reg.Username
		out.Registry.PasswordRef = RegistryPasswordID
		out.Registry.Needs = []Ref{{KindProject, scope.ProjectID}, {KindSecret, RegistryPasswordID}}
	}
	out.PipelineRules = buildPipelineRules(c, tags, inProject)
	if f.Repository != "" {
		ci, err := buildCI(c, f, scope, GithubTokenSecretID)
		if err != nil {
			return nil, err
		}
		out.CI = ci
	}
	return out, nil
}

// buildServices is the Harness service and Values file of every catalog
// service that shard holds.
func buildServices(c *catalog.Catalog, f *catalog.Foundation, scope Scope, shard string) ([]Service, error) {
	gh, reg := f.Github, f.Registry
	var services []*catalog.Service
	for i := range c.Services {
		if c.Services[i].Stack == shard {
			services = append(services, &c.Services[i])
		}
	}
	out := make([]Service, len(services))
	err := parallel(len(services), func(i int) error {
		s := services[i]
		tags := serviceTags(s)
		y, err := document.MarshalString(serviceDocument(s, tags, f, scope))
		if err != nil {
			return fmt.Errorf("service %s: %w", s.Name, err)
		}
		out[i] = Service{
			Identifier:  ident.Service(s.Name),
			Name:        s.Name,
			Description: s.Description,
			Tags:        TagList(tags),
			YAML:        y,
			Needs: []Ref{
				{KindProject, scope.ProjectID}, {KindGithubConnector, gh.ConnectorIdentifier},
				{KindDockerConnector, reg.ConnectorIdentifier},
			},
		}
		return nil
	})
	return out, err
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
			st := c.Stacks[name]
			if !s.EnabledIn(name) {
				continue
			}
			env := st.Environment.Identifier
			add(s.Team, "PIPELINE", ident.Pipeline(s.Name, env))
			add(s.Team, "ENVIRONMENT", env)
			for _, r := range s.RegionsIn(st) {
				add(s.Team, "CONNECTOR", ident.KubernetesConnector(env, r))
			}
		}
	}
	for _, t := range c.Teams {
		add(t.Name, "CONNECTOR", f.Github.ConnectorIdentifier, f.Registry.ConnectorIdentifier)
		add(t.Name, "SECRET", GithubTokenSecretID)
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

// serviceDocument is the Harness service of s. Its manifests are the
// generated ones of the environment and region being deployed, rendered
// with the Values file of the environment being deployed (valuesFile); its
// primary artifact is the catalog's image in the
// foundation's registry, tagged with the pipeline's imageTag input. With a
// single source, primaryArtifactRef names it, so no run asks for it.
// https://developer.harness.io/docs/continuous-delivery/deploy-srv-diff-platforms/kubernetes/cd-kubernetes-category/add-artifacts-for-kubernetes-deployments
func serviceDocument(s *catalog.Service, tags map[string]string, f *catalog.Foundation, scope Scope) document.ServiceDocument {
	gh, reg := f.Github, f.Registry
	skipVersioning := false
	return document.ServiceDocument{Service: document.Service{
		Name:              s.Name,
		Identifier:        ident.Service(s.Name),
		OrgIdentifier:     scope.OrgID,
		ProjectIdentifier: scope.ProjectID,
		Description:       s.Description,
		Tags:              tags,
		ServiceDefinition: document.ServiceDefinition{Type: "Kubernetes", Spec: document.ServiceSpec{
			Artifacts: &document.Artifacts{Primary: document.PrimaryArtifact{
				PrimaryArtifactRef: PrimaryArtifact,
				Sources: []document.ArtifactSource{{
					Identifier: PrimaryArtifact,
					Type:       "DockerRegistry",
					Spec: document.DockerArtifact{
						ConnectorRef: reg.ConnectorIdentifier,
						ImagePath:    strings.TrimPrefix(s.Image, reg.Host+"/"),
						Tag:          "<+pipeline.variables." + ImageTagInput + ">",
					},
				}},
			}},
			Manifests: []document.ManifestElement{
				{Manifest: document.Manifest{
					Identifier: "manifests",
					Type:       "K8sManifest",
					Spec: document.ManifestSpec{Store: document.Store{Type: "Github", Spec: document.GitSource{
						ConnectorRef: gh.ConnectorIdentifier,
						GitFetchType: "Branch",
						Branch:       gh.Branch,
						Paths:        []string{ident.ManifestPath(s.Name, "<+env.name>", "<+pipeline.variables."+TargetRegionInput+">") + "/manifests.yaml"},
					}}, SkipResourceVersioning: &skipVersioning},
				}},
				{Manifest: document.Manifest{
					Identifier: "values",
					Type:       "Values",
					Spec:       document.ManifestSpec{Store: document.Store{Type: "Harness", Spec: document.FileStore{Files: []string{"/" + ident.ValuesFileName(s.Name, "<+env.identifier>")}}}},
				}},
			},
			Variables: []document.ServiceVariable{
				{Name: "imageTag", Type: "String", Value: "<+pipeline.variables." + ImageTagInput + ">"},
			},
		}},
	}}
}

func buildEnvironment(p *Plan, c *catalog.Catalog, st *catalog.Stack) error {
	env := st.Environment
	inProject := []Ref{{KindProject, p.Scope.ProjectID}}
	p.Environment = Environment{
		Identifier: env.Identifier, Name: env.Name, Description: env.Description, Type: env.Type,
		// The platform team owns the environments (required-tags).
		Tags:  managedTags(map[string]string{"environment": env.Name, "team": c.PlatformTeam}),
		Needs: inProject,
	}
	namespaces := map[string][]string{} // the platform stack declares none
	if !p.IsPlatform() {
		namespaces = namespacesByRegion(c, st, p.Shard)
	}
	for _, r := range st.Regions {
		region := r.Name
		cl, err := buildCluster(st, r, namespaces[region], p.Scope)
		if err != nil {
			return err
		}
		delegate := cl.Delegate.Name
		tags := managedTags(map[string]string{"environment": env.Name, "region": region})
		conn := KubernetesConnector{
			Identifier:        ident.KubernetesConnector(env.Identifier, region),
			Name:              env.Name + "-" + region,
			Description:       "Cluster " + env.Name + "/" + region + " through delegate " + delegate,
			DelegateSelectors: []string{delegate},
			Tags:              tags,
			Needs:             []Ref{{KindProject, p.Scope.ProjectID}, {KindDelegate, delegate}},
		}
		infraID := ident.Infrastructure(env.Identifier, region)
		y, err := document.MarshalString(document.InfrastructureDocument{InfrastructureDefinition: document.Infrastructure{
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
		cl.Connector = conn
		cl.Infrastructure = Infrastructure{
			Identifier: infraID, Name: env.Name + "-" + region, EnvID: env.Identifier,
			Type: "KubernetesDirect", DeploymentType: "Kubernetes", Tags: tags, YAML: y,
			Needs: []Ref{{KindEnvironment, env.Identifier}, {KindKubernetesConnector, conn.Identifier}},
		}
		p.Clusters = append(p.Clusters, cl)
	}
	p.Prometheus = prometheusConnector(st, p.Scope, managedTags(map[string]string{"environment": env.Name}))
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
		if !s.EnabledIn(st.Name) || s.Stack != p.Shard {
			continue
		}
		team, _ := c.Team(s.Team)
		notify := []catalog.Team{team}
		if st.IsProduction() && team.Name != platform.Name {
			notify = append(notify, platform)
		}
		var testedIn *catalog.Stack
		if st.IsProduction() && st.Upstream != "" {
			testedIn = c.Stacks[st.Upstream]
		}
		inputs = append(inputs, &deploymentInput{
			testedIn: testedIn,
			svc:      s, stack: st, scope: p.Scope,
			teamGroup: team.UserGroup, platformTeam: platform.UserGroup, notify: notify,
			regions: s.RegionsIn(st), strategy: s.StrategyIn(st),
			tags: deploymentTags(s, st),
		})
	}
	p.Deployments = make([]Deployment, len(inputs))
	return parallel(len(inputs), func(i int) error {
		d := inputs[i]
		py, err := document.MarshalString(pipelineDocument(d))
		if err != nil {
			return fmt.Errorf("pipeline of %s: %w", d.svc.Name, err)
		}
		tdoc, err := triggerDocument(d)
		if err != nil {
			return fmt.Errorf("trigger of %s: %w", d.svc.Name, err)
		}
		ty, err := document.MarshalString(tdoc)
		if err != nil {
			return fmt.Errorf("trigger of %s: %w", d.svc.Name, err)
		}
		values, err := valuesFile(d)
		if err != nil {
			return fmt.Errorf("values of %s: %w", d.svc.Name, err)
		}
		monitored, err := monitoredService(d, p.Prometheus)
		if err != nil {
			return fmt.Errorf("monitored service of %s: %w", d.svc.Name, err)
		}
		tags := TagList(d.tags)
		needs := []Ref{
			{KindService, ident.Service(d.svc.Name)},
			{KindEnvironment, st.Environment.Identifier},
			{KindFile, values.Identifier},
		}
		for _, r := range d.regions {
			needs = append(needs, Ref{KindInfrastructure, ident.Infrastructure(st.Environment.Identifier, r)})
		}
		if p.ChangeWindow != nil {
			needs = append(needs, Ref{KindPolicySet, p.ChangeWindow.PolicySet.Identifier})
		}
		if monitored != nil {
			needs = append(needs, Ref{KindMonitoredService, monitored.Identifier})
		}
		pipelineID := d.pipelineID()
		p.Deployments[i] = Deployment{
			Service:   d.svc.Name,
			Retired:   d.svc.Retired,
			Protected: st.IsProduction() && !d.svc.Retired,
			Monitored: monitored,
			Values:    values,
			Pipeline: Pipeline{
				Identifier:  pipelineID,
				Name:        d.pipelineName(),
				Description: fmt.Sprintf("Deploys %s to %s", d.svc.Name, st.Environment.Name),
				Tags:        tags,
				YAML:        py,
				Needs:       needs,
			},
			Trigger: Trigger{
				Identifier: ident.Trigger(d.svc.Name, st.Environment.Identifier),
				Name:       d.pipelineName() + "-webhook",
				TargetID:   pipelineID,
				Tags:       tags,
				YAML:       ty,
				Needs:      []Ref{{KindPipeline, pipelineID}},
			},
		}
		return nil
	})
}
