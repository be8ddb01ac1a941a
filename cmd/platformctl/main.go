// Command platformctl works on the catalog and drives the program.
//
// Without cloud, state or the Pulumi CLI:
//
//	platformctl validate                        check the catalog and every stack file
//	platformctl render --stack S [--service N]  print the documents S declares
//
// Through the Pulumi Automation API (the CLI from scripts/install-pulumi.sh),
// against the real backend and providers, or --offline against a local
// file:// backend and the simulated cloud under --state:
//
//	platformctl preview|up|refresh|destroy|outputs|recover|backup --stack S [--offline]
//	platformctl restore --stack S --from FILE --yes   a damaged state, from a backup
//	platformctl import --stack S [--yes]        adopt the Harness objects that already exist
//	platformctl demo                            the offline demo: up, preview, drift check
//
// Each command has its own flags; `platformctl COMMAND -h` lists them.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/diag"
	"github.com/company/harness-platform/engine"
	"github.com/company/harness-platform/plan"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// Exit codes: 0 done, 1 the work failed, 2 the command line is wrong, 3
// the drift check (refresh --preview-only --expect-no-changes) ran and
// found drift.
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
	exitDrift = 3
)

// options are the values of every flag; each command declares the ones it
// takes.
type options struct {
	command                    string
	dir, stack, service, state string
	offline, diff, yes         bool
	expectNoChanges            bool
	planDir                    string // preview --save-plan, up --plan
	previewOnly, json, unlock  bool
	parallel, stackParallel    int
	policyPacks                multiFlag
	policyConfigs              multiFlag
	noPolicy, dryRun           bool
	events, details, base      string
	max                        int
	backupDir, from            string
	keepBackups                int
	runner                     string // offline: the simulated runner's address
	plugins                    multiFlag
	readOnly                   bool   // preflight: of a run that changes nothing
	drift                      bool   // preflight: of the drift check
	resolved                   bool   // render: pipelines with their templates applied
	charts                     string // check-plugins: a Helm repository directory
}

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// command is one subcommand: its synopsis, flags and what it does.
type command struct {
	name, synopsis, summary string
	flags                   func(fs *flag.FlagSet, o *options)
	run                     func(c *catalog.Catalog, o options, stdout, stderr io.Writer) int
}

func dirFlag(fs *flag.FlagSet, o *options) {
	fs.StringVar(&o.dir, "dir", ".", "project directory (Pulumi.yaml, stack files, catalog/; ../shared beside it)")
}

func stackFlag(fs *flag.FlagSet, o *options) {
	fs.StringVar(&o.stack, "stack", "", "an environment (dev: its platform stack and every service stack, in dependency order) or one stack by its full name (dev.payments) (required)")
}

// runFlags are the flags of every command that runs the engine.
func runFlags(fs *flag.FlagSet, o *options) {
	dirFlag(fs, o)
	fs.StringVar(&o.state, "state", "", "offline state directory (default <dir>/.state)")
	fs.IntVar(&o.parallel, "parallel", 0, "concurrent resource operations in each stack (default: 8 offline; against the real services paced within one Harness key's budget, 2 at 2 stacks: engine.PacedParallel)")
	fs.IntVar(&o.stackParallel, "stack-parallel", engine.DefaultStackParallel, "stacks of one environment run at once (Harness: about 1,000 API calls a minute per key; see docs/operating.md)")
	fs.StringVar(&o.backupDir, "backup-dir", os.Getenv("HARNESS_PLATFORM_BACKUP_DIR"), "where up, destroy and backup keep state backups (default: <state>/backups offline, beside a file:// backend, else <dir>/.backups; env HARNESS_PLATFORM_BACKUP_DIR)")
	fs.IntVar(&o.keepBackups, "keep-backups", engine.DefaultKeepBackups, "backups kept per stack")
}

// engineFlags are the flags of every command that runs the engine on one
// stack.
func engineFlags(fs *flag.FlagSet, o *options) {
	runFlags(fs, o)
	stackFlag(fs, o)
	fs.BoolVar(&o.offline, "offline", false, "use a local file:// backend and the simulated cloud")
	fs.StringVar(&o.runner, "runner-address", "", "offline: the address the simulated services see the run come from (default: the first of the stack files' runner networks)")
}

// updateFlags are the flags of preview and up.
func updateFlags(fs *flag.FlagSet, o *options) {
	engineFlags(fs, o)
	fs.BoolVar(&o.diff, "diff", false, "show a detailed diff")
	fs.BoolVar(&o.expectNoChanges, "expect-no-changes", false, "fail if there are changes")
	policyFlags(fs, o)
}

// policyFlags choose the policy packs a run enforces: the project's pack
// by default.
func policyFlags(fs *flag.FlagSet, o *options) {
	fs.Var(&o.policyPacks, "policy-pack", "policy pack to run instead of the project's (repeatable)")
	fs.Var(&o.policyConfigs, "policy-pack-config", "JSON file of policy config (repeatable, one per pack)")
	fs.BoolVar(&o.noPolicy, "no-policy", false, "run without any policy pack (debugging only)")
}

// changeFlags are the flags of the commands that change stacks' state
// without a policy preview: destroy and move.
func changeFlags(fs *flag.FlagSet, o *options) {
	engineFlags(fs, o)
	yesFlag(fs, o)
}

func yesFlag(fs *flag.FlagSet, o *options) {
	fs.BoolVar(&o.yes, "yes", false, "proceed without asking (required)")
}

var commands = []command{
	{name: "validate", synopsis: "[--dir DIR]",
		summary: "check the catalog and every stack file; every problem at once, as file:line:col",
		flags:   dirFlag,
		run: func(c *catalog.Catalog, _ options, stdout, _ io.Writer) int {
			fmt.Fprintf(stdout, "ok: %d services, %d teams, %d archetypes, environments %v, service stacks %v\n",
				len(c.Services), len(c.Teams), len(c.Archetypes), c.Chain, c.ServiceStacks())
			return exitOK
		}},
	{name: "render", synopsis: "--stack STACK [--service NAME] [--resolved] [--dir DIR]",
		summary: "print the YAML documents a stack declares, byte for byte what the program registers (pipelines on their deploy-stage templates; --resolved: with the templates applied, what runs)",
		flags: func(fs *flag.FlagSet, o *options) {
			dirFlag(fs, o)
			stackFlag(fs, o)
			fs.StringVar(&o.service, "service", "", "only this service's documents")
			fs.BoolVar(&o.resolved, "resolved", false, "print each service pipeline with its template applied to its inputs (what runs)")
		},
		run: func(c *catalog.Catalog, o options, stdout, stderr io.Writer) int {
			if err := renderStack(c, o.stack, plan.RenderOptions{Service: o.service, Resolved: o.resolved}, stdout); err != nil {
				fmt.Fprintln(stderr, err)
				return exitFail
			}
			return exitOK
		}},
	{name: "preview", synopsis: "--stack STACK [--offline] [--state DIR] [--diff] [--expect-no-changes] [--save-plan DIR] [--policy-pack PATH]... [--policy-pack-config FILE]... [--no-policy]",
		summary: "show what up would change",
		flags: func(fs *flag.FlagSet, o *options) {
			updateFlags(fs, o)
			fs.StringVar(&o.planDir, "save-plan", "", "save each stack's update plan in DIR, for up --plan")
		},
		run: runEngine},
	{name: "up", synopsis: "--stack STACK --yes [--offline] [--state DIR] [--diff] [--plan DIR] [--policy-pack PATH]... [--policy-pack-config FILE]... [--no-policy]",
		summary: "apply the stack",
		flags: func(fs *flag.FlagSet, o *options) {
			updateFlags(fs, o)
			yesFlag(fs, o)
			fs.StringVar(&o.planDir, "plan", "", "apply exactly the update plans preview --save-plan saved in DIR")
		},
		run: runEngine},
	{name: "refresh", synopsis: "--stack STACK [--offline] [--state DIR] [--preview-only] [--expect-no-changes] [--diff]",
		summary: "read the cloud back; with --preview-only --expect-no-changes, the drift check",
		flags: func(fs *flag.FlagSet, o *options) {
			engineFlags(fs, o)
			fs.BoolVar(&o.previewOnly, "preview-only", false, "report drift without writing state")
			fs.BoolVar(&o.expectNoChanges, "expect-no-changes", false, "fail if the cloud differs from the state")
			fs.BoolVar(&o.diff, "diff", false, "show a detailed diff")
		},
		run: runEngine},
	{name: "destroy", synopsis: "--stack STACK --yes [--offline] [--state DIR]",
		summary: "delete the stack's objects (refused, deleting nothing, if anything is protected)",
		flags:   changeFlags,
		run:     runEngine},
	{name: "outputs", synopsis: "--stack STACK [--offline] [--state DIR] [--json]",
		summary: "print the stack's outputs (its contract), secrets masked",
		flags: func(fs *flag.FlagSet, o *options) {
			engineFlags(fs, o)
			fs.BoolVar(&o.json, "json", false, "print JSON")
		},
		run: runEngine},
	{name: "recover", synopsis: "--stack STACK [--unlock] [--offline] [--state DIR]",
		summary: "after an interrupted up: settle its pending creates, so the next up creates only what is missing",
		flags: func(fs *flag.FlagSet, o *options) {
			engineFlags(fs, o)
			fs.BoolVar(&o.unlock, "unlock", false, "first remove the lock a killed run left (pulumi cancel); only when no run is in progress")
		},
		run: runEngine},
	{name: "import", synopsis: "--stack STACK [--yes] [--offline] [--state DIR]",
		summary: "adopt the Harness objects a stack declares that already exist (made outside Pulumi) into its state, unchanged; without --yes only report: adopted, adopted but different (the fields), to create",
		flags:   changeFlags,
		run:     runImport},
	{name: "preflight", synopsis: "--stack STACK [--read-only] [--drift] [--plan DIR] [--offline] [--state DIR] [--runner-address ADDR]",
		summary: "before a preview, up or refresh: check every credential and endpoint the stack uses (backend and locks, Harness key, GitHub credential on every owner, AWS roles, each cluster's API); every problem at once, with its fix",
		flags: func(fs *flag.FlagSet, o *options) {
			engineFlags(fs, o)
			fs.BoolVar(&o.readOnly, "read-only", false, "for a run that changes nothing (a preview, the drift check), with the read-only credentials of the -preview ESC environments: what only a write needs is not checked")
			fs.BoolVar(&o.drift, "drift", false, "for the drift check: also check that reading every Harness and GitHub object of the stacks fits the APIs' budgets (with GitHub's remaining budget) within a run's 6 hours")
			fs.StringVar(&o.planDir, "plan", "", "for the up that applies the update plans in DIR (preview --save-plan): also check that their steps' calls and the program's lookups fit the APIs' budgets within a run's 6 hours")
		},
		run: runPreflight},
	{name: "backup", synopsis: "--stack STACK [--offline] [--state DIR] [--backup-dir DIR]",
		summary: "export the state of the stack (every stack of an environment) to a backup file, secrets encrypted; up and destroy do it first",
		flags:   engineFlags,
		run:     runEngine},
	{name: "restore", synopsis: "--stack STACK --from FILE --yes [--offline] [--state DIR]",
		summary: "replace one stack's damaged state with a backup, then preview a refresh: what changed since the backup shows as drift (not for rollback: revert the catalog commit)",
		flags: func(fs *flag.FlagSet, o *options) {
			changeFlags(fs, o)
			fs.StringVar(&o.from, "from", "", "the backup file (platformctl backup, or pulumi stack export) (required)")
		},
		run: runEngine},
	{name: "move", synopsis: "--stack ENVIRONMENT --yes [--offline] [--state DIR]",
		summary: "move the objects of services whose service stack changed (or of an environment that was one stack) to their stack: a state move, nothing deleted or created",
		flags:   changeFlags,
		run:     runMove},
	{name: "demo", synopsis: "[--state DIR] [--dir DIR] [--no-policy]",
		summary: "the offline demo: up the chain with the policy pack, a second preview with no changes, the drift check",
		flags: func(fs *flag.FlagSet, o *options) {
			runFlags(fs, o)
			fs.BoolVar(&o.noPolicy, "no-policy", false, "run without the policy pack (debugging only)")
		},
		run: runDemo},
	{name: "summary", synopsis: "--stack STACK --events FILE [--details URL] [--max BYTES] [--dir DIR]",
		summary: "the pull-request summary of a preview's event log (pulumi preview --event-log FILE), as Markdown",
		flags: func(fs *flag.FlagSet, o *options) {
			dirFlag(fs, o)
			stackFlag(fs, o)
			fs.StringVar(&o.events, "events", "", "the preview's event log (required)")
			fs.StringVar(&o.details, "details", "", "where the full diff is (a CI run's URL)")
			fs.IntVar(&o.max, "max", 60000, "most bytes to print (GitHub trims comments at 64,000 characters)")
		},
		run: runSummary},
	{name: "stacks", synopsis: "[--base DIR] [--dir DIR]",
		summary: "list the stacks, one a line in chain order (platform stack, then its service stacks); with --base, a checkout of the change's base, only those the change may touch",
		flags: func(fs *flag.FlagSet, o *options) {
			dirFlag(fs, o)
			fs.StringVar(&o.base, "base", "", "the base of the change (a checkout of the target branch): list only the stacks it may touch")
		},
		run: runStacks},
	{name: "gitops", synopsis: "[--yes] [--dir DIR]",
		summary: "check (or with --yes write) the Pulumi Kubernetes Operator Stacks of the service stacks under deploy/argocd/stacks, derived from the catalog",
		flags: func(fs *flag.FlagSet, o *options) {
			dirFlag(fs, o)
			fs.BoolVar(&o.yes, "yes", false, "write the manifests")
		},
		run: runGitops},
	{name: "check-plugins", synopsis: "--plugin NAME=PATH... [--charts DIR] [--state DIR] [--dir DIR]",
		summary: "offline, on a new state: preview every stack with the named providers served by their real plugin binaries (the others simulated); each stack fresh (every object through the plugin's Check), then as deployed; errors, warnings and changes per stack",
		flags: func(fs *flag.FlagSet, o *options) {
			runFlags(fs, o)
			fs.Var(&o.plugins, "plugin", "a provider and its plugin binary at the version the program pins, e.g. github=bin/pulumi-resource-github (repeatable: kubernetes, github, aws, harness)")
			fs.StringVar(&o.charts, "charts", "", "a Helm repository directory (index.yaml and chart archives, e.g. a checkout of harness/delegate-helm-chart's charts/) served on loopback as the delegates' chart repository, for the real Kubernetes plugin's Helm releases")
		},
		run: runCheckPlugins},
	{name: "policy-pack", synopsis: "[--dir DIR]",
		summary: "build the project's CrossGuard policy pack (cached) and print its path, for --policy-pack",
		flags:   dirFlag,
		run: func(_ *catalog.Catalog, o options, stdout, stderr io.Writer) int {
			path, err := engine.BuildPolicyPack(o.dir)
			if err != nil {
				fmt.Fprintln(stderr, err)
				return exitFail
			}
			fmt.Fprintln(stdout, path)
			return exitOK
		}},
}

func lookup(name string) (command, bool) {
	i := slices.IndexFunc(commands, func(c command) bool { return c.name == name })
	if i < 0 {
		return command{}, false
	}
	return commands[i], true
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: platformctl COMMAND [flags]   (platformctl COMMAND -h: its flags)")
	fmt.Fprintln(w)
	for _, c := range commands {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
}

func isHelp(arg string) bool {
	return arg == "-h" || arg == "--help" || arg == "-help" || arg == "help"
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	if isHelp(args[0]) {
		if len(args) > 1 {
			if cmd, ok := lookup(args[1]); ok {
				commandUsage(cmd, stdout)
				return exitOK
			}
		}
		usage(stdout)
		return exitOK
	}
	cmd, ok := lookup(args[0])
	if !ok {
		fmt.Fprintf(stderr, "platformctl: unknown command %q\n", args[0])
		usage(stderr)
		return exitUsage
	}
	// Help wins wherever it is, before anything is loaded.
	if slices.ContainsFunc(args[1:], func(a string) bool { return a != "help" && isHelp(a) }) {
		commandUsage(cmd, stdout)
		return exitOK
	}
	o := options{command: cmd.name}
	fs := flag.NewFlagSet("platformctl "+cmd.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	cmd.flags(fs, &o)
	if err := fs.Parse(args[1:]); err != nil {
		fmt.Fprintf(stderr, "platformctl %s: %v\n", cmd.name, err)
		commandUsage(cmd, stderr)
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "platformctl %s: unexpected argument %q (flags only)\n", cmd.name, fs.Arg(0))
		commandUsage(cmd, stderr)
		return exitUsage
	}
	if fs.Lookup("stack") != nil && o.stack == "" {
		fmt.Fprintf(stderr, "platformctl %s: --stack is required\n", cmd.name)
		commandUsage(cmd, stderr)
		return exitUsage
	}
	if fs.Lookup("yes") != nil && !o.yes && (cmd.name == "move" || cmd.name == "gitops" || cmd.name == "import") {
		o.dryRun = true // move, gitops and import without --yes only report
	} else if fs.Lookup("yes") != nil && !o.yes {
		fmt.Fprintf(stderr, "platformctl %s changes the stack %q: run `platformctl preview --stack %s` to see how, then pass --yes\n", cmd.name, o.stack, o.stack)
		return exitUsage
	}
	if o.state == "" {
		o.state = filepath.Join(o.dir, ".state")
	}
	c, err := catalog.Load(o.dir)
	if err != nil {
		printLoadError(stderr, err)
		return exitFail
	}
	for _, w := range c.Warnings {
		fmt.Fprintln(stderr, "warning:", w)
	}
	return cmd.run(c, o, stdout, stderr)
}

func commandUsage(cmd command, w io.Writer) {
	fmt.Fprintf(w, "usage: platformctl %s %s\n\n%s\n\nflags:\n", cmd.name, cmd.synopsis, cmd.summary)
	var o options
	fs := flag.NewFlagSet(cmd.name, flag.ContinueOnError)
	cmd.flags(fs, &o)
	fs.SetOutput(w)
	fs.PrintDefaults()
}

func printLoadError(w io.Writer, err error) {
	var d *diag.Error
	if errors.As(err, &d) {
		for _, p := range d.List {
			fmt.Fprintln(w, p)
		}
		fmt.Fprintf(w, "%d problem(s); nothing was declared\n", len(d.List))
		return
	}
	fmt.Fprintln(w, err)
}

// renderStack prints the plan of stack (every stack of an environment, or
// of one service in it): every YAML document the program would register,
// byte for byte.
func renderStack(c *catalog.Catalog, stack string, opts plan.RenderOptions, w io.Writer) error {
	service := opts.Service
	waves, err := engine.Waves(c, stack)
	if err != nil {
		return err
	}
	if service != "" {
		s, ok := c.Service(service)
		if !ok {
			return fmt.Errorf("no service %q in %s", service, catalog.ServicesFile)
		}
		env, _ := catalog.SplitStack(stack)
		if !s.EnabledIn(env) {
			return fmt.Errorf("service %q is not enabled in stack %q", service, stack)
		}
	}
	for _, wave := range waves {
		for _, name := range wave {
			p, err := plan.Build(c, name)
			if err != nil {
				return err
			}
			if err := plan.Render(w, p, opts); err != nil {
				return err
			}
		}
	}
	return nil
}
