//go:build linux

package engine

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// killCLI kills, as a dying runner would, every Pulumi CLI this test
// process started for the session whose state is under state (its
// PULUMI_HOME), and none of the other tests' running beside it.
func killCLI(t *testing.T, state string) {
	t.Helper()
	home := []byte("PULUMI_HOME=" + filepath.Join(state, "home") + "\x00")
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, stat := range stats {
		data, err := os.ReadFile(stat)
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...
		fields := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
		if len(fields) < 2 || fields[1] != strconv.Itoa(os.Getpid()) || !strings.Contains(string(data), "(pulumi)") {
			continue
		}
		if env, err := os.ReadFile(filepath.Join(filepath.Dir(stat), "environ")); err != nil || !bytes.Contains(env, home) {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(stat)))
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Logf("killing the CLI %d: %v", pid, err)
		}
	}
}
