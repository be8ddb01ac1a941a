package provider

import (
	"fmt"
	"os"
	"path/filepath"
)

// SharedDir finds ../shared beside the project directory (the one holding
// go.mod), starting from the working directory.
func SharedDir() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return SharedDirOf(dir)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the working directory, cannot locate ../shared")
		}
		dir = parent
	}
}

// SharedDirOf is ../shared beside projectDir, whatever the working
// directory.
func SharedDirOf(projectDir string) (string, error) {
	abs, err := filepath.Abs(projectDir)
	if err != nil {
		return "", err
	}
	shared := filepath.Join(filepath.Dir(abs), "shared")
	if _, err := os.Stat(filepath.Join(shared, "harness-provider", "schema.json")); err != nil {
		return "", fmt.Errorf("conformance data missing: %s/harness-provider/schema.json not found; "+
			"the shared/ directory must be checked out beside the project (%s/../shared)", shared, abs)
	}
	return shared, nil
}
