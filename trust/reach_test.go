package trust_test

import (
	"context"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/company/harness-platform/esc"
	"github.com/company/harness-platform/internal/catalogtest"
	"github.com/company/harness-platform/plan"
	"github.com/company/harness-platform/trust"
)

// Reading a stack decrypts it (Pulumi Cloud's Stack Read holds
// stack:export and stack:decrypt), so each environment's deployer team
// reads exactly the stacks its own stacks read, and writes only its
// own: its upstream environment's stacks (stack references: the
// platform stack's contract and each shard's upstream), its own, and,
// for the root environment, the later environments' service stacks
// (their last contracts, read before a service leaves the catalog:
// program/contract.go, readUpstream, readSiblings, readDownstream).
// Another environment's platform stack, which holds its delegate
// tokens, is read only by the environment right after it.
func TestDeployersReadOnlyWhatTheirStacksRead(t *testing.T) {
	m := load(t)
	c := catalogtest.Example(t, "..")
	all := c.AllStacks()
	for i, env := range c.Chain {
		team := m.Access.Team("harness-platform-" + env)
		if team == nil {
			t.Fatalf("no deployer team for %s", env)
		}
		reads := map[string]bool{}
		for _, s := range c.StacksOf(env) {
			reads[s] = true
		}
		if i > 0 {
			for _, s := range c.StacksOf(c.Chain[i-1]) {
				reads[s] = true
			}
		} else {
			for _, later := range c.Chain[1:] {
				for _, s := range c.StacksOf(later)[1:] {
					reads[s] = true
				}
			}
		}
		own := map[string]bool{}
		for _, s := range c.StacksOf(env) {
			own[s] = true
		}
		for _, s := range all {
			got := team.StackPermission(trust.Project + "/" + s)
			switch {
			case own[s] && got != "write":
				t.Errorf("%s may %s stack %s, its own: its up would be refused", team.Name, got, s)
			case !own[s] && reads[s] && got != "read":
				t.Errorf("%s may %s stack %s, which its stacks read", team.Name, got, s)
			case !reads[s] && got != "none":
				t.Errorf("%s may %s stack %s, which none of its stacks reads: it would decrypt it for nothing", team.Name, got, s)
			}
		}
	}
}

// stateCredentials are the credentials the example catalog's stacks
// hold in their states: each platform stack's delegate tokens (the
// Delegatetoken's value, and the Kubernetes Secret holding it). The
// connectors' credentials are references to AWS Secrets Manager and hold
// none (plan.SecretText).
func stateCredentials(t *testing.T) trust.StateCredentials {
	t.Helper()
	c := catalogtest.Example(t, "..")
	out := trust.StateCredentials{}
	for _, stack := range c.AllStacks() {
		p, err := plan.Build(c, stack)
		if err != nil {
			t.Fatal(err)
		}
		if !p.IsPlatform() {
			continue // its clusters are its platform stack's
		}
		for _, cl := range p.Clusters {
			out[stack] = append(out[stack], "delegate token "+cl.Delegate.Token)
		}
	}
	if len(out) == 0 {
		t.Fatal("no stack holds a credential: the delegate tokens are gone, and this table with them")
	}
	return out
}

// No deployer decrypts the credentials of a later, more trusted,
// environment: a dev deployer (no reviewers) reads no staging or
// production delegate token. (A pull request's identity still reads
// every stack, delegate tokens included: the table says so.)
func TestDeployersDecryptNoLaterEnvironmentsCredentials(t *testing.T) {
	m := load(t)
	creds := stateCredentials(t)
	for i, env := range chain {
		id := trust.Identity{Run: "up " + env, Team: "harness-platform-" + env}
		got := m.Decrypts(id, creds)
		for _, later := range chain[i+1:] {
			for _, cred := range creds[later] {
				if slices.Contains(got, cred) {
					t.Errorf("%s decrypts %s of %s", id.Team, cred, later)
				}
			}
		}
		for _, cred := range creds[env] {
			if !slices.Contains(got, cred) {
				t.Errorf("%s does not decrypt its own %s: its up could not read its state", id.Team, cred)
			}
		}
	}
}

// Pulumi Cloud gives every member the organisation's default
// environment permission, write unless changed: with it, a pull
// request's preview opens production's deployer environment and obtains
// what writes. The declared default is none, so no member opens
// anything beyond their teams; left undeclared, loading refuses.
func TestMembersOpenNothingByDefault(t *testing.T) {
	m := load(t)
	if m.Access.MembersOpen() {
		t.Error("every member of the organisation may open every environment")
	}
	withDefault := func(line string) (*trust.Model, error) {
		files := fstest.MapFS{}
		err := fs.WalkDir(esc.Files, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := fs.ReadFile(esc.Files, p)
			if p == "pulumi/access.yaml" {
				data = []byte(strings.Replace(string(data), "  environmentPermission: none\n", line, 1))
			}
			files[p] = &fstest.MapFile{Data: data}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return trust.LoadFS(files)
	}
	if _, err := withDefault(""); err == nil || !strings.Contains(err.Error(), "Pulumi Cloud's default is write") {
		t.Errorf("an undeclared default: %v", err)
	}
	// Pulumi Cloud's own default: the preview identity writes.
	open, err := withDefault("  environmentPermission: write\n")
	if err != nil {
		t.Fatal(err)
	}
	writes := false
	for _, id := range trust.Identities(chain) {
		if !id.PullRequest {
			continue
		}
		if !open.Access.Team(id.Team).MayOpen("harness-platform/production") {
			t.Errorf("%s: the default write does not open production", id.Run)
		}
		if _, err := open.Open(context.Background(), id.Team, "harness-platform/production", false); err == nil {
			writes = true
		}
	}
	if !writes {
		t.Error("with Pulumi Cloud's default, a pull request's team still cannot open production: the model misses it")
	}
}
