package plan

import (
	"fmt"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/harness/document"
)

// buildDeployments is, for every service of the stack's shard enabled in
// its environment, the Values file, pipeline, trigger and monitored
// service there.
func buildDeployments(p *Plan, c *catalog.Catalog, st *catalog.Stack) error {
	var inputs []*deploymentInput
	platform, _ := c.Team(c.PlatformTeam)
	for i := range c.Services {
		s := &c.Services[i]
		in, ok := s.In[st.Name]
		if !ok || s.Stack != p.Shard {
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
			in:   in,
			tags: deploymentTags(s, st),
		})
	}
	p.Deployments = make([]Deployment, len(inputs))
	return parallel(len(inputs), func(i int) error {
		d := inputs[i]
		d.names = namesOf(d)
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
}
