// Package catalogtest makes catalogs for tests and benchmarks: the example
// catalog's files, and synthetic catalogs of any size built on them.
package catalogtest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/internal/example"
)

// ExampleFiles reads the example catalog and stack files from the project
// directory root.
func ExampleFiles(root string) (map[string][]byte, error) {
	files := map[string][]byte{}
	// Pulumi.yaml too, as catalog.Load reads it: its config defaults are
	// what a service stack receives besides its environment's settings.
	names := []string{catalog.ServicesFile, catalog.TeamsFile, catalog.ArchetypesFile, catalog.RegionsFile, catalog.ProjectFile, catalog.AccessFile}
	stacks, _ := filepath.Glob(filepath.Join(root, "Pulumi.*.yaml"))
	for _, s := range stacks {
		names = append(names, filepath.Base(s))
	}
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			return nil, err
		}
		files[name] = data
	}
	return files, nil
}

// Synthetic replaces the example's services with n generated ones spread
// over its teams and archetypes; every fifth skips production and every
// seventh runs in one region, as a real catalog would. Each team's
// services are in service stacks of about 40 services.
func Synthetic(root string, n int) (map[string][]byte, error) {
	files, err := ExampleFiles(root)
	if err != nil {
		return nil, err
	}
	// The example's organisation and registry, as bootstrap wrote them.
	example, err := catalog.Parse(files)
	if err != nil {
		return nil, err
	}
	owner, _, _ := strings.Cut(example.Root().Foundation.Repository, "/")
	registry := example.Root().Foundation.Registry.Host
	teams := []string{"payments", "checkout", "identity", "data"}
	archetypes := []string{"api", "worker", "cron"}
	var b strings.Builder
	b.WriteString("services:\n")
	for i := 0; i < n; i++ {
		team, arch := teams[i%len(teams)], archetypes[i%len(archetypes)]
		fmt.Fprintf(&b, "  - name: svc-%05d\n    team: %s\n    archetype: %s\n    repo: %s/svc-%05d\n    image: %s/%s/svc-%05d\n",
			i, team, arch, owner, i, registry, team, i)
		if i%5 == 4 {
			b.WriteString("    environments: [dev, staging]\n")
		}
		if i%7 == 6 {
			b.WriteString("    regions: [euw1]\n")
		}
	}
	files[catalog.ServicesFile] = []byte(b.String())
	// Each team in service stacks of about 40 services (the bound is 60:
	// room for the hash's spread).
	perTeam := (n + len(teams) - 1) / len(teams)
	stacks := max(1, (perTeam+39)/40)
	teamsFile := strings.ReplaceAll(string(files[catalog.TeamsFile]), "    stack: services\n", fmt.Sprintf("    stacks: %d\n", stacks))
	files[catalog.TeamsFile] = []byte(teamsFile)
	// Nodes for n services (validate checks the clusters' capacity): at
	// the example's requests, a rollout's peak takes about one m6i.4xlarge
	// (15.9 vCPU, 234 pods allocatable) per 12 services of a region.
	nodes := max(4, (n+11)/12)
	group := regexp.MustCompile(`(?m)^    nodeGroup:\n      instanceType: \S+\n      minSize: \d+\n      desiredSize: \d+\n      maxSize: \d+\n`)
	for name, data := range files {
		if strings.HasPrefix(name, "Pulumi.") && group.Match(data) {
			files[name] = group.ReplaceAll(data, []byte(fmt.Sprintf("    nodeGroup:\n      instanceType: m6i.4xlarge\n      minSize: %d\n      desiredSize: %d\n      maxSize: %d\n", nodes, nodes, 2*nodes)))
		}
	}
	return files, nil
}

// SyntheticCatalog parses and validates Synthetic(root, n), failing tb if
// it is invalid.
func SyntheticCatalog(tb testing.TB, root string, n int) *catalog.Catalog {
	tb.Helper()
	files, err := Synthetic(root, n)
	if err != nil {
		tb.Fatal(err)
	}
	c, err := catalog.Parse(files)
	if err != nil {
		tb.Fatalf("synthetic catalog of %d services: %v", n, err)
	}
	return c
}

// Example loads and validates the example catalog of the project at root,
// failing tb if it is invalid.
func Example(tb testing.TB, root string) *catalog.Catalog {
	tb.Helper()
	c, err := catalog.Load(root)
	if err != nil {
		tb.Fatalf("example catalog: %v", err)
	}
	return c
}

// Shipped is the example catalog with the values the project ships with
// (answers.Example) in place of those bootstrap wrote into its files: for
// tests whose expectations, golden files and literal ids, are written
// with them. On the example itself it is Example.
func Shipped(tb testing.TB, root string) *catalog.Catalog {
	tb.Helper()
	c, err := catalog.Parse(ShippedFiles(tb, root))
	if err != nil {
		tb.Fatalf("example catalog: %v", err)
	}
	return c
}

// ShippedFiles are ExampleFiles with the values the project ships with
// (see Shipped).
func ShippedFiles(tb testing.TB, root string) map[string][]byte {
	tb.Helper()
	files, err := ExampleFiles(root)
	if err != nil {
		tb.Fatalf("example catalog: %v", err)
	}
	for name, data := range files {
		files[name] = example.Back(tb, name, data)
	}
	return files
}

// WriteFiles lays files (by path relative to dir) out under dir, each
// with perm, making the directories they need.
func WriteFiles(tb testing.TB, dir string, files map[string][]byte, perm os.FileMode) {
	tb.Helper()
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, data, perm); err != nil {
			tb.Fatal(err)
		}
	}
}

// RenameRegion renames a region in regions.yaml, every stack file and the
// services' region lists.
func RenameRegion(files map[string][]byte, from, to string) {
	for name, data := range files {
		if name == catalog.RegionsFile || strings.HasPrefix(name, "Pulumi.") {
			files[name] = []byte(strings.ReplaceAll(string(data), "name: "+from+"\n", "name: "+to+"\n"))
		}
	}
	lines := strings.Split(string(files[catalog.ServicesFile]), "\n")
	for i, l := range lines {
		if strings.Contains(l, "regions: [") {
			lines[i] = strings.NewReplacer("["+from+"]", "["+to+"]", "["+from+",", "["+to+",", " "+from+"]", " "+to+"]", " "+from+",", " "+to+",").Replace(l)
		}
	}
	files[catalog.ServicesFile] = []byte(strings.Join(lines, "\n"))
}

// ExampleWithRegionRenamed is the example catalog of the project at root
// with a region renamed (for example to a name with a '-').
func ExampleWithRegionRenamed(tb testing.TB, root, from, to string) *catalog.Catalog {
	tb.Helper()
	files, err := ExampleFiles(root)
	if err != nil {
		tb.Fatal(err)
	}
	RenameRegion(files, from, to)
	c, err := catalog.Parse(files)
	if err != nil {
		tb.Fatalf("example catalog with region %s renamed %s: %v", from, to, err)
	}
	return c
}

// ExampleWithExistingCluster is the example catalog of the project at root
// with staging's euw2 an existing cluster (kind: existing, given by its
// kubeconfig) instead of an EKS one.
func ExampleWithExistingCluster(tb testing.TB, root string) *catalog.Catalog {
	tb.Helper()
	files, err := ExampleFiles(root)
	if err != nil {
		tb.Fatal(err)
	}
	const eks, existing = "    - name: euw2\n      networkCidr: 10.2.128.0/17\n", "    - name: euw2\n      kind: existing\n"
	if !strings.Contains(string(files["Pulumi.staging.yaml"]), eks) {
		tb.Fatal("Pulumi.staging.yaml has no EKS region euw2 to make an existing cluster")
	}
	files["Pulumi.staging.yaml"] = []byte(strings.Replace(string(files["Pulumi.staging.yaml"]), eks, existing, 1))
	c, err := catalog.Parse(files)
	if err != nil {
		tb.Fatalf("example catalog with an existing cluster: %v", err)
	}
	return c
}

// OnlyServiceStack is the one service stack of env in a catalog that has
// one (the example's teams share it), failing tb otherwise.
func OnlyServiceStack(tb testing.TB, c *catalog.Catalog, env string) string {
	tb.Helper()
	stacks := c.StacksOf(env)
	if len(stacks) != 2 {
		tb.Fatalf("%s: want one service stack, have %v", env, stacks)
	}
	return stacks[1]
}
