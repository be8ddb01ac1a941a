// Package offlinepulumi is the `pulumi` the offline runner of the
// workflows (internal/ghrunner) puts on PATH in pulumi/actions' stead:
// the pinned Pulumi CLI against the offline state that
// HARNESS_PLATFORM_OFFLINE names (the file:// backend, and the simulated
// cloud platformctl runs with), acting as the team whose stand-in token
// PULUMI_ACCESS_TOKEN holds, for the commands the workflows run
// themselves:
//
//	pulumi version                            the pinned CLI's
//	pulumi env run ORG/PROJECT/ENV -- CMD...  CMD with ENV's environmentVariables,
//	                                          ENV opened as the token's team (package
//	                                          trust: refused as ESC refuses)
//	pulumi stack history --stack S ...        the pinned CLI on the offline backend,
//	                                          when the token's team may read S
//	pulumi preview --stack S [flags]          one stack's preview through the pinned
//	                                          CLI, by an offline engine session
//
// A preview runs the program inline (the Automation API's language host)
// with the simulated providers, as platformctl --offline does, instead
// of `go run` of main.go by the Go language host; --override-env A=B is
// checked (A is an environment the stack's file imports, B one the team
// may open) and otherwise has nothing to replace offline; previews
// started at once run one after the other (one offline session of a
// state directory at a time). Any other command is refused.
package offlinepulumi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/pulumi/pulumi/sdk/v3/go/auto/events"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/spf13/pflag"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/engine"
	"github.com/company/harness-platform/internal/ghrunner"
	"github.com/company/harness-platform/simulated"
	"github.com/company/harness-platform/trust"
)

// StateEnv names the offline state directory (platformctl's
// HARNESS_PLATFORM_OFFLINE).
const StateEnv = "HARNESS_PLATFORM_OFFLINE"

// Main runs the stand-in with args (os.Args[1:]) and returns its exit
// code.
func Main(args []string) int {
	err := run(args)
	if err == nil {
		return 0
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode()
	}
	fmt.Fprintf(os.Stderr, "error: %v\n", err)
	return 255
}

func run(args []string) error {
	state := os.Getenv(StateEnv)
	if state == "" {
		return fmt.Errorf("%s is not set: this pulumi stands in for the CLI offline only", StateEnv)
	}
	switch {
	case len(args) >= 1 && args[0] == "version":
		return realCLI(state, args)
	case len(args) >= 2 && args[0] == "env" && args[1] == "run":
		return envRun(args[2:])
	case len(args) >= 2 && args[0] == "stack" && args[1] == "history":
		fs := pflag.NewFlagSet("history", pflag.ContinueOnError)
		stack := fs.StringP("stack", "s", "", "")
		fs.Int("page-size", 0, "")
		fs.Bool("json", false, "")
		if err := fs.Parse(args[2:]); err != nil {
			return err
		}
		if err := mayRead(*stack); err != nil {
			return err
		}
		return realCLI(state, args)
	case len(args) >= 1 && args[0] == "preview":
		return preview(state, args[1:])
	}
	return fmt.Errorf("`pulumi %s`: the offline stand-in runs only version, env run, stack history and preview", strings.Join(args, " "))
}

// team is the team of the stand-in token in PULUMI_ACCESS_TOKEN.
func team(m *trust.Model) (*trust.Team, error) {
	name := ghrunner.TeamOfToken(os.Getenv("PULUMI_ACCESS_TOKEN"))
	if name == "" {
		return nil, errors.New("no Pulumi access token (PULUMI_ACCESS_TOKEN): run pulumi/auth-actions first")
	}
	t := m.Access.Team(name)
	if t == nil {
		return nil, fmt.Errorf("[401] Unauthorized: no team %s", name)
	}
	return t, nil
}

// mayRead refuses a stack the token's team may not read.
func mayRead(stack string) error {
	m, err := trust.Default()
	if err != nil {
		return err
	}
	t, err := team(m)
	if err != nil {
		return err
	}
	if stack == "" {
		return errors.New("--stack is required here")
	}
	if p := t.StackPermission(trust.Project + "/" + stack); p == "none" {
		return fmt.Errorf("[403] team %s may not read stack %s/%s", t.Name, trust.Project, stack)
	}
	return nil
}

// realCLI runs the pinned CLI with args on the offline backend.
func realCLI(state string, args []string) error {
	bin := filepath.Join(engine.CLIRoot(), "bin", "pulumi")
	if _, err := os.Stat(bin); err != nil {
		return fmt.Errorf("the pinned CLI: %w (scripts/install-pulumi.sh builds it)", err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "PULUMI_BACKEND_URL=file://"+filepath.Join(state, "backend")+"?metadata=skip",
		"PULUMI_HOME="+filepath.Join(state, "home"), "PULUMI_SKIP_UPDATE_CHECK=true")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	return cmd.Run()
}

// envRun is pulumi env run ENV [--] CMD...: CMD with the environment's
// environmentVariables, opened as the token's team.
func envRun(args []string) error {
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) < 2 {
		return errors.New("usage: pulumi env run ORG/PROJECT/ENV -- COMMAND...")
	}
	env, rest := args[0], args[1:]
	if rest[0] == "--" {
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return errors.New("pulumi env run: no command")
	}
	m, err := trust.Default()
	if err != nil {
		return err
	}
	vars, _, err := ghrunner.Open(m, os.Getenv("PULUMI_ACCESS_TOKEN"), env)
	if err != nil {
		return err
	}
	path, err := exec.LookPath(rest[0])
	if err != nil {
		return err
	}
	cmd := exec.Command(path, rest[1:]...)
	cmd.Env = os.Environ()
	for k, v := range vars {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	return cmd.Run()
}

// preview is pulumi preview of one stack, offline.
func preview(state string, args []string) error {
	fs := pflag.NewFlagSet("preview", pflag.ContinueOnError)
	stack := fs.StringP("stack", "s", "", "")
	overrides := fs.StringArray("override-env", nil, "")
	packs := fs.StringArray("policy-pack", nil, "")
	configs := fs.StringArray("policy-pack-config", nil, "")
	parallel := fs.IntP("parallel", "p", 0, "")
	diff := fs.Bool("diff", false, "")
	eventLog := fs.String("event-log", "", "")
	expectNoChanges := fs.Bool("expect-no-changes", false, "")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %v", fs.Args())
	}
	if err := mayRead(*stack); err != nil {
		return err
	}
	c, err := catalog.Load(".")
	if err != nil {
		return err
	}
	st, _, err := c.EnvironmentOf(*stack)
	if err != nil {
		return err
	}
	m, err := trust.Default()
	if err != nil {
		return err
	}
	t, err := team(m)
	if err != nil {
		return err
	}
	for _, o := range *overrides {
		from, to, ok := strings.Cut(o, "=")
		if !ok || !slices.Contains(st.Imports, from) {
			return fmt.Errorf("--override-env %q: %s's stack file imports %v", o, *stack, st.Imports)
		}
		if !t.MayOpen(to) {
			return fmt.Errorf("--override-env %q: opening environment: [0] \nDiags: %w", o, trust.ErrNoPermission)
		}
	}
	for i, p := range *packs {
		if (*packs)[i], err = filepath.Abs(p); err != nil {
			return err
		}
	}
	for i, p := range *configs {
		if (*configs)[i], err = filepath.Abs(p); err != nil {
			return err
		}
	}
	unlock, err := lock(state)
	if err != nil {
		return err
	}
	defer unlock()
	ctx := context.Background()
	s, err := engine.Open(ctx, engine.Options{ProjectDir: ".", Offline: true, Simulation: simulated.Simulation{}, StateDir: state, Catalog: c,
		Passphrase: os.Getenv("PULUMI_CONFIG_PASSPHRASE"), Stdout: os.Stdout, Stderr: os.Stderr})
	if err != nil {
		return err
	}
	defer s.Close()
	stk, err := s.Stack(ctx, *stack)
	if err != nil {
		return err
	}
	opts := []optpreview.Option{optpreview.ProgressStreams(os.Stdout), optpreview.ErrorProgressStreams(os.Stderr),
		optpreview.PolicyPacks(*packs...), optpreview.PolicyPackConfigs(*configs...)}
	if *parallel > 0 {
		opts = append(opts, optpreview.Parallel(*parallel))
	}
	if *diff {
		opts = append(opts, optpreview.Diff())
	}
	if *expectNoChanges {
		opts = append(opts, optpreview.ExpectNoChanges())
	}
	done := make(chan error, 1)
	if *eventLog != "" {
		f, err := os.Create(*eventLog)
		if err != nil {
			return err
		}
		defer f.Close()
		ch := make(chan events.EngineEvent)
		go func() { done <- writeEvents(f, ch) }()
		opts = append(opts, optpreview.EventStreams(ch))
	} else {
		done <- nil
	}
	_, err = stk.Preview(ctx, opts...)
	if werr := <-done; err == nil {
		err = werr
	}
	return err
}

// writeEvents writes engine events as JSON lines, as the CLI's
// --event-log does.
func writeEvents(w io.Writer, ch <-chan events.EngineEvent) error {
	enc := json.NewEncoder(w)
	var err error
	for e := range ch {
		if err == nil {
			err = enc.Encode(e.EngineEvent)
		}
	}
	return err
}

// lock holds the state directory's stand-in lock until unlock: one
// offline session of a state directory at a time.
func lock(state string) (unlock func(), err error) {
	if err := os.MkdirAll(state, 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(state, ".pulumi-standin.lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
