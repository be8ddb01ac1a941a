package platformctl

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	"slices"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/diag"
)

// affectedStacks lists, in chain order, the stacks a change from base to
// c may change: every stack when anything but the services file differs
// (teams, archetypes, regions, stack or project files); otherwise every
// platform stack (they read the catalog too) and the service stacks that
// hold, before or after, a service whose entry changed. base nil means
// every stack.
func affectedStacks(c, base *catalog.Catalog) []string {
	if base == nil || !sameSettings(c, base) {
		return c.AllStacks()
	}
	touched := map[string]bool{} // shards
	for _, s := range c.Services {
		old, ok := base.Service(s.Name)
		if !ok || !sameEntry(old, s) {
			touched[s.Stack] = true
			if ok {
				touched[old.Stack] = true
			}
		}
	}
	for _, s := range base.Services {
		if _, ok := c.Service(s.Name); !ok {
			touched[s.Stack] = true
		}
	}
	var out []string
	for _, env := range c.Chain {
		out = append(out, env)
		for _, name := range append(c.StacksOf(env)[1:], base.StacksOf(env)[1:]...) {
			if _, shard := catalog.SplitStack(name); touched[shard] && !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	return out
}

// sameEntry reports whether a service's entry means the same in both
// catalogs: where it sits in the file does not count (a line added to an
// entry moves every later one).
func sameEntry(a, b catalog.Service) bool {
	a.Pos, b.Pos = diag.Pos{}, diag.Pos{}
	return reflect.DeepEqual(a, b)
}

// sameSettings reports whether every file but the services file is the
// same in both catalogs.
func sameSettings(c, base *catalog.Catalog) bool {
	names := []string{catalog.TeamsFile, catalog.ArchetypesFile, catalog.RegionsFile, catalog.ProjectFile}
	for _, stack := range append(c.AllStacks(), base.AllStacks()...) {
		names = append(names, "Pulumi."+stack+".yaml")
	}
	for _, name := range names {
		a, _ := c.File(name)
		b, _ := base.File(name)
		if !bytes.Equal(a, b) {
			return false
		}
	}
	return slices.Equal(c.Chain, base.Chain)
}

func runStacks(c *catalog.Catalog, o options, stdout, stderr io.Writer) error {
	var base *catalog.Catalog
	if o.base != "" {
		var err error
		if base, err = catalog.Load(o.base); err != nil {
			fmt.Fprintf(stderr, "the base catalog in %s:\n", o.base)
			printLoadError(stderr, err)
			return printed
		}
	}
	for _, name := range affectedStacks(c, base) {
		fmt.Fprintln(stdout, name)
	}
	return nil
}
