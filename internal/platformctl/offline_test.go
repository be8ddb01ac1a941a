package platformctl

import (
	"os"
	"path/filepath"
	"testing"
)

// HARNESS_PLATFORM_OFFLINE=DIR is --offline --state DIR for every command
// that takes --offline; a --state given wins.
func TestOfflineFromEnv(t *testing.T) {
	t.Setenv(OfflineEnv, "/tmp/state")
	o := options{}
	offlineFromEnv(&o)
	if !o.offline || o.stateDir() != "/tmp/state" {
		t.Errorf("offline %v, state %q", o.offline, o.stateDir())
	}
	o = options{state: "/other"}
	offlineFromEnv(&o)
	if !o.offline || o.stateDir() != "/other" {
		t.Errorf("with --state: offline %v, state %q", o.offline, o.stateDir())
	}
	t.Setenv(OfflineEnv, "")
	o = options{}
	offlineFromEnv(&o)
	if o.offline {
		t.Error("offline without the variable")
	}
}

// Policy packs, configs and the plans' directory named on the command
// line are found where they were given: the CLI runs in the session's workspace (offline, or a
// read-only run's copy of the project).
func TestPolicyPathsAreAbsolute(t *testing.T) {
	packs, configs, err := policyPacks(options{policyPacks: []string{"/abs/pack"}, policyConfigs: []string{"policy/config.json"}})
	if err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	if len(packs) != 1 || packs[0] != "/abs/pack" || len(configs) != 1 || configs[0] != filepath.Join(wd, "policy", "config.json") {
		t.Errorf("packs %v configs %v", packs, configs)
	}
	o := options{planDir: "plans"}
	if err := resolvePaths(&o); err != nil || o.planDir != filepath.Join(wd, "plans") {
		t.Errorf("--save-plan plans: %q %v", o.planDir, err)
	}
}
