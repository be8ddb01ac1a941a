package trust_test

import (
	"context"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/esc"
	"github.com/company/harness-platform/internal/catalogtest"
	"github.com/company/harness-platform/plan"
	"github.com/company/harness-platform/trust"
)

// Reading a stack decrypts it (Pulumi Cloud's Stack Read holds
// stack:export and stack:decrypt), so each environment's deployer team
// reads exactly the stacks its own stacks read, and writes only its
// own: its upstream environment's stacks (stack references: the
// platform stack's contract and each shard's upstream), its own, its
// credentials stack, and, for the root environment, the later
// environments' service stacks (their last contracts, read before a
// service leaves the catalog: program/contract.go, readUpstream,
// readSiblings, readDownstream). An environment's credentials stack,
// which holds its delegate tokens, is read by its own deployer alone.
func TestDeployersReadOnlyWhatTheirStacksRead(t *testing.T) {
	m := load(t)
	c := catalogtest.Example(t, "..")
	all := append(c.AllStacks(), c.CredentialsStacks()...)
	for i, env := range c.Chain {
		team := m.Access.Team("harness-platform-" + env)
		if team == nil {
			t.Fatalf("no deployer team for %s", env)
		}
		reads := map[string]bool{catalog.CredentialsStackName(env): true}
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
		own := map[string]bool{catalog.CredentialsStackName(env): true}
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
// hold in their states: each credentials stack's delegate tokens (the
// Delegatetoken's value, and its Secrets Manager secret version). The
// platform stacks hold the tokens' names only (their clusters read them
// from Secrets Manager), and the connectors' credentials are references
// to AWS Secrets Manager (plan.SecretText).
func stateCredentials(t *testing.T) trust.StateCredentials {
	t.Helper()
	c := catalogtest.Example(t, "..")
	out := trust.StateCredentials{}
	for _, env := range c.Chain {
		creds, err := plan.Credentials(c, env)
		if err != nil {
			t.Fatal(err)
		}
		for _, cr := range creds {
			stack := catalog.CredentialsStackName(env)
			out[stack] = append(out[stack], "delegate token "+cr.Token)
		}
	}
	if len(out) == 0 {
		t.Fatal("no stack holds a credential: the delegate tokens are gone, and this table with them")
	}
	return out
}

// No deployer decrypts another environment's credentials: a dev
// deployer (no reviewers) reads no staging or production delegate token,
// and production's none of staging's. Each decrypts its own: its up
// reads its state.
func TestDeployersDecryptOnlyTheirOwnCredentials(t *testing.T) {
	m := load(t)
	creds := stateCredentials(t)
	for _, env := range chain {
		id := trust.Identity{Run: "up " + env, Team: "harness-platform-" + env}
		got := m.Decrypts(id, creds)
		own := creds[catalog.CredentialsStackName(env)]
		for _, cred := range got {
			if !slices.Contains(own, cred) {
				t.Errorf("%s decrypts %s, another environment's", id.Team, cred)
			}
		}
		for _, cred := range own {
			if !slices.Contains(got, cred) {
				t.Errorf("%s does not decrypt its own %s: its up could not read its state", id.Team, cred)
			}
		}
	}
}

// A pull request's preview, the drift check and production's saved plan
// run as the preview team, which decrypts no credential: it reads every
// platform and service stack, and no credentials stack. Given the old
// access (harness-platform/*), it would decrypt every delegate token.
func TestPreviewsDecryptNothing(t *testing.T) {
	m := load(t)
	creds := stateCredentials(t)
	id := trust.Identity{Run: "preview", Team: "harness-platform-preview"}
	if got := m.Decrypts(id, creds); len(got) > 0 {
		t.Errorf("the preview team decrypts %v", got)
	}
	c := catalogtest.Example(t, "..")
	team := m.Access.Team(id.Team)
	for _, s := range c.AllStacks() {
		if team.StackPermission(trust.Project+"/"+s) != "read" {
			t.Errorf("the preview team cannot read %s: its previews and drift checks would fail", s)
		}
	}
	// The old access: every stack of the project.
	old := *team
	old.Stacks = append(old.Stacks[:0:0], old.Stacks...)
	old.Stacks[0].Stacks = trust.Project + "/*"
	for _, s := range c.CredentialsStacks() {
		if old.StackPermission(trust.Project+"/"+s) == "none" {
			t.Errorf("the old access (%s/*) does not read %s: this test would not tell it", trust.Project, s)
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
	for _, id := range identities(t, open) {
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
