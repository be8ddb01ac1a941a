package engine

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/company/harness-platform/simulated"
)

// A deployment made once per test binary, by the first test that needs
// it, and copied for each: the tests that start from a deployed
// environment skip their own first up. Nothing in a state directory
// names its own path, so a copy opens like the original.
type deployment struct {
	once     sync.Once
	dir, out string   // the original, and the engine output of its ups
	afterDev []string // the Harness object ids once dev was up
	err      error
}

// The shared deployments: dev alone, and the whole chain.
var (
	deployedDevOnce   deployment
	deployedChainOnce deployment
)

// copyOf makes d, the first time, by an up of each of stacks in order
// from an empty state, then copies it into a new state directory.
func (d *deployment) copyOf(t *testing.T, name string, stacks []string) string {
	t.Helper()
	d.once.Do(func() {
		if d.dir, d.err = os.MkdirTemp("", "harness-platform-deployed-"+name+"-"); d.err != nil {
			return
		}
		QuietCLILog(t, d.dir)
		out := &syncBuffer{}
		s, err := Open(context.Background(), Options{ProjectDir: "..", Offline: true, Simulation: simulated.Simulation{}, StateDir: d.dir, Stdout: out, Stderr: out, Catalog: example(t), Env: testEnv})
		if err != nil {
			d.err = err
			return
		}
		defer s.Close()
		for _, stack := range stacks {
			if _, err := s.Up(context.Background(), stack, UpOptions{}); err != nil {
				d.err = fmt.Errorf("up %s: %w", stack, err)
				break
			}
			if stack == "dev" {
				d.afterDev = s.servers().Cloud("harness").IDs()
			}
		}
		d.out = out.String()
	})
	if d.err != nil {
		t.Fatalf("the shared deployed %s: %v\n%s", name, d.err, d.out)
	}
	dst := t.TempDir()
	if err := copyTree(d.dir, dst); err != nil {
		t.Fatal(err)
	}
	return dst
}

// deployedDev is a state directory holding the example catalog's dev
// environment after a plain up (backend, simulated clouds, workspace and
// plugins), a copy of the shared one.
func deployedDev(t *testing.T) string {
	t.Helper()
	return deployedDevOnce.copyOf(t, "dev", []string{"dev"})
}

// copyTree copies the directory src into dst, symbolic links as links.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			return os.MkdirAll(to, info.Mode().Perm()|0o700)
		case info.Mode()&fs.ModeSymlink != 0:
			link, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(link, to)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, info.Mode().Perm())
	})
}

// chain is the example catalog's whole chain after its first up (dev,
// staging, production, in order, from an empty state), made once per test
// binary like deployedDev: the tests of a deployed chain each start from
// a copy.
type chain struct {
	// state is the copy's state directory.
	state string
	// afterDev are the Harness object ids once dev was up (before
	// staging's).
	afterDev []string
	// out is the engine output of the first ups.
	out string
}

// firstUpOfChain copies the shared deployed chain.
func firstUpOfChain(t *testing.T) chain {
	t.Helper()
	state := deployedChainOnce.copyOf(t, "chain", example(t).Chain)
	return chain{state: state, afterDev: deployedChainOnce.afterDev, out: deployedChainOnce.out}
}

// onTheChain opens a session on a copy of the shared deployed chain.
func onTheChain(t *testing.T) (harnessSession, chain) {
	t.Helper()
	ch := firstUpOfChain(t)
	return open(t, ch.state, example(t)), ch
}

// TestMain removes the shared deployed dev and chain after the tests,
// and fails the package if any session exported a state with its secrets
// decrypted: the engine reads states with their secrets encrypted
// (exportEncrypted), so no state it edits or reads passes through a pipe
// in plaintext.
func TestMain(m *testing.M) {
	// The processes the tests start (the CLI, its plugins, the policy
	// pack, platformctl) are short-lived, CPU-bound Go programs with
	// small heaps: with the collector at GOGC=400 instead of 100 they
	// take 6.5% less CPU (TestInterruptedUpConverges: 203 to 190 CPU-s,
	// at most 290 MB resident in any one). A GOGC set by the caller is
	// kept.
	if os.Getenv("GOGC") == "" {
		os.Setenv("GOGC", "400")
	}
	code := m.Run()
	commandLines.Lock()
	for _, l := range commandLines.all {
		if strings.HasPrefix(l, "stack export") && strings.Contains(l, "--show-secrets") {
			fmt.Fprintf(os.Stderr, "FAIL: a session exported a state with its secrets shown: %s\n", l)
			code = 1
		}
		// The file backend's history answers it (historyCLI).
		if strings.HasPrefix(l, "stack history") {
			fmt.Fprintf(os.Stderr, "FAIL: an offline session ran the CLI for an update's summary: %s\n", l)
			code = 1
		}
	}
	commandLines.Unlock()
	for _, dir := range []string{deployedDevOnce.dir, deployedChainOnce.dir} {
		if dir != "" {
			os.RemoveAll(dir)
		}
	}
	os.Exit(code)
}
