// Package engine drives the program through the Pulumi Automation API as
// an inline program (the same program.New that main.go runs). Offline, it
// uses a local file:// backend, a passphrase secrets provider and the
// stand-in cloud the caller composes in (Options.Simulation, package
// offline: the engine never links the simulation), all under one state
// directory:
//
//	<state>/backend    Pulumi state (file:// backend)
//	<state>/cloud      the stand-in cloud's files
//	<state>/workspace  the workspace's copy of Pulumi.yaml and stack files
//	<state>/home       PULUMI_HOME
package engine

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/adopt"
	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/harness/provider"
	"github.com/company/harness-platform/offline"
	"github.com/company/harness-platform/program"
)

// Options configure a Session.
type Options struct {
	// ProjectDir holds Pulumi.yaml, the stack files and catalog/.
	ProjectDir string
	// Offline runs against Simulation's stand-in cloud under StateDir
	// (simulated.Simulation; required offline).
	Offline    bool
	StateDir   string
	Simulation offline.Simulation
	// Passphrase encrypts offline secrets (PULUMI_CONFIG_PASSPHRASE).
	Passphrase string
	// Stdout and Stderr receive the engine's progress.
	Stdout, Stderr io.Writer
	// Catalog overrides loading ProjectDir's catalog (tests).
	Catalog *catalog.Catalog
	// BackupDir is where state backups are kept (default: see
	// Session.BackupDir); KeepBackups, how many of each stack
	// (default DefaultKeepBackups).
	BackupDir   string
	KeepBackups int
	// ReadOnly, online, runs with each stack's read-only ESC environment
	// (PreviewEnvironment) in place of the one its stack file imports:
	// what a preview or the drift check needs, no credential that
	// writes. The CLI's --override-env does this for a plain `pulumi
	// preview`; the Automation API has no such option, so the session
	// runs in a copy of the project's Pulumi.yaml and stack files.
	ReadOnly bool
	// CLI is the Pulumi CLI the session runs (default: FindCLI, the
	// pinned one), as auto.Pulumi sets a workspace's.
	CLI auto.PulumiCommand
	// Env is added to the environment of the CLI and its plugins.
	Env map[string]string
	// RereadRepositories makes the service stacks look every repository
	// id up again (program.RereadRepositories), as does
	// program.RereadRepositoriesEnv in Env or the process's environment.
	RereadRepositories bool
	// Plugins, offline, serves the named providers ("kubernetes",
	// "github", ...) by their real plugin binaries (name: the binary's
	// path) instead of the simulation: installed in the state's
	// PULUMI_HOME at the version the program pins (CheckPlugins).
	Plugins map[string]string
	// Transform, when set, rewrites every resource the program registers
	// (tests: what a faulty generator would register, for the policy
	// pack to refuse).
	Transform pulumi.ResourceTransform
}

// Session is a workspace ready to run stacks of the program.
type Session struct {
	opts      Options
	Catalog   *catalog.Catalog
	cloud     offline.Cloud // offline: the started Simulation
	workspace auto.Workspace
	cli       auto.PulumiCommand
	env       []string // the workspace's environment, for commands run directly
	// checks holds, by stack, the verdicts of the stacks Up checks before
	// updating any: their previews refuse as an update would
	// (program.StrictPreview), and the program reports its guards'
	// verdict (program.Guarded).
	checks sync.Map
	// deployed holds the stacks known to have exported their contract.
	deployed sync.Map
	// probes holds, by stack, the lookups Import runs before the program.
	probes adopt.Probes
	// existing holds the stacks known to exist, selected (auto.Stack).
	existing sync.Map
	// outputs holds service stacks' outputs as read or deployed in this
	// session (readOutputs).
	outputs sync.Map
	// local is the workspace itself (Cancel needs it); workspace adds
	// what the session answers without the CLI.
	local      *auto.LocalWorkspace
	passphrase string // the CLI's PULUMI_CONFIG_PASSPHRASE
	project    string // the Pulumi project's name
	tempDir    string // a read-only session's copy of the project files
	cliTemp    string // the CLI's and its plugins' TMPDIR, removed by Close
}

// DefaultPassphrase encrypts the offline demo's secrets. It protects
// nothing real; set PULUMI_CONFIG_PASSPHRASE to use another.
const DefaultPassphrase = "harness-platform-offline"

// Open validates the catalog and prepares the workspace. Close it.
func Open(ctx context.Context, opts Options) (_ *Session, err error) {
	if opts.Stdout == nil {
		opts.Stdout = os.Stdout
	}
	if opts.Stderr == nil {
		opts.Stderr = os.Stderr
	}
	c := opts.Catalog
	if c == nil {
		var err error
		if c, err = catalog.Load(opts.ProjectDir); err != nil {
			return nil, err
		}
	}
	if opts.Offline && opts.Simulation == nil {
		return nil, errors.New("an offline session needs Options.Simulation (simulated.Simulation{}): the engine runs no stand-in of its own")
	}
	cmd := opts.CLI
	if cmd == nil {
		var err error
		if cmd, err = FindCLI(); err != nil {
			return nil, err
		}
	}
	s := &Session{opts: opts, Catalog: c, cli: cmd}
	env := map[string]string{"PULUMI_SKIP_UPDATE_CHECK": "true"}
	// The CLI and its plugins write their temporary files in a directory
	// of the session's, removed when it closes: the real Kubernetes
	// provider writes the kubeconfig it is given to a new temporary file
	// at every configuration and never removes it (pulumi-kubernetes,
	// provider/pkg/provider/util.go, writeKubeconfigToFile), one per
	// cluster per stack and run, which a long-lived runner would collect.
	tmp, err := os.MkdirTemp("", "harness-platform-tmp-")
	if err != nil {
		return nil, err
	}
	s.cliTemp, env["TMPDIR"] = tmp, tmp
	// A session Open does not return is closed here: its temporary
	// directories removed, its simulated providers stopped.
	defer func() {
		if err != nil {
			s.Close()
		}
	}()
	for k, v := range opts.Env {
		env[k] = v
	}
	workDir := opts.ProjectDir
	if !opts.Offline && opts.ReadOnly {
		dir, err := os.MkdirTemp("", "harness-platform-read-only-")
		if err != nil {
			return nil, err
		}
		s.tempDir, workDir = dir, dir
		if err := s.readOnlyProject(dir); err != nil {
			return nil, err
		}
	}
	if opts.Offline {
		state, err := filepath.Abs(opts.StateDir)
		if err != nil {
			return nil, err
		}
		s.opts.StateDir = state
		workDir = filepath.Join(state, "workspace")
		for _, d := range []string{"backend", "home", "workspace", "cloud"} {
			if err := os.MkdirAll(filepath.Join(state, d), 0o700); err != nil {
				return nil, err
			}
		}
		shared, err := provider.SharedDirOf(opts.ProjectDir)
		if err != nil {
			return nil, err
		}
		if s.cloud, err = opts.Simulation.Start(state, shared, c); err != nil {
			return nil, err
		}
		passphrase := opts.Passphrase
		if passphrase == "" {
			passphrase = DefaultPassphrase
		}
		if err := s.copyProject(workDir, passphrase); err != nil {
			return nil, err
		}
		// metadata=skip: the file backend (gocloud fileblob) otherwise
		// rewrites a sidecar .attrs file in place beside every checkpoint
		// it saves, and a stack reading its own outputs while the engine
		// saves its checkpoint (the guards do, first thing) can read it
		// empty: "failed to load checkpoint: EOF". The checkpoint itself
		// is replaced atomically; the attributes are not needed.
		env["PULUMI_BACKEND_URL"] = "file://" + filepath.Join(state, "backend") + "?metadata=skip"
		env["PULUMI_HOME"] = filepath.Join(state, "home")
		env["PULUMI_CONFIG_PASSPHRASE"] = passphrase
		real, err := s.installPlugins(ctx, env)
		if err != nil {
			return nil, err
		}
		env["PULUMI_DEBUG_PROVIDERS"] = s.cloud.DebugProviders(real...)
	}
	wsOpts := []auto.LocalWorkspaceOption{
		auto.WorkDir(workDir),
		auto.Program(withTransform(s.probes.Wrap(program.New(c.Files(), program.Delivery(s.delivery()), program.StrictPreview(s.isStrict), program.Guarded(s.guarded),
			program.ReadOutputs(s.readOutputs), program.RereadRepositories(s.rereadRepositories()))), opts.Transform)),
		auto.Pulumi(cmd),
		auto.EnvVars(env),
	}
	if opts.Offline {
		wsOpts = append(wsOpts, auto.SecretsProvider("passphrase"))
	}
	// The passphrase the CLI runs with: the session's offline, else the
	// environment's (checkpoint.go decrypts with it what the CLI would).
	s.passphrase = cmp.Or(env["PULUMI_CONFIG_PASSPHRASE"], os.Getenv("PULUMI_CONFIG_PASSPHRASE"))
	for k, v := range env {
		s.env = append(s.env, k+"="+v)
	}
	local, err := auto.NewLocalWorkspace(ctx, wsOpts...)
	if err != nil {
		return nil, err
	}
	s.local, s.workspace = local.(*auto.LocalWorkspace), sessionWorkspace{Workspace: local, s: s}
	project, err := s.workspace.ProjectSettings(ctx)
	if err != nil {
		return nil, err
	}
	s.project = string(project.Name)
	return s, nil
}

// verdict is the guards' verdict on a stack under check, once reached.
type verdict struct {
	reached bool
	err     error
}

// guarded records the guards' verdict on a stack under check.
func (s *Session) guarded(stack string, err error) {
	if s.isStrict(stack) {
		s.checks.Store(stack, verdict{reached: true, err: err})
	}
}

func (s *Session) isStrict(stack string) bool {
	_, ok := s.checks.Load(stack)
	return ok
}

// readOutputs answers the program's reads of service stacks' outputs
// from what this session read or deployed: an environment's up reads every
// service stack from each of the others, and a DIY backend loads a whole
// checkpoint per read. A stack's entry is replaced when the session updates
// it and dropped when it destroys or moves out of it; a read racing an
// update keeps the update's outputs.
func (s *Session) readOutputs(stack string, read func() (map[string]any, error)) (map[string]any, error) {
	if v, ok := s.outputs.Load(stack); ok {
		return v.(map[string]any), nil
	}
	outputs, err := read()
	if err != nil {
		return nil, err
	}
	v, _ := s.outputs.LoadOrStore(stack, outputs)
	return v.(map[string]any), nil
}

// deployedOutputs records what an update of a service stack left as its
// outputs (nil: not known, read them again).
func (s *Session) deployedOutputs(stack string, outputs auto.OutputMap) {
	if _, shard := catalog.SplitStack(stack); shard == "" {
		// Read by the program directly; the session needs to know only
		// that it is deployed (requireDeployed).
		s.recordDeployed(stack, outputs)
		return
	}
	if outputs == nil {
		s.outputs.Delete(stack)
		return
	}
	plain := make(map[string]any, len(outputs))
	for k, v := range outputs {
		plain[k] = v.Value
	}
	s.outputs.Store(stack, plain)
}

// withTransform registers t before running prog.
func withTransform(prog pulumi.RunFunc, t pulumi.ResourceTransform) pulumi.RunFunc {
	if t == nil {
		return prog
	}
	return func(ctx *pulumi.Context) error {
		if err := ctx.RegisterResourceTransform(t); err != nil {
			return err
		}
		return prog(ctx)
	}
}

// Close stops the stand-in cloud and removes the session's
// temporary directories.
func (s *Session) Close() {
	if s.cloud != nil {
		s.cloud.Stop()
	}
	for _, dir := range []string{s.tempDir, s.cliTemp} {
		if dir != "" {
			_ = os.RemoveAll(dir)
		}
	}
}

// copyProject writes Pulumi.yaml and the stack files into the offline
// workspace, keeping the encryption salt the workspace already has so that
// secrets stay readable across runs. The project's files are never
// modified.
//
// A stack file without a salt gets the workspace's shared one
// (sharedSalt), so that `stack init` encrypts the new stack's secrets
// with it instead of drawing a salt of its own: the CLI derives the
// passphrase's key (PBKDF2, a million rounds, a quarter of a second of
// CPU) once per salt and process (pkg/secrets/passphrase caches managers
// by salt), so with one salt an operation derives it once, not again for
// each stack whose outputs it reads through a stack reference.
func (s *Session) copyProject(workDir, passphrase string) error {
	data, err := s.projectFile("Pulumi.yaml")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(workDir, "Pulumi.yaml"), data, 0o600); err != nil {
		return err
	}
	shared := ""
	for _, name := range append(s.Catalog.AllStacks(), s.Catalog.CredentialsStacks()...) {
		file := "Pulumi." + name + ".yaml"
		var settings map[string]any
		data, err := s.projectFile(file)
		if _, shard := catalog.SplitStack(name); shard != "" && err != nil {
			// A service stack's settings are its environment's, which the
			// program reads from the environment's file; its own file
			// holds only what the CLI writes (its encryption salt).
			data, err = []byte("config: {}\n"), nil
		}
		if err != nil {
			return err
		}
		if err := yaml.Unmarshal(data, &settings); err != nil {
			return err
		}
		if settings == nil {
			settings = map[string]any{}
		}
		// The stack's ESC environment: a DIY backend refuses a stack
		// that imports one ("does not support environments"), and
		// offline the simulated services stand in for what it holds.
		delete(settings, "environment")
		// The simulated account, where the provider and the program read
		// it: the program runs inline, in this process, so an environment
		// variable given to the CLI would not reach it.
		config, _ := settings["config"].(map[string]any)
		if config == nil {
			config = map[string]any{}
		}
		config["harness:accountId"] = s.cloud.Account()
		settings["config"] = config
		var previous map[string]any
		if old, err := os.ReadFile(filepath.Join(workDir, file)); err == nil && yaml.Unmarshal(old, &previous) == nil {
			if salt, ok := previous["encryptionsalt"]; ok {
				settings["encryptionsalt"] = salt
			}
		}
		if _, ok := settings["encryptionsalt"]; !ok {
			if shared == "" {
				if shared, err = sharedSalt(workDir, s.Catalog.AllStacks(), passphrase); err != nil {
					return err
				}
			}
			settings["encryptionsalt"] = shared
		}
		out, err := yaml.Marshal(settings)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(workDir, file), out, 0o600); err != nil {
			return err
		}
	}
	return nil
}

// projectFile is a project file as the session's catalog was parsed from
// it (so the workspace's stack files say what the catalog says), or as it
// is on disk.
func (s *Session) projectFile(name string) ([]byte, error) {
	if data, ok := s.Catalog.File(name); ok {
		return data, nil
	}
	return os.ReadFile(filepath.Join(s.opts.ProjectDir, name))
}

// mode is what a platformctl command the session advises needs to run as
// this session runs: " --offline" offline, so that the advice works as
// printed.
func (s *Session) mode() string {
	if s.opts.Offline {
		return " --offline"
	}
	return ""
}

// ErrUpstreamNotDeployed is returned for a stack whose upstream has no
// deployment yet.
var ErrUpstreamNotDeployed = errors.New("upstream not deployed")

// Stack selects (or creates) a stack and configures it. A stack whose
// upstream was never deployed is refused with the stack to deploy first.
//
// A service stack needs its environment's platform stack deployed; a
// platform stack, its upstream's.
func (s *Session) Stack(ctx context.Context, name string) (auto.Stack, error) {
	return s.stack(ctx, name, false)
}

// stack is Stack; for a preview, a service stack may precede its platform
// stack's first deployment (the program previews it against the contract
// the platform stack will export).
func (s *Session) stack(ctx context.Context, name string, preview bool) (auto.Stack, error) {
	st, shard, err := s.Catalog.EnvironmentOf(name)
	if err != nil {
		return auto.Stack{}, err
	}
	switch {
	case shard == catalog.CredentialsShard:
		// Needs no other stack: it comes first in its environment.
	case shard != "" && preview:
	case shard != "":
		if err := s.requireDeployed(ctx, st.Name, name, "its platform stack"); err != nil {
			return auto.Stack{}, err
		}
	case st.Upstream != "":
		if err := s.requireDeployed(ctx, st.Upstream, name, "its upstream"); err != nil {
			return auto.Stack{}, err
		}
	}
	// A stack this session selected or created is not selected again:
	// every command names its stack (--stack), and each CLI run costs
	// its start and a checkpoint read. The first selection is an upsert,
	// and makes sure of the stack's offline secrets (once per session:
	// they live in the workspace's stack file, which Open rewrites).
	if stack, ok := s.existing.Load(name); ok {
		return stack.(auto.Stack), nil
	}
	stack, err := s.upsert(ctx, name)
	if err != nil {
		return auto.Stack{}, err
	}
	if shard != "" && !s.opts.Offline {
		if err := importEnvironments(ctx, s.workspace, name, st.Imports); err != nil {
			return auto.Stack{}, fmt.Errorf("importing %s's ESC environments into %s: %w", st.Name, name, err)
		}
	}
	s.existing.Store(name, stack)
	return stack, nil
}

// selected is the stack name selects, without running the CLI again when
// this session already selected it; an error when it does not exist.
func (s *Session) selected(ctx context.Context, name string) (auto.Stack, error) {
	if stack, ok := s.existing.Load(name); ok {
		return stack.(auto.Stack), nil
	}
	return auto.SelectStack(ctx, name, s.workspace)
}

// requireDeployed refuses stack while what it reads (role: "its upstream",
// "its platform stack") has not been deployed: exported no contract. It
// reads that one stack's outputs, once per session once deployed (listing
// the backend's stacks would read every checkpoint of a DIY backend, for
// every stack of an environment: quadratic).
func (s *Session) requireDeployed(ctx context.Context, upstream, stack, role string) error {
	if _, ok := s.deployed.Load(upstream); ok {
		return nil
	}
	up, err := s.selected(ctx, upstream)
	switch {
	case err == nil:
		outputs, err := up.Outputs(ctx)
		if err != nil {
			return err
		}
		if s.recordDeployed(upstream, outputs) {
			return nil
		}
	case !auto.IsSelectStack404Error(err):
		// Not "no stack named ...": the backend could not be read (no
		// login, no access, a state store this CLI cannot read). Saying
		// the upstream is not deployed, and advising an up of it, would
		// be the wrong diagnosis and advice that deploys.
		return fmt.Errorf("stack %q reads %s %q, which could not be read: %w", stack, role, upstream, err)
	}
	return fmt.Errorf("%w: stack %q reads %s %q, which has not been deployed; deploy it first: platformctl up --stack %s --yes%s",
		ErrUpstreamNotDeployed, stack, role, upstream, upstream, s.mode())
}

// recordDeployed records stack as deployed when its outputs hold the
// contract a deployment exports, and reports whether they do.
func (s *Session) recordDeployed(stack string, outputs auto.OutputMap) bool {
	_, ok := outputs[program.OutContractVersion]
	if ok {
		s.deployed.Store(stack, true)
	}
	return ok
}

// existingStacks are the stacks the backend holds, by their short name
// (a backend may qualify it as org/project/stack); offline, the file
// backend's checkpoints say (checkpointStacks) without a CLI run.
func (s *Session) existingStacks(ctx context.Context) (map[string]bool, error) {
	names, ok := s.checkpointStacks()
	if !ok {
		summaries, err := s.workspace.ListStacks(ctx)
		if err != nil {
			return nil, err
		}
		for _, sum := range summaries {
			names = append(names, filepath.Base(sum.Name))
		}
	}
	out := map[string]bool{}
	for _, name := range names {
		out[name] = true
	}
	return out, nil
}

// Cloud is an offline session's started stand-in (nil online).
func (s *Session) Cloud() offline.Cloud { return s.cloud }

// rereadRepositories: the session's runs look every repository id up
// again (Options.RereadRepositories, or program.RereadRepositoriesEnv
// from Options.Env or the process).
func (s *Session) rereadRepositories() bool {
	return s.opts.RereadRepositories || cmp.Or(s.opts.Env[program.RereadRepositoriesEnv], os.Getenv(program.RereadRepositoriesEnv)) != ""
}

// delivery is the delivery path the session's runs are
// (catalog.DeliveryEnv, from Options.Env or the process; "" for none).
func (s *Session) delivery() string {
	return cmp.Or(s.opts.Env[catalog.DeliveryEnv], catalog.RunDelivery())
}

// checkDelivery refuses to change name's environment from another path
// than the one it names, before anything runs.
func (s *Session) checkDelivery(name string) error {
	st, ok := s.Catalog.Stacks[stackEnv(name)]
	if !ok {
		return nil // an unknown stack is refused where it is looked up
	}
	return st.CheckDelivery(s.delivery())
}
