package catalog

import "fmt"

// Root is the stack that owns the foundation.
func (c *Catalog) Root() *Stack { return c.Stacks[c.Chain[0]] }

// Stack returns the named stack, or an error naming the known ones.
func (c *Catalog) Stack(name string) (*Stack, error) {
	if st, ok := c.Stacks[name]; ok {
		return st, nil
	}
	return nil, fmt.Errorf("no stack file Pulumi.%s.yaml; known stacks: %v", name, c.Chain)
}

// Team returns the named team.
func (c *Catalog) Team(name string) *Team { return c.teams[name] }

// Service returns the named service.
func (c *Catalog) Service(name string) *Service { return c.services[name] }

// EnabledIn reports whether s is enabled in the named stack.
func (s *Service) EnabledIn(stack string) bool { return s.enabled[stack] }

// Deployments resolves every service enabled in st, in catalog order.
func (c *Catalog) Deployments(st *Stack) []Deployment {
	var out []Deployment
	for _, s := range c.Services {
		if !s.enabled[st.Name] {
			continue
		}
		a := c.archetypes[s.Archetype]
		d := Deployment{
			Service:      s,
			Team:         c.teams[s.Team],
			PlatformTeam: c.PlatformTeam,
			Archetype:    a,
			Stack:        st,
			Regions:      c.regionsOf(s, st),
			Strategy:     "rolling",
			Replicas:     a.Replicas,
			Verification: a.Verification,
		}
		strategy := a.ProductionStrategy
		if o := s.Overrides; o != nil {
			if o.ProductionStrategy != "" {
				strategy = o.ProductionStrategy
			}
			if o.Replicas != nil {
				d.Replicas = *o.Replicas
			}
			if o.Verification != nil {
				d.Verification = *o.Verification
			}
		}
		if st.IsProduction() {
			d.Strategy = strategy
		}
		out = append(out, d)
	}
	return out
}
