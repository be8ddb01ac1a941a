package catalog

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/company/harness-platform/internal/diag"
	"github.com/company/harness-platform/internal/ident"
	"github.com/company/harness-platform/internal/yamlstrict"
)

type validator struct {
	c     *Catalog
	diags *diag.List
}

func (v *validator) at(pos diag.Pos, fix, format string, args ...any) {
	v.diags.At(pos, fix, format, args...)
}

// unique reports a name declared twice and a name whose Harness identifier
// collides with another's; seen maps identifiers to their first declaration.
func (v *validator) unique(kind, name, id string, pos diag.Pos, seen map[string]string, firstAt map[string]diag.Pos) bool {
	if prev, ok := seen[id]; ok {
		first := firstAt[id]
		if prev == name {
			v.at(pos, fmt.Sprintf("remove or rename one of them (the first is at line %d)", first.Line), "duplicate %s name %q", kind, name)
		} else {
			v.at(pos, fmt.Sprintf("rename one of them (the other is at line %d)", first.Line), "%s %q maps to Harness identifier %q, the same as %s %q", kind, name, id, kind, prev)
		}
		return false
	}
	seen[id], firstAt[id] = name, pos
	return true
}

func (v *validator) checkIdent(pos diag.Pos, what, id string) bool {
	if err := ident.Check(id); err != nil {
		v.at(pos, "choose a name whose identifier is valid: it starts with a letter, uses letters, digits and '-' or '_', and is not a reserved word", "%s: %v", what, err)
		return false
	}
	return true
}

func (v *validator) regions() {
	v.c.regions = map[string]*Region{}
	seen, first := map[string]string{}, map[string]diag.Pos{}
	for _, r := range v.c.Regions {
		pos := r.At.Field("name")
		if err := ident.CheckDNSLabel(r.Name); err != nil {
			v.at(pos, "use a short lower-case name such as euw1", "region name %v", err)
			continue
		}
		if v.unique("region", r.Name, ident.From(r.Name), pos, seen, first) {
			v.c.regions[r.Name] = r
		}
	}
}

func (v *validator) teams(platform string, platformAt diag.Pos) {
	v.c.teams = map[string]*Team{}
	seen, first := map[string]string{}, map[string]diag.Pos{}
	groups, groupFirst := map[string]string{}, map[string]diag.Pos{}
	for _, t := range v.c.Teams {
		pos := t.At.Field("name")
		id := ident.From(t.Name)
		if !v.checkIdent(pos, fmt.Sprintf("team %q", t.Name), id) || !v.unique("team", t.Name, id, pos, seen, first) {
			continue
		}
		if t.UserGroup == "" {
			t.UserGroup = id + "_team"
		}
		gpos := t.At.Field("userGroup")
		if v.checkIdent(gpos, fmt.Sprintf("user group of team %q", t.Name), t.UserGroup) &&
			v.unique("user group", t.UserGroup, t.UserGroup, gpos, groups, groupFirst) {
			v.c.teams[t.Name] = t
		}
		for i, m := range t.Members {
			if !strings.Contains(m, "@") {
				v.at(t.At.Item("members", i), "list members by e-mail address", "member %q is not an e-mail address", m)
			}
		}
	}
	if platform != "" {
		if t, ok := v.c.teams[platform]; ok {
			v.c.PlatformTeam = t
		} else {
			v.at(platformAt, v.suggestion(platform, keys(v.c.teams), TeamsFile), "platform team %q is not a team", platform)
		}
	}
}

var durationPattern = regexp.MustCompile(`^([1-9][0-9]*[smhdw])+$`)

func (v *validator) archetypes() {
	v.c.archetypes = map[string]*Archetype{}
	seen, first := map[string]string{}, map[string]diag.Pos{}
	for _, a := range v.c.Archetypes {
		pos := a.At.Field("name")
		id := ident.From(a.Name)
		if !v.checkIdent(pos, fmt.Sprintf("archetype %q", a.Name), id) || !v.unique("archetype", a.Name, id, pos, seen, first) {
			continue
		}
		if a.StepTimeout == "" {
			a.StepTimeout = "10m"
		} else if !durationPattern.MatchString(a.StepTimeout) {
			v.at(a.At.Field("stepTimeout"), "write a Harness duration such as 10m or 1h30m", "stepTimeout %q is not a duration", a.StepTimeout)
		}
		if a.Replicas < 1 {
			v.at(a.At.Field("replicas"), "set at least 1", "replicas must be positive")
		}
		v.c.archetypes[a.Name] = a
	}
}

var (
	hhmm     = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]$`)
	weekdays = []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}
)

func (v *validator) stacks() {
	c := v.c
	envIDs, envFirst := map[string]string{}, map[string]diag.Pos{}
	var roots []*Stack
	for _, name := range sortedKeys(c.Stacks) {
		st := c.Stacks[name]
		pos := st.At.Pos()
		env := &st.Environment
		if env.Name != "" {
			if err := ident.CheckDNSLabel(env.Name); err != nil {
				v.at(env.At.Field("name"), "use a lower-case name such as int-stable", "environment name %v", err)
			}
			if env.Identifier == "" {
				env.Identifier = ident.From(env.Name)
			}
			idPos := env.At.Field("identifier")
			if v.checkIdent(idPos, "environment", env.Identifier) {
				v.unique("environment", st.Name+" ("+env.Identifier+")", env.Identifier, idPos, envIDs, envFirst)
			}
		}
		if len(st.Regions) == 0 && st.At.Pos().Line > 0 {
			v.at(st.At.Field(Namespace+":regions"), "list at least one region", "stack %q has no regions", st.Name)
		}
		seenRegion := map[string]bool{}
		for i, r := range st.Regions {
			rpos := st.At.Item(Namespace+":regions", i)
			if _, ok := c.regions[r.Name]; !ok && r.Name != "" {
				v.at(r.At.Field("name"), v.suggestion(r.Name, keys(c.regions), RegionsFile), "unknown region %q", r.Name)
			}
			if seenRegion[r.Name] {
				v.at(rpos, "remove the duplicate", "region %q is listed twice", r.Name)
			}
			seenRegion[r.Name] = true
			if env.Name != "" {
				if err := ident.CheckDNSLabel(DelegateName(st, r.Name)); err != nil {
					v.at(rpos, "shorten the environment name", "delegate name %v", err)
				}
			}
		}
		if st.Upstream == "" {
			roots = append(roots, st)
			if st.Foundation == nil {
				v.at(pos, "add "+Namespace+":foundation (org, project, github), or set "+Namespace+":upstream", "stack %q has no upstream, so it owns the foundation, but has no foundation settings", st.Name)
			}
		} else {
			if _, ok := c.Stacks[st.Upstream]; !ok {
				v.at(st.At.Field(Namespace+":upstream"), v.suggestion(st.Upstream, keys(c.Stacks), "Pulumi."+st.Upstream+".yaml"), "upstream stack %q has no stack file", st.Upstream)
			}
			if st.Foundation != nil {
				v.at(st.At.Field(Namespace+":foundation"), "move it to the stack with no upstream", "only the stack with no upstream owns the foundation; %q has upstream %q", st.Name, st.Upstream)
			}
			if st.GithubToken != nil {
				v.at(st.At.Field(Namespace+":githubToken"), "set it on the foundation stack only", "githubToken belongs to the foundation stack")
			}
		}
		if f := st.Foundation; f != nil {
			v.checkIdent(f.At.Field("org"), "organization", f.Org.Identifier)
			v.checkIdent(f.At.Field("project"), "project", f.Project.Identifier)
			if f.Github.ConnectorIdentifier == "" {
				f.Github.ConnectorIdentifier = "github_manifests"
			}
			v.checkIdent(f.Github.At.Field("connectorIdentifier"), "GitHub connector", f.Github.ConnectorIdentifier)
			if f.Github.Branch == "" {
				f.Github.Branch = "main"
			}
			if f.Github.URL != "" && !strings.HasPrefix(f.Github.URL, "https://") {
				v.at(f.Github.At.Field("url"), "use the https URL of the repository", "github url %q is not an https URL", f.Github.URL)
			}
		}
		if st.IsProduction() {
			if st.Approval == nil {
				st.Approval = &Approval{}
			}
			if st.ChangeWindow == nil {
				v.at(pos, "add "+Namespace+":changeWindow (days, start, end)", "Production stack %q has no change window", st.Name)
			}
		}
		if st.Approval != nil {
			if st.Approval.MinimumCount == 0 {
				st.Approval.MinimumCount = 2
			}
			if st.Approval.Timeout == "" {
				st.Approval.Timeout = "1d"
			}
			if st.Approval.MinimumCount < 2 {
				v.at(st.At.Field(Namespace+":approval"), "require at least 2: one from the owning team and one from the platform team", "approval minimumCount %d is too low", st.Approval.MinimumCount)
			}
			if !durationPattern.MatchString(st.Approval.Timeout) {
				v.at(st.At.Field(Namespace+":approval"), "write a Harness duration such as 1d", "approval timeout %q is not a duration", st.Approval.Timeout)
			}
		}
		if w := st.ChangeWindow; w != nil {
			for i, d := range w.Days {
				if !slices.Contains(weekdays, d) {
					v.at(w.At.Item("days", i), "use one of: "+strings.Join(weekdays, ", "), "%q is not a weekday", d)
				}
			}
			for _, k := range []string{"start", "end"} {
				val := w.Start
				if k == "end" {
					val = w.End
				}
				if val != "" && !hhmm.MatchString(val) {
					v.at(w.At.Field(k), "write it as HH:MM in UTC, e.g. 10:00", "change window %s %q is not a time", k, val)
				}
			}
		}
	}
	if len(roots) > 1 {
		for _, st := range roots[1:] {
			v.at(st.At.Pos(), fmt.Sprintf("set %s:upstream in %s; only %s owns the foundation", Namespace, st.File, roots[0].File), "stacks %q and %q both have no upstream and so both claim the foundation", roots[0].Name, st.Name)
		}
	}
	if len(roots) == 0 && len(c.Stacks) > 0 {
		v.at(diag.Pos{File: "Pulumi.<stack>.yaml"}, "remove "+Namespace+":upstream from the first stack of the chain", "every stack has an upstream: no stack owns the foundation")
	}
	v.chain(roots)
}

// chain orders the stacks from the root and reports cycles.
func (v *validator) chain(roots []*Stack) {
	c := v.c
	if len(roots) != 1 {
		return
	}
	children := map[string][]string{}
	for _, name := range sortedKeys(c.Stacks) {
		if up := c.Stacks[name].Upstream; up != "" {
			children[up] = append(children[up], name)
		}
	}
	queue := []string{roots[0].Name}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		c.Chain = append(c.Chain, name)
		queue = append(queue, children[name]...)
	}
	for _, name := range sortedKeys(c.Stacks) {
		if !slices.Contains(c.Chain, name) {
			st := c.Stacks[name]
			if _, ok := c.Stacks[st.Upstream]; ok {
				v.at(st.At.Field(Namespace+":upstream"), "break the cycle: the chain must start at the foundation stack", "stack %q is not reachable from the foundation stack %q (its upstream chain is a cycle)", name, roots[0].Name)
			}
		}
	}
}

var repoPattern = regexp.MustCompile(`^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$`)

func (v *validator) services() {
	c := v.c
	c.services = map[string]*Service{}
	seen, first := map[string]string{}, map[string]diag.Pos{}
	for _, s := range c.Services {
		pos := s.At.Field("name")
		if s.Name == "" {
			continue
		}
		if err := ident.CheckDNSLabel(s.Name); err != nil {
			v.at(pos, "rename it: the name is also its Kubernetes namespace and release name", "service name %v", err)
			continue
		}
		id := ident.From(s.Name)
		if !v.checkIdent(pos, fmt.Sprintf("service %q", s.Name), id) || !v.unique("service", s.Name, id, pos, seen, first) {
			continue
		}
		c.services[s.Name] = s
		if _, ok := c.teams[s.Team]; !ok && s.Team != "" {
			v.at(s.At.Field("team"), v.suggestion(s.Team, keys(c.teams), TeamsFile), "unknown team %q", s.Team)
		}
		if _, ok := c.archetypes[s.Archetype]; !ok && s.Archetype != "" {
			v.at(s.At.Field("archetype"), v.suggestion(s.Archetype, keys(c.archetypes), ArchetypesFile), "unknown archetype %q", s.Archetype)
		}
		if s.Repo != "" && !repoPattern.MatchString(s.Repo) {
			v.at(s.At.Field("repo"), "write it as owner/name", "repo %q is not owner/name", s.Repo)
		}
		if i := strings.LastIndex(s.Image, ":"); i > strings.LastIndex(s.Image, "/") {
			v.at(s.At.Field("image"), "remove the tag: the image tag is a runtime input of the pipeline", "image %q has a tag", s.Image)
		}
		if o := s.Overrides; o != nil && o.Replicas != nil && *o.Replicas < 1 {
			v.at(o.At.Field("replicas"), "set at least 1", "replicas must be positive")
		}
		v.serviceEnvironments(s)
	}
	// Promotion: an environment's upstream must have the service too.
	for _, s := range c.Services {
		if c.services[s.Name] != s {
			continue
		}
		for i, env := range s.Environments {
			st, ok := c.Stacks[env]
			if !ok || st.Upstream == "" || s.enabled[st.Upstream] {
				continue
			}
			if _, ok := c.Stacks[st.Upstream]; !ok {
				continue
			}
			v.at(s.At.Item("environments", i), fmt.Sprintf("add %q to its environments first: services are promoted through the chain", st.Upstream),
				"service %q is enabled in %q but not in its upstream %q", s.Name, env, st.Upstream)
		}
	}
}

func (v *validator) serviceEnvironments(s *Service) {
	c := v.c
	s.enabled = map[string]bool{}
	if s.Environments == nil {
		s.Environments = sortedKeys(c.Stacks)
		slices.SortFunc(s.Environments, func(a, b string) int { return slices.Index(c.Chain, a) - slices.Index(c.Chain, b) })
		for _, e := range s.Environments {
			s.enabled[e] = true
		}
	} else {
		for i, env := range s.Environments {
			if _, ok := c.Stacks[env]; !ok {
				v.at(s.At.Item("environments", i), v.suggestion(env, keys(c.Stacks), "Pulumi."+env+".yaml"), "unknown environment %q", env)
				continue
			}
			if s.enabled[env] {
				v.at(s.At.Item("environments", i), "remove the duplicate", "environment %q is listed twice", env)
			}
			s.enabled[env] = true
		}
	}
	for i, r := range s.Regions {
		if _, ok := c.regions[r]; !ok {
			v.at(s.At.Item("regions", i), v.suggestion(r, keys(c.regions), RegionsFile), "unknown region %q", r)
			continue
		}
		for _, env := range s.Environments {
			if st, ok := c.Stacks[env]; ok && s.enabled[env] && !slices.Contains(st.RegionNames(), r) {
				v.at(s.At.Item("regions", i), fmt.Sprintf("add %q to %s, or leave the service's environments without %q", r, st.File, env), "region %q is not a region of environment %q", r, env)
			}
		}
	}
	for _, env := range c.Chain {
		st := c.Stacks[env]
		if !s.enabled[env] || st.Environment.Name == "" {
			continue
		}
		for _, r := range c.regionsOf(s, st) {
			if err := ident.CheckDNSLabel(KubernetesNamespace(st, s, r)); err != nil {
				v.at(s.At.Field("name"), "shorten the service name", "namespace in %q: %v", env, err)
				break
			}
		}
		v.checkIdent(s.At.Field("name"), fmt.Sprintf("pipeline of service %q in %q", s.Name, env), PipelineIdentifier(s, st))
	}
}

// suggestion is the fix for a reference to an unknown name.
func (v *validator) suggestion(name string, known []string, where string) string {
	if s := yamlstrict.Suggest(name, known); s != "" {
		return fmt.Sprintf("did you mean %q?", s)
	}
	if len(known) == 0 {
		return "declare it in " + where
	}
	return fmt.Sprintf("use one of: %s, or declare it in %s", strings.Join(known, ", "), where)
}

func keys[V any](m map[string]V) []string { return sortedKeys(m) }

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
