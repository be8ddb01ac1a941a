package adopt

import (
	"fmt"
	"maps"
	"strings"
	"sync"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/harness/importid"
)

// A Probe asks the providers which of a stack's objects exist, by their
// lookups, and makes the listings of the scopes they are declared in. It
// runs in a preview of the program itself, before the program declares
// the stack (Probes): a program declaring nothing would preview the
// deletion of what the state holds, which protected objects refuse.
type Probe struct {
	run     *Run
	lookups []Declared  // Harness objects to look up
	lists   []listing   // Harness listings
	version string      // of the Harness provider
	github  []githubOrg // GitHub organisations whose variables to list

	found  map[string]map[string]any // what the lookups answered, by URN, for what exists
	listed []Adoption                // what the listings found
	calls  int
}

// Calls is the number of provider calls the probe made.
func (p *Probe) Calls() int { return p.calls }

// ask makes the listings and lookups.
func (p *Probe) ask(ctx *pulumi.Context) error {
	for _, l := range p.lists {
		got, n, err := list(ctx, l, p.version)
		p.calls += n
		if err != nil {
			return err
		}
		p.listed = append(p.listed, got...)
	}
	for _, d := range p.lookups {
		args, err := importid.Parse(d.Type, d.ImportID())
		if err != nil {
			return err
		}
		var result map[string]any
		p.calls++
		_, err = ctx.InvokePackageRaw(importid.Lookup(d.Type), args, &result, "", pulumi.Version(p.version))
		if err != nil && !isNotFound(err) {
			return fmt.Errorf("looking up %s (%s): %w", d.URN, importid.Lookup(d.Type), err)
		}
		if err == nil && result["id"] != nil && result["id"] != "" {
			p.found[d.URN] = result
		}
	}
	n, err := probeGitHub(ctx, p.github, p.found)
	p.calls += n
	return err
}

// Probes are the probes to run before the program, by stack: Import
// stores one for the length of its probe preview.
type Probes struct{ byStack sync.Map }

// Store has the program run p before it previews stack.
func (ps *Probes) Store(stack string, p *Probe) { ps.byStack.Store(stack, p) }

// Delete removes the probe of stack.
func (ps *Probes) Delete(stack string) { ps.byStack.Delete(stack) }

// Wrap returns prog, which first runs the probe stored for the stack, if
// any.
func (ps *Probes) Wrap(prog pulumi.RunFunc) pulumi.RunFunc {
	return func(ctx *pulumi.Context) error {
		if p, ok := ps.byStack.Load(ctx.Stack()); ok {
			if err := p.(*Probe).ask(ctx); err != nil {
				return err
			}
		}
		return prog(ctx)
	}
}

// listing is one listing of one scope.
type listing struct {
	importid.Listing
	args map[string]string
}

// maxPages bounds a listing's paging (100,000 objects at 100 a page).
const maxPages = 1000

// list calls one listing, page by page, and returns what exists and the
// number of pages read.
func list(ctx *pulumi.Context, l listing, version string) ([]Adoption, int, error) {
	var out []Adoption
	for page := 0; page < maxPages; page++ {
		args := map[string]any{}
		for k, v := range l.args {
			args[k] = v
		}
		if l.Page != "" {
			args[l.Page], args[l.Size] = page, l.PageSize
		}
		var result map[string]any
		if _, err := ctx.InvokePackageRaw(l.Token, args, &result, "", pulumi.Version(version)); err != nil {
			return nil, page + 1, fmt.Errorf("listing %s in %v (%s): %w", l.Field, l.args, l.Token, err)
		}
		items, _ := result[l.Field].([]any)
		for _, item := range items {
			item, _ := item.(map[string]any)
			inputs := maps.Clone(l.args)
			inputs["identifier"], _ = item["identifier"].(string)
			id, err := importid.Format(l.Type, inputs)
			if err != nil {
				return nil, page + 1, fmt.Errorf("listing %s in %v: %w", l.Field, l.args, err)
			}
			out = append(out, Adoption{Type: l.Type, ImportID: id, Status: NotDeclared})
		}
		if l.Page == "" || len(items) < l.PageSize {
			return out, page + 1, nil
		}
	}
	return nil, maxPages, fmt.Errorf("listing %s in %v: more than %d pages", l.Field, l.args, maxPages)
}

// isNotFound reports whether a lookup failed because the object does not
// exist: the Harness API's 404 (ENTITY_NOT_FOUND, RESOURCE_NOT_FOUND),
// which the provider reports as "resource with ID ... not found"
// (terraform-provider-harness helpers/errors.go), or as an empty id. Any
// other failure (401, 403: a credential) stops the import.
func isNotFound(err error) bool {
	msg := strings.ToLower(err.Error())
	return strings.Contains(msg, "not found") || strings.Contains(msg, "not_found")
}
