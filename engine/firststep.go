package engine

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
)

// A first step. An update plan holds each resource's inputs as its
// provider's Check returned them in the preview. The engine asks no Check
// of a provider whose configuration is not known yet, so a resource of a
// cluster that does not exist yet (its Kubernetes provider's kubeconfig
// comes from the cluster) is planned with its inputs as the program gave
// them; the up, whose provider is configured, gets Check's (the Helm
// release's defaults, its compat flag dropped) and is refused: "violates
// plan: properties changed: +-compat, =+atomic, ..." (found with the real
// Kubernetes plugin, docs/operating.md). Such an environment, region or
// cluster is deployed in two planned steps: first what those providers'
// configuration comes from (the clusters, with everything they need),
// then, once it exists, everything, each step previewed, approved and
// applied from its own saved plan.

// firstStepFile holds the targets of a stack's first step beside its
// plan: an up from the plan applies them alone.
func firstStepFile(dir, stack string) string { return filepath.Join(dir, stack+".first.json") }

// FirstStep is what a saved plan's first step applies.
type FirstStep struct {
	// Targets are the resources it applies (pulumi up --target).
	Targets []string `json:"targets"`
	// Waiting are the resources whose provider's configuration comes from
	// them, planned in the second step.
	Waiting int `json:"waiting"`
}

// firstStepOf reads a saved plan and returns the first step it needs:
// the resources that the configuration of a provider being configured by
// this update depends on (its dependencies, created or replaced in the
// plan), with their own dependencies, parents and providers; nil when
// every provider's configuration is known.
func firstStepOf(file string) (*FirstStep, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var p apitype.DeploymentPlanV1
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	creating := map[resource.URN]bool{}
	for urn, rp := range p.ResourcePlans {
		for _, step := range rp.Steps {
			if step == apitype.OpCreate || step == apitype.OpReplace || step == apitype.OpCreateReplacement {
				creating[urn] = true
			}
		}
	}
	deps := func(g *apitype.GoalV1) []resource.URN {
		out := slices.Clone(g.Dependencies)
		for _, d := range g.PropertyDependencies {
			out = append(out, d...)
		}
		return out
	}
	unknown := map[string]bool{} // provider URNs
	for urn, rp := range p.ResourcePlans {
		if rp.Goal == nil || !strings.HasPrefix(string(urn.Type()), "pulumi:providers:") {
			continue
		}
		if slices.ContainsFunc(deps(rp.Goal), func(d resource.URN) bool { return creating[d] }) {
			unknown[string(urn)] = true
		}
	}
	if len(unknown) == 0 {
		return nil, nil
	}
	step := &FirstStep{}
	seen := map[resource.URN]bool{}
	var visit func(resource.URN)
	visit = func(urn resource.URN) {
		rp, ok := p.ResourcePlans[urn]
		if seen[urn] || !ok || rp.Goal == nil {
			return
		}
		seen[urn] = true
		next := deps(rp.Goal)
		if rp.Goal.Parent != "" {
			next = append(next, rp.Goal.Parent)
		}
		if ref := rp.Goal.Provider; ref != "" {
			next = append(next, resource.URN(providerURNOf(ref)))
		}
		for _, d := range next {
			visit(d)
		}
	}
	for urn := range unknown {
		visit(resource.URN(urn))
	}
	// Pulumi configures every provider an update declares, targeted or
	// not, and refuses one whose parent or dependencies are not targeted
	// ("depends on ... which was not specified in --target list"): the
	// providers with a known configuration join the first step, with what
	// they need.
	for urn, rp := range p.ResourcePlans {
		if rp.Goal != nil && strings.HasPrefix(string(urn.Type()), "pulumi:providers:") && !unknown[string(urn)] {
			visit(urn)
		}
	}
	for urn, rp := range p.ResourcePlans {
		if rp.Goal != nil && unknown[providerURNOf(rp.Goal.Provider)] && !seen[urn] {
			step.Waiting++
		}
	}
	for urn := range seen {
		step.Targets = append(step.Targets, string(urn))
	}
	slices.Sort(step.Targets)
	return step, nil
}

// providerURNOf is the URN of a provider reference (urn::id).
func providerURNOf(ref string) string {
	if i := strings.LastIndex(ref, "::"); i > 0 {
		return ref[:i]
	}
	return ref
}

// readFirstStep is the first step saved beside a stack's plan; nil when
// the plan is a whole one.
func readFirstStep(dir, stack string) (*FirstStep, error) {
	data, err := os.ReadFile(firstStepFile(dir, stack))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var step FirstStep
	if err := json.Unmarshal(data, &step); err != nil {
		return nil, fmt.Errorf("%s: %w", firstStepFile(dir, stack), err)
	}
	return &step, nil
}

func writeFirstStep(dir, stack string, step *FirstStep) error {
	data, err := json.MarshalIndent(step, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(firstStepFile(dir, stack), append(data, '\n'), 0o600)
}
