package plan

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/harness/template"
)

// Template versions in flight.
//
// A pipeline references its deploy stage's template without a version
// label: Harness runs the template's stable version, so a new version
// that keeps the runtime inputs reaches every pipeline when the platform
// stack saves it stable, and no pipeline is written. A new version whose
// runtime inputs differ cannot go live that way: Harness merges a
// pipeline's templateInputs into the template only where the template
// still has <+input> (harness-core, mergeTemplateInputsToTemplateSpecInTemplateYaml),
// so an input removed or renamed is silently dropped and a new one stays
// <+input>, which no trigger supplies, until the pipeline is reconciled
// (https://developer.harness.io/docs/platform/templates/reconcile-pipeline-templates).
//
// Such a version is saved non-stable (a candidate) beside the stable one;
// each service stack's up pins its pipelines to it (versionLabel) in the
// same update that writes their new inputs (PinTemplates); the platform
// stack makes it stable once no pipeline uses another version, and only
// then deletes the previous one, so a service stack that fails keeps
// running the version its pipelines were written for. Once it is stable
// the service stacks' next up unpins their pipelines.

// TemplateUse is a service stack's pipelines' use of a template: the
// version they pin, "" for the stable one.
type TemplateUse struct {
	Stack, Template, Version string
}

// String is the use as a service stack's contract lists it: the
// template's identifier, and "@version" when pinned.
func (u TemplateUse) String() string {
	if u.Version == "" {
		return u.Template
	}
	return u.Template + "@" + u.Version
}

// ParseTemplateUse reads a use as TemplateUse.String writes it.
func ParseTemplateUse(stack, s string) TemplateUse {
	id, version, _ := strings.Cut(s, "@")
	return TemplateUse{Stack: stack, Template: id, Version: version}
}

// TemplateInputs are the paths of a template version's runtime inputs.
func TemplateInputs(t StageTemplate) ([]string, error) {
	var doc struct {
		Template struct {
			Spec any `yaml:"spec"`
		} `yaml:"template"`
	}
	if err := yaml.Unmarshal([]byte(t.YAML), &doc); err != nil {
		return nil, fmt.Errorf("template %s version %s: %w", t.Identifier, t.Version, err)
	}
	return template.Inputs(doc.Template.Spec), nil
}

// SameInputs reports whether two versions of a template have the same
// runtime inputs: a pipeline written for one runs the other as written.
func SameInputs(a, b StageTemplate) (bool, error) {
	if a.Version == b.Version {
		return true, nil
	}
	ai, err := TemplateInputs(a)
	if err != nil {
		return false, err
	}
	bi, err := TemplateInputs(b)
	if err != nil {
		return false, err
	}
	return slices.Equal(ai, bi), nil
}

// stableByID are the stable versions among templates, by identifier.
func stableByID(templates []StageTemplate) map[string]StageTemplate {
	out := map[string]StageTemplate{}
	for _, t := range templates {
		if !t.Candidate {
			out[t.Identifier] = t
		}
	}
	return out
}

// UsesMatter reports whether the versions a platform stack declares
// (TemplateVersions) depend on what its service stacks' pipelines use,
// given its planned templates and those it declared last: a new version
// (whose inputs may differ, or whose predecessor a pipeline may still
// pin), a candidate, or a template the plan drops. Otherwise the service
// stacks' contracts need not be read.
func UsesMatter(planned, deployed []StageTemplate) (bool, error) {
	stable := stableByID(deployed)
	ids := map[string]bool{}
	for _, t := range planned {
		ids[t.Identifier] = true
		if s, ok := stable[t.Identifier]; ok && s.Version != t.Version {
			return true, nil
		}
	}
	for _, t := range deployed {
		if t.Candidate || !ids[t.Identifier] {
			return true, nil
		}
	}
	return false, nil
}

// TemplateVersions are the template versions a platform stack declares,
// sorted by identifier and version, given its plan's templates, those it
// declared last (deployed, candidates marked) and its service stacks'
// uses; notes say what is in flight, for the update's log.
//
//   - A planned version is stable when the template has no stable
//     version yet, when its runtime inputs are the stable version's
//     (pipelines follow it unwritten), or when every use of the template
//     pins it (every pipeline has moved).
//   - Otherwise it is a candidate and the stable version is kept.
//   - Every other deployed version a service stack still pins is kept as
//     it was, and a template the plan no longer has is kept, as deployed,
//     while any pipeline uses it: Harness refuses to delete a version a
//     pipeline references, and the service stacks deploy after their
//     platform stack.
func TemplateVersions(planned, deployed []StageTemplate, uses []TemplateUse) ([]StageTemplate, []string, error) {
	stable := stableByID(deployed)
	byVersion := map[[2]string]StageTemplate{}
	for _, t := range deployed {
		byVersion[[2]string{t.Identifier, t.Version}] = t
	}
	// users are the stacks using each template, by version ("": stable).
	users := map[string]map[string][]string{}
	for _, u := range uses {
		if users[u.Template] == nil {
			users[u.Template] = map[string][]string{}
		}
		users[u.Template][u.Version] = append(users[u.Template][u.Version], u.Stack)
	}
	var out []StageTemplate
	var notes []string
	declared := map[[2]string]bool{}
	add := func(t StageTemplate) {
		if k := [2]string{t.Identifier, t.Version}; !declared[k] {
			declared[k] = true
			out = append(out, t)
		}
	}
	planIDs := map[string]bool{}
	for _, t := range planned {
		planIDs[t.Identifier] = true
		t.Candidate = false
		s, ok := stable[t.Identifier]
		if !ok || s.Version == t.Version {
			add(t)
			continue
		}
		same, err := SameInputs(s, t)
		if err != nil {
			return nil, nil, err
		}
		var others []string // stacks whose pipelines use another version
		for version, stacks := range users[t.Identifier] {
			if version != t.Version {
				others = append(others, stacks...)
			}
		}
		slices.Sort(others)
		others = slices.Compact(others)
		switch {
		case same:
			add(t)
		case len(others) == 0:
			add(t)
			notes = append(notes, fmt.Sprintf("template %s: version %s is stable now (its runtime inputs differ from %s's, and no pipeline uses another version); %s is deleted",
				t.Identifier, t.Version, s.Version, s.Version))
		default:
			add(s)
			t.Candidate = true
			add(t)
			notes = append(notes, fmt.Sprintf("template %s: version %s is saved non-stable: its runtime inputs differ from the stable %s's, which the pipelines of %s still run; "+
				"each service stack's up pins its pipelines to %s with their new inputs, and the first up of the platform stack after all of theirs makes it stable",
				t.Identifier, t.Version, s.Version, strings.Join(others, ", "), t.Version))
		}
	}
	// Versions still in use: pinned ones, and a dropped template's.
	for id, byVer := range users {
		for version, stacks := range byVer {
			t, ok := byVersion[[2]string{id, version}]
			if version == "" {
				if planIDs[id] {
					continue // the planned version is, or keeps, the stable one
				}
				t, ok = stable[id]
			}
			if !ok || declared[[2]string{id, t.Version}] {
				continue
			}
			slices.Sort(stacks)
			notes = append(notes, fmt.Sprintf("template %s: version %s is kept: the pipelines of %s still use it; the first up of the platform stack after their next one deletes it",
				id, t.Version, strings.Join(stacks, ", ")))
			if planIDs[id] && !t.Candidate {
				t.Candidate = true // the planned version is stable now
			}
			add(t)
		}
	}
	SortTemplateVersions(out)
	slices.Sort(notes)
	return out, notes, nil
}

// SortTemplateVersions orders template versions by identifier, then
// version: how a platform stack declares and exports them.
func SortTemplateVersions(ts []StageTemplate) {
	slices.SortFunc(ts, func(a, b StageTemplate) int {
		return cmp.Or(strings.Compare(a.Identifier, b.Identifier), strings.Compare(a.Version, b.Version))
	})
}

// PinTemplates pins, in a service stack's plan, the pipelines whose
// template version is in flight: its runtime inputs differ from the
// stable version the platform stack declares (platform: its declared
// templates, candidates marked). Each such pipeline names the plan's
// version (versionLabel), which the platform stack saves as a candidate,
// and carries the inputs written for it. Pipelines of any other
// template reference the stable version, unpinned.
func PinTemplates(p *Plan, platform []StageTemplate) error {
	stable := stableByID(platform)
	pins := map[string]string{}
	for _, t := range p.Templates {
		s, ok := stable[t.Identifier]
		if !ok {
			continue
		}
		same, err := SameInputs(s, t)
		if err != nil {
			return err
		}
		if !same {
			pins[t.Identifier] = t.Version
		}
	}
	if len(pins) == 0 {
		return nil
	}
	for i := range p.Deployments {
		pl := &p.Deployments[i].Pipeline
		label, ok := pins[pl.Template]
		if !ok || pl.pinned == nil {
			continue
		}
		y, err := pl.pinned(label)
		if err != nil {
			return fmt.Errorf("pipeline %s: %w", pl.Identifier, err)
		}
		pl.YAML, pl.TemplateVersion = y, label
	}
	return nil
}
