package core

import (
	"slices"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
)

// An imported object's inputs elide zero values (ImportedInputs); the
// program may declare them: the diff, as the bridged provider's, holds
// them equal, at the top as in nested objects, and a real change is one.
func TestDiffHoldsUnsetEqualToZero(t *testing.T) {
	keep := func(string) bool { return false }
	imported := resource.NewPropertyMapFromMap(map[string]any{"identifier": "s", "credentials": map[string]any{"http": map[string]any{"username": "bot"}}})
	// Its state holds the defaults the imported inputs elide.
	state := resource.NewPropertyMapFromMap(map[string]any{"identifier": "s", "executeOnDelegate": true})
	declared := resource.NewPropertyMapFromMap(map[string]any{"identifier": "s", "description": "", "delegateSelectors": []any{}, "forceDelete": false, "executeOnDelegate": true,
		"credentials": map[string]any{"http": map[string]any{"username": "bot", "anonymouses": []any{}}}})
	if got := changedKeys(imported, declared, true, keep, state); len(got) != 0 {
		t.Errorf("zero values against unset ones: changes %v", got)
	}
	declared["description"] = resource.NewStringProperty("edited")
	if got := changedKeys(imported, declared, true, keep, state); !slices.Equal(got, []string{"description"}) {
		t.Errorf("a set description: changes %v, want description", got)
	}
}
