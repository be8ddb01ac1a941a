package adopt

import (
	"fmt"
	"sort"
	"strings"

	"github.com/company/harness-platform/harness/importid"
)

// Status is what Import found for one object.
type Status string

const (
	// Adopted: the object exists and is what the catalog declares.
	Adopted Status = "adopted"
	// Different: the object exists; fields differ from the catalog's (the
	// next up updates them in place).
	Different Status = "adopted, different"
	// ToCreate: the object does not exist; up creates it.
	ToCreate Status = "to create"
	// NotDeclared: the object exists in a scope the catalog declares (an
	// organisation's project, a project's pipeline, service or
	// environment) and the catalog does not declare it. Import lists it
	// and leaves it alone; nothing deletes it.
	NotDeclared Status = "exists, not declared"
)

// Adopts reports whether Import adopts an object with this status: it
// exists and a stack declares it.
func (s Status) Adopts() bool { return s == Adopted || s == Different }

// Adoption is Import's finding for one object the stack declares and its
// state does not hold, or for one the catalog does not declare
// (NotDeclared: no stack, no URN).
type Adoption struct {
	Stack    string
	URN      string
	Type     string
	ImportID string
	Status   Status
	Fields   []string // the fields that differ, for Different
}

// Report is what Import found, and the provider calls it made.
type Report struct {
	Objects []Adoption
	// Calls counts the provider calls: one lookup per object the stacks
	// would create, one per page of a listing, one read per adopted
	// object. Harness allows about 1,000 API calls a minute per key.
	Calls int
}

// A Run is what one Import gathers across the stacks it covers: what they
// declare, and what exists in the scopes they declare objects in.
type Run struct {
	declared map[string]bool     // objectKey of every object a stack declares
	listed   map[string]bool     // key of every listing made
	existing map[string]Adoption // objectKey of what the listings found; nil: do not list
}

// NewRun starts an import. With list, its probes also list the scopes the
// stacks declare objects in, so that Undeclared can name what exists
// there: only for a whole environment, as a single service stack declares
// only its share of its projects' objects.
func NewRun(list bool) *Run {
	r := &Run{declared: map[string]bool{}, listed: map[string]bool{}}
	if list {
		r.existing = map[string]Adoption{}
	}
	return r
}

// Undeclared are the listed objects no stack declares, sorted.
func (r *Run) Undeclared() []Adoption {
	var out []Adoption
	for k, a := range r.existing {
		if !r.declared[k] {
			out = append(out, a)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Type != out[j].Type {
			return out[i].Type < out[j].Type
		}
		return out[i].ImportID < out[j].ImportID
	})
	return out
}

// objectKey names a Harness object by its type and import ID.
func objectKey(typ, importID string) string { return typ + " " + importID }

// Probe is what to ask the providers about the objects a stack's preview
// declares (plan): whether the Harness objects it would create through
// the default provider exist, what exists in the scopes not yet listed,
// and which GitHub organisation variables exist. It is nil when there is
// nothing to ask.
func (r *Run) Probe(plan []Declared) (*Probe, error) {
	p := &Probe{run: r, found: map[string]map[string]any{}}
	for _, d := range plan {
		if !importid.Known(d.Type) {
			continue
		}
		r.declared[objectKey(d.Type, d.ImportID())] = true
		if strings.HasPrefix(providerName(d.Provider), "default_") {
			p.version = providerVersion(d.Provider)
			if d.Create {
				p.lookups = append(p.lookups, d)
			}
		}
	}
	if p.version != "" {
		p.lists = r.scopes(plan)
	}
	var err error
	if p.github, err = githubOrgs(plan); err != nil {
		return nil, err
	}
	if len(p.lookups) == 0 && len(p.lists) == 0 && len(p.github) == 0 {
		return nil, nil
	}
	return p, nil
}

// scopes are the listings a stack's declarations call for, not yet made
// in this run: the projects of each organisation an object is declared
// in, and the pipelines, services and environments of each project.
func (r *Run) scopes(plan []Declared) []listing {
	if r.existing == nil {
		return nil
	}
	var out []listing
	add := func(scope map[string]string) {
		for _, l := range importid.Listings() {
			args := map[string]string{}
			for _, k := range l.Scope {
				if scope[k] == "" {
					args = nil
					break
				}
				args[k] = scope[k]
			}
			if len(args) != len(scope) {
				continue
			}
			key := l.Token + " " + fmt.Sprint(args)
			if !r.listed[key] {
				r.listed[key] = true
				out = append(out, listing{Listing: l, args: args})
			}
		}
	}
	for _, d := range plan {
		if !importid.Known(d.Type) {
			continue
		}
		in := d.stringInputs()
		org, project := in["orgId"], in["projectId"]
		switch d.Type {
		case "harness:platform/organization:Organization":
			org = in["identifier"]
		case "harness:platform/project:Project":
			project = in["identifier"]
		}
		if org != "" {
			add(map[string]string{"orgId": org})
		}
		if org != "" && project != "" {
			add(map[string]string{"orgId": org, "projectId": project})
		}
	}
	return out
}

// Findings are Import's findings for the objects of stack the probe asked
// about, once its preview has run: each adopted (as declared or
// different) or to create. What the probe's listings found joins the
// run's, for Undeclared.
func (p *Probe) Findings(stack string) []Adoption {
	for _, a := range p.listed {
		p.run.existing[objectKey(a.Type, a.ImportID)] = a
	}
	candidates := p.lookups
	for _, g := range p.github {
		candidates = append(candidates, g.variables...)
	}
	var out []Adoption
	for _, d := range candidates {
		a := Adoption{Stack: stack, URN: d.URN, Type: d.Type, ImportID: d.ImportID(), Status: ToCreate}
		if state, ok := p.found[d.URN]; ok {
			a.Status = Adopted
			inputs := d.Inputs
			if d.Type == importid.GitHubOrgVariable {
				// The organisation's listing shows no variable's
				// repositories: what it shows is compared, and the up
				// after the import sets the repositories.
				inputs = map[string]any{}
				for k := range state {
					inputs[k] = d.Inputs[k]
				}
			}
			if a.Fields = differing(inputs, state); len(a.Fields) > 0 {
				a.Status = Different
			}
		}
		out = append(out, a)
	}
	return out
}
