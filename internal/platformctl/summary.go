package platformctl

import (
	"fmt"
	"io"
	"os"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"

	"github.com/company/harness-platform/apibudget"
	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/plan"
	"github.com/company/harness-platform/summary"
)

// runSummary prints the Markdown summary of a preview's event log; the
// plan of the stack names the service each changed resource belongs to.
func runSummary(c *catalog.Catalog, o options, stdout, _ io.Writer) error {
	p, err := plan.Build(c, o.stack)
	if err != nil {
		return err
	}
	f, err := os.Open(o.events)
	if err != nil {
		// A preview that failed before it started wrote no log: say so.
		fmt.Fprintf(stdout, "### ❌ `%s`: the preview wrote no event log (%v); see the job log\n", o.stack, err)
		return nil
	}
	defer f.Close()
	owner := p.ServiceOf()
	pre, err := summary.Read(o.stack, f, func(urn resource.URN) string { return owner(urn.Name()) })
	if err != nil {
		return err
	}
	if p.GitHub != nil {
		pre.Lookups = apibudget.Calls{GitHubReads: p.GitHub.Lookups()}
	}
	if p.IsPlatform() {
		// A template's change reaches every pipeline built from it, in
		// the environment's service stacks.
		pre.Reach = map[string]int{}
		for _, stack := range c.StacksOf(p.Platform)[1:] {
			sp, err := plan.Build(c, stack)
			if err != nil {
				return err
			}
			for _, d := range sp.Deployments {
				pre.Reach[d.Pipeline.Template]++
			}
		}
	}
	fmt.Fprint(stdout, pre.Markdown(o.details, o.max))
	return nil
}
