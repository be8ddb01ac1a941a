package plan

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/harness/document"
)

// deploymentInputs are the inputs of the services enabled in st that
// include admits.
func deploymentInputs(p *Plan, c *catalog.Catalog, st *catalog.Stack, include func(*catalog.Service) bool) []*deploymentInput {
	var inputs []*deploymentInput
	platform, _ := c.Team(c.PlatformTeam)
	for i := range c.Services {
		s := &c.Services[i]
		in, ok := s.In[st.Name]
		if !ok || !include(s) {
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
		var registry catalog.Registry
		if st.IsProduction() {
			registry = registryOf(c)
		}
		inputs = append(inputs, &deploymentInput{
			testedIn: testedIn,
			svc:      s, stack: st, scope: p.Scope,
			teamGroup: team.UserGroup, platformTeam: platform.UserGroup, notify: notify,
			in:       in,
			tags:     deploymentTags(s, st),
			registry: registry,
		})
	}
	return inputs
}

// templateKey is what a service's deploy-stage template in a stack
// depends on (in: its placement there).
func templateKey(s *catalog.Service, in catalog.Placement) TemplateKey {
	return TemplateKey{Archetype: s.Archetype, Strategy: in.Strategy, Verification: s.Verification}
}

// stageTemplate is the deploy-stage template of d (doc its full
// pipeline), with what it needs in p's environment. Every service of its
// key shares it (TestStageTemplates): a platform stack declares it, a
// service stack's plan describes it.
func stageTemplate(p *Plan, st *catalog.Stack, d *deploymentInput, doc document.Document) (StageTemplate, error) {
	key := templateKey(d.svc, d.in)
	tags := map[string]string{"managed-by": ManagedBy, "environment": st.Environment.Name, "archetype": key.Archetype}
	t, err := deployTemplate(doc, key, p.Scope, st.Environment.Identifier, st.Environment.Name, tags)
	if err != nil {
		return StageTemplate{}, err
	}
	t.Tags = TagList(tags)
	t.Needs = []Ref{{KindProject, p.Scope.ProjectID}, {KindEnvironment, st.Environment.Identifier}}
	for _, cl := range p.Clusters {
		t.Needs = append(t.Needs, Ref{KindInfrastructure, cl.Infrastructure.Identifier})
	}
	if p.ChangeWindow != nil {
		t.Needs = append(t.Needs, Ref{KindPolicySet, p.ChangeWindow.PolicySet.Identifier})
	}
	if p.Prometheus != nil && t.Key.Verification {
		t.Needs = append(t.Needs, Ref{KindPrometheusConnector, p.Prometheus.Identifier})
	}
	return t, nil
}

// sortTemplates orders p's templates by identifier.
func sortTemplates(p *Plan) {
	slices.SortFunc(p.Templates, func(a, b StageTemplate) int { return strings.Compare(a.Identifier, b.Identifier) })
}

// buildTemplates is a platform stack's deploy-stage templates: one per
// key the environment's services use, in any service stack, split from
// the pipeline of the first service with that key.
func buildTemplates(p *Plan, c *catalog.Catalog, st *catalog.Stack) error {
	seen := map[TemplateKey]bool{}
	inputs := deploymentInputs(p, c, st, func(s *catalog.Service) bool {
		k := templateKey(s, s.In[st.Name])
		if seen[k] {
			return false
		}
		seen[k] = true
		return true
	})
	for _, d := range inputs {
		d.names = namesOf(d)
		t, err := c.Derived(derivedTemplate{st.Name, templateKey(d.svc, d.in)}, func() (any, error) {
			return stageTemplate(p, st, d, pipelineDocument(d))
		})
		if err != nil {
			return err
		}
		p.Templates = append(p.Templates, t.(StageTemplate))
	}
	sortTemplates(p)
	return nil
}

// buildDeployments is, for every service of the stack's shard enabled in
// its environment, the Values file, pipeline (on its deploy stage's
// template), trigger and monitored service there.
// derivedTemplate names an environment's deploy-stage template in
// catalog.Derived.
type derivedTemplate struct {
	stack string
	key   TemplateKey
}

func buildDeployments(p *Plan, c *catalog.Catalog, st *catalog.Stack) error {
	inputs := deploymentInputs(p, c, st, func(s *catalog.Service) bool { return s.Stack == p.Shard })
	p.Deployments = make([]Deployment, len(inputs))
	var mu sync.Mutex
	used := map[string]StageTemplate{} // by identifier
	err := parallel(len(inputs), func(i int) error {
		d := inputs[i]
		d.names = namesOf(d)
		doc := pipelineDocument(d)
		// A template per key and environment, split from the first of its
		// services to reach it (in this stack or another of the
		// environment's); the others only give their inputs.
		key := templateKey(d.svc, d.in)
		v, err := c.Derived(derivedTemplate{st.Name, key}, func() (any, error) { return stageTemplate(p, st, d, doc) })
		if err != nil {
			return fmt.Errorf("pipeline of %s: %w", d.svc.Name, err)
		}
		tmpl := v.(StageTemplate)
		mu.Lock()
		used[tmpl.Identifier] = tmpl
		mu.Unlock()
		deploy, err := deployStage(doc)
		if err != nil {
			return err
		}
		thin := thinStage(deploy, tmpl.Identifier)
		doc.Pipeline.Stages = slices.Clone(doc.Pipeline.Stages)
		doc.Pipeline.Stages[len(doc.Pipeline.Stages)-1] = thin
		py, err := document.MarshalString(doc)
		// pinned writes the pipeline with its deploy stage pinned to a
		// version of its template (PinTemplates); only a template in
		// flight calls it.
		pinned := func(label string) (string, error) {
			pin := doc
			pin.Pipeline.Stages = slices.Clone(doc.Pipeline.Stages)
			link := *thin.Stage.Template
			link.VersionLabel = label
			stage := thin
			stage.Stage.Template = &link
			pin.Pipeline.Stages[len(pin.Pipeline.Stages)-1] = stage
			return document.MarshalString(pin)
		}
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
		tags := d.names.tags
		needs := []Ref{
			{KindService, d.names.service},
			{KindEnvironment, st.Environment.Identifier},
			{KindFile, values.Identifier},
		}
		for _, id := range d.names.infrastructures {
			needs = append(needs, Ref{KindInfrastructure, id})
		}
		if p.ChangeWindow != nil {
			needs = append(needs, Ref{KindPolicySet, p.ChangeWindow.PolicySet.Identifier})
		}
		if monitored != nil {
			needs = append(needs, Ref{KindMonitoredService, monitored.Identifier})
		}
		pipelineID := d.names.pipeline
		p.Deployments[i] = Deployment{
			Service:   d.svc.Name,
			Retired:   d.svc.Retired,
			Protected: st.IsProduction() && !d.svc.Retired,
			Monitored: monitored,
			Values:    values,
			Pipeline: Pipeline{
				Identifier:  pipelineID,
				Name:        d.names.pipelineName,
				Description: fmt.Sprintf("Deploys %s to %s", d.svc.Name, st.Environment.Name),
				Tags:        tags,
				YAML:        py,
				resolved:    func() (string, error) { return document.MarshalString(pipelineDocument(d)) },
				pinned:      pinned,
				Template:    tmpl.Identifier,
				Needs:       needs,
			},
			Trigger: Trigger{
				Identifier: d.names.trigger,
				Name:       d.names.pipelineName + "-webhook",
				TargetID:   pipelineID,
				Tags:       tags,
				YAML:       ty,
				Needs:      []Ref{{KindPipeline, pipelineID}},
			},
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, t := range used {
		p.Templates = append(p.Templates, t)
	}
	sortTemplates(p)
	return nil
}
