package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/internal/catalogtest"
)

// A pull request touching one service previews the platform stacks and
// that service's stacks only; one touching a team, an archetype or a stack
// file previews every stack.
func TestAffectedStacks(t *testing.T) {
	files, err := catalogtest.Synthetic("../..", 400)
	if err != nil {
		t.Fatal(err)
	}
	base, err := catalog.Parse(files)
	if err != nil {
		t.Fatal(err)
	}
	edit := func(name, old, new string) *catalog.Catalog {
		t.Helper()
		changed := map[string][]byte{}
		for k, v := range files {
			changed[k] = v
		}
		if !bytes.Contains(changed[name], []byte(old)) {
			t.Fatalf("%s has no %q", name, old)
		}
		changed[name] = bytes.Replace(changed[name], []byte(old), []byte(new), 1)
		c, err := catalog.Parse(changed)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	if got := affectedStacks(base, base); !slices.Equal(got, base.Chain) {
		t.Errorf("no change: %v, want the platform stacks %v", got, base.Chain)
	}
	svc, _ := base.Service("svc-00010")
	c := edit(catalog.ServicesFile, "image: registry.company.io/identity/svc-00010\n", "image: registry.company.io/identity/svc-00010-v2\n")
	var want []string
	for _, env := range base.Chain {
		want = append(want, env, catalog.ServiceStackName(env, svc.Stack))
	}
	if got := affectedStacks(c, base); !slices.Equal(got, want) {
		t.Errorf("one service changed: %v, want %v", got, want)
	}
	c = edit(catalog.TeamsFile, "Basket, checkout and pricing.", "Basket and checkout.")
	if got := affectedStacks(c, base); len(got) != len(c.AllStacks()) || len(got) < 10 {
		t.Errorf("a team changed: %d stacks, want all %d", len(got), len(c.AllStacks()))
	}
	if got := strings.Join(affectedStacks(base, nil), " "); got != strings.Join(base.AllStacks(), " ") {
		t.Errorf("no base: %s", got)
	}
}
