package program

import (
	"fmt"
	"slices"
	"testing"

	"github.com/company/harness-platform/apibudget"
	"github.com/company/harness-platform/harness/importid"
	"github.com/company/harness-platform/internal/catalogtest"
	"github.com/company/harness-platform/plan"
)

// BenchmarkAPICalls reports, for the whole chain at 100, 300 and 1,000
// services, the Harness and GitHub calls each routine operation costs
// with the real providers (apibudget.Of over what the program
// registers), per service, and the least real time they need under one
// Harness key and one GitHub App installation (apibudget.Budgets, the
// GitHub provider's write delay included):
//
//   - first-up: every object created, every stack of the chain;
//   - drift: the scheduled drift check, every object read once;
//   - archetype: a change of every deploy-stage template: a version
//     created and the old one deleted, per template and environment;
//   - one-service: every object of one service in every environment
//     updated (an upper bound of a one-service change), and the lookups
//     of the stacks holding it;
//   - preview: a preview calls only the lookups the program makes (a
//     get per GitHub team and per repository of a webhook variable);
//     so does every up, which runs the program too; a drift check
//     (refresh) does not run it.
//
// The engine measures the same through the simulated services
// (BenchmarkUp's calls metrics, Session.APICalls).
func BenchmarkAPICalls(b *testing.B) {
	for _, n := range []int{100, 300, 1000} {
		b.Run(fmt.Sprintf("services=%d", n), func(b *testing.B) {
			c := catalogtest.SyntheticCatalog(b, "..", n)
			deployed := deployedChain(c)
			var first, drift, archetype, one, preview apibudget.Calls
			for i := 0; i < b.N; i++ {
				first, drift, archetype, one, preview = apibudget.Calls{}, apibudget.Calls{}, apibudget.Calls{}, apibudget.Calls{}, apibudget.Calls{}
				someone := c.Services[0].Name
				for _, env := range c.Chain {
					rec, err := runWith(deployed, c, env, false)
					if err != nil {
						b.Fatal(err)
					}
					owners := map[string]string{}
					for _, stack := range c.StacksOf(env) {
						p, err := plan.Build(c, stack)
						if err != nil {
							b.Fatal(err)
						}
						for name, s := range p.Owners() {
							owners[name] = s
						}
						for _, w := range p.GitHub.Webhooks {
							if slices.ContainsFunc(w.Hooks, func(h plan.Webhook) bool { return h.Service == someone }) {
								// Its stack's lookups, and its webhook variable
								// rewritten (an upper bound: only a new URL
								// changes it).
								one.Add(apibudget.Calls{GitHubReads: p.GitHub.Lookups()})
								one.Add(apibudget.Of(importid.GitHubOrgVariable, apibudget.Update))
							}
						}
					}
					for _, token := range rec.Lookups() {
						lookup := apibudget.Of(token, apibudget.Read)
						preview.Add(lookup)
						first.Add(lookup)
					}
					for _, r := range rec.Resources() {
						if !r.Custom {
							continue
						}
						first.Add(apibudget.Of(r.Type, apibudget.Create))
						drift.Add(apibudget.Of(r.Type, apibudget.Read))
						if r.Type == "harness:platform/template:Template" {
							archetype.Add(apibudget.Of(r.Type, apibudget.Create))
							archetype.Add(apibudget.Of(r.Type, apibudget.Delete))
						}
						if owners[r.Name] == someone {
							one.Add(apibudget.Of(r.Type, apibudget.Update))
						}
					}
				}
			}
			for _, op := range []struct {
				name  string
				calls apibudget.Calls
			}{{"first-up", first}, {"drift", drift}, {"archetype", archetype}, {"one-service", one}, {"preview", preview}} {
				needs := op.calls.Needs(apibudget.Budgets)
				b.ReportMetric(float64(op.calls.Harness()), op.name+"-harness-calls")
				b.ReportMetric(float64(op.calls.GitHub()), op.name+"-github-calls")
				b.ReportMetric(float64(op.calls.Harness()+op.calls.GitHub())/float64(n), op.name+"-calls/service")
				b.ReportMetric(apibudget.Least(needs).Minutes(), op.name+"-least-min")
				if testing.Verbose() {
					b.Logf("%d services, %s: %s; at least %s", n, op.name, op.calls, apibudget.Duration(apibudget.Least(needs)))
					for _, need := range needs {
						b.Logf("  %s", need)
					}
				}
			}
		})
	}
}
