package core

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/company/harness-platform/apibudget"
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

type plainBehavior struct{}

func (plainBehavior) Check(_, _ string, news resource.PropertyMap) (resource.PropertyMap, []*pulumirpc.CheckFailure) {
	return news, nil
}
func (plainBehavior) ID(_, name string, _ resource.PropertyMap) string { return name }
func (plainBehavior) Computed(string, string, resource.PropertyMap) resource.PropertyMap {
	return nil
}
func (plainBehavior) Replaces(string, resource.PropertyMap, resource.PropertyMap, []string) []string {
	return nil
}

// The Observer is told of each create, update and delete once the store
// holds it, before the engine hears of it; a preview tells it nothing.
func TestObserverIsToldEveryWrite(t *testing.T) {
	cloud, err := OpenCloud(t.TempDir(), "p")
	if err != nil {
		t.Fatal(err)
	}
	observers := &Observers{}
	p := NewProvider(Config{Name: "p", Cloud: cloud, Behavior: plainBehavior{}, Observers: observers})
	var told []string
	observers.Set(StepFunc(func(op apibudget.Op, provider, key string) {
		_, stored := cloud.Get(key)
		told = append(told, fmt.Sprintf("%s %s %s stored=%v", op, provider, key, stored))
	}))
	props, _ := Marshal(resource.NewPropertyMapFromMap(map[string]any{"a": "1"}))
	changed, _ := Marshal(resource.NewPropertyMapFromMap(map[string]any{"a": "2"}))
	ctx := context.Background()
	const typ, urn = "p:index:T", "urn:pulumi:s::p::p:index:T::o"
	if _, err := p.Create(ctx, &pulumirpc.CreateRequest{Urn: urn, Type: typ, Name: "o", Properties: props, Preview: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Create(ctx, &pulumirpc.CreateRequest{Urn: urn, Type: typ, Name: "o", Properties: props}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Update(ctx, &pulumirpc.UpdateRequest{Urn: urn, Type: typ, Name: "o", Id: "o", Olds: props, News: changed}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Delete(ctx, &pulumirpc.DeleteRequest{Urn: urn, Type: typ, Name: "o", Id: "o", Properties: changed}); err != nil {
		t.Fatal(err)
	}
	want := []string{"create p o stored=true", "update p o stored=true", "delete p o stored=false"}
	if !slices.Equal(told, want) {
		t.Errorf("told %q, want %q", told, want)
	}
	// A creations-only Observer is told of creations only.
	told = nil
	observers.Set(CreatedFunc(func(provider, key string) { told = append(told, "created "+key) }))
	if _, err := p.Create(ctx, &pulumirpc.CreateRequest{Urn: urn, Type: typ, Name: "o", Properties: props}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Delete(ctx, &pulumirpc.DeleteRequest{Urn: urn, Type: typ, Name: "o", Id: "o", Properties: props}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(told, []string{"created o"}) {
		t.Errorf("CreatedFunc told %q", told)
	}
}
