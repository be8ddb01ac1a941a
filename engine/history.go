package engine

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/config"
)

// historyCLI is the session's CLI with the one read the Automation API
// makes after every up, refresh and destroy, `pulumi stack history --json
// --page-size 1 --page 1` for the update's summary, answered from the
// file backend's history where checkpointHistory can: a CLI run of its
// own otherwise, a process start, a checkpoint load and the passphrase's
// key derivation, once per stack and operation. Every other command is
// the CLI's.
type historyCLI struct {
	auto.PulumiCommand
	s *Session
}

func (c historyCLI) Run(ctx context.Context, workdir string, stdin io.Reader, additionalOutput, additionalErrorOutput []io.Writer,
	additionalEnv []string, args ...string,
) (string, string, int, error) {
	if stack, showSecrets, ok := lastUpdateQuery(args); ok {
		if out, ok := c.s.checkpointHistory(ctx, stack, showSecrets); ok {
			return out, "", 0, nil
		}
	}
	return c.PulumiCommand.Run(ctx, workdir, stdin, additionalOutput, additionalErrorOutput, additionalEnv, args...)
}

// lastUpdateQuery reports whether args are exactly those of the
// Automation API's read of a stack's last update (auto.Stack.History
// with a page of one, as Up, Refresh and Destroy call it), and of which
// stack.
func lastUpdateQuery(args []string) (stack string, showSecrets bool, ok bool) {
	want := []string{"stack", "history", "--json", "--page-size", "1", "--page", "1", "--stack"}
	if i := slices.Index(args, "--show-secrets"); i == 3 {
		showSecrets, args = true, slices.Delete(slices.Clone(args), i, i+1)
	}
	if len(args) != len(want)+1 || !slices.Equal(args[:len(want)], want) {
		return "", false, false
	}
	return args[len(want)], showSecrets, true
}

// historyEntry is a history file of the file backend, as the CLI's diy
// backend writes it (pkg/backend, UpdateInfo).
type historyEntry struct {
	Kind            string            `json:"kind"`
	StartTime       int64             `json:"startTime"`
	Message         string            `json:"message"`
	Environment     map[string]string `json:"environment"`
	Config          config.Map        `json:"config"`
	Version         int               `json:"version"`
	Result          string            `json:"result"`
	EndTime         int64             `json:"endTime"`
	ResourceChanges map[string]int    `json:"resourceChanges,omitempty"`
}

// checkpointHistory is `pulumi stack history --json --page-size 1 --page
// 1` of name (with --show-secrets, its config's secrets decrypted), from
// the newest history file in the session's file backend
// (<backend>/.pulumi/history/<project>/<stack>/<stack>-<time>.history.json,
// the names sorting in time order), printed as the CLI prints it
// (pkg/cmd/pulumi/stack, buildUpdatesJSON). ok is false where only the CLI
// can answer: as for checkpointFile, a stack the backend does not hold, a
// compressed history file, one that does not decode, or a secret the
// passphrase does not open.
func (s *Session) checkpointHistory(ctx context.Context, name string, showSecrets bool) (string, bool) {
	if held, known := s.holdsCheckpoint(name); !held || !known {
		return "", false // the CLI says the stack does not exist
	}
	dir := filepath.Join(s.offlineBackend(), ".pulumi", "history", s.project, name)
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", false
	}
	var newest string
	for _, e := range entries {
		switch n := e.Name(); {
		case strings.HasSuffix(n, ".history.json.gz"), strings.HasSuffix(n, ".history.json.zst"):
			return "", false
		case strings.HasSuffix(n, ".history.json"):
			newest = max(newest, n)
		}
	}
	if newest == "" {
		return "[]", true // never updated
	}
	data, err := os.ReadFile(filepath.Join(dir, newest))
	if err != nil {
		return "", false
	}
	var u historyEntry
	if err := json.Unmarshal(data, &u); err != nil {
		return "", false
	}
	type configValue struct {
		Value       *string `json:"value,omitempty"`
		ObjectValue any     `json:"objectValue,omitempty"`
		Secret      bool    `json:"secret"`
	}
	type updateJSON struct {
		Version         int                    `json:"version"`
		Kind            string                 `json:"kind"`
		StartTime       string                 `json:"startTime"`
		Message         string                 `json:"message"`
		Environment     map[string]string      `json:"environment"`
		Config          map[string]configValue `json:"config"`
		Result          string                 `json:"result,omitempty"`
		EndTime         *string                `json:"endTime,omitempty"`
		ResourceChanges *map[string]int        `json:"resourceChanges,omitempty"`
	}
	// The CLI's time format (pkg/cmd/pulumi/cmd, FormatTime).
	format := func(unix int64) string { return time.Unix(unix, 0).UTC().Format("2006-01-02T15:04:05.000Z07:00") }
	out := updateJSON{Version: u.Version, Kind: u.Kind, StartTime: format(u.StartTime), Message: u.Message, Environment: u.Environment,
		Config: map[string]configValue{}, Result: u.Result}
	var decrypter config.Decrypter
	for k, v := range u.Config {
		cv := configValue{Secret: v.Secure()}
		if v.Secure() && !showSecrets {
			out.Config[k.String()] = cv
			continue
		}
		if v.Secure() && decrypter == nil {
			var err error
			file, _ := readStackFile(s.workspace.WorkDir(), name)
			if decrypter, err = s.crypterOf(file.Salt); err != nil {
				return "", false
			}
		}
		value, err := v.Value(decrypter)
		if err != nil {
			return "", false // the CLI prints a placeholder, and says why
		}
		cv.Value = &value
		if value != "" && v.Object() {
			if err := json.Unmarshal([]byte(value), &cv.ObjectValue); err != nil {
				return "", false
			}
		}
		out.Config[k.String()] = cv
	}
	if u.Result != "in-progress" {
		end, changes := format(u.EndTime), u.ResourceChanges
		if changes == nil {
			changes = map[string]int{}
		}
		out.EndTime, out.ResourceChanges = &end, &changes
	}
	text, err := json.MarshalIndent([]updateJSON{out}, "", "    ")
	if err != nil {
		return "", false
	}
	return string(text), true
}
