package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optrefresh"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
)

// State backups (seed 001: state export for backup, and recovery). Before
// an up or a destroy changes a stack, its state is exported as `pulumi
// stack export` writes it (secrets stay encrypted by the stack's secrets
// provider) to <backups>/<stack>/<UTC time>.json, and the newest
// KeepBackups of each stack are kept. A backup is for a damaged state (a
// bad hand edit, a lost checkpoint): rolling back a bad change is a revert
// of the catalog commit, applied by the chain like any change.

// DefaultKeepBackups is how many backups of each stack are kept.
const DefaultKeepBackups = 10

// BackupDir is where the session keeps its backups: Options.BackupDir;
// else, offline, <state>/backups; else, beside a file:// backend,
// <backend>/backups; else <project>/.backups (a cloud backend: keep that
// directory, for example as a CI artifact, or set it elsewhere).
func (s *Session) BackupDir() string {
	switch {
	case s.opts.BackupDir != "":
		return s.opts.BackupDir
	case s.opts.Offline:
		return filepath.Join(s.opts.StateDir, "backups")
	}
	if dir := s.fileBackend(); dir != "" {
		return filepath.Join(dir, "backups")
	}
	return filepath.Join(s.opts.ProjectDir, ".backups")
}

// fileBackend is the directory of the session's file:// backend (offline:
// <state>/backend), or "" for another backend.
func (s *Session) fileBackend() string {
	if s.opts.Offline {
		return filepath.Join(s.opts.StateDir, "backend")
	}
	// The CLI's backend: Options.Env's PULUMI_BACKEND_URL over the
	// process's, as the CLI gets them.
	backend, ok := s.opts.Env["PULUMI_BACKEND_URL"]
	if !ok {
		backend = os.Getenv("PULUMI_BACKEND_URL")
	}
	if u, err := url.Parse(backend); err == nil && u.Scheme == "file" {
		return u.Path
	}
	return ""
}

func (s *Session) keepBackups() int {
	if s.opts.KeepBackups > 0 {
		return s.opts.KeepBackups
	}
	return DefaultKeepBackups
}

// Backup exports the state of one stack to a new backup file and returns
// its path; "" for a stack that holds nothing (never created, never
// deployed or destroyed), which has nothing to lose.
func (s *Session) Backup(ctx context.Context, name string) (string, error) {
	stack, err := s.selected(ctx, name)
	if auto.IsSelectStack404Error(err) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return s.backup(ctx, stack)
}

// backup is Backup of a selected stack.
func (s *Session) backup(ctx context.Context, stack auto.Stack) (string, error) {
	name := stack.Name()
	exported, err := s.exportEncrypted(ctx, name)
	if err != nil {
		return "", fmt.Errorf("exporting the state of %s: %w", name, err)
	}
	if urns, err := resourceURNs(exported); err != nil || len(urns) == 0 {
		return "", err
	}
	data, err := json.MarshalIndent(exported, "", "    ")
	if err != nil {
		return "", err
	}
	dir := filepath.Join(s.BackupDir(), name)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	path := filepath.Join(dir, time.Now().UTC().Format("20060102T150405.000000000Z")+".json")
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o600); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, path); err != nil {
		return "", err
	}
	return path, s.prune(name)
}

// exportEncrypted is `pulumi stack export` with the secrets as the state
// holds them, encrypted (the Automation API's Export adds --show-secrets,
// which a file on disk must never hold); read from the checkpoint where
// the session's file backend holds one the CLI would read (a CLI run
// less before every update, refresh and destroy).
func (s *Session) exportEncrypted(ctx context.Context, name string) (apitype.UntypedDeployment, error) {
	if out, ok, err := s.checkpointExport(name); ok || err != nil {
		return out, err
	}
	return s.cliExport(ctx, name)
}

// cliExport is `pulumi stack export` of name, secrets encrypted.
func (s *Session) cliExport(ctx context.Context, name string) (apitype.UntypedDeployment, error) {
	var out apitype.UntypedDeployment
	stdout, stderr, _, err := s.cli.Run(ctx, s.workspace.WorkDir(), nil, nil, nil, s.env, "stack", "export", "--stack", name)
	if err != nil {
		return out, fmt.Errorf("%w: %s", err, stderr)
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		return out, fmt.Errorf("reading the export: %w", err)
	}
	return out, nil
}

// Backups lists the backups of one stack, oldest first.
func (s *Session) Backups(name string) ([]string, error) {
	matches, err := filepath.Glob(filepath.Join(s.BackupDir(), name, "*.json"))
	slices.Sort(matches) // the names are UTC times
	return matches, err
}

// prune removes all but the newest keepBackups backups of a stack.
func (s *Session) prune(name string) error {
	backups, err := s.Backups(name)
	if err != nil {
		return err
	}
	var errs []error
	for len(backups) > s.keepBackups() {
		errs = append(errs, os.Remove(backups[0]))
		backups = backups[1:]
	}
	return errors.Join(errs...)
}

// backupBefore backs a stack up before op changes it; a failed backup
// stops op before it changes anything.
func (s *Session) backupBefore(ctx context.Context, stack auto.Stack, op string) error {
	if _, err := s.backup(ctx, stack); err != nil {
		return fmt.Errorf("nothing was changed: the backup of %s's state before the %s failed: %w", stack.Name(), op, err)
	}
	return nil
}

// Restore replaces one stack's state with a backup (`pulumi stack
// import`), after backing up the state it replaces, and then previews a
// refresh: what differs between the restored state and the cloud (the
// changes made since the backup) is shown as drift, and the next up
// applies the catalog again. A file holding another stack's or project's
// state, or no resources, is refused.
func (s *Session) Restore(ctx context.Context, name, file string, opts RepairOptions) (auto.PreviewResult, error) {
	if err := s.checkDelivery(name); err != nil {
		return auto.PreviewResult{}, err
	}
	o := s.paced(opts.run())
	data, err := os.ReadFile(file)
	if err != nil {
		return auto.PreviewResult{}, err
	}
	var backup apitype.UntypedDeployment
	if err := json.Unmarshal(data, &backup); err != nil || backup.Version == 0 {
		return auto.PreviewResult{}, fmt.Errorf("%s is not a state export (pulumi stack export): %v", file, err)
	}
	urns, err := resourceURNs(backup)
	if err != nil {
		return auto.PreviewResult{}, fmt.Errorf("%s: %w", file, err)
	}
	if len(urns) == 0 {
		return auto.PreviewResult{}, fmt.Errorf("%s holds no resources: restoring it would empty %s's state, and it cannot show which stack it was taken from", file, name)
	}
	for _, urn := range urns {
		if urn.Stack().String() != name || urn.Project().String() != s.project {
			return auto.PreviewResult{}, fmt.Errorf("%s holds the state of stack %s of project %s, not of %s of %s: restore it to its own stack (--stack %s)",
				file, urn.Stack(), urn.Project(), name, s.project, urn.Stack())
		}
	}
	stack, err := s.selected(ctx, name)
	if err != nil {
		return auto.PreviewResult{}, err
	}
	if err := s.backupBefore(ctx, stack, "restore"); err != nil {
		return auto.PreviewResult{}, err
	}
	if err := stack.Import(ctx, backup); err != nil {
		return auto.PreviewResult{}, fmt.Errorf("restoring %s from %s: %w", name, file, err)
	}
	s.deployed.Delete(name)
	s.deployedOutputs(name, nil)
	defer s.flush()
	stdout, stderr := o.streams(s)
	return stack.PreviewRefresh(ctx, optrefresh.ProgressStreams(stdout), optrefresh.ErrorProgressStreams(stderr),
		optrefresh.Parallel(o.parallel()), optrefresh.Diff())
}

// resourceURNs are the URNs of the resources a state export holds.
func resourceURNs(d apitype.UntypedDeployment) ([]resource.URN, error) {
	var deployment struct {
		Resources []struct {
			URN string `json:"urn"`
		} `json:"resources"`
	}
	if len(d.Deployment) == 0 {
		return nil, nil
	}
	if err := json.Unmarshal(d.Deployment, &deployment); err != nil {
		return nil, fmt.Errorf("reading a state export: %w", err)
	}
	out := make([]resource.URN, 0, len(deployment.Resources))
	for _, r := range deployment.Resources {
		urn, err := resource.ParseURN(r.URN)
		if err != nil {
			return nil, fmt.Errorf("a resource of the state export: %w", err)
		}
		out = append(out, urn)
	}
	return out, nil
}
