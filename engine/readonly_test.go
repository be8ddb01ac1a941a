package engine

import (
	"strings"
	"testing"
)

// A read-only session's stack files import the read-only ESC environment
// in place of the stack's own, in either form of the environment key,
// and keep every other import and the rest of the file.
func TestOverrideEnvironment(t *testing.T) {
	t.Parallel()
	for name, file := range map[string]string{
		"list":    "environment:\n  - harness-platform/dev\n  - platform/shared\nconfig:\n  harness-platform:upstream: \"\"\n",
		"imports": "environment:\n  imports:\n    - harness-platform/dev\n    - platform/shared\nconfig:\n  harness-platform:upstream: \"\"\n",
	} {
		out, err := overrideEnvironment([]byte(file), "harness-platform/dev")
		if err != nil {
			t.Fatal(err)
		}
		got := string(out)
		if !strings.Contains(got, "harness-platform/dev-preview") || strings.Contains(got, "harness-platform/dev\n") ||
			!strings.Contains(got, "platform/shared") || !strings.Contains(got, "harness-platform:upstream") {
			t.Errorf("%s:\n%s", name, got)
		}
	}
}
