package trust

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// Diagram is the trust boundaries as a Mermaid flowchart, from the same
// model as Table: each kind of run (on a pull request's code or not, and
// where it runs), the Pulumi Cloud team whose token it gets, what that
// team may read or write of the stacks, and the AWS roles its
// environments let it assume. docs/delivery.md shows it; Mermaid's own
// parser reads it in make test (internal/doccheck).
func (m *Model) Diagram(ctx context.Context, ids []Identity) (string, error) {
	var b strings.Builder
	b.WriteString("```mermaid\nflowchart LR\n")
	node := map[string]string{} // label -> id
	id := func(prefix, label string) string {
		if n, ok := node[prefix+label]; ok {
			return n
		}
		n := fmt.Sprintf("%s%d", prefix, len(node))
		node[prefix+label] = n
		return n
	}
	label := func(s string) string { return strings.ReplaceAll(s, `"`, "'") }
	var runs, teams, stacks, roles, edges []string
	seenEdge := map[string]bool{}
	edge := func(from, arrow, to string) {
		e := "  " + from + " " + arrow + " " + to
		if !seenEdge[e] {
			seenEdge[e] = true
			edges = append(edges, e)
		}
	}
	for _, ident := range ids {
		grants, err := m.Obtain(ctx, ident)
		if err != nil {
			return "", err
		}
		r := id("run", ident.Run)
		what := ident.Run
		if ident.PullRequest {
			what += "<br/>(a pull request's code)"
		}
		runs = append(runs, fmt.Sprintf("    %s[\"%s<br/>on %s\"]", r, label(what), label(ident.RunsOn)))
		t := id("team", ident.Team)
		if !slices.Contains(teams, t) {
			teams = append(teams, t)
		}
		how := "OIDC"
		if ident.Claims == nil {
			how = "stored token"
		}
		edge(r, "-->|"+how+"|", t)
		for _, g := range grants {
			switch g.Kind {
			case KindStack:
				stack, perm, _ := strings.Cut(g.Name, " ")
				s := id("stack", stack)
				if !slices.Contains(stacks, s) {
					stacks = append(stacks, s)
				}
				edge(t, "-->|"+perm+"|", s)
			case KindAWSRole:
				ro := id("role", g.Name)
				if !slices.Contains(roles, ro) {
					roles = append(roles, ro)
				}
				edge(r, "-.->|assumes|", ro)
			}
		}
	}
	names := map[string]string{}
	for l, n := range node {
		names[n] = l
	}
	group := func(title string, ids []string, prefix string) {
		fmt.Fprintf(&b, "  subgraph %s[\"%s\"]\n", strings.ReplaceAll(strings.ToLower(title), " ", "_"), title)
		for _, n := range ids {
			fmt.Fprintf(&b, "    %s[\"%s\"]\n", n, label(strings.TrimPrefix(names[n], prefix)))
		}
		b.WriteString("  end\n")
	}
	b.WriteString("  subgraph runs[\"Runs\"]\n")
	for _, r := range runs {
		b.WriteString(r + "\n")
	}
	b.WriteString("  end\n")
	group("Pulumi Cloud teams", teams, "team")
	group("Stacks", stacks, "stack")
	group("AWS roles", roles, "role")
	for _, e := range edges {
		b.WriteString(e + "\n")
	}
	b.WriteString("```\n")
	return b.String(), nil
}
