package platformctl

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/credentials"
	"github.com/company/harness-platform/engine"
	"github.com/company/harness-platform/plan"
	"github.com/company/harness-platform/trust"
)

// The groups of the command list (platformctl -h).
const (
	groupCatalog = "catalog"
	groupStacks  = "stacks"
)

// options are the values of one command's flags (each command declares
// only the flags it takes) and what the command line implies.
type options struct {
	command                    string
	dir, stack, service, state string
	offline, diff, yes         bool
	expectNoChanges            bool
	planDir                    string // preview --save-plan, up and preflight --plan
	previewOnly, json, unlock  bool
	parallel, stackParallel    int
	policyPacks, policyConfigs []string
	noPolicy                   bool
	dryRun                     bool // move and import without --yes: only report
	changed                    bool // preview and up: only the stacks changed since their last up
	rereadRepositories         bool // preview and up: look every repository id up again
	events, details, base      string
	max                        int
	backupDir, from            string
	keepBackups                int
	runner                     string // offline: the simulated runner's address
	plugins                    []string
	readOnly                   bool   // preflight: of a run that changes nothing
	drift                      bool   // preflight: of the drift check
	resolved                   bool   // render: pipelines with their templates applied
	charts                     string // check-plugins: a Helm repository directory
	region                     string // rotate-delegate-token
	check                      bool   // bootstrap: run the checks
	answers                    string // bootstrap: the answers file to write
	printAnswers               bool   // bootstrap: print the files' own answers
}

// OfflineEnv names a state directory in which every command that takes
// --offline runs offline, as --offline --state DIR would (a --state given
// wins): how the offline runner of the workflows' own steps
// (internal/ghrunner) runs them, since they call platformctl as they do
// against the real services.
const OfflineEnv = "HARNESS_PLATFORM_OFFLINE"

// offlineFromEnv applies OfflineEnv to a command's options.
func offlineFromEnv(o *options) {
	if dir := os.Getenv(OfflineEnv); dir != "" {
		o.offline = true
		if o.state == "" {
			o.state = dir
		}
	}
}

// resolvePaths makes the plans' directory absolute: the CLI runs in
// the session's workspace (offline, or a read-only run's copy of the
// project), and the directory is the one given, wherever that runs.
func resolvePaths(o *options) error {
	if o.planDir == "" {
		return nil
	}
	abs, err := filepath.Abs(o.planDir)
	if err != nil {
		return err
	}
	o.planDir = abs
	return nil
}

// stateDir is the offline state directory: --state, else <dir>/.state.
func (o options) stateDir() string {
	if o.state == "" {
		return filepath.Join(o.dir, ".state")
	}
	return o.state
}

// runFunc does a command's work on the loaded catalog. An error that is
// not an *exitError fails the command with exit code 1.
type runFunc func(c *catalog.Catalog, o options, stdout, stderr io.Writer) error

// spec is one subcommand: its usage line, help, flags, the checks of its
// command line and what it does.
type spec struct {
	use, short, long, group string
	flags                   func(fs *pflag.FlagSet, o *options)
	// check runs before anything is loaded: the consent (--yes) and the
	// flags a command requires besides --stack.
	check func(o *options) error
	run   runFunc
}

// command is the cobra command of s, with its own flag values: flags,
// then (PreRunE) --stack when the command takes it and s.check, then
// (RunE) the catalog and s.run.
func (s spec) command() *cobra.Command {
	o := &options{}
	cmd := &cobra.Command{
		Use:     s.use,
		Short:   s.short,
		Long:    s.long,
		GroupID: s.group,
		Args:    noArgs,
	}
	s.flags(cmd.Flags(), o)
	cmd.PreRunE = func(cmd *cobra.Command, _ []string) error {
		if cmd.Flags().Lookup("stack") != nil && o.stack == "" {
			return usageErrorf("--stack is required")
		}
		if s.check != nil {
			return s.check(o)
		}
		return nil
	}
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		o.command = cmd.Name()
		if cmd.Flags().Lookup("offline") != nil {
			offlineFromEnv(o)
		}
		if err := resolvePaths(o); err != nil {
			return err
		}
		stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
		c, err := catalog.Load(o.dir)
		if err != nil {
			printLoadError(stderr, err)
			return printed
		}
		for _, w := range c.Warnings {
			fmt.Fprintln(stderr, "warning:", w)
		}
		if err := s.run(c, *o, stdout, stderr); err != nil {
			if e := (*exitError)(nil); errors.As(err, &e) {
				return err
			}
			return &exitError{code: exitFail, err: err}
		}
		return nil
	}
	return cmd
}

// noArgs refuses positional arguments: every command takes flags only.
func noArgs(_ *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usageErrorf("unexpected argument %q (flags only)", args[0])
	}
	return nil
}

func dirFlag(fs *pflag.FlagSet, o *options) {
	fs.StringVar(&o.dir, "dir", ".", "project directory `DIR` (Pulumi.yaml, the stack files, catalog/; ../shared beside it)")
}

func stackFlag(fs *pflag.FlagSet, o *options) {
	fs.StringVarP(&o.stack, "stack", "s", "", "`STACK` to operate on: an environment (dev: its platform stack and every service stack, in dependency order) or one stack by its full name (dev.payments) (required)")
}

func parallelFlag(fs *pflag.FlagSet, o *options) {
	fs.IntVarP(&o.parallel, "parallel", "p", 0, "allow `N` resource operations at once in each stack (default: 8 offline; against the real services paced within one Harness key's budget, 2 at 2 stacks: engine.PacedParallel)")
}

// runFlags are the flags of every command that opens an engine session.
func runFlags(fs *pflag.FlagSet, o *options) {
	dirFlag(fs, o)
	fs.StringVar(&o.state, "state", "", "offline state directory `DIR` (default <dir>/.state)")
	parallelFlag(fs, o)
	fs.IntVar(&o.stackParallel, "stack-parallel", engine.DefaultStackParallel, "run `N` stacks of one environment at once (Harness: about 1,000 API calls a minute per key; see docs/operating.md)")
	fs.StringVar(&o.backupDir, "backup-dir", os.Getenv("HARNESS_PLATFORM_BACKUP_DIR"), "keep the state backups of up, destroy and backup in `DIR` (default: <state>/backups offline, beside a file:// backend, else <dir>/.backups; env HARNESS_PLATFORM_BACKUP_DIR)")
	fs.IntVar(&o.keepBackups, "keep-backups", engine.DefaultKeepBackups, "keep `N` backups of each stack")
}

// engineFlags are the flags of every command that runs the engine on one
// stack (every stack of an environment).
func engineFlags(fs *pflag.FlagSet, o *options) {
	runFlags(fs, o)
	stackFlag(fs, o)
	fs.BoolVar(&o.offline, "offline", false, "use a local file:// backend and the simulated cloud (env "+OfflineEnv+"=DIR: the same, with --state DIR unless given)")
	fs.StringVar(&o.runner, "runner-address", "", "offline: the address `ADDR` the simulated services see the run come from (default: the first of the stack files' runner networks)")
}

// updateFlags are the flags of preview and up.
func updateFlags(fs *pflag.FlagSet, o *options) {
	engineFlags(fs, o)
	fs.BoolVar(&o.diff, "diff", false, "show a detailed diff")
	fs.BoolVar(&o.expectNoChanges, "expect-no-changes", false, "fail if there are changes")
	fs.BoolVar(&o.rereadRepositories, "reread-repositories", false, "look every repository's GitHub id up again, not only those a service stack has not kept (after the drift check reports a webhook variable's selectedRepositoryIds changed)")
	policyFlags(fs, o)
}

// policyFlags choose the policy packs a run enforces: the project's pack
// by default.
func policyFlags(fs *pflag.FlagSet, o *options) {
	fs.StringArrayVar(&o.policyPacks, "policy-pack", nil, "a policy pack `PATH` to run instead of the project's (repeatable)")
	fs.StringArrayVar(&o.policyConfigs, "policy-pack-config", nil, "a JSON `FILE` of policy config (repeatable, one per pack)")
	fs.BoolVar(&o.noPolicy, "no-policy", false, "run without any policy pack (debugging only)")
}

func yesFlag(fs *pflag.FlagSet, o *options, usage string) {
	fs.BoolVarP(&o.yes, "yes", "y", false, usage)
}

// confirmChange refuses a command that changes the stack without --yes:
// up, destroy and restore.
func confirmChange(o *options) error {
	if o.yes {
		return nil
	}
	return refusal("--yes is required to change the stack %q: run `platformctl preview --stack %s` to see how, then pass --yes", o.stack, o.stack)
}

// confirmRefresh refuses a refresh that writes the state without --yes;
// the drift check (--preview-only) writes nothing.
func confirmRefresh(o *options) error {
	if o.yes || o.previewOnly {
		return nil
	}
	return refusal("--yes is required to write what the cloud holds into the state of %q: run `platformctl refresh --stack %s --preview-only` to see what it would write, then pass --yes", o.stack, o.stack)
}

// reportUnlessYes makes a command without --yes only report: move and
// import.
func reportUnlessYes(o *options) error {
	o.dryRun = !o.yes
	return nil
}

func commands() []*cobra.Command {
	specs := []spec{
		{use: "validate", group: groupCatalog,
			short: "check the catalog and every stack file",
			long:  "Check the catalog and every stack file; every problem at once, as file:line:col.",
			flags: dirFlag,
			run: func(c *catalog.Catalog, _ options, stdout, _ io.Writer) error {
				fmt.Fprintf(stdout, "ok: %d services, %d teams, %d archetypes, environments %v, service stacks %v\n",
					len(c.Services), len(c.Teams), len(c.Archetypes), c.Chain, c.ServiceStacks())
				return nil
			}},
		{use: "render --stack STACK", group: groupCatalog,
			short: "print the YAML documents a stack declares",
			long: "Print the YAML documents a stack declares, byte for byte what the program registers (pipelines on\n" +
				"their deploy-stage templates; --resolved: with the templates applied, what runs).",
			flags: func(fs *pflag.FlagSet, o *options) {
				dirFlag(fs, o)
				stackFlag(fs, o)
				fs.StringVar(&o.service, "service", "", "only the documents of service `NAME`")
				fs.BoolVar(&o.resolved, "resolved", false, "print each service pipeline with its template applied to its inputs (what runs)")
			},
			run: func(c *catalog.Catalog, o options, stdout, _ io.Writer) error {
				return renderStack(c, o.stack, plan.RenderOptions{Service: o.service, Resolved: o.resolved}, stdout)
			}},
		{use: "credentials", group: groupCatalog,
			short: "name every credential a first up needs: where it lives, who makes it, what reads it",
			long: "Name every credential the stacks' first up needs, from the files that read them (esc/, the stack\n" +
				"files, catalog/teams.yaml): where each lives, who makes it, what reads it, and how to see it is there.\n" +
				"Values are never printed: none is held here (docs/runbook.md, Credentials).",
			flags: dirFlag,
			run: func(c *catalog.Catalog, _ options, stdout, _ io.Writer) error {
				m, err := trust.Load()
				if err != nil {
					return err
				}
				list := credentials.List(c, m)
				for _, cr := range list {
					fmt.Fprintf(stdout, "- %s\n    where: %s\n    made by: %s\n    read by: %s\n    check: %s\n",
						cr.What, cr.Where, cr.Owner, strings.Join(cr.ReadBy, "; "), cr.Check)
				}
				fmt.Fprintf(stdout, "%d credentials\n", len(list))
				return nil
			}},
		{use: "bootstrap [--print-answers | --answers FILE [--yes] | --check]", group: groupCatalog,
			short: "write your organisation's values into the files, print the ordered checklist to the first up, run its checks",
			long: "Print the ordered bootstrap checklist for the project's files: each step with who does it, what\n" +
				"to do and the check that proves it done (docs/runbook.md, Bootstrap). With --check, run those\n" +
				"checks (preflight of every environment, as an up and as a run that changes nothing) and name every\n" +
				"step not done, with each problem's fix; exit 1 if one is.\n\n" +
				"--print-answers prints the values the files are written with (organisations, AWS accounts, App ids,\n" +
				"the secrets' region, the Harness account, domains, runner networks) as an answers file; edit it and\n" +
				"give it to --answers, which lists every change (a dry run) and with --yes writes them into the\n" +
				"tracked files, all or none, then prints the checklist. Go sources are not written.",
			check: func(o *options) error {
				if o.yes && o.answers == "" {
					return fmt.Errorf("--yes writes the answers of --answers FILE; give the file")
				}
				if o.answers != "" && (o.check || o.printAnswers) || o.check && o.printAnswers {
					return fmt.Errorf("--answers, --print-answers and --check are separate steps; give one")
				}
				return nil
			},
			flags: func(fs *pflag.FlagSet, o *options) {
				runFlags(fs, o)
				fs.StringVar(&o.answers, "answers", "", "write the answers `FILE` into the files (a dry run without --yes)")
				fs.BoolVar(&o.printAnswers, "print-answers", false, "print the files' own answers, the answers file to edit")
				yesFlag(fs, o, "with --answers: write the files")
				fs.BoolVar(&o.offline, "offline", false, "check against the simulated services (env "+OfflineEnv+"=DIR: the same, with --state DIR unless given)")
				fs.StringVar(&o.runner, "runner-address", "", "offline: the address `ADDR` the simulated services see the run come from (default: the first of the stack files' runner networks)")
				fs.BoolVar(&o.check, "check", false, "run the checks and name every step not done")
			},
			run: runBootstrap},
		{use: "policy-pack", group: groupCatalog,
			short: "build the project's CrossGuard policy pack and print its path",
			long:  "Build the project's CrossGuard policy pack (cached) and print its path, for --policy-pack.",
			flags: dirFlag,
			run: func(_ *catalog.Catalog, o options, stdout, _ io.Writer) error {
				path, err := engine.BuildPolicyPack(o.dir)
				if err != nil {
					return err
				}
				fmt.Fprintln(stdout, path)
				return nil
			}},
		{use: "summary --stack STACK --events FILE", group: groupCatalog,
			short: "the pull-request summary of a preview's event log",
			long:  "The pull-request summary of a preview's event log (pulumi preview --event-log FILE), as Markdown.",
			flags: func(fs *pflag.FlagSet, o *options) {
				dirFlag(fs, o)
				stackFlag(fs, o)
				fs.StringVar(&o.events, "events", "", "the preview's event log `FILE` (required)")
				fs.StringVar(&o.details, "details", "", "`URL` of the full diff (a CI run's)")
				fs.IntVar(&o.max, "max", 60000, "print at most `N` bytes (GitHub trims comments at 64,000 characters)")
			},
			check: func(o *options) error {
				if o.events == "" {
					return usageErrorf("--events is required")
				}
				return nil
			},
			run: runSummary},
		{use: "delivery --stack STACK", group: groupCatalog,
			short: "print the delivery path that applies a stack",
			long: "Print the one delivery path that applies the stack (harness-platform:delivery: github-actions,\n" +
				"harness-ci or operator); the others skip it, and refuse to change it (HARNESS_PLATFORM_DELIVERY).",
			flags: func(fs *pflag.FlagSet, o *options) {
				dirFlag(fs, o)
				stackFlag(fs, o)
			},
			run: func(c *catalog.Catalog, o options, stdout, _ io.Writer) error {
				env, _ := catalog.SplitStack(o.stack)
				st, ok := c.Stacks[env]
				if !ok {
					return usageErrorf("unknown stack %q; use one of %v", o.stack, c.AllStacks())
				}
				fmt.Fprintln(stdout, st.Delivery)
				return nil
			}},
		{use: "stacks", group: groupCatalog,
			short: "list the stacks in chain order",
			long: "List the stacks, one a line in chain order (platform stack, then its service stacks); with --base,\n" +
				"a checkout of the change's base, only those the change may touch.",
			flags: func(fs *pflag.FlagSet, o *options) {
				dirFlag(fs, o)
				fs.StringVar(&o.base, "base", "", "the base of the change, a checkout `DIR` of the target branch: list only the stacks it may touch")
			},
			run: runStacks},
		{use: "gitops", group: groupCatalog,
			short: "check (with --yes write) the operator's Stacks of the service stacks",
			long: "Check (or with --yes write) the Pulumi Kubernetes Operator Stacks of the service stacks under\n" +
				gitopsDir + ", derived from the catalog.",
			flags: func(fs *pflag.FlagSet, o *options) {
				dirFlag(fs, o)
				yesFlag(fs, o, "write the manifests")
			},
			run: runGitops},
		{use: "preflight --stack STACK", group: groupStacks,
			short: "check every credential and endpoint the stack uses",
			long: "Before a preview, up or refresh: check every credential and endpoint the stack uses (backend and\n" +
				"locks, Harness key, GitHub credential on every owner, AWS roles, each cluster's API); every\n" +
				"problem at once, with its fix.",
			flags: func(fs *pflag.FlagSet, o *options) {
				engineFlags(fs, o)
				fs.BoolVar(&o.readOnly, "read-only", false, "for a run that changes nothing (a preview, the drift check), with the read-only credentials of the -preview ESC environments: what only a write needs is not checked")
				fs.BoolVar(&o.drift, "drift", false, "for the drift check: also check that reading every Harness and GitHub object of the stacks fits the APIs' budgets (with GitHub's remaining budget) within a run's 6 hours")
				fs.StringVar(&o.planDir, "plan", "", "for the up that applies the update plans in `DIR` (preview --save-plan): also check that their steps' calls and the program's lookups fit the APIs' budgets within a run's 6 hours")
			},
			run: runPreflight},
		{use: "preview --stack STACK", group: groupStacks,
			short: "show what up would change",
			long:  "Show what up would change, with the project's policy pack unless --policy-pack or --no-policy.",
			flags: func(fs *pflag.FlagSet, o *options) {
				updateFlags(fs, o)
				fs.StringVar(&o.planDir, "save-plan", "", "save each stack's update plan in `DIR`, for up --plan")
				fs.BoolVar(&o.changed, "changed", false, "only the stacks a change since each one's last up touches (its recorded commit)")
			},
			run: runEngine},
		{use: "up --stack STACK --yes", group: groupStacks,
			short: "apply the stack",
			long:  "Apply the stack (every stack of an environment, in dependency order), its state backed up first.",
			flags: func(fs *pflag.FlagSet, o *options) {
				updateFlags(fs, o)
				yesFlag(fs, o, "apply the changes (required)")
				fs.StringVar(&o.planDir, "plan", "", "apply exactly the update plans preview --save-plan saved in `DIR`")
				fs.BoolVar(&o.changed, "changed", false, "only the stacks a change since each one's last up touches (its recorded commit)")
			},
			check: confirmChange,
			run:   runEngine},
		{use: "refresh --stack STACK (--yes | --preview-only)", group: groupStacks,
			short: "read the cloud back into the state; with --preview-only --expect-no-changes, the drift check",
			long: "Read the cloud back and write it into the state (--yes), or with --preview-only only report what\n" +
				"differs; --preview-only --expect-no-changes is the drift check (exit code 3 on drift).",
			flags: func(fs *pflag.FlagSet, o *options) {
				engineFlags(fs, o)
				yesFlag(fs, o, "write the refreshed state (required unless --preview-only)")
				fs.BoolVar(&o.previewOnly, "preview-only", false, "report drift without writing state")
				fs.BoolVar(&o.expectNoChanges, "expect-no-changes", false, "fail if the cloud differs from the state")
				fs.BoolVar(&o.diff, "diff", false, "show a detailed diff")
			},
			check: confirmRefresh,
			run:   runEngine},
		{use: "destroy --stack STACK --yes", group: groupStacks,
			short: "delete the stack's objects",
			long:  "Delete the stack's objects (refused, deleting nothing, if anything is protected).",
			flags: func(fs *pflag.FlagSet, o *options) {
				engineFlags(fs, o)
				yesFlag(fs, o, "delete the objects (required)")
			},
			check: confirmChange,
			run:   runEngine},
		{use: "outputs --stack STACK", group: groupStacks,
			short: "print the stack's outputs",
			long:  "Print the stack's outputs (its contract), secrets masked.",
			flags: func(fs *pflag.FlagSet, o *options) {
				engineFlags(fs, o)
				fs.BoolVarP(&o.json, "json", "j", false, "print JSON")
			},
			run: runEngine},
		{use: "recover --stack STACK [--unlock] --yes", group: groupStacks,
			short: "settle the pending operations of an interrupted up",
			long: "After an interrupted up: settle its pending operations (creates, updates, deletes), so the next up\n" +
				"creates, updates or deletes only what is left to do; without --yes only report them.",
			flags: func(fs *pflag.FlagSet, o *options) {
				engineFlags(fs, o)
				yesFlag(fs, o, "settle them, and with --unlock remove the lock (without it: only report)")
				fs.BoolVar(&o.unlock, "unlock", false, "first remove the lock a killed run left (pulumi cancel); only when no run is in progress")
			},
			check: reportUnlessYes,
			run:   runEngine},
		{use: "backup --stack STACK", group: groupStacks,
			short: "export the stack's state to a backup file",
			long: "Export the state of the stack (every stack of an environment) to a backup file, secrets\n" +
				"encrypted; up and destroy do it first.",
			flags: engineFlags,
			run:   runEngine},
		{use: "restore --stack STACK --from FILE --yes", group: groupStacks,
			short: "replace a damaged state with a backup",
			long: "Replace one stack's damaged state with a backup, then preview a refresh: what changed since the\n" +
				"backup shows as drift (not for rollback: revert the catalog commit).",
			flags: func(fs *pflag.FlagSet, o *options) {
				engineFlags(fs, o)
				yesFlag(fs, o, "replace the state (required)")
				fs.StringVar(&o.from, "from", "", "the backup `FILE` (platformctl backup, or pulumi stack export) (required)")
			},
			check: confirmChange,
			run:   runEngine},
		{use: "import --stack STACK", group: groupStacks,
			short: "adopt the Harness objects that already exist",
			long: "Adopt the Harness objects a stack declares that already exist (made outside Pulumi) into its\n" +
				"state, unchanged; without --yes only report: adopted, adopted but different (the fields), to create.",
			flags: func(fs *pflag.FlagSet, o *options) {
				engineFlags(fs, o)
				yesFlag(fs, o, "adopt the objects (without it: only report)")
			},
			check: reportUnlessYes,
			run:   runImport},
		{use: "rotate-delegate-token --stack ENVIRONMENT --region REGION", group: groupStacks,
			short: "give a region's delegates a new token, and revoke the old one once they report in",
			long: "Give a region's delegates a new Harness token: raise the region's delegateTokenGeneration in the\n" +
				"stack file (past every name Harness still holds: a revoked token's name stays taken 30 days), up\n" +
				"the platform stack without revoking the old token, wait until Harness hears from every delegate\n" +
				"with its new token, then revoke the old one. Each up backs the state up first. Without --yes only\n" +
				"report; a rotation that stopped midway is finished by running it again. Commit the stack file.",
			flags: func(fs *pflag.FlagSet, o *options) {
				engineFlags(fs, o)
				fs.StringVar(&o.region, "region", "", "the `REGION` whose token to rotate (required unless a rotation is under way)")
				yesFlag(fs, o, "rotate (without it: only report)")
			},
			check: reportUnlessYes,
			run:   runRotate},
		{use: "move --stack ENVIRONMENT", group: groupStacks,
			short: "move services' objects to the stack the catalog puts them in",
			long: "Move the objects of services whose service stack changed (or of an environment that was one\n" +
				"stack) to their stack: a state move, nothing deleted or created; without --yes only report.",
			flags: func(fs *pflag.FlagSet, o *options) {
				engineFlags(fs, o)
				yesFlag(fs, o, "move them (without it: only report)")
			},
			check: reportUnlessYes,
			run:   runMove},
		{use: "demo", group: groupStacks,
			short: "the offline demo: up, a preview with no changes, the drift check",
			long: "The offline demo: up the chain with the policy pack, a second preview with no changes, the drift\n" +
				"check.",
			flags: func(fs *pflag.FlagSet, o *options) {
				runFlags(fs, o)
				fs.BoolVar(&o.noPolicy, "no-policy", false, "run without the policy pack (debugging only)")
			},
			run: runDemo},
		{use: "check-plugins --plugin NAME=PATH...", group: groupStacks,
			short: "preview every stack with real provider plugins",
			long: "Offline, on a new state: preview every stack with the named providers served by their real plugin\n" +
				"binaries (the others simulated); each stack fresh (every object through the plugin's Check), then\n" +
				"as deployed; errors, warnings and changes per stack.",
			flags: func(fs *pflag.FlagSet, o *options) {
				dirFlag(fs, o)
				fs.StringVar(&o.state, "state", "", "offline state directory `DIR`, which must not exist (default: a new temporary directory)")
				parallelFlag(fs, o)
				fs.StringArrayVar(&o.plugins, "plugin", nil, "a provider and its plugin binary at the version the program pins, `NAME=PATH`, e.g. github=bin/pulumi-resource-github (repeatable: kubernetes, github, aws, harness)")
				fs.StringVar(&o.charts, "charts", "", "a Helm repository `DIR` (index.yaml and chart archives, e.g. a checkout of harness/delegate-helm-chart's charts/) served on loopback as the delegates' chart repository, for the real Kubernetes plugin's Helm releases")
			},
			check: func(o *options) error {
				if len(o.plugins) == 0 {
					return usageErrorf("name at least one --plugin NAME=PATH")
				}
				for _, p := range o.plugins {
					if name, path, ok := strings.Cut(p, "="); !ok || name == "" || path == "" {
						return usageErrorf("--plugin %q: write NAME=PATH, e.g. github=bin/pulumi-resource-github", p)
					}
				}
				return nil
			},
			run: runCheckPlugins},
	}
	out := make([]*cobra.Command, len(specs))
	for i, s := range specs {
		out[i] = s.command()
	}
	return out
}
