package platformctl

import (
	"regexp"
	"strings"
)

// autoDump is what the Automation API appends to a failed CLI run's
// error (sdk/v3/go/auto, autoError.Error: "%s\ncode: %d\nstdout: %s\nstderr: %s\n"):
// the CLI's whole output, which the user already saw streamed, or which
// buries the one line that says what went wrong.
var autoDump = regexp.MustCompile(`(?s)\ncode: (-?\d+)\nstdout: (.*)\nstderr: (.*)$`)

// plain is err's message as the user should read it: an Automation API
// error's dump replaced by the CLI's own error lines (those it starts
// with "error: "), once; or, when it printed none, its last line of
// standard error.
func plain(msg string) string {
	m := autoDump.FindStringSubmatchIndex(msg)
	if m == nil {
		return msg
	}
	head := strings.TrimRight(msg[:m[0]], "\n")
	stderr := msg[m[6]:m[7]]
	var said []string
	seen := map[string]bool{}
	for _, line := range strings.Split(stderr, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "error: ") && !seen[line] {
			seen[line] = true
			said = append(said, strings.TrimPrefix(line, "error: "))
		}
	}
	if len(said) == 0 {
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if last := strings.TrimSpace(lines[len(lines)-1]); last != "" {
			said = append(said, last)
		}
	}
	if len(said) == 0 {
		return head
	}
	return head + ": the Pulumi CLI says: " + strings.Join(said, "; ")
}
