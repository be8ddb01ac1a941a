package engine

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/sig"

	"github.com/company/harness-platform/simulated"
)

// A service stack's outputs are read from the backend once per session;
// an update replaces them, a destroy or a move makes the next read go to
// the backend again; platform stacks are not kept.
func TestReadOutputsOncePerSession(t *testing.T) {
	s := &Session{}
	reads := 0
	backend := map[string]any{"services": []any{"a"}}
	read := func() (map[string]any, error) { reads++; return backend, nil }
	for range 3 {
		if got, err := s.readOutputs("dev.payments", read); err != nil || got["services"].([]any)[0] != "a" {
			t.Fatalf("read %v, %v", got, err)
		}
	}
	if reads != 1 {
		t.Fatalf("the backend was read %d times for one stack, want 1", reads)
	}
	s.deployedOutputs("dev.payments", auto.OutputMap{"services": {Value: []any{"b"}}})
	if got, _ := s.readOutputs("dev.payments", read); got["services"].([]any)[0] != "b" || reads != 1 {
		t.Fatalf("after an update: %v (%d reads), want the update's outputs", got, reads)
	}
	s.deployedOutputs("dev.payments", nil)
	if _, _ = s.readOutputs("dev.payments", read); reads != 2 {
		t.Fatalf("after a destroy the backend must be read again (%d reads)", reads)
	}
	s.deployedOutputs("dev", auto.OutputMap{"kubeconfigs": {Value: "secret", Secret: true}})
	if _, ok := s.outputs.Load("dev"); ok {
		t.Fatal("a platform stack's outputs (its kubeconfigs) were kept")
	}
}

// The outputs a session reads from a file backend's checkpoint are the
// CLI's (`pulumi stack output --json`, with and without --show-secrets,
// as the Automation API reads them): the same values, the same ones
// secret.
func TestCheckpointOutputsAreTheCLIs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := open(t, deployedDev(t), example(t))
	defer s.Close()
	secrets := 0
	for _, stack := range s.Catalog.StacksOf("dev") {
		got, ok, err := s.checkpointOutputs(ctx, stack)
		if err != nil || !ok {
			t.Fatalf("%s: the checkpoint's outputs were not read (%v, %v)", stack, ok, err)
		}
		want, err := s.local.StackOutputs(ctx, stack)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: from the checkpoint\n%v\nfrom the CLI\n%v", stack, got, want)
		}
		for _, v := range got {
			if v.Secret {
				secrets++
			}
		}
	}
	if secrets == 0 {
		t.Fatal("no secret output was compared")
	}
	// A compressed checkpoint beside the plain one: the backend reads the
	// newer, which only the CLI decides.
	path := s.checkpointFile("dev")
	if err := os.WriteFile(path+".zst", nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.checkpointOutputs(ctx, "dev"); ok {
		t.Error("the plain checkpoint was read beside a compressed one")
	}
	if err := os.Remove(path + ".zst"); err != nil {
		t.Fatal(err)
	}
	// A stack the backend does not hold is the CLI's to refuse.
	if _, ok, err := s.checkpointOutputs(ctx, "staging"); ok || err != nil {
		t.Errorf("a stack with no checkpoint was answered (%v, %v)", ok, err)
	}
}

// A backup read from the checkpoint is what `pulumi stack export` gives:
// the same deployment, its secrets encrypted as the state holds them.
func TestCheckpointExportIsTheCLIs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := open(t, deployedDev(t), example(t))
	defer s.Close()
	secrets := 0
	for _, stack := range s.Catalog.StacksOf("dev") {
		got, ok, err := s.checkpointExport(stack)
		if err != nil || !ok {
			t.Fatalf("%s: the checkpoint was not read (%v, %v)", stack, ok, err)
		}
		want, err := s.cliExport(ctx, stack)
		if err != nil {
			t.Fatal(err)
		}
		// Compared as JSON values: the CLI indents its export, and a raw
		// message (the secrets provider's state) keeps that whitespace.
		var g, w any
		if err := json.Unmarshal(got.Deployment, &g); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(want.Deployment, &w); err != nil {
			t.Fatal(err)
		}
		if got.Version != want.Version || !slices.Equal(got.Features, want.Features) || !reflect.DeepEqual(g, w) {
			t.Errorf("%s: from the checkpoint (version %d) differs from the CLI's export (version %d)", stack, got.Version, want.Version)
		}
		if urns, err := resourceURNs(got); err != nil || len(urns) == 0 {
			t.Errorf("%s: no resources compared (%v)", stack, err)
		}
		secrets += strings.Count(string(got.Deployment), `"ciphertext"`)
		for id, r := range cloudRecords(t, s.opts.StateDir) {
			if r.Type == "harness:platform/delegatetoken:Delegatetoken" && strings.Contains(string(got.Deployment), simulated.DelegateToken(id)) {
				t.Errorf("%s: the export holds delegate token %s in plaintext", stack, id)
			}
		}
	}
	if secrets == 0 {
		t.Fatal("no encrypted secret was compared")
	}
	// A stack the backend does not hold is the CLI's.
	if _, ok, err := s.checkpointExport("staging"); ok || err != nil {
		t.Errorf("a stack with no checkpoint was answered (%v, %v)", ok, err)
	}
}

// The summary of a stack's last update, read from the file backend's
// history after every up, refresh and destroy, is the CLI's (`pulumi
// stack history --json --page-size 1 --page 1`, with and without
// --show-secrets, as the Automation API runs it): the same update, the
// same config, its secrets shown only when asked for.
func TestCheckpointHistoryIsTheCLIs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := open(t, deployedDev(t), example(t))
	defer s.Close()
	cli, err := FindCLI() // unrecorded: TestMain refuses a session's history run
	if err != nil {
		t.Fatal(err)
	}
	// A secret in the last update's config: the stacks keep none of their
	// own (connector credentials are references to a secret manager), so
	// dev is given one and refreshed.
	if _, stderr, _, err := cli.Run(ctx, s.workspace.WorkDir(), strings.NewReader("probe-value"), nil, nil, s.env,
		"config", "set", "--secret", "--stack", "dev", "probe:secret"); err != nil {
		t.Fatalf("%v: %s", err, stderr)
	}
	if err := s.refreshStack(ctx, "dev", runOptions{Stdout: io.Discard, Stderr: io.Discard}); err != nil {
		t.Fatal(err)
	}
	secrets, changes := 0, 0
	for _, stack := range s.Catalog.StacksOf("dev") {
		for _, showSecrets := range []bool{true, false} {
			args := []string{"stack", "history", "--json", "--page-size", "1", "--page", "1", "--stack", stack}
			if showSecrets {
				args = slices.Insert(args, 3, "--show-secrets")
			}
			if got, gotShow, ok := lastUpdateQuery(args); !ok || got != stack || gotShow != showSecrets {
				t.Fatalf("%q is not recognised as the read of %s's last update", args, stack)
			}
			text, ok := s.checkpointHistory(ctx, stack, showSecrets)
			if !ok {
				t.Fatalf("%s: the history was not read", stack)
			}
			stdout, stderr, _, err := cli.Run(ctx, s.workspace.WorkDir(), nil, nil, nil, s.env, args...)
			if err != nil {
				t.Fatalf("%s: %v\n%s", stack, err, stderr)
			}
			var got, want []auto.UpdateSummary
			if err := json.Unmarshal([]byte(text), &got); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(stdout), &want); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) || len(got) != 1 {
				t.Errorf("%s (--show-secrets %v): from the history file\n%+v\nfrom the CLI\n%+v", stack, showSecrets, got, want)
				continue
			}
			for _, v := range got[0].Config {
				if v.Secret && showSecrets && v.Value != "" {
					secrets++
				}
			}
			if got[0].ResourceChanges != nil {
				changes += len(*got[0].ResourceChanges)
			}
		}
	}
	if secrets == 0 || changes == 0 {
		t.Fatalf("no secret config value (%d) or resource change (%d) was compared", secrets, changes)
	}
	// A stack the backend does not hold is the CLI's to refuse.
	if _, ok := s.checkpointHistory(ctx, "staging", true); ok {
		t.Error("a stack with no checkpoint was answered")
	}
	for _, args := range [][]string{
		{"stack", "history", "--json", "--stack", "dev"},
		{"stack", "history", "--json", "--page-size", "2", "--page", "1", "--stack", "dev"},
		{"stack", "history", "--page-size", "1", "--page", "1", "--stack", "dev"},
	} {
		if _, _, ok := lastUpdateQuery(args); ok {
			t.Errorf("%q was taken for the read of the last update", args)
		}
	}
}

// The stacks a session finds in the file backend's checkpoints are
// those `pulumi stack ls` lists: deployed ones, and one created and never
// updated.
func TestCheckpointStacksAreTheCLIs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := open(t, deployedDev(t), example(t))
	defer s.Close()
	if _, err := s.upsert(ctx, "created-only"); err != nil {
		t.Fatal(err)
	}
	got, ok := s.checkpointStacks()
	if !ok {
		t.Fatal("the checkpoints were not read")
	}
	summaries, err := s.workspace.ListStacks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, sum := range summaries {
		want = append(want, filepath.Base(sum.Name))
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) || !slices.Contains(got, "created-only") || !slices.Contains(got, "dev") {
		t.Errorf("from the checkpoints %q, from the CLI %q", got, want)
	}
}

// A stack the file backend does not hold is created without the `stack
// select` the CLI would refuse; one it holds is selected from its
// checkpoint, with no CLI run at all.
func TestUpsertRunsOnlyWhatItNeeds(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := open(t, t.TempDir(), example(t))
	name := "upsert-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	runs := func(verb string) int {
		commandLines.Lock()
		defer commandLines.Unlock()
		n := 0
		for _, l := range commandLines.all {
			if strings.HasPrefix(l, "stack "+verb) && strings.Contains(l, name) {
				n++
			}
		}
		return n
	}
	for i := range 2 {
		if _, err := s.upsert(ctx, name); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(s.checkpointFile(name)); err != nil {
			t.Fatalf("upsert %d: no checkpoint: %v", i+1, err)
		}
		if init, sel := runs("init"), runs("select"); init != 1 || sel != 0 {
			t.Errorf("upsert %d: %d stack init and %d stack select runs, want 1 and 0", i+1, init, sel)
		}
	}
}

// The CLI and its plugins write their temporary files in the session's
// own directory, which Close removes (the real Kubernetes provider leaves
// a kubeconfig file behind at every configuration).
func TestSessionTempDirIsRemoved(t *testing.T) {
	t.Parallel()
	s := open(t, t.TempDir(), example(t))
	var tmp string
	for _, kv := range s.env {
		if v, ok := strings.CutPrefix(kv, "TMPDIR="); ok {
			tmp = v
		}
	}
	if tmp == "" || tmp == os.TempDir() {
		t.Fatalf("the CLI runs with TMPDIR %q, want a directory of the session's", tmp)
	}
	left := filepath.Join(tmp, "kubeconfig123")
	if err := os.WriteFile(left, []byte("apiVersion: v1\n"), 0o600); err != nil {
		t.Fatalf("the session's TMPDIR is not writable: %v", err)
	}
	s.Close()
	if _, err := os.Stat(tmp); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s is left after Close (%v)", tmp, err)
	}
}

// An Open that fails after it started the simulated providers (here
// installing a plugin that does not exist) leaves no temporary directory.
func TestFailedOpenLeavesNoTempDir(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // where the session makes its own
	_, err := Open(context.Background(), Options{ProjectDir: "..", Offline: true, Simulation: simulated.Simulation{}, StateDir: filepath.Join(t.TempDir(), "state"),
		Catalog: example(t), Plugins: map[string]string{"github": filepath.Join(tmp, "missing")}, Stdout: io.Discard, Stderr: io.Discard})
	if err == nil {
		t.Fatal("Open accepted a plugin that does not exist")
	}
	left, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 0 {
		t.Errorf("a failed Open left %v in TMPDIR", left)
	}
}

// What only the CLI prints (an asset, an archive, a resource reference)
// goes to the CLI; a secret nested in a plain value marks the whole
// output secret, as the CLI's "[secret]" inside it does.
func TestRevealLeavesTheRestToTheCLI(t *testing.T) {
	plain := reveal{decrypt: func(string) (string, error) { return `{"b":1}`, nil }}
	v, secret, err := plain.value(map[string]any{"a": []any{map[string]any{sig.Key: sig.Secret, "ciphertext": "x"}}})
	if err != nil || !secret || !reflect.DeepEqual(v, map[string]any{"a": []any{map[string]any{"b": float64(1)}}}) {
		t.Errorf("nested secret: %v, %v, %v", v, secret, err)
	}
	for _, kind := range []string{sig.AssetSig, sig.ArchiveSig, sig.ResourceReference} {
		if _, _, err := plain.value(map[string]any{"x": map[string]any{sig.Key: kind}}); !errors.Is(err, errFallBack) {
			t.Errorf("%s: %v, want the CLI", kind, err)
		}
	}
}

// wantReferenceSecrets fails unless every Harness secret the offline
// cloud holds is a reference (value_type Reference) to a secret of an
// AWS Secrets Manager connector the cloud also holds: the value is
// there, not in Harness or a stack's state.
func wantReferenceSecrets(t *testing.T, state string) {
	t.Helper()
	recs := cloudRecords(t, state)
	managers := map[string]bool{}
	for _, r := range recs {
		if r.Type == "harness:platform/awsSecretManagerConnector:AwsSecretManagerConnector" {
			id, _ := r.Properties["identifier"].(string)
			managers[id] = true
		}
	}
	n := 0
	for id, r := range recs {
		if r.Type != "harness:platform/secretText:SecretText" {
			continue
		}
		n++
		vt, _ := r.Properties["valueType"].(string)
		manager, _ := r.Properties["secretManagerIdentifier"].(string)
		if vt != "Reference" || !managers[manager] {
			t.Errorf("Harness secret %s is %s in %s, want a Reference to an AWS Secrets Manager connector (%v)", id, vt, manager, managers)
		}
	}
	if n == 0 || len(managers) == 0 {
		t.Errorf("%d Harness secrets and %d secret managers: want the foundation's", n, len(managers))
	}
}
