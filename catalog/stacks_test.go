package catalog

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// A team split over more stacks keeps most of its services where they
// were: rendezvous hashing moves only what the new stack wins.
func TestStackOfIsStable(t *testing.T) {
	team := &teamDoc{Name: "payments"}
	const n = 600
	moved := 0
	sizes := map[string]int{}
	for i := range n {
		s := &serviceDoc{Name: fmt.Sprintf("svc-%04d", i)}
		team.Stacks = 3
		before := stackOf(s, team)
		team.Stacks = 4
		after := stackOf(s, team)
		sizes[after]++
		if before != after {
			moved++
			if after != "payments-4" {
				t.Errorf("%s moved from %s to %s; only the new stack may take services", s.Name, before, after)
			}
		}
	}
	if moved < n/8 || moved > n*3/8 {
		t.Errorf("a fourth stack took %d of %d services, want about a quarter", moved, n)
	}
	if want := []string{"payments", "payments-2", "payments-3", "payments-4"}; !slices.Equal(sortedKeys(sizes), want) {
		t.Errorf("stacks %v, want %v", sortedKeys(sizes), want)
	}
	if got := stackOf(&serviceDoc{Name: "x", Stack: "mine"}, team); got != "mine" {
		t.Errorf("a service's own stack is %q, want mine", got)
	}
}

func TestServiceStacksOfTheExample(t *testing.T) {
	c, err := Parse(exampleFiles(t))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := c.StacksOf("staging"), []string{"staging", "staging.services"}; !slices.Equal(got, want) {
		t.Errorf("StacksOf(staging) = %v, want %v", got, want)
	}
	if got := len(c.AllStacks()); got != 6 {
		t.Errorf("%d stacks, want 6", got)
	}
	for _, name := range []string{"dev", "dev.services", "production.services"} {
		if !c.HasStack(name) {
			t.Errorf("HasStack(%q) = false", name)
		}
	}
	for _, name := range []string{"qa", "dev.payments", "dev.services.x"} {
		if c.HasStack(name) {
			t.Errorf("HasStack(%q) = true", name)
		}
	}
	if _, _, err := c.EnvironmentOf("dev.payments"); err == nil || !strings.Contains(err.Error(), "dev.services") {
		t.Errorf("EnvironmentOf(dev.payments) = %v, want an error naming dev.services", err)
	}
	st, shard, err := c.EnvironmentOf("production.services")
	if err != nil || st.Name != "production" || shard != "services" {
		t.Errorf("EnvironmentOf(production.services) = %v, %q, %v", st, shard, err)
	}
}

// A stack file of a service stack is not an environment's: it is skipped
// as settings, and refused when no environment owns it.
func TestServiceStackFiles(t *testing.T) {
	files := exampleFiles(t)
	files["Pulumi.dev.services.yaml"] = []byte("encryptionsalt: v1:abc\n")
	if _, err := Parse(files); err != nil {
		t.Fatalf("a service stack's file: %v", err)
	}
	files["Pulumi.qa.services.yaml"] = []byte("encryptionsalt: v1:abc\n")
	_, err := Parse(files)
	if err == nil || !strings.Contains(err.Error(), `Pulumi.qa.services.yaml:1:1: service stack "qa.services" belongs to no environment`) {
		t.Errorf("got %v", err)
	}
}

// An environment's credentials stack is credentials.<environment>: outside
// the patterns other teams read (dev, dev.*), and a name no service stack
// or stack file may take.
func TestCredentialsStacks(t *testing.T) {
	for name, want := range map[string][2]string{
		"credentials.dev": {"dev", CredentialsShard},
		"dev.credentials": {"dev", "credentials"},
		"dev.payments":    {"dev", "payments"},
		"dev":             {"dev", ""},
	} {
		if env, shard := SplitStack(name); env != want[0] || shard != want[1] {
			t.Errorf("SplitStack(%q) = %q, %q, want %q, %q", name, env, shard, want[0], want[1])
		}
	}
	files := exampleFiles(t)
	files["Pulumi.credentials.dev.yaml"] = []byte("encryptionsalt: v1:abc\n")
	c, err := Parse(files)
	if err != nil {
		t.Fatalf("a credentials stack's file: %v", err)
	}
	if !c.HasStack(CredentialsStackName("dev")) || c.HasStack(CredentialsStackName("qa")) || slices.Contains(c.AllStacks(), CredentialsStackName("dev")) {
		t.Errorf("credentials stacks: %v, all stacks %v", c.CredentialsStacks(), c.AllStacks())
	}

	files = exampleFiles(t)
	files[TeamsFile] = []byte(strings.Replace(string(files[TeamsFile]), "  - name: payments\n", "  - name: payments\n    stack: credentials\n", 1))
	if _, err := Parse(files); err == nil || !strings.Contains(err.Error(), `has the name reserved for the environments' credentials stacks`) {
		t.Errorf("a team's stack named credentials: %v", err)
	}
	files = exampleFiles(t)
	files["Pulumi.credentials.yaml"] = files["Pulumi.staging.yaml"]
	if _, err := Parse(files); err == nil || !strings.Contains(err.Error(), `Pulumi.credentials.yaml:1:1: stack "credentials" has the name reserved`) {
		t.Errorf("a stack file Pulumi.credentials.yaml: %v", err)
	}
}
