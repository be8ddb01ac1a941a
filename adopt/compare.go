package adopt

import (
	"bytes"
	"encoding/json"
	"sort"

	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/sig"
)

// differing lists the declared inputs the next preview would update, as
// the bridged provider's Diff sees them: a declared input is compared
// with what the object holds, and inside it only what the program
// declares; what only the provider or Harness sets (a principal's scope
// level, an SDKv2 block's unset attributes, read back as [] or "") is
// not a difference, and an unset value equals its zero value. Secrets,
// which the preview masks, are not compared, nor values the preview does
// not know yet (what objects still to create will give: a delegate's
// selector, a trigger's webhook URL); the report cannot tell them.
func differing(declared, state map[string]any) []string {
	var out []string
	for k, want := range declared {
		if isMasked(want) || isUnknown(want) {
			continue
		}
		if !sameInput(want, state[k]) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// isUnknown says whether v holds a value the preview does not know.
func isUnknown(v any) bool {
	data, err := json.Marshal(v)
	return err == nil && bytes.Contains(data, []byte(plugin.UnknownStringValue))
}

// sameInput says whether the object's value got holds the declared want
// (both as JSON decodes them): go-cmp, with what a bridged provider's
// Diff ignores left out (inputDiff).
func sameInput(want, got any) bool {
	want, got = normalJSON(want), normalJSON(got)
	if isZero(want) && isZero(got) {
		// (cmp meets an absent value, nil, only inside a map or slice.)
		return true
	}
	return cmp.Equal(want, got, inputDiff)
}

// inputDiff compares a declared input with what the object holds as the
// bridged provider's Diff does: a map key the program does not declare
// is the provider's or Harness's to set (and one the object lacks is
// unset), and an unset value equals its zero value (SDKv2 reads an unset
// optional attribute back as "", false, 0, [] or {}).
var inputDiff = cmp.Options{
	cmp.FilterPath(func(p cmp.Path) bool {
		mi, ok := p.Last().(cmp.MapIndex)
		if !ok {
			return false
		}
		want, got := mi.Values()
		return !want.IsValid() || !got.IsValid() && isZero(want.Interface())
	}, cmp.Ignore()),
	cmp.FilterValues(func(want, got any) bool { return isZero(want) && isZero(got) }, cmp.Comparer(func(_, _ any) bool { return true })),
}

// isZero says whether v is unset or a zero value, as SDKv2 stores an
// unset optional attribute.
func isZero(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case string:
		return v == ""
	case bool:
		return !v
	case float64:
		return v == 0
	case []any:
		return len(v) == 0
	case map[string]any:
		return len(v) == 0
	}
	return false
}

// normalJSON is v as JSON decodes it (numbers as float64, structs as
// maps), so values from the preview and from a lookup compare alike.
func normalJSON(v any) any {
	switch v.(type) {
	case nil, string, bool, float64, []any, map[string]any:
		return v
	}
	data, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	if json.Unmarshal(data, &out) != nil {
		return v
	}
	return out
}

// isMasked says whether v holds a secret, which the preview masks.
func isMasked(v any) bool {
	switch v := v.(type) {
	case string:
		return v == "[secret]"
	case map[string]any:
		if v[sig.Key] == sig.Secret {
			return true
		}
		for _, e := range v {
			if isMasked(e) {
				return true
			}
		}
	case []any:
		for _, e := range v {
			if isMasked(e) {
				return true
			}
		}
	}
	return false
}
