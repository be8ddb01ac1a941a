package engine

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// deployedDev is a state directory holding the example catalog's dev
// environment after a plain up (backend, simulated clouds, workspace and
// plugins), copied from one made once per test binary: the tests that
// start from a deployed dev skip their own first up. Nothing in a state
// directory names its own path, so a copy opens like the original.
func deployedDev(t *testing.T) string {
	t.Helper()
	deployed.Do(func() {
		dir, err := os.MkdirTemp("", "harness-platform-deployed-dev-")
		if err != nil {
			deployed.err = err
			return
		}
		deployed.dir = dir
		out := &syncBuffer{}
		s, err := Open(context.Background(), Options{ProjectDir: "..", Offline: true, StateDir: dir, Stdout: out, Stderr: out, Catalog: example(t), Env: testEnv})
		if err != nil {
			deployed.err = err
			return
		}
		defer s.Close()
		if _, err := s.Up(context.Background(), "dev", RunOptions{}); err != nil {
			deployed.err, deployed.out = err, out.String()
		}
	})
	if deployed.err != nil {
		t.Fatalf("the shared deployed dev: %v\n%s", deployed.err, deployed.out)
	}
	dst := t.TempDir()
	if err := copyTree(deployed.dir, dst); err != nil {
		t.Fatal(err)
	}
	return dst
}

var deployed struct {
	sync.Once
	dir, out string
	err      error
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

var deployedChain struct {
	sync.Once
	dir, out string
	afterDev []string
	err      error
}

// firstUpOfChain copies the shared deployed chain.
func firstUpOfChain(t *testing.T) chain {
	t.Helper()
	deployedChain.Do(func() {
		dir, err := os.MkdirTemp("", "harness-platform-deployed-chain-")
		if err != nil {
			deployedChain.err = err
			return
		}
		deployedChain.dir = dir
		out := &syncBuffer{}
		c := example(t)
		s, err := Open(context.Background(), Options{ProjectDir: "..", Offline: true, StateDir: dir, Stdout: out, Stderr: out, Catalog: c, Env: testEnv})
		if err != nil {
			deployedChain.err = err
			return
		}
		defer s.Close()
		for _, stack := range c.Chain {
			if _, err := s.Up(context.Background(), stack, RunOptions{}); err != nil {
				deployedChain.err = fmt.Errorf("up %s: %w", stack, err)
				break
			}
			if stack == "dev" {
				deployedChain.afterDev = s.Servers.Cloud("harness").IDs()
			}
		}
		deployedChain.out = out.String()
	})
	if deployedChain.err != nil {
		t.Fatalf("the shared deployed chain: %v\n%s", deployedChain.err, deployedChain.out)
	}
	dst := t.TempDir()
	if err := copyTree(deployedChain.dir, dst); err != nil {
		t.Fatal(err)
	}
	return chain{state: dst, afterDev: deployedChain.afterDev, out: deployedChain.out}
}

// TestMain removes the shared deployed dev and chain after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	for _, dir := range []string{deployed.dir, deployedChain.dir} {
		if dir != "" {
			os.RemoveAll(dir)
		}
	}
	os.Exit(code)
}
