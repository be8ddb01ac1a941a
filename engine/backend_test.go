package engine

import (
	"testing"
)

// The session reads the backend the CLI is given (Options.Env over the
// process), and reads checkpoints itself only offline.
func TestFileBackendIsTheCLIs(t *testing.T) {
	t.Setenv("PULUMI_BACKEND_URL", "file:///from-the-process")
	s := &Session{opts: Options{Env: map[string]string{"PULUMI_BACKEND_URL": "file:///from-options"}}, project: "harness-platform"}
	if got := s.fileBackend(); got != "/from-options" {
		t.Errorf("fileBackend %q, want the CLI's /from-options", got)
	}
	s.opts.Env = nil
	if got := s.fileBackend(); got != "/from-the-process" {
		t.Errorf("fileBackend %q, want /from-the-process", got)
	}
	if got := s.checkpointFile("dev"); got != "" {
		t.Errorf("an online session reads checkpoints itself: %q", got)
	}
	s.opts.Offline, s.opts.StateDir = true, t.TempDir()
	if got := s.checkpointFile("dev"); got == "" {
		t.Error("an offline session does not read its own checkpoints")
	}
}
