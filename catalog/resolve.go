package catalog

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/company/harness-platform/calendar"
	"github.com/company/harness-platform/diag"
)

// resolve turns validated documents into the model, filling in every
// default. It runs only on documents that validated without a problem.
func resolve(v *validator) *Catalog {
	c := &Catalog{
		PlatformTeam: v.platformTeam,
		Stacks:       map[string]*Stack{},
		Chain:        slices.Clone(v.chain),
		services:     map[string]int{},
		teams:        map[string]int{},
		derived:      &derived{},
	}
	for _, r := range v.files.regions {
		c.Regions = append(c.Regions, Region{Name: r.Name, AWSRegion: r.AWSRegion, Description: r.Description})
	}
	for _, t := range v.files.teams {
		c.teams[t.Name] = len(c.Teams)
		team := Team{Name: t.Name, Description: t.Description, UserGroup: t.userGroup(), Members: slices.Clone(t.Members)}
		if n := t.Notifications; n != nil {
			team.Notify = Notify{SlackWebhookSecret: n.SlackWebhookSecret, PagerDutyKeySecret: n.PagerDutyKeySecret}
		}
		c.Teams = append(c.Teams, team)
	}
	for _, a := range v.files.archetypes {
		c.Archetypes = append(c.Archetypes, Archetype{
			Name: a.Name, Description: a.Description, ProductionStrategy: a.ProductionStrategy,
			Replicas: a.Replicas, Verification: a.Verification, StepTimeout: a.stepTimeout(),
			PodSecurity: cmp.Or(a.PodSecurity, "restricted"), FailOnSeverity: a.failOnSeverity(),
		})
		if n := a.Network; n != nil {
			last := &c.Archetypes[len(c.Archetypes)-1]
			last.Ingress, last.Egress = n.Ingress, slices.Clone(n.Egress)
		}
	}
	for name, d := range v.stacks {
		c.Stacks[name] = resolveStack(d, v.regions)
	}
	for _, s := range v.files.services {
		a := v.archetypes[s.Archetype]
		svc := Service{
			Pos:  s.At.Field("name"),
			Name: s.Name, Team: s.Team, Archetype: s.Archetype, Repo: s.Repo, Image: s.Image,
			Description: s.Description, Regions: slices.Clone(s.Regions), Retired: s.Retired, Backstage: s.Backstage,
			Stack:              v.shards[s],
			Tags:               cloneMap(s.Tags),
			ProductionStrategy: a.ProductionStrategy,
			Replicas:           a.Replicas,
			Verification:       a.Verification,
			StepTimeout:        a.stepTimeout(),
			FailOnSeverity:     a.failOnSeverity(),
		}
		for _, env := range c.Chain {
			if v.enabled[s][env] {
				svc.Environments = append(svc.Environments, env)
			}
		}
		if o := s.Overrides; o != nil {
			if o.ProductionStrategy != "" {
				svc.ProductionStrategy = o.ProductionStrategy
			}
			if o.Replicas != nil {
				svc.Replicas = *o.Replicas
			}
			if o.Verification != nil {
				svc.Verification = *o.Verification
			}
		}
		svc.Requests, svc.Limits = s.resources(a)
		svc.In = map[string]Placement{}
		for _, env := range svc.Environments {
			svc.In[env] = placementIn(&svc, c.Stacks[env])
		}
		c.services[s.Name] = len(c.Services)
		c.Services = append(c.Services, svc)
	}
	return c
}

// placementIn is how s runs in st.
func placementIn(s *Service, st *Stack) Placement {
	p := Placement{Strategy: Rolling, Workload: workloadIn(s.Replicas, s.Requests, s.Limits, st.Workloads)}
	if st.IsProduction() {
		p.Strategy = s.ProductionStrategy
	}
	for _, r := range st.Regions {
		if len(s.Regions) == 0 || slices.Contains(s.Regions, r.Name) {
			p.Regions = append(p.Regions, r.Name)
		}
	}
	return p
}

func resolveStack(d *stackDoc, regions map[string]*regionDoc) *Stack {
	st := &Stack{
		Name: d.name,
		File: d.file,
		Environment: Environment{
			Name:        d.Environment.Name,
			Identifier:  d.Environment.identifier(),
			Type:        d.Environment.Type,
			Description: d.Environment.Description,
		},
		Upstream:  d.Upstream,
		Imports:   slices.Clone(d.imports),
		Origins:   map[string]diag.Pos{},
		Approval:  d.approval(),
		Workloads: d.factors(),
		Delivery:  cmp.Or(d.Delivery, DeliveryGitHubActions),
	}
	for _, key := range SettingKeys() {
		if d.At.Has(key) {
			st.Origins[key] = d.At.Field(key)
		}
	}
	for _, r := range d.Regions {
		st.Regions = append(st.Regions, StackRegion{Name: r.Name, NetworkCIDR: r.NetworkCIDR, Kind: r.kind(), AWSRegion: regions[r.Name].AWSRegion,
			TokenGeneration: max(r.TokenGeneration, 1), Pos: r.At.Field("name")})
	}
	if a := d.AWS; a != nil {
		st.AWS = &AWS{RoleArn: a.RoleArn, PreviewRoleArn: a.PreviewRoleArn}
	}
	if cl := d.Cluster; cl != nil {
		n := cl.NodeGroup
		retention := DefaultLogRetentionDays
		if cl.LogRetentionDays != nil {
			retention = *cl.LogRetentionDays
		}
		st.Cluster = &Cluster{
			KubernetesVersion: cl.KubernetesVersion,
			UpgradePolicy:     orDefault(cl.UpgradePolicy, calendar.SupportStandard),
			NATGateways:       orDefault(cl.NATGateways, NATPerZone),
			LogRetentionDays:  retention,
			AdminRoleArn:      cl.AdminRoleArn,
			PublicEndpoint:    cl.PublicEndpoint,
			PublicAccessCidrs: slices.Clone(cl.PublicAccessCidrs),
			NodeGroup:         NodeGroup{InstanceType: n.InstanceType, MinSize: n.MinSize, DesiredSize: n.DesiredSize, MaxSize: n.MaxSize},
			ServiceCIDR:       cl.ServiceCIDR,
		}
	}
	if r := d.Runner; r != nil {
		st.Runner = &Runner{Labels: slices.Clone(r.Labels), EgressCidrs: slices.Clone(r.EgressCidrs), DelegateSelectors: slices.Clone(r.DelegateSelectors),
			PreviewLabels: slices.Clone(r.PreviewLabels), PreviewDelegateSelectors: slices.Clone(r.PreviewDelegateSelectors),
			OperatorEgressCidrs: slices.Clone(r.OperatorEgressCidrs)}
	}
	if dd := d.Delegate; dd != nil {
		st.Delegate = Delegate{
			ChartRepository: orDefault(dd.ChartRepository, DefaultDelegateChartRepo),
			ChartVersion:    dd.ChartVersion,
			Image:           dd.Image,
			Replicas:        DefaultDelegateReplicas,
			CPU:             orDefault(dd.CPU, DefaultDelegateCPU),
			Memory:          orDefault(dd.Memory, DefaultDelegateMemory),
			ManagerEndpoint: orDefault(dd.ManagerEndpoint, DefaultManagerEndpoint),
		}
		if dd.Replicas != nil {
			st.Delegate.Replicas = *dd.Replicas
		}
	}
	if f := d.Foundation; f != nil {
		st.Foundation = &Foundation{
			Org:     Org{Identifier: f.Org.Identifier, Name: orDefault(f.Org.Name, f.Org.Identifier), Create: f.Org.Create},
			Project: Project{Identifier: f.Project.Identifier, Name: orDefault(f.Project.Name, f.Project.Identifier), Description: f.Project.Description},
			Github: Github{
				ConnectorIdentifier: f.Github.connectorIdentifier(),
				URL:                 f.Github.URL,
				App: GithubApp{
					ApplicationID:    f.Github.App.ApplicationID,
					InstallationID:   f.Github.App.InstallationID,
					PrivateKeySecret: f.Github.App.PrivateKeySecret,
				},
				Branch: orDefault(f.Github.Branch, DefaultGithubBranch),
			},
			Registry: Registry{
				ConnectorIdentifier: f.Registry.connectorIdentifier(),
				URL:                 f.Registry.URL,
				Host:                f.Registry.host(),
				Type:                orDefault(f.Registry.Type, DefaultRegistryType),
				Username:            f.Registry.Username,
				PasswordSecret:      f.Registry.PasswordSecret,
			},
			SecretManager: SecretManager{
				ConnectorIdentifier: f.SecretManager.connectorIdentifier(),
				Region:              f.SecretManager.Region,
				RoleArn:             f.SecretManager.RoleArn,
			},
			Repository:   f.Repository,
			BackstageURL: strings.TrimRight(f.BackstageURL, "/"),
		}
	}
	if vd := d.Verification; vd != nil {
		st.Verification = &Verification{PrometheusURL: vd.PrometheusURL, Queries: map[string]Queries{},
			Scraper: Scraper{Namespace: vd.Scraper.Namespace, PodLabels: maps.Clone(vd.Scraper.PodLabels)}}
		for _, q := range vd.Queries {
			st.Verification.Queries[q.Archetype] = Queries{ErrorRate: q.ErrorRate, Latency: q.Latency}
		}
	}
	if w := d.ChangeWindow; w != nil {
		st.ChangeWindow = &ChangeWindow{Days: slices.Clone(w.Days), Start: w.Start, End: w.End, Freeze: slices.Clone(w.Freeze)}
	}
	return st
}

func cloneMap(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
