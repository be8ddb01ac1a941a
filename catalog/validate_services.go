package catalog

import (
	"fmt"
	"slices"
	"strings"

	"github.com/distribution/reference"

	"github.com/company/harness-platform/diag"
	"github.com/company/harness-platform/ident"
)

// checkServices checks every catalog entry: its name, team, archetype,
// repository and image, and in which environments and regions it runs.
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
		// The reference as Docker and every registry parse it
		// (github.com/distribution/reference): a tag or a digest would
		// pin what the pipeline's image tag input chooses.
		if s.Image != "" {
			ref, err := reference.ParseNormalizedNamed(s.Image)
			_, tagged := ref.(reference.Tagged)
			_, digested := ref.(reference.Digested)
			switch {
			case err != nil:
				v.at(s.At.Field("image"), "write a repository as Docker names it, e.g. registry.example.com/team/service (lower case, no tag)", "image %q is not an image reference: %v", s.Image, err)
			case tagged:
				v.at(s.At.Field("image"), "remove the tag: the image tag is a runtime input of the pipeline", "image %q has a tag", s.Image)
			case digested:
				v.at(s.At.Field("image"), "remove the digest: the image tag is a runtime input of the pipeline", "image %q is pinned to a digest", s.Image)
			}
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
