package platformctl

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/internal/catalogtest"
	"github.com/company/harness-platform/internal/example"
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
	c := edit(catalog.ServicesFile, example.L(t, "image: registry.company.io/identity/svc-00010\n"), example.L(t, "image: registry.company.io/identity/svc-00010-v2\n"))
	var want []string
	for _, env := range base.Chain {
		want = append(want, env, catalog.ServiceStackName(env, svc.Stack))
	}
	if got := affectedStacks(c, base); !slices.Equal(got, want) {
		t.Errorf("one service changed: %v, want %v", got, want)
	}
	// A line added to its entry moves every later entry in the file, and
	// changes none of them.
	c = edit(catalog.ServicesFile, example.L(t, "image: registry.company.io/identity/svc-00010\n"), example.L(t, "image: registry.company.io/identity/svc-00010\n    description: Added by a pull request.\n"))
	if got := affectedStacks(c, base); !slices.Equal(got, want) {
		t.Errorf("a line added to one service: %v, want %v", got, want)
	}
	c = edit(catalog.TeamsFile, "Basket, checkout and pricing.", "Basket and checkout.")
	if got := affectedStacks(c, base); len(got) != len(c.AllStacks()) || len(got) < 10 {
		t.Errorf("a team changed: %d stacks, want all %d", len(got), len(c.AllStacks()))
	}
	if got := strings.Join(affectedStacks(base, nil), " "); got != strings.Join(base.AllStacks(), " ") {
		t.Errorf("no base: %s", got)
	}
}

// The operator's Stacks of the service stacks are the catalog's: the
// checked-in ones match, and a larger catalog gets one per service stack,
// each waiting for its platform stack and its upstream shard.
func TestGitOpsFollowsTheCatalog(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := Run([]string{"gitops", "--dir", "../.."}, &out, &errOut); code != exitOK {
		t.Fatalf("the checked-in manifests: %s%s", out.String(), errOut.String())
	}
	c := catalogtest.SyntheticCatalog(t, "../..", 400)
	for _, env := range c.Chain {
		c.Stacks[env].Delivery = catalog.DeliveryOperator
	}
	files := operatorStacks(t, c)
	if want := len(c.AllStacks()) - len(c.Chain); len(files) != want || want < 10 {
		t.Fatalf("%d manifests, want %d", len(files), want)
	}
	for _, name := range c.AllStacks() {
		env, shard := catalog.SplitStack(name)
		if shard == "" {
			continue
		}
		data, ok := files[gitopsDir+"/"+env+"/"+shard+".yaml"]
		if !ok {
			t.Fatalf("no manifest for %s", name)
		}
		var m struct {
			Metadata struct{ Name string }
			Spec     struct {
				Stack         string
				Prerequisites []struct{ Name string }
			}
		}
		if err := yaml.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		want := []string{"harness-platform-" + env}
		if up := c.Stacks[env].Upstream; up != "" {
			want = append(want, "harness-platform-"+catalog.ServiceStackName(up, shard))
		}
		var got []string
		for _, p := range m.Spec.Prerequisites {
			got = append(got, p.Name)
		}
		if m.Metadata.Name != "harness-platform-"+name || !strings.HasSuffix(m.Spec.Stack, "/harness-platform/"+name) || !slices.Equal(got, want) {
			t.Errorf("%s: name %s stack %s prerequisites %v, want %v", name, m.Metadata.Name, m.Spec.Stack, got, want)
		}
	}
	if err := syncFiles(t.TempDir(), files, false, &out); err == nil || !strings.Contains(err.Error(), "platformctl gitops --yes") {
		t.Errorf("missing manifests: %v", err)
	}
}

// Only the environments the operator delivers get Stacks and an
// Application: none in the example; each, in chain order and a wave after
// its upstream, where all are; where only staging is, its Application
// and Stacks alone, waiting for no dev Stack (there is none). Every
// Application retries and creates its namespace; production is synced by
// hand; the operator's chart is pinned.
func TestGitOpsAppliesOnlyOperatorEnvironments(t *testing.T) {
	type app struct {
		Metadata struct {
			Name        string
			Annotations map[string]string
		}
		Spec struct {
			Source     map[string]any
			SyncPolicy struct {
				Automated   map[string]any
				SyncOptions []string `yaml:"syncOptions"`
				Retry       map[string]any
			} `yaml:"syncPolicy"`
		}
	}
	apps := func(c *catalog.Catalog) map[string]app {
		t.Helper()
		data, err := applicationsManifest(c, "https://github.com/company/harness-platform.git")
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]app{}
		dec := yaml.NewDecoder(bytes.NewReader(data))
		for {
			var a app
			if err := dec.Decode(&a); err != nil {
				break
			}
			out[a.Metadata.Name] = a
			if !slices.Contains(a.Spec.SyncPolicy.SyncOptions, "CreateNamespace=true") || a.Spec.SyncPolicy.Retry["limit"] == nil {
				t.Errorf("%s: sync options %v, retry %v", a.Metadata.Name, a.Spec.SyncPolicy.SyncOptions, a.Spec.SyncPolicy.Retry)
			}
		}
		return out
	}
	c := catalogtest.Example(t, "../..")
	got := apps(c)
	if len(got) != 2 || got["pulumi-kubernetes-operator"].Spec.Source["targetRevision"] != OperatorVersion || got["harness-platform-rbac"].Metadata.Name == "" {
		t.Errorf("the example: %v", got)
	}
	for _, env := range c.Chain {
		c.Stacks[env].Delivery = catalog.DeliveryOperator
	}
	got = apps(c)
	for i, env := range c.Chain {
		a, ok := got["harness-platform-"+env]
		if !ok || a.Metadata.Annotations["argocd.argoproj.io/sync-wave"] != fmt.Sprint(i+1) || a.Spec.Source["path"] != gitopsDir+"/"+env ||
			(a.Spec.SyncPolicy.Automated != nil) != (env != "production") {
			t.Errorf("all by the operator: %s: %+v", env, a)
		}
	}
	c = catalogtest.Example(t, "../..")
	c.Stacks["staging"].Delivery = catalog.DeliveryOperator
	got = apps(c)
	if _, ok := got["harness-platform-staging"]; !ok || len(got) != 3 || got["harness-platform-staging"].Metadata.Annotations["argocd.argoproj.io/sync-wave"] != "1" {
		t.Errorf("staging alone: %v", got)
	}
	files := operatorStacks(t, c)
	if len(files) == 0 {
		t.Fatal("staging alone: no service Stacks")
	}
	for path, data := range files {
		if !strings.HasPrefix(path, gitopsDir+"/staging/") || strings.Contains(string(data), "harness-platform-dev") {
			t.Errorf("staging alone: %s:\n%s", path, data)
		}
	}
}

// operatorStacks are the service stacks' Stacks gitops writes for c,
// from the checked-in platform Stacks.
func operatorStacks(t *testing.T, c *catalog.Catalog) map[string][]byte {
	t.Helper()
	platform, err := readPlatformStacks("../..", c)
	if err != nil {
		t.Fatal(err)
	}
	files, err := serviceStackManifests(c, platform)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// restore's closing lines: the refresh preview's summary in words, never
// a Go map, and next steps that point at the same state (an offline
// restore's refresh without --offline would run against the real
// backend).
func TestRestoreSaysWhatItFoundAndWhereToGoOn(t *testing.T) {
	if got := describeChanges(map[apitype.OpType]int{apitype.OpSame: 215}); got != "215 unchanged" {
		t.Errorf("all same: %q", got)
	}
	if got := describeChanges(map[apitype.OpType]int{apitype.OpSame: 213, apitype.OpUpdate: 2, apitype.OpDelete: 1}); got != "1 delete, 2 update, 213 unchanged" {
		t.Errorf("changes: %q", got)
	}
	if got := describeChanges(nil); got != "nothing" {
		t.Errorf("empty: %q", got)
	}
	for _, tc := range []struct {
		o    options
		want string
	}{
		{options{dir: "."}, ""},
		{options{dir: ".", offline: true}, " --offline"},
		{options{dir: "../project", offline: true, state: "/tmp/s"}, " --dir ../project --offline --state /tmp/s"},
		{options{dir: ".", state: "/tmp/s"}, ""}, // --state is offline's only
	} {
		if got := tc.o.sameState(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.o, got, tc.want)
		}
	}
}
