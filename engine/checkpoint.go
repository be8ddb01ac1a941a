package engine

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/config"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/sig"
	"gopkg.in/yaml.v3"
)

// sessionWorkspace is the session's LocalWorkspace, with what a file
// backend's checkpoints answer without the CLI: a stack's outputs, its
// existence and (historyCLI) its last update's summary. The Automation
// API reads the outputs after every update with two CLI runs (`pulumi
// stack output --json`, then again with --show-secrets, to tell which
// are secret), and selects the stack before
// every operation with another, each a process start, a checkpoint load
// and, for the secrets, the passphrase's key derivation (PBKDF2, a
// million rounds). Everything else is the LocalWorkspace's.
type sessionWorkspace struct {
	auto.Workspace
	s *Session
}

// StackOutputs is the stack's outputs as `pulumi stack output --json
// --show-secrets` shows them, each marked secret where the state holds a
// secret; from the checkpoint when checkpointOutputs can read it, else
// from the CLI.
func (w sessionWorkspace) StackOutputs(ctx context.Context, name string) (auto.OutputMap, error) {
	if out, ok, err := w.s.checkpointOutputs(ctx, name); ok || err != nil {
		return out, err
	}
	return w.Workspace.StackOutputs(ctx, name)
}

// PulumiCommand is the session's CLI, with the read of an update's
// summary answered from the file backend's history (historyCLI).
func (w sessionWorkspace) PulumiCommand() auto.PulumiCommand {
	return historyCLI{PulumiCommand: w.Workspace.PulumiCommand(), s: w.s}
}

// SelectStack selects a stack the session's file backend holds without
// running the CLI: every command names its stack (--stack), so selecting
// only checks that it exists, and its checkpoint says so. A stack it does
// not hold goes to the CLI, which refuses it (and UpsertStack creates it).
func (w sessionWorkspace) SelectStack(ctx context.Context, name string) error {
	if held, _ := w.s.holdsCheckpoint(name); held {
		return nil
	}
	return w.Workspace.SelectStack(ctx, name)
}

// upsert is auto.UpsertStack without the `stack select` the CLI would
// refuse first: where the session's file backend holds no checkpoint for
// name, it holds no such stack (`stack init` writes one), so the stack is
// created at once; should that fail, the upsert runs as usual.
func (s *Session) upsert(ctx context.Context, name string) (auto.Stack, error) {
	if held, known := s.holdsCheckpoint(name); known && !held {
		stack, initErr := auto.NewStack(ctx, name, s.workspace)
		if initErr == nil {
			return stack, nil
		}
		// Created meanwhile, say: the upsert selects it; if it fails
		// too, both errors say why.
		stack, err := auto.UpsertStack(ctx, name, s.workspace)
		if err != nil {
			return auto.Stack{}, errors.Join(fmt.Errorf("creating stack %s: %w", name, initErr), err)
		}
		return stack, nil
	}
	return auto.UpsertStack(ctx, name, s.workspace)
}

// holdsCheckpoint reports whether the session's file backend holds a
// checkpoint for name; known is false where only the CLI can tell
// (checkpointFile is "", or the file could not be examined).
func (s *Session) holdsCheckpoint(name string) (held, known bool) {
	path := s.checkpointFile(name)
	if path == "" {
		return false, false
	}
	_, err := os.Stat(path)
	if err == nil {
		return true, true
	}
	return false, errors.Is(err, fs.ErrNotExist)
}

// checkpointFile is where the session's file backend keeps name's
// checkpoint, or "" for another backend, or where a compressed checkpoint
// is beside it: the backend reads the newest of <stack>.json, .json.gz
// and .json.zst (pkg/backend/diy, stackPath), which only the CLI decides.
//
// Only offline: there the backend is the session's own, written by the
// pinned CLI (FindCLI) the shortcut is tested against; online, the
// backend and its format are the CLI's business.
func (s *Session) checkpointFile(name string) string {
	dir := s.offlineBackend()
	if dir == "" {
		return ""
	}
	path := filepath.Join(dir, ".pulumi", "stacks", s.project, name+".json")
	for _, ext := range []string{".gz", ".zst"} {
		if _, err := os.Stat(path + ext); err == nil {
			return ""
		}
	}
	return path
}

// offlineBackend is the session's file backend, which the pinned CLI
// writes, where the checkpoint shortcuts may read it: offline, once the
// project's name is known; "" otherwise.
func (s *Session) offlineBackend() string {
	if !s.opts.Offline || s.project == "" {
		return ""
	}
	return s.fileBackend()
}

// checkpointStacks are the stacks the session's file backend holds, as
// `pulumi stack ls` lists them: a checkpoint each in
// <backend>/.pulumi/stacks/<project>/. ok is false where only the CLI can
// answer: online, another backend, or a compressed checkpoint
// (checkpointFile).
func (s *Session) checkpointStacks() (names []string, ok bool) {
	backend := s.offlineBackend()
	if backend == "" {
		return nil, false
	}
	dir := filepath.Join(backend, ".pulumi", "stacks", s.project)
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, false
	}
	for _, e := range entries {
		n := e.Name()
		if strings.HasSuffix(n, ".json.gz") || strings.HasSuffix(n, ".json.zst") {
			return nil, false
		}
		// <stack>.json, not the .json.bak the backend keeps beside it.
		if name, found := strings.CutSuffix(n, ".json"); found && !e.IsDir() {
			names = append(names, name)
		}
	}
	return names, true
}

// errFallBack sends a read the checkpoint cannot answer to the CLI.
var errFallBack = errors.New("answered by the CLI")

// checkpointOutputs reads name's outputs from its checkpoint in the
// session's file backend (<backend>/.pulumi/stacks/<project>/<stack>.json).
// ok is false where only the CLI can answer: another backend, no
// checkpoint file (the CLI says why), a compressed one beside it, a secret under a
// secrets provider other than the passphrase, or a value that is neither
// plain JSON nor a secret.
func (s *Session) checkpointOutputs(ctx context.Context, name string) (out auto.OutputMap, ok bool, err error) {
	checkpoint, ok := s.readCheckpoint(name)
	if !ok {
		return nil, false, nil
	}
	out = auto.OutputMap{}
	if checkpoint.Latest == nil {
		return out, true, nil // created, never updated: no outputs
	}
	var root *apitype.ResourceV3
	for i, r := range checkpoint.Latest.Resources {
		if r.Type == "pulumi:pulumi:Stack" && r.Parent == "" {
			root = &checkpoint.Latest.Resources[i]
			break
		}
	}
	if root == nil {
		return out, true, nil
	}
	r := reveal{decrypt: func(ciphertext string) (string, error) {
		c, err := s.crypter(checkpoint.Latest.SecretsProviders)
		if err != nil {
			return "", err
		}
		return c.DecryptValue(ctx, ciphertext)
	}}
	for k, v := range root.Outputs {
		value, secret, err := r.value(v)
		if errors.Is(err, errFallBack) {
			return nil, false, nil
		}
		if err != nil {
			return nil, false, err
		}
		out[k] = auto.OutputValue{Value: value, Secret: secret}
	}
	return out, true, nil
}

// readCheckpoint decodes name's checkpoint in the session's file backend
// as the CLI's diy backend does (pkg/resource/stack,
// UnmarshalVersionedCheckpointToLatestCheckpoint); ok is false where only
// the CLI can answer: another backend, no checkpoint file, a compressed
// one beside it, or a schema other than version 3 (an older one the CLI
// migrates, a newer one with features).
func (s *Session) readCheckpoint(name string) (*apitype.CheckpointV3, bool) {
	path := s.checkpointFile(name)
	if path == "" {
		return nil, false
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, false
	}
	var cp apitype.VersionedCheckpoint
	if err := json.Unmarshal(data, &cp); err != nil || cp.Version != 3 || len(cp.Features) > 0 {
		return nil, false
	}
	var checkpoint apitype.CheckpointV3
	if err := json.Unmarshal(cp.Checkpoint, &checkpoint); err != nil {
		return nil, false
	}
	return &checkpoint, true
}

// checkpointExport is `pulumi stack export` of name (without
// --show-secrets) from its checkpoint, as the CLI's diy backend exports
// it (pkg/backend/diy, ExportDeployment): the latest deployment decoded
// and encoded again, its secrets encrypted as the state holds them. ok is
// false where only the CLI can answer (readCheckpoint).
func (s *Session) checkpointExport(name string) (apitype.UntypedDeployment, bool, error) {
	checkpoint, ok := s.readCheckpoint(name)
	if !ok {
		return apitype.UntypedDeployment{}, false, nil
	}
	data, err := json.Marshal(checkpoint.Latest)
	if err != nil {
		return apitype.UntypedDeployment{}, false, err
	}
	return apitype.UntypedDeployment{Version: 3, Deployment: data}, true, nil
}

// reveal turns a checkpoint's serialized property value into the value the
// CLI prints, secrets decrypted.
type reveal struct {
	decrypt func(ciphertext string) (string, error)
}

// value is v revealed, and whether v holds a secret.
func (r reveal) value(v any) (any, bool, error) {
	switch v := v.(type) {
	case []any:
		out, secret := make([]any, len(v)), false
		for i, e := range v {
			value, s, err := r.value(e)
			if err != nil {
				return nil, false, err
			}
			out[i], secret = value, secret || s
		}
		return out, secret, nil
	case map[string]any:
		switch v[sig.Key] {
		case nil:
		case sig.Secret:
			plaintext, ok := v["plaintext"].(string)
			if ciphertext, enc := v["ciphertext"].(string); enc {
				var err error
				if plaintext, err = r.decrypt(ciphertext); err != nil {
					return nil, false, err
				}
			} else if !ok {
				return nil, false, errFallBack
			}
			var inner any
			if err := json.Unmarshal([]byte(plaintext), &inner); err != nil {
				return nil, false, err
			}
			value, _, err := r.value(inner)
			return value, true, err
		default: // an asset, archive, resource reference or output value
			return nil, false, errFallBack
		}
		out, secret := make(map[string]any, len(v)), false
		for k, e := range v {
			value, s, err := r.value(e)
			if err != nil {
				return nil, false, err
			}
			out[k], secret = value, secret || s
		}
		return out, secret, nil
	}
	return v, false, nil
}

// crypters are the passphrase crypters derived in this process, by
// passphrase and salt: a key derivation is a fifth of a second of CPU.
var crypters sync.Map

// crypterKey is a crypter's key in crypters.
func crypterKey(passphrase, salt string) [32]byte {
	return sha256.Sum256([]byte(passphrase + "\x00" + salt))
}

// crypter is the passphrase crypter of a checkpoint's secrets provider,
// as the CLI's passphrase secrets manager derives it; errFallBack for
// another provider or an unknown passphrase.
func (s *Session) crypter(p *apitype.SecretsProvidersV1) (config.Crypter, error) {
	if p == nil || p.Type != "passphrase" {
		return nil, errFallBack
	}
	var state struct {
		Salt string `json:"salt"`
	}
	if err := json.Unmarshal(p.State, &state); err != nil {
		return nil, errFallBack
	}
	return s.crypterOf(state.Salt)
}

// crypterOf is the crypter of a passphrase salt, a stack's "encryptionsalt"
// ("v1:<salt>:<the word pulumi, encrypted>").
func (s *Session) crypterOf(salt string) (config.Crypter, error) {
	return crypterFor(s.passphrase, salt)
}

// crypterFor is the crypter of passphrase and salt, derived once per
// process.
func crypterFor(passphrase, salt string) (config.Crypter, error) {
	if passphrase == "" {
		return nil, errFallBack
	}
	key := crypterKey(passphrase, salt)
	if c, ok := crypters.Load(key); ok {
		return c.(config.Crypter), nil
	}
	// As the passphrase manager reads it (pkg/secrets/passphrase).
	parts := strings.SplitN(salt, ":", 3)
	if len(parts) != 3 || parts[0] != "v1" {
		return nil, errFallBack
	}
	raw, err := base64.StdEncoding.DecodeString(parts[1])
	if err != nil {
		return nil, errFallBack
	}
	c := config.NewSymmetricCrypterFromPassphrase(passphrase, raw)
	if check, err := c.DecryptValue(context.Background(), parts[2]); err != nil || check != "pulumi" {
		return nil, errFallBack // the CLI reports the wrong passphrase
	}
	crypters.Store(key, c)
	return c, nil
}

// stackFile is what the session reads of a workspace's stack file
// (Pulumi.<stack>.yaml): its passphrase salt and its config.
type stackFile struct {
	Salt   string         `yaml:"encryptionsalt"`
	Config map[string]any `yaml:"config"`
}

// readStackFile reads name's stack file in workDir; ok is false where
// there is none or it does not parse.
func readStackFile(workDir, name string) (file stackFile, ok bool) {
	data, err := os.ReadFile(filepath.Join(workDir, "Pulumi."+name+".yaml"))
	if err != nil {
		return stackFile{}, false
	}
	if yaml.Unmarshal(data, &file) != nil {
		return stackFile{}, false
	}
	return file, true
}

// sharedSalt is the encryption salt an offline workspace's new stacks
// share (copyProject): the first salt one of its stack files already
// holds, else a new one, as the CLI's passphrase secrets manager makes it
// (pkg/secrets/passphrase, NewPassphraseSecretsManager): "v1:", eight
// random bytes, and the word pulumi encrypted with the derived key, which
// tells the CLI a wrong passphrase.
func sharedSalt(workDir string, stacks []string, passphrase string) (string, error) {
	for _, name := range stacks {
		if file, ok := readStackFile(workDir, name); ok && file.Salt != "" {
			return file.Salt, nil
		}
	}
	raw := make([]byte, 8)
	if _, err := rand.Read(raw); err != nil {
		return "", err
	}
	c := config.NewSymmetricCrypterFromPassphrase(passphrase, raw)
	check, err := c.EncryptValue(context.Background(), "pulumi")
	if err != nil {
		return "", err
	}
	salt := "v1:" + base64.StdEncoding.EncodeToString(raw) + ":" + check
	crypters.Store(crypterKey(passphrase, salt), c)
	return salt, nil
}
