package plan

import (
	"fmt"
	"io"
)

// Document is one YAML document of a plan.
type Document struct {
	Kind Kind
	// Identifier of the object whose yaml input this is.
	Identifier string
	// Service is the catalog service it belongs to, or "".
	Service string
	YAML    string
}

// Documents lists every YAML document the plan declares, in declaration
// order: services (root environment's service stacks), the CI pipeline
// and its triggers (foundation), infrastructures and deploy-stage
// templates (platform stacks), then each deployment's Values file,
// pipeline (as saved: on its template) and trigger.
func (p *Plan) Documents() []Document {
	docs, _ := p.documents(false) // only a resolved pipeline can fail
	return docs
}

// documents is Documents, with each deployment's pipeline resolved (its
// template applied: what runs) when resolved is set.
func (p *Plan) documents(resolved bool) ([]Document, error) {
	var out []Document
	for _, s := range p.CatalogServices {
		out = append(out, Document{KindService, s.Identifier, s.Name, s.YAML})
	}
	if f := p.Foundation; f != nil && f.CI != nil {
		out = append(out, Document{KindPipeline, f.CI.Pipeline.Identifier, "", f.CI.Pipeline.YAML})
		for _, t := range f.CI.Triggers {
			out = append(out, Document{KindTrigger, t.Identifier, "", t.YAML})
		}
	}
	if p.IsPlatform() {
		for _, c := range p.Clusters {
			out = append(out, Document{KindInfrastructure, c.Infrastructure.Identifier, "", c.Infrastructure.YAML})
		}
		for _, t := range p.Templates {
			out = append(out, Document{KindTemplate, t.Identifier, "", t.YAML})
		}
	}
	for _, d := range p.Deployments {
		out = append(out, Document{KindFile, d.Values.Identifier, d.Service, d.Values.Content})
		y := d.Pipeline.YAML
		if resolved {
			var err error
			if y, err = d.Pipeline.Resolved(); err != nil {
				return nil, fmt.Errorf("%s: pipeline %s resolved: %w", p.Stack, d.Pipeline.Identifier, err)
			}
		}
		out = append(out, Document{KindPipeline, d.Pipeline.Identifier, d.Service, y})
		out = append(out, Document{KindTrigger, d.Trigger.Identifier, d.Service, d.Trigger.YAML})
	}
	return out, nil
}

// RenderOptions choose what Render writes.
type RenderOptions struct {
	// Service, when set, keeps only that catalog service's documents.
	Service string
	// Resolved writes each service pipeline with its deploy-stage
	// template applied to its inputs (what runs; what reviewers compare
	// with the full pipelines of before templates) instead of as saved.
	Resolved bool
}

// Render writes the plan's documents as one YAML stream, each headed by a
// comment naming it.
func Render(w io.Writer, p *Plan, opts RenderOptions) error {
	service := opts.Service
	docs, err := p.documents(opts.Resolved)
	if err != nil {
		return err
	}
	for _, d := range docs {
		if service != "" && d.Service != service {
			continue
		}
		if _, err := fmt.Fprintf(w, "---\n# %s: %s %s\n%s", p.Stack, d.Kind, d.Identifier, d.YAML); err != nil {
			return err
		}
	}
	return nil
}
