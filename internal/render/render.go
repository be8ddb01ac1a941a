// Package render prints what a stack would declare for its pipelines, from
// the catalog and stack files alone: the foundation's identifiers come from
// the root stack's settings, as the program would compute them.
package render

import (
	"bytes"
	"fmt"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/internal/pipeline"
)

// Refs are the project identifiers every stack uses: the root stack's.
func Refs(c *catalog.Catalog) pipeline.Refs {
	f := c.Root().Foundation
	return pipeline.Refs{OrgID: f.Org.Identifier, ProjectID: f.Project.Identifier}
}

// Stack renders every pipeline and trigger of stack (or only service's) as
// one multi-document YAML stream, in catalog order.
func Stack(c *catalog.Catalog, stack, service string) ([]byte, error) {
	st, err := c.Stack(stack)
	if err != nil {
		return nil, err
	}
	if service != "" && c.Service(service) == nil {
		return nil, fmt.Errorf("no service %q in %s", service, catalog.ServicesFile)
	}
	var out bytes.Buffer
	found := false
	for _, d := range c.Deployments(st) {
		if service != "" && d.Service.Name != service {
			continue
		}
		found = true
		r, err := pipeline.Render(d, Refs(c))
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&out, "---\n# %s: pipeline of %s\n", stack, d.Service.Name)
		out.Write(r.PipelineYAML)
		fmt.Fprintf(&out, "---\n# %s: trigger of %s\n", stack, d.Service.Name)
		out.Write(r.TriggerYAML)
	}
	if !found {
		return nil, fmt.Errorf("service %q is not enabled in stack %q", service, stack)
	}
	return out.Bytes(), nil
}
