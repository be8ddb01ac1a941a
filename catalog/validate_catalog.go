package catalog

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/company/harness-platform/diag"
	"github.com/company/harness-platform/ident"
)

// checkRegions, checkTeams and checkArchetypes check the catalog's named
// things: each name valid and unique, as Harness identifiers too.
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
		if n := a.Network; n != nil {
			for i, cidr := range n.Egress {
				if p, err := netip.ParsePrefix(cidr); err != nil || p != p.Masked() {
					v.at(n.At.Item("egress", i), "write a network such as 10.0.0.0/8 (its first address, then its prefix length)", "egress %q is not a CIDR", cidr)
				}
			}
		}
		v.archetypes[a.Name] = a
	}
}
