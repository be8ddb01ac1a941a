package catalog

import (
	"slices"
	"strings"

	"github.com/company/harness-platform/ident"
)

// checkCIRunners holds the Harness CI pipeline (declared where the root
// stack's foundation names this program's repository) to the runner
// hosts' delegates: each environment's up runs on its runners' Harness
// Docker delegates, selected by their tags, and the pull-request preview,
// which previews every stack in one step, on delegates every
// environment's runners share. A stage without selectors may land on any
// delegate of the account, including the clusters' Kubernetes delegates,
// which have no Docker runner; so may a selector that is one of their
// tags (environment, region, network-<cidr>) or names.
// https://developer.harness.io/docs/continuous-integration/use-ci/set-up-build-infrastructure/define-a-docker-build-infrastructure/
// ("Delegate selections take precedence in the following order: Stage,
// Pipeline, Platform").
func (v *validator) checkCIRunners() {
	if len(v.chain) == 0 {
		return
	}
	root := v.stacks[v.chain[0]]
	if root == nil || root.Foundation == nil || root.Foundation.Repository == "" {
		return
	}
	clusterTags := map[string]string{} // tag -> what it is on the clusters' delegates
	for _, name := range v.chain {
		st := v.stacks[name]
		clusterTags[st.Environment.Name] = "the environment tag of " + name + "'s cluster delegates"
		for _, r := range st.Regions {
			clusterTags[r.Name] = "the region tag of a cluster delegate"
			clusterTags[ident.DelegateName(st.Environment.Name, r.Name)] = "a cluster delegate's name"
		}
	}
	var shared []string
	missing := false
	for i, name := range v.chain {
		st := v.stacks[name]
		r := st.Runner
		if r == nil && st.declaresEKS() {
			missing = true // checkRunner asks for the whole runner
			continue
		}
		if r == nil || len(r.DelegateSelectors) == 0 {
			pos := st.At.Pos()
			if r != nil {
				pos = r.At.Pos()
			}
			v.at(pos, "add "+Namespace+":runner delegateSelectors: the tags of the Harness Docker delegates on the runner hosts (docs/delivery.md, Where the jobs run)",
				"stack %q has no runner delegateSelectors: the Harness CI pipeline of %s would up it on any delegate of the account, the clusters' too, which cannot run its steps",
				name, root.Foundation.Repository)
			missing = true
			continue
		}
		for j, sel := range r.DelegateSelectors {
			if what, ok := clusterTags[sel]; ok || strings.HasPrefix(sel, "network-") {
				if !ok {
					what = "the network tag of the cluster delegates"
				}
				v.at(r.At.Item("delegateSelectors", j), "use a tag only the runner hosts' Docker delegates have, e.g. harness-platform-runner",
					"runner delegateSelector %q is %s: the CI pipeline's stages could land on a Kubernetes delegate, which has no Docker runner", sel, what)
			}
		}
		if i == 0 || shared == nil {
			shared = slices.Clone(r.DelegateSelectors)
		} else {
			shared = slices.DeleteFunc(shared, func(s string) bool { return !slices.Contains(r.DelegateSelectors, s) })
		}
	}
	if len(shared) == 0 && !missing {
		v.at(v.stacks[v.chain[0]].Runner.At.Field("delegateSelectors"), "give every environment's runners one delegate tag in common",
			"the environments' runners share no delegate selector: the CI pipeline previews every stack in one step, on a runner that reaches every environment")
	}
}

// declaresEKS says whether any of the stack's regions is kind eks.
func (s *stackDoc) declaresEKS() bool {
	return slices.ContainsFunc(s.Regions, func(r stackRegionDoc) bool { return r.kind() == RegionEKS })
}
