package simulated

import (
	"net/netip"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/offline"
	"github.com/company/harness-platform/plan"
)

// Simulation is the simulated cloud as the engine's offline sessions start
// it (offline.Simulation): Reach is who the run is and where it runs from
// (nil: DefaultReach of the catalog), Budgets the API limits the
// simulated Harness and GitHub enforce (nil: none, calls only counted).
type Simulation struct {
	Reach   *Reach
	Budgets *Budgets
}

var _ offline.Simulation = Simulation{}

// Start serves the simulated providers from stateDir (Start).
func (sim Simulation) Start(stateDir, sharedDir string, c *catalog.Catalog) (offline.Cloud, error) {
	s, err := Start(stateDir, sharedDir)
	if err != nil {
		return nil, err
	}
	reach := DefaultReach(c)
	if sim.Reach != nil {
		reach = *sim.Reach
	}
	s.SetReach(reach)
	if sim.Budgets != nil {
		s.SetBudgets(*sim.Budgets)
	}
	return s, nil
}

// PluginVersion is the version each simulated provider answers as.
func (Simulation) PluginVersion(name string) (string, bool) {
	v, ok := Versions[name]
	return v, ok
}

// ServeGitHubAPI serves the simulated GitHub's REST API (StartGitHubAPI).
func (Simulation) ServeGitHubAPI() (string, func(), error) {
	api, err := StartGitHubAPI()
	if err != nil {
		return "", nil, err
	}
	return api.URL(), api.Close, nil
}

// DefaultReach is an offline run's: from the first address of the first
// runner network the stack files name (harness-platform:runner), with a
// GitHub credential, a valid Harness key, and, on AWS, each environment's
// deployer role (what an up's ESC login is).
func DefaultReach(c *catalog.Catalog) Reach {
	var reach Reach
	for _, env := range c.Chain {
		if r := c.Stacks[env].Runner; r != nil && len(r.EgressCidrs) > 0 && !reach.Runner.IsValid() {
			if p, err := netip.ParsePrefix(r.EgressCidrs[0]); err == nil {
				reach.Runner = p.Addr()
			}
		}
		// An up runs as each environment's deployer (its ESC login).
		if a := c.Stacks[env].AWS; a != nil {
			reach.Identities = append(reach.Identities, a.RoleArn)
		}
		// The config repository holds every manifest the catalog
		// deploys (the manifests contract).
		if m := plan.Manifests(c, env); m != nil {
			if reach.GitHub.Files == nil {
				reach.GitHub.Files = map[string]map[string]string{}
			}
			repo := m.Owner + "/" + m.Repo
			if reach.GitHub.Files[repo] == nil {
				reach.GitHub.Files[repo] = map[string]string{}
			}
			for _, f := range m.Files {
				reach.GitHub.Files[repo][f.Path] = Manifest(f.Service)
			}
		}
	}
	return reach
}

// Account is the simulated Harness account.
func (s *Servers) Account() string { return Account }

// Team is the Pulumi Cloud team whose token the run holds (Reach).
func (s *Servers) Team() string { return s.Reach().PulumiTeam }

// Manifest is a manifest that keeps the manifests contract: a Deployment
// of service whose container takes its image from the Values file, as the
// config repository's generator writes them, and runs as Pod Security's
// restricted level requires (non-root, no privilege escalation, every
// capability dropped, the runtime's seccomp profile).
func Manifest(service string) string {
	return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: " + service + "\nspec:\n  selector:\n    matchLabels:\n      app: " + service +
		"\n  template:\n    metadata:\n      labels:\n        app: " + service + "\n    spec:\n      securityContext:\n        runAsNonRoot: true\n" +
		"        seccompProfile:\n          type: RuntimeDefault\n      containers:\n        - name: " + service +
		"\n          image: {{.Values.image}}\n          securityContext:\n            allowPrivilegeEscalation: false\n" +
		"            capabilities:\n              drop: [ALL]\n"
}
