package engine

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/company/harness-platform/plan"
)

// PolicyPackPackage is the analyzer binary of the project's CrossGuard pack.
const PolicyPackPackage = "./policy/cmd/harness-platform-policy"

// PolicyPackBinary is the file name of the built pack.
const PolicyPackBinary = "harness-platform-policy"

// PolicyConfigFile is the organisation's config of the project's pack
// (--policy-pack-config), relative to the project directory: the networks
// a cluster's public endpoint may open to (the CI runners' NAT, see
// harness-platform:runner), thresholds. Runs of the project's pack use it
// unless given another.
const PolicyConfigFile = plan.PolicyConfigFile

// PolicyConfig is the path of the project's policy config.
func PolicyConfig(projectDir string) (string, error) {
	path, err := filepath.Abs(filepath.Join(projectDir, PolicyConfigFile))
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(path); err != nil {
		return "", fmt.Errorf("the project's policy config: %w", err)
	}
	return path, nil
}

// BuildPolicyPack builds the project's policy pack once and caches it
// beside the CLI, under a key of its sources: the Go and embedded files of
// every package of this module the analyzer imports, and go.mod and
// go.sum. It returns the binary's path, which the CLI runs as
// `--policy-pack PATH` (a binary analyzer; a folder with runtime: go would
// need the pulumi-language-go plugin).
func BuildPolicyPack(projectDir string) (string, error) {
	return buildCached(projectDir, PolicyPackPackage, PolicyPackBinary, "policy")
}

// buildCached builds one of the project's commands (pkg) once and caches
// it beside the CLI, as <kind>-<key of its sources>/<binary>.
func buildCached(projectDir, pkg, binary, kind string) (string, error) {
	dir, err := filepath.Abs(projectDir)
	if err != nil {
		return "", err
	}
	key, err := sourcesKey(dir, pkg)
	if err != nil {
		return "", err
	}
	bin := filepath.Join(filepath.Dir(CLIRoot()), kind+"-"+key, binary)
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		return "", err
	}
	// A name of its own: two sessions may build the same binary at once
	// (tests in parallel), each renaming a whole one into place.
	f, err := os.CreateTemp(filepath.Dir(bin), binary+".*.tmp")
	if err != nil {
		return "", err
	}
	tmp := f.Name()
	f.Close()
	defer os.Remove(tmp)
	build := exec.Command("go", "build", "-trimpath", "-o", tmp, pkg)
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building %s: %v\n%s", pkg, err, out)
	}
	// Renamed into place: a reader never sees half a binary.
	return bin, os.Rename(tmp, bin)
}

// sourcesKey hashes what pkg is built from.
func sourcesKey(dir, pkg string) (string, error) {
	list := exec.Command("go", "list", "-deps", "-f",
		`{{if .Module}}{{if .Module.Main}}{{.Dir}}{{range .GoFiles}} {{.}}{{end}}{{range .EmbedFiles}} {{.}}{{end}}{{end}}{{end}}`,
		pkg)
	list.Dir = dir
	var stderr bytes.Buffer
	list.Stderr = &stderr
	out, err := list.Output()
	if err != nil {
		return "", fmt.Errorf("listing the packages of %s: %v\n%s", pkg, err, stderr.String())
	}
	h := sha256.New()
	files := []string{filepath.Join(dir, "go.mod"), filepath.Join(dir, "go.sum")}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		for _, f := range fields[1:] {
			files = append(files, filepath.Join(fields[0], f))
		}
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		rel, _ := filepath.Rel(dir, f)
		fmt.Fprintf(h, "%s %d\n", rel, len(data))
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}
