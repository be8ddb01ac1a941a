package catalog

import (
	"fmt"
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

// checkPreviewRunners holds what runs pull requests' code (previews,
// and the saved plans and drift checks that share their runners) to
// hosts no up runs on: GitHub starts a job on a runner that has every
// label of its runs-on, so the preview labels need one that no
// environment's up labels has; Harness runs a stage on a delegate with
// every tag it selects, so the preview stage's selectors may be none of
// an environment's. Every environment's preview selectors must be the
// same, as the pipeline previews every stack in one stage.
// https://docs.github.com/en/actions/hosting-your-own-runners/managing-self-hosted-runners/using-self-hosted-runners-in-a-workflow
func (v *validator) checkPreviewRunners() {
	if len(v.chain) == 0 {
		return
	}
	upLabels, upSelectors := map[string]bool{}, map[string]bool{}
	for _, name := range v.chain {
		if r := v.stacks[name].Runner; r != nil {
			for _, l := range r.Labels {
				upLabels[l] = true
			}
			for _, s := range r.DelegateSelectors {
				upSelectors[s] = true
			}
		}
	}
	root := v.stacks[v.chain[0]]
	ci := root != nil && root.Foundation != nil && root.Foundation.Repository != ""
	var first []string
	for i, name := range v.chain {
		r := v.stacks[name].Runner
		if r == nil {
			continue
		}
		if len(r.PreviewLabels) > 0 && !slices.ContainsFunc(r.PreviewLabels, func(l string) bool { return !upLabels[l] }) {
			v.at(r.At.Field("previewLabels"), "add a label only the preview runners have, e.g. harness-platform-preview",
				"runner previewLabels %v are all labels of up runners: a pull request's job could run on a host that runs ups", r.PreviewLabels)
		}
		if !ci {
			continue
		}
		if len(r.PreviewDelegateSelectors) == 0 {
			v.at(r.At.Pos(), "add "+Namespace+":runner previewDelegateSelectors: the tags of the Harness Docker delegates on the preview runners' hosts (docs/delivery.md, Who runs what)",
				"stack %q has no runner previewDelegateSelectors: the Harness CI pipeline's preview of %s would run a pull request's code on the up runners", name, root.Foundation.Repository)
			continue
		}
		for j, sel := range r.PreviewDelegateSelectors {
			if upSelectors[sel] {
				v.at(r.At.Item("previewDelegateSelectors", j), "use a tag only the preview runners' delegates have, e.g. harness-platform-preview-runner",
					"runner previewDelegateSelector %q is also an up runner's: the preview stage could run a pull request's code where ups run", sel)
			}
		}
		if i > 0 && first != nil && !slices.Equal(first, r.PreviewDelegateSelectors) {
			v.at(r.At.Field("previewDelegateSelectors"), fmt.Sprintf("write %v, as stack %q does", first, v.chain[0]),
				"runner previewDelegateSelectors %v differ from %q's: the CI pipeline previews every stack in one stage", r.PreviewDelegateSelectors, v.chain[0])
		}
		if first == nil {
			first = r.PreviewDelegateSelectors
		}
	}
}
