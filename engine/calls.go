package engine

import (
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"

	"github.com/company/harness-platform/apibudget"
	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/plan"
)

// Calls are the Harness and GitHub calls of a run, as the real providers
// would send them: in all, and by catalog service ("" for the
// platform's own objects and the lookups).
type Calls struct {
	Total     apibudget.Calls
	ByService map[string]apibudget.Calls
	// Waited is the simulated time the providers waited out the
	// simulated budgets (simulated.Simulation.Budgets), summed over concurrent waits;
	// the GitHub provider's pause between writes included.
	WaitedGitHub, WaitedHarness time.Duration
}

// APICalls are the calls the simulated Harness and GitHub answered since
// the session opened or ResetAPICalls; nothing online (the real services
// count for themselves).
func (s *Session) APICalls() (Calls, error) {
	out := Calls{ByService: map[string]apibudget.Calls{}}
	if s.cloud == nil {
		return out, nil
	}
	total, byURN := s.cloud.Calls()
	out.Total = total
	out.WaitedGitHub, out.WaitedHarness = s.cloud.Waited()
	owners := map[string]func(string) string{} // by stack
	for u, c := range byURN {
		service := ""
		if urn := resource.URN(u); urn.IsValid() {
			stack := string(urn.Stack())
			owner, ok := owners[stack]
			if !ok {
				if _, known := s.Catalog.Stacks[stackEnv(stack)]; known {
					p, err := plan.Build(s.Catalog, stack)
					if err != nil {
						return out, err
					}
					owner = p.ServiceOf()
				}
				owners[stack] = owner
			}
			if owner != nil {
				service = owner(urn.Name())
			}
		}
		sum := out.ByService[service]
		sum.Add(c)
		out.ByService[service] = sum
	}
	return out, nil
}

// ResetAPICalls starts counting afresh.
func (s *Session) ResetAPICalls() {
	if s.cloud != nil {
		s.cloud.ResetCalls()
	}
}

func stackEnv(stack string) string {
	env, _ := catalog.SplitStack(stack)
	return env
}
