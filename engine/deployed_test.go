package engine

import (
	"context"
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
		s, err := Open(context.Background(), Options{ProjectDir: "..", Offline: true, StateDir: dir, Stdout: out, Stderr: out, Catalog: example(t)})
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

// TestMain removes the shared deployed dev after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if deployed.dir != "" {
		os.RemoveAll(deployed.dir)
	}
	os.Exit(code)
}
