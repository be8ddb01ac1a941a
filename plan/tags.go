package plan

import (
	"maps"
	"slices"

	"github.com/company/harness-platform/catalog"
)

// serviceTags are the tags of everything generated for s: its catalog tags
// plus team, service, archetype and managed-by, which win.
func serviceTags(s *catalog.Service) map[string]string {
	tags := make(map[string]string, len(s.Tags)+6)
	maps.Copy(tags, s.Tags)
	tags["team"] = s.Team
	tags["service"] = s.Name
	tags["archetype"] = s.Archetype
	tags["managed-by"] = ManagedBy
	return tags
}

// deploymentTags are the tags of s's pipeline and trigger in st: the
// service's plus its environment, and lifecycle: retired once it is.
func deploymentTags(s *catalog.Service, st *catalog.Stack) map[string]string {
	tags := serviceTags(s)
	tags["environment"] = st.Environment.Name
	if s.Retired {
		tags["lifecycle"] = "retired"
	}
	return tags
}

// managedTags are the tags of a platform object: extra plus managed-by,
// in the provider's form.
func managedTags(extra map[string]string) []string {
	tags := map[string]string{"managed-by": ManagedBy}
	maps.Copy(tags, extra)
	return TagList(tags)
}

// TagList is the provider's form of tags: sorted "key:value" strings.
func TagList(tags map[string]string) []string {
	out := make([]string, 0, len(tags))
	for _, k := range slices.Sorted(maps.Keys(tags)) {
		out = append(out, k+":"+tags[k])
	}
	return out
}
