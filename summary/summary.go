// Package summary turns the event log of a `pulumi preview` (--event-log,
// one engine event per line) into the Markdown a pull request comment
// starts with: the counts first, then errors, policy violations (mandatory
// first), the services touched and the changes by type. Every list is cut
// with "… and N more", so the comment stays far below GitHub's limits and
// its head never depends on its tail.
package summary

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"

	"github.com/company/harness-platform/apibudget"
)

// Violation is one policy violation.
type Violation struct {
	Policy, Level, Resource, Message string
}

// Preview is what a preview would do.
type Preview struct {
	Stack string
	// Changes counts the steps by operation (create, update, replace,
	// delete, same...): the engine's own totals when it reported them.
	Changes    map[string]int
	Violations []Violation
	Errors     []string
	// Services are the catalog services whose objects change.
	Services []string
	// Types counts the changed resources by type.
	Types map[string]int
	// Done is set when the engine reported its summary.
	Done bool
	// Templates are the deploy-stage templates that change, by
	// identifier: each version's step ("create v1a2b3c4d", "delete ...").
	Templates map[string][]string
	// Reach counts, by template identifier, the pipelines built from it:
	// what a change of it reaches at their next run (Markdown says so).
	Reach map[string]int
	// Calls are the Harness and GitHub calls the previewed steps cost
	// when applied (apibudget.Of), in all and by service ("" for the
	// platform's own objects).
	Calls        apibudget.Calls
	ServiceCalls map[string]apibudget.Calls
	// Lookups are the reads the program makes in every preview and up
	// (plan.GitHub.Lookups): not engine steps, so not in the event log,
	// and the up makes them again.
	Lookups apibudget.Calls
}

// templateType is the Harness provider's template resource: one version
// per resource.
const templateType = "harness:platform/template:Template"

// ServiceOf names the catalog service a resource belongs to, or "".
type ServiceOf func(urn resource.URN) string

// Read reads an event log.
func Read(stack string, r io.Reader, serviceOf ServiceOf) (*Preview, error) {
	p := &Preview{Stack: stack, Changes: map[string]int{}, Types: map[string]int{}, Templates: map[string][]string{},
		ServiceCalls: map[string]apibudget.Calls{}}
	counted := map[string]int{}
	services := map[string]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		if len(strings.TrimSpace(sc.Text())) == 0 {
			continue
		}
		var e apitype.EngineEvent
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return nil, fmt.Errorf("event log: %w", err)
		}
		switch {
		case e.ResourcePreEvent != nil:
			m := e.ResourcePreEvent.Metadata
			if op, ok := apibudget.OpOf(string(m.Op)); ok {
				c := apibudget.Of(m.Type, op)
				p.Calls.Add(c)
				if !c.IsZero() {
					service := serviceOf(resource.URN(m.URN))
					sum := p.ServiceCalls[service]
					sum.Add(c)
					p.ServiceCalls[service] = sum
				}
			}
			op := string(m.Op)
			if op == string(apitype.OpSame) || op == string(apitype.OpRead) || m.Type == "pulumi:pulumi:Stack" {
				continue
			}
			// A replacement is a create-replacement, a replace and a
			// delete-replaced: counted once, as replace.
			switch m.Op {
			case apitype.OpCreateReplacement, apitype.OpDeleteReplaced:
				continue
			}
			counted[op]++
			p.Types[m.Type]++
			if m.Type == templateType {
				state := m.New
				if state == nil {
					state = m.Old
				}
				if state != nil {
					id, _ := state.Inputs["identifier"].(string)
					version, _ := state.Inputs["version"].(string)
					p.Templates[id] = append(p.Templates[id], op+" "+version)
				}
			}
			if s := serviceOf(resource.URN(m.URN)); s != "" {
				services[s] = true
			}
		case e.PolicyEvent != nil:
			v := e.PolicyEvent
			p.Violations = append(p.Violations, Violation{Policy: v.PolicyName, Level: v.EnforcementLevel, Resource: resource.URN(v.ResourceURN).Name(), Message: v.Message})
		case e.DiagnosticEvent != nil && e.DiagnosticEvent.Severity == "error":
			p.Errors = append(p.Errors, strings.TrimSpace(e.DiagnosticEvent.Message))
		case e.SummaryEvent != nil:
			p.Done = true
			for op, n := range e.SummaryEvent.ResourceChanges {
				p.Changes[string(op)] = n
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if !p.Done {
		p.Changes = counted
	}
	p.Services = slices.Sorted(maps.Keys(services))
	slices.SortStableFunc(p.Violations, func(a, b Violation) int {
		return cmp.Compare(rank(a.Level), rank(b.Level))
	})
	return p, nil
}

func rank(level string) int {
	if level == "mandatory" {
		return 0
	}
	return 1
}

// Markdown writes the summary, at most max bytes (the lists are cut to
// fit), with a link to the full diff.
func (p *Preview) Markdown(details string, max int) string {
	mandatory := 0
	for _, v := range p.Violations {
		if v.Level == "mandatory" {
			mandatory++
		}
	}
	icon := "✅"
	if mandatory > 0 || len(p.Errors) > 0 || !p.Done {
		icon = "❌"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "### %s `%s`: %d to create, %d to update, %d to replace, %d to delete; %d policy violations (%d mandatory)\n",
		icon, p.Stack, p.Changes["create"], p.Changes["update"], p.Changes["replace"], p.Changes["delete"], len(p.Violations), mandatory)
	if !p.Done {
		b.WriteString("\nThe preview did not finish; the counts are what it reached.\n")
	}
	if details != "" {
		fmt.Fprintf(&b, "\nFull diff: %s\n", details)
	}
	// What is left is shared by the lists, in order of importance.
	section := func(title string, lines []string) {
		if len(lines) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n**%s** (%d)\n", title, len(lines))
		budget := max - b.Len() - 200
		for i, l := range lines {
			line := "- " + l + "\n"
			if len(line) > budget {
				fmt.Fprintf(&b, "- … and %d more\n", len(lines)-i)
				return
			}
			b.WriteString(line)
			budget -= len(line)
		}
	}
	var errs, violations, types []string
	for _, e := range p.Errors {
		errs = append(errs, firstLine(e))
	}
	for _, v := range p.Violations {
		violations = append(violations, fmt.Sprintf("[%s] `%s` on `%s`: %s", v.Level, v.Policy, v.Resource, firstLine(v.Message)))
	}
	for _, t := range slices.Sorted(maps.Keys(p.Types)) {
		types = append(types, fmt.Sprintf("`%s`: %d", t, p.Types[t]))
	}
	section("Errors", errs)
	section("Policy violations", violations)
	services := make([]string, len(p.Services))
	for i, s := range p.Services {
		services[i] = "`" + s + "`"
	}
	var templates []string
	for _, id := range slices.Sorted(maps.Keys(p.Templates)) {
		steps := slices.Sorted(slices.Values(p.Templates[id]))
		line := fmt.Sprintf("`%s`: %s", id, strings.Join(steps, ", "))
		if n, ok := p.Reach[id]; ok {
			line += fmt.Sprintf("; reaches %d pipeline(s)", n)
		}
		templates = append(templates, line)
	}
	section("Deploy templates changed", templates)
	section("API calls the up needs", p.callLines())
	section("Services touched", services)
	section("Changes by type", types)
	return b.String()
}

// callLines are the calls the change needs, what each budget allows,
// the least real time, and the services that need the most.
func (p *Preview) callLines() []string {
	all := p.Calls
	all.Add(p.Lookups)
	if all.IsZero() {
		return nil
	}
	needs := all.Needs(apibudget.Budgets)
	lines := append([]string{all.String() + "; at least " + apibudget.Duration(apibudget.Least(needs))}, apibudget.Lines(needs)...)
	if !p.Lookups.IsZero() {
		lines = append(lines, "the program's lookups (every preview and up): "+p.Lookups.String())
	}
	for _, s := range apibudget.Costliest(p.ServiceCalls) {
		name := "`" + s + "`"
		if s == "" {
			name = "platform objects"
		}
		lines = append(lines, name+": "+p.ServiceCalls[s].String())
	}
	return lines
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	if len(s) > 300 {
		s = s[:300] + " …"
	}
	return s
}
