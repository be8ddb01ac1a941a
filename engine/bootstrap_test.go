package engine

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/company/harness-platform/bootstrap"
	"github.com/company/harness-platform/bootstrap/answers"
	"github.com/company/harness-platform/internal/catalogtest"
	exampletest "github.com/company/harness-platform/internal/example"
	"github.com/company/harness-platform/preflight"
	"github.com/company/harness-platform/simulated"
	"github.com/company/harness-platform/trust"
)

// bootstrap --check, offline: with the simulated services as the
// example's organisation holds them, every step it checks is done; with
// a step undone in the simulation (the Harness key refused, no GitHub
// App's token, another AWS identity, a run from outside the runners'
// networks, a Pulumi token of no team), that step is named, and with all
// of them undone, all are named at once. Nothing else is.
func TestBootstrapCheck(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := example(t)
	m, err := trust.Load()
	if err != nil {
		t.Fatal(err)
	}
	steps := bootstrap.Steps(c, m)
	index := func(prefix string) int {
		i := slices.IndexFunc(steps, func(s bootstrap.Step) bool { return strings.HasPrefix(s.Title, prefix) })
		if i < 0 {
			t.Fatalf("no step %q", prefix)
		}
		return i
	}
	root := t.TempDir()
	QuietCLILog(t, root)
	sessions := map[bool]*Session{}
	for _, readOnly := range []bool{false, true} {
		out := &syncBuffer{}
		s, err := Open(ctx, Options{ProjectDir: "..", Offline: true, Simulation: simulated.Simulation{}, ReadOnly: readOnly,
			StateDir: filepath.Join(root, fmt.Sprint(readOnly)), Stdout: out, Stderr: out, Catalog: c, Env: testEnv})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		sessions[readOnly] = s
	}
	run := func(ctx context.Context, env string, readOnly bool) ([]preflight.Problem, error) {
		return sessions[readOnly].PreflightWith(ctx, env, PreflightOptions{})
	}
	check := func(name string, reach simulated.Reach, want []int) {
		t.Helper()
		for _, s := range sessions {
			s.servers().SetReach(reach)
		}
		r, err := bootstrap.Check(ctx, c, steps, run)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var got []int
		for i, v := range r.Steps {
			if len(v.Findings) > 0 {
				got = append(got, i)
			}
		}
		if !slices.Equal(got, want) || len(r.Other) > 0 {
			t.Errorf("%s: steps not done %v, want %v; other problems %v; the steps' findings: %v", name, got, want, r.Other, r.Missing())
		}
	}
	base := simulated.DefaultReach(c)
	check("the example's organisation", base, nil)

	harness := base
	harness.InvalidHarnessKey = true
	check("the Harness key refused", harness, []int{index("Harness account")})

	github := base
	github.NoGitHubCredential = true
	check("no GitHub App token", github, []int{index("GitHub Apps")})

	aws := base
	aws.Identities = []string{"arn:aws:iam::111111111111:role/someone-else"}
	check("another AWS identity", aws, []int{index("AWS accounts")})

	runners := base
	runners.Runner = netip.MustParseAddr("192.0.2.10")
	check("a run from outside the runners' networks", runners, []int{index("Runners")})

	esc := base
	esc.PulumiTeam = "no-team"
	check("a Pulumi token of no team", esc, []int{index("ESC environments")})

	all := base
	all.InvalidHarnessKey, all.NoGitHubCredential, all.Identities, all.Runner, all.PulumiTeam = true, true, aws.Identities, runners.Runner, esc.PulumiTeam
	want := []int{index("AWS accounts"), index("GitHub Apps"), index("ESC environments"), index("Harness account"), index("Runners")}
	slices.Sort(want)
	check("every step undone", all, want)
}

// On a copy of the project whose files bootstrap wrote with another
// organisation's answers (every value another, the GitHub and the Pulumi
// organisation of different names), platformctl built from that copy
// passes bootstrap --check --offline: the program and the simulated
// services read the organisation the files name, not the example's. Run
// from outside the runners' networks, it names that step and its owner.
func TestBootstrappedCopyPassesItsCheck(t *testing.T) {
	t.Parallel()
	files, err := answers.Tracked("..")
	if err != nil {
		t.Fatal(err)
	}
	cur, err := bootstrap.Current("..")
	if err != nil {
		t.Fatal(err)
	}
	r, err := answers.Plan(files, cur, exampletest.Other(cur))
	if err != nil {
		t.Fatal(err)
	}
	// The copy, with ../shared beside it as beside the project.
	dir := t.TempDir()
	project := filepath.Join(dir, "project")
	catalogtest.WriteFiles(t, project, r.Over(files), 0o755) // its scripts executable
	shared, err := filepath.Abs(filepath.Join("..", "..", "shared"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(shared, filepath.Join(dir, "shared")); err != nil {
		t.Fatal(err)
	}
	platformctl := filepath.Join(dir, "platformctl")
	build := exec.Command("go", "build", "-o", platformctl, "./cmd/platformctl")
	build.Dir = project
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build in the bootstrapped copy: %v\n%s", err, out)
	}
	run := func(args ...string) (int, string) {
		cmd := exec.Command(platformctl, append([]string{"bootstrap", "--check", "--offline", "--state", t.TempDir()}, args...)...)
		cmd.Dir = project
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return exit.ExitCode(), string(out)
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0, string(out)
	}
	if code, out := run(); code != 0 || !strings.Contains(out, "every checked step is done") {
		t.Fatalf("bootstrap --check --offline in the bootstrapped copy: exit %d\n%s", code, out)
	}
	if code, out := run("--runner-address", "192.0.2.10"); code != 1 || !strings.Contains(out, "1 step(s) not done: Runners (platform team)") {
		t.Errorf("bootstrap --check from outside the runners' networks: exit %d, want 1 naming the runners' step\n%s", code, out)
	}
}
