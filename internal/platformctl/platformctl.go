// Package platformctl is the platformctl command (cmd/platformctl, whose
// doc lists its commands): its command line, built on cobra and pflag with
// Pulumi's flag names, and what each command does. It is a package so
// that a test binary can be platformctl too: the engine's workflow tests
// run the workflows' `go run ./cmd/platformctl` as their own binary
// instead of linking a second one of the same sources.
package platformctl

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/diag"
	"github.com/company/harness-platform/engine"
	"github.com/company/harness-platform/plan"
)

// Exit codes: 0 done, 1 the work failed, 2 the command line is wrong, 3
// the drift check (refresh --preview-only --expect-no-changes) ran and
// found drift, 4 an up with saved plans refused them as stale (a stack
// was updated after they were saved; nothing applied: plan again).
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
	exitDrift = 3
	exitStale = 4
)

// exitError ends a command with an exit code; run prints it once, as
// `platformctl COMMAND: message`.
type exitError struct {
	code  int
	err   error // nil: the command printed what went wrong itself
	usage bool  // a wrong command line: the command's usage line follows
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// usageErrorf is a wrong command line: exit 2, with the usage line.
func usageErrorf(format string, a ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, a...), usage: true}
}

// refusal is a command line that lacks the consent the command needs
// (--yes): exit 2, the message naming the fix.
func refusal(format string, a ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, a...)}
}

// printed is a failure the command has printed itself (a list of
// problems): exit 1, nothing more.
var printed = &exitError{code: exitFail}

// Run is platformctl with args: what it prints goes to stdout and
// stderr; it returns the exit code.
func Run(args []string, stdout, stderr io.Writer) int {
	root := newRoot(stdout, stderr)
	if len(args) == 0 {
		root.SetOut(stderr)
		_ = root.Help()
		return exitUsage
	}
	root.SetArgs(args)
	if cmd, rest, err := root.Find(args); err == nil {
		// Help wins wherever it is, before anything is parsed or loaded
		// (even as the value of a flag).
		if wantsHelp(rest) {
			root.InitDefaultHelpCmd()
			cmd.InitDefaultHelpFlag()
			_ = cmd.Help()
			return exitOK
		}
		if err := singleDash(cmd, rest); err != nil {
			return report(cmd, err, stderr)
		}
	}
	cmd, err := root.ExecuteC()
	if err != nil {
		return report(cmd, err, stderr)
	}
	return exitOK
}

// wantsHelp reports whether a command's arguments ask for its help.
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "--help", "-help":
			return true
		}
	}
	return false
}

// singleDash refuses a long flag written with one dash (-stack, Go's flag
// package's style): pflag would read it as the shorthands -s -t -a ...
func singleDash(cmd *cobra.Command, args []string) error {
	for _, a := range args {
		if a == "--" {
			return nil
		}
		name, ok := strings.CutPrefix(a, "-")
		if !ok || strings.HasPrefix(name, "-") || len(name) < 2 {
			continue
		}
		name, _, _ = strings.Cut(name, "=")
		if cmd.Flags().Lookup(name) != nil {
			return usageErrorf("%s: a long flag takes two dashes: -%s", a, a)
		}
	}
	return nil
}

// report prints the error err ended cmd with, once, and returns its exit
// code. Errors of cobra's own (an unknown command, flag or argument) are
// wrong command lines.
func report(cmd *cobra.Command, err error, stderr io.Writer) int {
	var e *exitError
	if !errors.As(err, &e) {
		e = &exitError{code: exitUsage, err: err, usage: true}
	}
	if e.err != nil {
		fmt.Fprintf(stderr, "%s: %s\n", cmd.CommandPath(), plain(strings.TrimRight(e.err.Error(), "\n")))
	}
	if e.usage {
		if cmd.HasParent() {
			fmt.Fprintf(stderr, "usage: %s   (%s -h: its flags)\n", cmd.UseLine(), cmd.CommandPath())
		} else {
			fmt.Fprintf(stderr, "usage: %s COMMAND [flags]   (%s -h: the commands)\n", cmd.Name(), cmd.Name())
		}
	}
	return e.code
}

// newRoot is the command tree, printing to stdout (help, results) and
// stderr (errors). Each call makes a new tree, with new flag values.
func newRoot(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "platformctl",
		Short: "work on the catalog and drive the program",
		Long: "platformctl works on the catalog (without cloud, state or the Pulumi CLI) and drives the program\n" +
			"through the Pulumi Automation API: against the real backend and providers, or with --offline\n" +
			"against a local file:// backend and the simulated cloud.\n\n" +
			"Exit codes: 0 done, 1 the work failed, 2 the command line is wrong, 3 the drift check found drift,\n" +
			"4 an up refused its saved plans as stale.",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.CompletionOptions.DisableDefaultCmd = true
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return &exitError{code: exitUsage, err: err, usage: true}
	})
	root.AddGroup(
		&cobra.Group{ID: groupCatalog, Title: "The catalog (no cloud, state or Pulumi CLI):"},
		&cobra.Group{ID: groupStacks, Title: "Stacks, through the Automation API (--offline: the simulated cloud):"},
	)
	root.AddCommand(commands()...)
	root.AddCommand(versionCommand(stdout))
	return root
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
