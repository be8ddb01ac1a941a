package engine

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
)

// CLIVersion is the Pulumi CLI the project pins (scripts/install-pulumi.sh).
const CLIVersion = "3.256.0"

// CLIRoot is where scripts/install-pulumi.sh caches the CLI: the directory
// holding bin/pulumi. PULUMI_CLI_CACHE overrides it, as in the script.
func CLIRoot() string {
	if dir := os.Getenv("PULUMI_CLI_CACHE"); dir != "" {
		return dir
	}
	cache := os.Getenv("XDG_CACHE_HOME")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache")
	}
	return filepath.Join(cache, "harness-platform", "pulumi-v"+CLIVersion)
}

// found holds the CLI FindCLI found, by CLIRoot: finding it runs
// `pulumi version`, a quarter second of CPU that every session would
// otherwise repeat.
var found sync.Map

// FindCLI returns the pinned Pulumi CLI: the cached build, or a `pulumi`
// on PATH at the same version.
func FindCLI() (auto.PulumiCommand, error) {
	root := CLIRoot()
	if cmd, ok := found.Load(root); ok {
		return cmd.(auto.PulumiCommand), nil
	}
	cmd, err := findCLI()
	if err == nil {
		found.Store(root, cmd)
	}
	return cmd, err
}

func findCLI() (auto.PulumiCommand, error) {
	want := semver.MustParse(CLIVersion)
	if _, err := os.Stat(filepath.Join(CLIRoot(), "bin", "pulumi")); err == nil {
		return auto.NewPulumiCommand(&auto.PulumiCommandOptions{Root: CLIRoot(), Version: want})
	}
	if path, err := exec.LookPath("pulumi"); err == nil {
		out, _ := exec.Command(path, "version").Output()
		if strings.TrimSpace(string(out)) == "v"+CLIVersion {
			return auto.NewPulumiCommand(&auto.PulumiCommandOptions{Version: want})
		}
	}
	return nil, fmt.Errorf("the Pulumi CLI v%s is not installed: run scripts/install-pulumi.sh (it builds and caches it in %s)", CLIVersion, CLIRoot())
}
