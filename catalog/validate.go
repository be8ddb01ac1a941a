package catalog

import (
	"fmt"
	"net/netip"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/company/harness-platform/catalog/internal/yamlstrict"
	"github.com/company/harness-platform/diag"
	"github.com/company/harness-platform/ident"
)

// validator checks the decoded documents and reports every problem; it
// never changes them. The lookups it builds are what resolve uses.
type validator struct {
	files *decoded
	diags *diag.List

	regions      map[string]*regionDoc
	teams        map[string]*teamDoc
	archetypes   map[string]*archetypeDoc
	stacks       map[string]*stackDoc
	services     map[string]*serviceDoc
	enabled      map[*serviceDoc]map[string]bool
	shards       map[*serviceDoc]string // each service's service stack
	chain        []string               // stack names from the root
	platformTeam string
}

func newValidator(files *decoded, diags *diag.List) *validator {
	return &validator{
		files: files, diags: diags,
		regions: map[string]*regionDoc{}, teams: map[string]*teamDoc{}, archetypes: map[string]*archetypeDoc{},
		stacks: files.stacks, services: map[string]*serviceDoc{}, enabled: map[*serviceDoc]map[string]bool{},
		shards: map[*serviceDoc]string{},
	}
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

func (v *validator) checkRegions() {
	seen, first := map[string]string{}, map[string]diag.Pos{}
	for _, r := range v.files.regions {
		pos := r.At.Field("name")
		if err := ident.CheckDNSLabel(r.Name); err != nil {
			v.at(pos, "use a short lower-case name such as euw1", "region name %v", err)
			continue
		}
		if v.unique("region", r.Name, ident.From(r.Name), pos, seen, first) {
			v.regions[r.Name] = r
		}
	}
}

func (v *validator) checkTeams(platform string, platformAt diag.Pos) {
	seen, first := map[string]string{}, map[string]diag.Pos{}
	groups, groupFirst := map[string]string{}, map[string]diag.Pos{}
	for _, t := range v.files.teams {
		pos := t.At.Field("name")
		id := ident.From(t.Name)
		if !v.checkIdent(pos, fmt.Sprintf("team %q", t.Name), id) || !v.unique("team", t.Name, id, pos, seen, first) {
			continue
		}
		gpos := t.At.Field("userGroup")
		if group := t.userGroup(); v.checkIdent(gpos, fmt.Sprintf("user group of team %q", t.Name), group) &&
			v.unique("user group", group, group, gpos, groups, groupFirst) {
			v.teams[t.Name] = t
		}
		for i, m := range t.Members {
			if !strings.Contains(m, "@") {
				v.at(t.At.Item("members", i), "list members by e-mail address", "member %q is not an e-mail address", m)
			}
		}
	}
	if platform != "" {
		if _, ok := v.teams[platform]; ok {
			v.platformTeam = platform
		} else {
			v.at(platformAt, v.suggestion(platform, keys(v.teams), TeamsFile), "platform team %q is not a team", platform)
		}
	}
}

var durationPattern = regexp.MustCompile(`^([1-9][0-9]*[smhdw])+$`)

func (v *validator) checkArchetypes() {
	seen, first := map[string]string{}, map[string]diag.Pos{}
	for _, a := range v.files.archetypes {
		pos := a.At.Field("name")
		id := ident.From(a.Name)
		if !v.checkIdent(pos, fmt.Sprintf("archetype %q", a.Name), id) || !v.unique("archetype", a.Name, id, pos, seen, first) {
			continue
		}
		if a.StepTimeout != "" && !durationPattern.MatchString(a.StepTimeout) {
			v.at(a.At.Field("stepTimeout"), "write a Harness duration such as 10m or 1h30m", "stepTimeout %q is not a duration", a.StepTimeout)
		}
		if a.Replicas < 1 {
			v.at(a.At.Field("replicas"), "set at least 1", "replicas must be positive")
		}
		v.archetypes[a.Name] = a
	}
}

var (
	hhmm     = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]$`)
	weekdays = []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}
)

func (v *validator) checkStacks() {
	envIDs, envFirst := map[string]string{}, map[string]diag.Pos{}
	type network struct {
		prefix      netip.Prefix
		stack, name string
	}
	var networks []network // every environment's networks: none may overlap
	var roots []*stackDoc
	for _, name := range sortedKeys(v.stacks) {
		st := v.stacks[name]
		pos := st.At.Pos()
		env := &st.Environment
		v.checkInfrastructure(st)
		if env.Name != "" {
			if err := ident.CheckDNSLabel(env.Name); err != nil {
				v.at(env.At.Field("name"), "use a lower-case name such as int-stable", "environment name %v", err)
			}
			idPos := env.At.Field("identifier")
			if id := env.identifier(); v.checkIdent(idPos, "environment", id) {
				v.unique("environment", st.name+" ("+id+")", id, idPos, envIDs, envFirst)
			}
		}
		if len(st.Regions) == 0 && st.At.Pos().Line > 0 {
			v.at(st.At.Field(Namespace+":regions"), "list at least one region", "stack %q has no regions", st.name)
		}
		seenRegion := map[string]bool{}
		for i, r := range st.Regions {
			rpos := st.At.Item(Namespace+":regions", i)
			if _, ok := v.regions[r.Name]; !ok && r.Name != "" {
				v.at(r.At.Field("name"), v.suggestion(r.Name, keys(v.regions), RegionsFile), "unknown region %q", r.Name)
			}
			if seenRegion[r.Name] {
				v.at(rpos, "remove the duplicate", "region %q is listed twice", r.Name)
			}
			seenRegion[r.Name] = true
			if r.NetworkCIDR != "" {
				prefix, err := netip.ParsePrefix(r.NetworkCIDR)
				switch {
				case err != nil || !prefix.Addr().Is4():
					v.at(r.At.Field("networkCidr"), "write an IPv4 network such as 10.3.0.0/17", "networkCidr %q is not an IPv4 CIDR", r.NetworkCIDR)
				case prefix.Masked() != prefix:
					v.at(r.At.Field("networkCidr"), fmt.Sprintf("write %s", prefix.Masked()), "networkCidr %q has host bits set", r.NetworkCIDR)
				default:
					for _, n := range networks {
						if n.prefix.Overlaps(prefix) {
							v.at(r.At.Field("networkCidr"), "give each environment and region a network of its own",
								"networkCidr %s overlaps %s (stack %s, region %s)", prefix, n.prefix, n.stack, n.name)
						}
					}
					networks = append(networks, network{prefix, st.name, r.Name})
				}
			}
			if env.Name != "" {
				if err := ident.CheckDNSLabel(ident.DelegateName(env.Name, r.Name)); err != nil {
					v.at(rpos, "shorten the environment name", "delegate name %v", err)
				}
			}
		}
		if st.Upstream == "" {
			roots = append(roots, st)
			if st.Foundation == nil {
				v.at(pos, "add "+Namespace+":foundation (org, project, github), or set "+Namespace+":upstream", "stack %q has no upstream, so it owns the foundation, but has no foundation settings", st.name)
			}
		} else {
			if _, ok := v.stacks[st.Upstream]; !ok {
				v.at(st.At.Field(Namespace+":upstream"), v.suggestion(st.Upstream, keys(v.stacks), "Pulumi."+st.Upstream+".yaml"), "upstream stack %q has no stack file", st.Upstream)
			}
			if st.Foundation != nil {
				v.at(st.At.Field(Namespace+":foundation"), "move it to the stack with no upstream", "only the stack with no upstream owns the foundation; %q has upstream %q", st.name, st.Upstream)
			}
			if st.GithubToken != nil {
				v.at(st.At.Field(Namespace+":githubToken"), "set it on the foundation stack only", "githubToken belongs to the foundation stack")
			}
			if st.RegistryPassword != nil {
				v.at(st.At.Field(Namespace+":registryPassword"), "set it on the foundation stack only", "registryPassword belongs to the foundation stack")
			}
		}
		if f := st.Foundation; f != nil {
			v.checkIdent(f.At.Field("org"), "organization", f.Org.Identifier)
			v.checkIdent(f.At.Field("project"), "project", f.Project.Identifier)
			v.checkIdent(f.Github.At.Field("connectorIdentifier"), "GitHub connector", f.Github.connectorIdentifier())
			if f.Github.URL != "" && !strings.HasPrefix(f.Github.URL, "https://") {
				v.at(f.Github.At.Field("url"), "use the https URL of the repository", "github url %q is not an https URL", f.Github.URL)
			}
			r := &f.Registry
			v.checkIdent(r.At.Field("connectorIdentifier"), "Docker registry connector", r.connectorIdentifier())
			if r.URL != "" && (!strings.HasPrefix(r.URL, "https://") || r.host() == "") {
				v.at(r.At.Field("url"), "use the https URL of the registry, such as https://registry.company.io", "registry url %q is not an https URL", r.URL)
			}
			if f.Repository != "" && !repoPattern.MatchString(f.Repository) {
				v.at(f.At.Field("repository"), "write the repository as owner/name, e.g. company/harness-platform", "foundation repository %q is not owner/name", f.Repository)
			}
			if r.Username == "" && st.RegistryPassword != nil {
				v.at(st.At.Field(Namespace+":registryPassword"), "set registry.username, or remove the password", "registryPassword is set but registry.username is not")
			}
		}
		if st.isProduction() && st.ChangeWindow == nil {
			v.at(pos, "add "+Namespace+":changeWindow (days, start, end)", "Production stack %q has no change window", st.name)
		}
		if a := st.approval(); a != nil {
			for _, g := range []struct {
				key string
				n   int
			}{{"teamApprovals", a.TeamApprovals}, {"platformApprovals", a.PlatformApprovals}} {
				if g.n < 1 {
					v.at(st.Approval.At.Field(g.key), "require at least 1", "approval %s %d is too low: the gate would pass without that group", g.key, g.n)
				}
			}
			if !durationPattern.MatchString(a.Timeout) {
				v.at(st.At.Field(Namespace+":approval"), "write a Harness duration such as 1d", "approval timeout %q is not a duration", a.Timeout)
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
			if hhmm.MatchString(w.Start) && hhmm.MatchString(w.End) && w.Start >= w.End {
				v.at(w.At.Field("end"), "end after start, on the same day (UTC)", "change window ends at %s, not after its start %s", w.End, w.Start)
			}
			for i, d := range w.Freeze {
				if _, err := time.Parse(time.DateOnly, d); err != nil {
					v.at(w.At.Item("freeze", i), "write a date as YYYY-MM-DD", "freeze date %q is not a date", d)
				}
			}
		}
	}
	if len(roots) > 1 {
		for _, st := range roots[1:] {
			v.at(st.At.Pos(), fmt.Sprintf("set %s:upstream in %s; only %s owns the foundation", Namespace, st.file, roots[0].file), "stacks %q and %q both have no upstream and so both claim the foundation", roots[0].name, st.name)
		}
	}
	if len(roots) == 0 && len(v.stacks) > 0 {
		v.at(diag.Pos{File: "Pulumi.<stack>.yaml"}, "remove "+Namespace+":upstream from the first stack of the chain", "every stack has an upstream: no stack owns the foundation")
	}
	v.orderChain(roots)
}

// chain orders the stacks from the root and reports cycles.
func (v *validator) orderChain(roots []*stackDoc) {
	if len(roots) != 1 {
		return
	}
	children := map[string][]string{}
	for _, name := range sortedKeys(v.stacks) {
		if up := v.stacks[name].Upstream; up != "" {
			children[up] = append(children[up], name)
		}
	}
	queue := []string{roots[0].name}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		v.chain = append(v.chain, name)
		queue = append(queue, children[name]...)
	}
	for _, name := range sortedKeys(v.stacks) {
		if !slices.Contains(v.chain, name) {
			st := v.stacks[name]
			if _, ok := v.stacks[st.Upstream]; ok {
				v.at(st.At.Field(Namespace+":upstream"), "break the cycle: the chain must start at the foundation stack", "stack %q is not reachable from the foundation stack %q (its upstream chain is a cycle)", name, roots[0].name)
			}
		}
	}
}

var repoPattern = regexp.MustCompile(`^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$`)

func (v *validator) checkServices() {
	seen, first := map[string]string{}, map[string]diag.Pos{}
	host := v.registryHost()
	for _, s := range v.files.services {
		pos := s.At.Field("name")
		if s.Name == "" {
			continue
		}
		if err := ident.CheckDNSLabel(s.Name); err != nil {
			v.at(pos, "rename it: the name is also its Kubernetes namespace and release name", "service name %v", err)
			continue
		}
		id := ident.Service(s.Name)
		if !v.checkIdent(pos, fmt.Sprintf("service %q", s.Name), id) || !v.unique("service", s.Name, id, pos, seen, first) {
			continue
		}
		v.services[s.Name] = s
		if _, ok := v.teams[s.Team]; !ok && s.Team != "" {
			v.at(s.At.Field("team"), v.suggestion(s.Team, keys(v.teams), TeamsFile), "unknown team %q", s.Team)
		}
		if _, ok := v.archetypes[s.Archetype]; !ok && s.Archetype != "" {
			v.at(s.At.Field("archetype"), v.suggestion(s.Archetype, keys(v.archetypes), ArchetypesFile), "unknown archetype %q", s.Archetype)
		}
		if s.Repo != "" && !repoPattern.MatchString(s.Repo) {
			v.at(s.At.Field("repo"), "write it as owner/name", "repo %q is not owner/name", s.Repo)
		}
		if i := strings.LastIndex(s.Image, ":"); i > strings.LastIndex(s.Image, "/") {
			v.at(s.At.Field("image"), "remove the tag: the image tag is a runtime input of the pipeline", "image %q has a tag", s.Image)
		}
		if host != "" && s.Image != "" && !strings.HasPrefix(s.Image, host+"/") {
			v.at(s.At.Field("image"), fmt.Sprintf("use an image of %s, the registry the foundation's connector reads (registry.url)", host),
				"image %q is not in the registry %s", s.Image, host)
		}
		if o := s.Overrides; o != nil && o.Replicas != nil && *o.Replicas < 1 {
			v.at(o.At.Field("replicas"), "set at least 1", "replicas must be positive")
		}
		v.serviceEnvironments(s)
	}
	// Promotion: an environment's upstream must have the service too.
	for _, s := range v.files.services {
		if v.services[s.Name] != s {
			continue
		}
		for i, env := range s.Environments {
			st, ok := v.stacks[env]
			if !ok || st.Upstream == "" || v.enabled[s][st.Upstream] {
				continue
			}
			if _, ok := v.stacks[st.Upstream]; !ok {
				continue
			}
			v.at(s.At.Item("environments", i), fmt.Sprintf("add %q to its environments first: services are promoted through the chain", st.Upstream),
				"service %q is enabled in %q but not in its upstream %q", s.Name, env, st.Upstream)
		}
	}
}

// checkVerification checks each stack's Prometheus settings and that every
// service that verifies where it is deployed has queries for its
// archetype: a Verify step with no monitored service behind it is
// skipped, and would check nothing.
func (v *validator) checkVerification() {
	for _, name := range sortedKeys(v.stacks) {
		st := v.stacks[name]
		needs := map[string][]string{} // archetype -> services that verify here
		for _, s := range v.files.services {
			if v.services[s.Name] == s && v.enabled[s][name] && s.verifies(v.archetypes[s.Archetype]) {
				needs[s.Archetype] = append(needs[s.Archetype], s.Name)
			}
		}
		vd := st.Verification
		if vd == nil {
			if len(needs) > 0 {
				v.at(st.At.Pos(), "add "+Namespace+":verification (prometheusUrl, queries per archetype)",
					"stack %q deploys services that verify (%s) but has no verification settings", name, firstFew(needs))
			}
			continue
		}
		if vd.PrometheusURL != "" && !strings.HasPrefix(vd.PrometheusURL, "https://") {
			v.at(vd.At.Field("prometheusUrl"), "use the https URL of the Prometheus API", "prometheusUrl %q is not an https URL", vd.PrometheusURL)
		}
		seen := map[string]bool{}
		for i, q := range vd.Queries {
			if _, ok := v.archetypes[q.Archetype]; !ok && q.Archetype != "" {
				v.at(q.At.Field("archetype"), v.suggestion(q.Archetype, keys(v.archetypes), ArchetypesFile), "unknown archetype %q", q.Archetype)
			}
			if seen[q.Archetype] {
				v.at(vd.At.Item("queries", i), "remove the duplicate", "archetype %q has queries twice", q.Archetype)
			}
			seen[q.Archetype] = true
			for _, f := range []struct{ key, query string }{{"errorRate", q.ErrorRate}, {"latency", q.Latency}} {
				if f.query != "" {
					v.checkQuery(q.At.Field(f.key), q.Archetype, f.key, f.query)
				}
			}
		}
		for _, a := range sortedKeys(needs) {
			if !seen[a] {
				v.at(vd.At.Field("queries"), fmt.Sprintf("add queries for archetype %q", a),
					"no queries for archetype %q, which %s verify in stack %q", a, strings.Join(needs[a], ", "), name)
			}
		}
	}
}

// firstFew names up to three services of needs.
func firstFew(needs map[string][]string) string {
	var all []string
	for _, a := range sortedKeys(needs) {
		all = append(all, needs[a]...)
	}
	if len(all) > 3 {
		return strings.Join(all[:3], ", ") + fmt.Sprintf(" and %d more", len(all)-3)
	}
	return strings.Join(all, ", ")
}

// registryHost is the host of the foundation's registry, or "" when the
// chain has no single root or its registry URL is not valid.
func (v *validator) registryHost() string {
	if len(v.chain) == 0 {
		return ""
	}
	f := v.stacks[v.chain[0]].Foundation
	if f == nil || !strings.HasPrefix(f.Registry.URL, "https://") {
		return ""
	}
	return f.Registry.host()
}

// serviceEnvironments records where s is enabled (default: every stack)
// and checks its environments, regions and the names derived from them.
func (v *validator) serviceEnvironments(s *serviceDoc) {
	enabled := map[string]bool{}
	v.enabled[s] = enabled
	if s.Environments == nil {
		for name := range v.stacks {
			enabled[name] = true
		}
	} else {
		for i, env := range s.Environments {
			if _, ok := v.stacks[env]; !ok {
				v.at(s.At.Item("environments", i), v.suggestion(env, keys(v.stacks), "Pulumi."+env+".yaml"), "unknown environment %q", env)
				continue
			}
			if enabled[env] {
				v.at(s.At.Item("environments", i), "remove the duplicate", "environment %q is listed twice", env)
			}
			enabled[env] = true
		}
	}
	for i, r := range s.Regions {
		if _, ok := v.regions[r]; !ok {
			v.at(s.At.Item("regions", i), v.suggestion(r, keys(v.regions), RegionsFile), "unknown region %q", r)
			continue
		}
		for _, env := range v.inChainOrder(enabled) {
			if st := v.stacks[env]; !slices.Contains(st.regionNames(), r) {
				v.at(s.At.Item("regions", i), fmt.Sprintf("add %q to %s, or leave the service's environments without %q", r, st.file, env), "region %q is not a region of environment %q", r, env)
			}
		}
	}
	for _, env := range v.chain {
		st := v.stacks[env]
		if !enabled[env] || st.Environment.Name == "" {
			continue
		}
		for _, r := range st.regionNames() {
			if len(s.Regions) > 0 && !slices.Contains(s.Regions, r) {
				continue
			}
			if err := ident.CheckDNSLabel(ident.Namespace(st.Environment.Name, s.Name, r)); err != nil {
				v.at(s.At.Field("name"), "shorten the service name", "namespace in %q: %v", env, err)
				break
			}
		}
		if v.checkIdent(s.At.Field("name"), fmt.Sprintf("pipeline of service %q in %q", s.Name, env), ident.Pipeline(s.Name, st.Environment.identifier())) {
			v.checkIdent(s.At.Field("name"), fmt.Sprintf("trigger of service %q in %q", s.Name, env), ident.Trigger(s.Name, st.Environment.identifier()))
		}
	}
}

// inChainOrder lists the enabled stacks in chain order, then any stack off
// the chain (already reported) by name.
func (v *validator) inChainOrder(enabled map[string]bool) []string {
	var out []string
	for _, name := range v.chain {
		if enabled[name] {
			out = append(out, name)
		}
	}
	for _, name := range sortedKeys(enabled) {
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
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
