package harness

import (
	"fmt"
	"slices"
	"sort"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"

	"github.com/company/harness-platform/harness/importid"
	"github.com/company/harness-platform/simulated/core"
)

// CloudInvoke answers the provider's data sources from what the
// simulated Harness holds: a lookup (get<Type>, package importid) and a
// listing (get<Type>List, importid.Listings). Other invokes it does not
// answer.
func (h Behavior) CloudInvoke(token string, args resource.PropertyMap, cloud *core.Cloud) (resource.PropertyMap, bool, error) {
	if typ, ok := importid.LookedUp(token); ok {
		out, err := h.lookup(typ, args, cloud)
		return out, true, err
	}
	if l, ok := importid.ListingOf(token); ok {
		return list(l, args, cloud), true, nil
	}
	return nil, false, nil
}

// lookup answers a lookup as the provider's data source: the object's
// state with its id, or a not-found error.
func (h Behavior) lookup(typ string, args resource.PropertyMap, cloud *core.Cloud) (resource.PropertyMap, error) {
	key := h.ID(typ, "", args)
	rec, ok := cloud.Get(key)
	if !ok {
		return nil, fmt.Errorf("%s: RESOURCE_NOT_FOUND: %s not found", typ, h.ResourceID(typ, key, args))
	}
	state := core.FromStored(rec.Properties, nil)
	for k, v := range state {
		if v.IsSecret() {
			delete(state, k) // a lookup does not return what Harness never shows
		}
	}
	state["id"] = resource.NewStringProperty(h.ResourceID(typ, key, state))
	return state, nil
}

// defaultPageSize is the Harness API's page size when a listing does not
// page (platform_environment_list).
const defaultPageSize = 100

// list answers a listing as the provider's data source: one page of the
// identifiers and names of the objects of its type in the scope its
// arguments name, sorted by identifier; an empty list has no id (the data
// source sets it to "").
func list(l importid.Listing, args resource.PropertyMap, cloud *core.Cloud) resource.PropertyMap {
	var items []map[string]string
	for _, rec := range cloud.OfType(l.Type) {
		inScope := true
		for _, k := range []string{"orgId", "projectId"} {
			want := ""
			if slices.Contains(l.Scope, k) {
				want = core.Str(args, k)
			}
			if got, _ := rec.Properties[k].(string); got != want {
				inScope = false
			}
		}
		if inScope {
			id, _ := rec.Properties["identifier"].(string)
			name, _ := rec.Properties["name"].(string)
			items = append(items, map[string]string{"identifier": id, "name": name})
		}
	}
	sort.Slice(items, func(i, j int) bool { return items[i]["identifier"] < items[j]["identifier"] })
	page, size := 0, defaultPageSize
	if l.Page != "" {
		if v, ok := args[resource.PropertyKey(l.Page)]; ok && v.IsNumber() {
			page = int(v.NumberValue())
		}
		if v, ok := args[resource.PropertyKey(l.Size)]; ok && v.IsNumber() {
			size = int(v.NumberValue())
		}
	}
	from, to := min(page*size, len(items)), min((page+1)*size, len(items))
	out := args.Copy()
	var list []resource.PropertyValue
	for _, it := range items[from:to] {
		list = append(list, resource.NewObjectProperty(resource.NewPropertyMapFromMap(map[string]any{
			"identifier": it["identifier"], "name": it["name"]})))
	}
	out["id"] = resource.NewStringProperty("")
	if len(list) > 0 {
		out[resource.PropertyKey(l.Field)] = resource.NewArrayProperty(list)
		out["id"] = resource.NewStringProperty(core.ShortHash(l.Token + fmt.Sprint(args)))
	}
	return out
}
