package platformctl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/netip"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"

	"github.com/company/harness-platform/adopt"
	"github.com/company/harness-platform/apibudget"
	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/engine"
	"github.com/company/harness-platform/simulated"
)

func open(ctx context.Context, c *catalog.Catalog, f options, stdout, stderr io.Writer) (*engine.Session, error) {
	// Offline, the command line composes the engine with the simulated
	// cloud; the engine itself knows only package offline's interfaces.
	var sim simulated.Simulation
	if f.runner != "" {
		addr, err := netip.ParseAddr(f.runner)
		if err != nil {
			return nil, fmt.Errorf("--runner-address %q: %v; write the runner's address, e.g. 198.51.100.1", f.runner, err)
		}
		r := simulated.DefaultReach(c)
		r.Runner = addr
		sim.Reach = &r
	}
	return engine.Open(ctx, engine.Options{
		ProjectDir:  f.dir,
		Offline:     f.offline,
		Simulation:  sim,
		StateDir:    f.stateDir(),
		Passphrase:  os.Getenv("PULUMI_CONFIG_PASSPHRASE"),
		Stdout:      stdout,
		Stderr:      stderr,
		Catalog:     c,
		BackupDir:   f.backupDir,
		KeepBackups: f.keepBackups,
		// After the drift check reports a repository recreated.
		RereadRepositories: f.rereadRepositories,
		// What changes nothing runs with the read-only identities: a
		// preview, and the drift check (docs/delivery.md, Who runs what).
		ReadOnly: f.readOnly || !f.offline && (f.command == "preview" || f.command == "refresh" && f.previewOnly),
	})
}

// interruptible cancels the context on Ctrl-C, so the engine stops cleanly.
func interruptible() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt)
}

// withSession opens the command's session, runs fn in it and closes it;
// Ctrl-C cancels ctx, so the engine stops cleanly.
func withSession(c *catalog.Catalog, f options, stdout, stderr io.Writer, fn func(ctx context.Context, s *engine.Session) error) error {
	ctx, cancel := interruptible()
	defer cancel()
	s, err := open(ctx, c, f, stdout, stderr)
	if err != nil {
		return err
	}
	defer s.Close()
	return fn(ctx, s)
}

// runEngine runs an engine command on one stack.
func runEngine(c *catalog.Catalog, f options, stdout, stderr io.Writer) error {
	cmd := f.command
	return withSession(c, f, stdout, stderr, func(ctx context.Context, s *engine.Session) error {
		var packs, configs []string
		var err error
		if cmd == "preview" || cmd == "up" {
			if packs, configs, err = policyPacks(f); err != nil {
				return err
			}
		}
		// The stacks a change touches (--changed), and the commit an up
		// records on each stack it applies (none outside a git clone).
		var only []string
		commit := headCommit(f.dir)
		if f.changed && (cmd == "preview" || cmd == "up") {
			if only, commit, err = changedStacks(ctx, s, c, f.dir, f.stack, stdout); err != nil {
				return err
			}
		}
		switch cmd {
		case "preview":
			_, err = s.Preview(ctx, f.stack, engine.PreviewOptions{Diff: f.diff, ExpectNoChanges: f.expectNoChanges, PolicyPacks: packs, PolicyPackConfigs: configs,
				PlanDir: f.planDir, Parallel: f.parallel, StackParallel: f.stackParallel, Only: only})
		case "up":
			_, err = s.Up(ctx, f.stack, engine.UpOptions{Diff: f.diff, PolicyPacks: packs, PolicyPackConfigs: configs,
				PlanDir: f.planDir, Parallel: f.parallel, StackParallel: f.stackParallel, Only: only, Commit: commit})
		case "refresh":
			err = s.Refresh(ctx, f.stack, engine.RefreshOptions{Diff: f.diff, PreviewOnly: f.previewOnly, ExpectNoChanges: f.expectNoChanges,
				Parallel: f.parallel, StackParallel: f.stackParallel})
		case "destroy":
			err = s.Destroy(ctx, f.stack, engine.DestroyOptions{Parallel: f.parallel, StackParallel: f.stackParallel})
		case "outputs":
			err = printOutputs(ctx, s, f, stdout)
		case "recover":
			err = recoverStack(ctx, s, f, stdout)
		case "backup":
			err = backupStacks(ctx, s, f, stdout)
		case "restore":
			err = restoreStack(ctx, s, f, stdout)
		}
		reportCalls(s, cmd+" of "+f.stack, stdout)
		if cmd == "refresh" && engine.OnlyDrift(err) {
			return &exitError{code: exitDrift, err: fmt.Errorf("drift in %s: %w", f.stack, err)}
		}
		if cmd == "up" && errors.Is(err, engine.ErrStalePlan) {
			return &exitError{code: exitStale, err: fmt.Errorf("%s: %w", f.stack, err)}
		}
		if err != nil {
			return fmt.Errorf("%s failed: %w", f.stack, err)
		}
		return nil
	})
}

// policyPacks are the packs a run enforces and their config: those
// given, else the project's own (built once and cached) with the
// project's config unless another is given; none with --no-policy.
func policyPacks(f options) (packs, configs []string, err error) {
	if f.noPolicy {
		return nil, nil, nil
	}
	if len(f.policyPacks) > 0 {
		// The CLI runs in the session's workspace (offline, or a
		// read-only run's copy of the project), not where the paths
		// were given: they are made absolute here.
		if packs, err = absPaths(f.policyPacks); err != nil {
			return nil, nil, err
		}
		if configs, err = absPaths(f.policyConfigs); err != nil {
			return nil, nil, err
		}
		return packs, configs, nil
	}
	pack, err := engine.BuildPolicyPack(f.dir)
	if err != nil {
		return nil, nil, err
	}
	if configs, err = absPaths(f.policyConfigs); err != nil {
		return nil, nil, err
	}
	if len(configs) == 0 {
		config, err := engine.PolicyConfig(f.dir)
		if err != nil {
			return nil, nil, err
		}
		configs = []string{config}
	}
	return []string{pack}, configs, nil
}

// absPaths are paths made absolute against the working directory.
func absPaths(paths []string) ([]string, error) {
	out := make([]string, len(paths))
	for i, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		out[i] = abs
	}
	return out, nil
}

func printOutputs(ctx context.Context, s *engine.Session, f options, stdout io.Writer) error {
	outs, err := s.Outputs(ctx, f.stack)
	if err != nil {
		return err
	}
	plain := map[string]any{}
	for k, v := range outs {
		if v.Secret {
			plain[k] = "[secret]"
		} else {
			plain[k] = v.Value
		}
	}
	if f.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(plain)
	}
	keys := make([]string, 0, len(plain))
	for k := range plain {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v, _ := json.Marshal(plain[k])
		fmt.Fprintf(stdout, "%-16s %s\n", k, v)
	}
	return nil
}

// runDemo is the main job offline: deploy the chain, show that a second
// run has nothing to do, and run the drift check.
func runDemo(c *catalog.Catalog, f options, stdout, stderr io.Writer) error {
	ctx, cancel := interruptible()
	defer cancel()
	f.offline = true
	s, err := open(ctx, c, f, stdout, stderr)
	if err != nil {
		return err
	}
	defer s.Close()
	start := time.Now()
	step := func(title string, fn func(env string) error) error {
		for _, env := range c.Chain {
			fmt.Fprintf(stdout, "\n=== %s: %v\n", title, c.StacksOf(env))
			err := fn(env)
			reportCalls(s, title+" of "+env, stdout)
			if err != nil {
				return fmt.Errorf("%s of %s failed: %w", title, env, err)
			}
		}
		return nil
	}
	packs, configs, err := policyPacks(f)
	if err != nil {
		return err
	}
	// A demo state made before the credentials stacks holds the delegate
	// tokens in the platform stacks: the demo moves them, as
	// `platformctl move` would (docs/operating.md).
	for _, env := range c.Chain {
		moves, err := s.PlanMoves(ctx, env)
		if err != nil {
			return err
		}
		for _, m := range moves {
			if len(m.Tokens) == 0 {
				continue
			}
			fmt.Fprintf(stdout, "moving %s's delegate tokens to %s (a state move): %s\n", m.From, m.To, strings.Join(m.Tokens, ", "))
			if err := s.ApplyMove(ctx, m); err != nil {
				return err
			}
		}
	}
	up := engine.UpOptions{Parallel: f.parallel, StackParallel: f.stackParallel, PolicyPacks: packs, PolicyPackConfigs: configs}
	again := engine.PreviewOptions{Parallel: f.parallel, StackParallel: f.stackParallel, PolicyPacks: packs, PolicyPackConfigs: configs, ExpectNoChanges: true}
	drift := engine.RefreshOptions{Parallel: f.parallel, StackParallel: f.stackParallel, PreviewOnly: true, ExpectNoChanges: true}
	for _, st := range []struct {
		title string
		fn    func(env string) error
	}{
		{"up", func(env string) error { _, err := s.Up(ctx, env, up); return err }},
		{"preview (expect no changes)", func(env string) error { _, err := s.Preview(ctx, env, again); return err }},
		{"drift check (refresh --preview-only --expect-no-changes)", func(env string) error { return s.Refresh(ctx, env, drift) }},
	} {
		if err := step(st.title, st.fn); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "\ndemo: %v deployed to the simulated cloud in %s (and the delegate tokens in %v, which previews and the drift check cannot read), no changes on a second run, no drift.\nState: %s (delete it to start over).\n",
		c.AllStacks(), time.Since(start).Round(time.Second), c.CredentialsStacks(), f.stateDir())
	return nil
}

// recoverStack settles what an interrupted up left: the lock (with
// --unlock) and the pending operations (creates, updates, deletes).
func recoverStack(ctx context.Context, s *engine.Session, f options, stdout io.Writer) error {
	if f.dryRun {
		pending, err := s.Recover(ctx, f.stack, engine.RepairOptions{Parallel: f.parallel, DryRun: true})
		if err != nil {
			return err
		}
		unlock := ""
		if f.unlock {
			unlock = " --unlock"
		}
		if len(pending) == 0 {
			fmt.Fprintf(stdout, "%s has no pending operations: nothing to recover; a lock a killed run left is removed by `platformctl recover --stack %s%s --unlock --yes`\n", f.stack, f.stack, f.sameState())
			return nil
		}
		fmt.Fprintf(stdout, "%s: %d pending operation(s) of an interrupted up:\n", f.stack, len(pending))
		for _, p := range pending {
			fmt.Fprintf(stdout, "  %s\n", p.URN)
		}
		fmt.Fprintf(stdout, "nothing was written; settle them with `platformctl recover --stack %s%s%s --yes`\n", f.stack, f.sameState(), unlock)
		return nil
	}
	if f.unlock {
		unlocked, err := s.Unlock(ctx, f.stack)
		if len(unlocked) > 0 {
			fmt.Fprintf(stdout, "unlocked %s: any update in progress there was cancelled, and its lock removed (the backend does not say whether there was one)\n", strings.Join(unlocked, ", "))
		}
		if err != nil {
			return err
		}
	}
	settled, err := s.Recover(ctx, f.stack, engine.RepairOptions{Parallel: f.parallel})
	if err != nil {
		return err
	}
	if len(settled) == 0 {
		what := "nothing to recover"
		if f.unlock {
			what = "nothing else to recover"
		}
		fmt.Fprintf(stdout, "%s has no pending operations: %s\n", f.stack, what)
		return nil
	}
	fmt.Fprintf(stdout, "%s: settled %d pending operation(s); run `platformctl up --stack %s%s --yes` to finish what the interrupted up left\n", f.stack, len(settled), f.stack, f.sameState())
	return nil
}

// runMove moves, in the environment's stacks, the objects of every service
// to the stack the catalog puts it in. Without --yes it only reports.
func runMove(c *catalog.Catalog, f options, stdout, stderr io.Writer) error {
	if env, shard := catalog.SplitStack(f.stack); shard != "" {
		return usageErrorf("move works on an environment, not one stack: --stack %s", env)
	}
	return withSession(c, f, stdout, stderr, func(ctx context.Context, s *engine.Session) error {
		return moveStacks(ctx, s, f, stdout)
	})
}

// moveStacks plans the moves of the environment's stacks, reports them
// and, unless it is a dry run, applies them.
func moveStacks(ctx context.Context, s *engine.Session, f options, stdout io.Writer) error {
	moves, err := s.PlanMoves(ctx, f.stack)
	if err != nil {
		return err
	}
	if len(moves) == 0 {
		fmt.Fprintf(stdout, "%s: every object is in the stack the catalog puts it in; nothing to move\n", f.stack)
		return nil
	}
	total, tokens := 0, 0
	for _, m := range moves {
		if len(m.Tokens) > 0 {
			fmt.Fprintf(stdout, "%s -> %s: %d delegate token(s): %s\n", m.From, m.To, len(m.Tokens), strings.Join(m.Tokens, ", "))
			tokens += len(m.Tokens)
			continue
		}
		fmt.Fprintf(stdout, "%s -> %s: %d resource(s) of %d service(s): %s\n", m.From, m.To, len(m.URNs), len(m.Services), strings.Join(m.Services, ", "))
		total += len(m.Services)
	}
	if f.dryRun {
		fmt.Fprintf(stdout, "%d service(s) and %d delegate token(s) to move; run again with --yes to move them (a state move: nothing is deleted or created)\n", total, tokens)
		return nil
	}
	for _, m := range moves {
		if err := s.ApplyMove(ctx, m); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "moved %d service(s) and %d delegate token(s); now run `platformctl up --stack %s%s --yes`: its preview shows no create or delete\n", total, tokens, f.stack, f.sameState())
	return nil
}

// backupStacks backs up the stack, or every stack of an environment.
func backupStacks(ctx context.Context, s *engine.Session, f options, stdout io.Writer) error {
	waves, err := engine.Waves(s.Catalog, f.stack)
	if err != nil {
		return err
	}
	for _, wave := range waves {
		for _, name := range wave {
			path, err := s.Backup(ctx, name)
			if err != nil {
				return err
			}
			if path == "" {
				fmt.Fprintf(stdout, "%s: holds nothing, no backup\n", name)
				continue
			}
			fmt.Fprintf(stdout, "%s: %s\n", name, path)
		}
	}
	return nil
}

// restoreStack restores one stack from a backup and shows the refresh
// preview that follows.
func restoreStack(ctx context.Context, s *engine.Session, f options, stdout io.Writer) error {
	if f.from == "" {
		return fmt.Errorf("--from FILE is required: a backup of %s (see %s)", f.stack, filepath.Join(s.BackupDir(), f.stack))
	}
	r, err := s.Restore(ctx, f.stack, f.from, engine.RepairOptions{Parallel: f.parallel})
	if err != nil {
		return err
	}
	same := f.sameState()
	fmt.Fprintf(stdout, "%s restored from %s (the state it replaced was backed up first).\nThe refresh preview above shows what differs in the cloud: %s.\n"+
		"Next: `platformctl refresh --stack %s%s --yes` to accept the cloud as it is, then `platformctl up --stack %s%s --yes` to apply the catalog.\n",
		f.stack, f.from, describeChanges(r.ChangeSummary), f.stack, same, f.stack, same)
	return nil
}

// describeChanges is a change summary in words, changes first:
// "2 update, 215 unchanged"; "nothing" when empty.
func describeChanges(summary map[apitype.OpType]int) string {
	var changes []string
	for _, op := range slices.Sorted(maps.Keys(summary)) {
		if n := summary[op]; n > 0 && op != apitype.OpSame {
			changes = append(changes, fmt.Sprintf("%d %s", n, op))
		}
	}
	if n := summary[apitype.OpSame]; n > 0 {
		changes = append(changes, fmt.Sprintf("%d unchanged", n))
	}
	if len(changes) == 0 {
		return "nothing"
	}
	return strings.Join(changes, ", ")
}

// sameState are the flags that point a next command at the state this
// one used: --offline, and the --dir and --state it was given. Every next
// step a stack command prints carries them: one without --offline would
// run against the real backend.
func (o options) sameState() string {
	var b strings.Builder
	if o.dir != "" && o.dir != "." {
		b.WriteString(" --dir " + o.dir)
	}
	if o.offline {
		b.WriteString(" --offline")
		if o.state != "" {
			b.WriteString(" --state " + o.state)
		}
	}
	return b.String()
}

// runImport reports, and with --yes adopts, the Harness objects of the
// stack (every stack of an environment) that already exist.
func runImport(c *catalog.Catalog, f options, stdout, stderr io.Writer) error {
	return withSession(c, f, stdout, stderr, func(ctx context.Context, s *engine.Session) error {
		start := time.Now()
		report, err := s.Import(ctx, f.stack, engine.ImportOptions{Yes: !f.dryRun})
		totals := map[adopt.Status]int{}
		for _, a := range report.Objects {
			totals[a.Status]++
			line := fmt.Sprintf("%-22s %s  (%s %s)", a.Status, a.URN, a.Type, a.ImportID)
			if a.Status == adopt.NotDeclared {
				line = fmt.Sprintf("%-22s %s %s", a.Status, a.Type, a.ImportID)
			}
			if len(a.Fields) > 0 {
				line += ": " + strings.Join(a.Fields, ", ")
			}
			fmt.Fprintln(stdout, line)
		}
		fmt.Fprintf(stdout, "%s: %d adopted as declared, %d adopted with differences (the next up updates them in place), %d to create, "+
			"%d existing and not declared by the catalog (left alone; declare them in the catalog to manage them); %d provider calls in %s\n",
			f.stack, totals[adopt.Adopted], totals[adopt.Different], totals[adopt.ToCreate], totals[adopt.NotDeclared], report.Calls, time.Since(start).Round(time.Second))
		if err != nil {
			return fmt.Errorf("%s failed: %w", f.stack, err)
		}
		switch {
		case f.dryRun && totals[adopt.Adopted]+totals[adopt.Different] > 0:
			fmt.Fprintf(stdout, "nothing was changed; run again with --yes to adopt them, then `platformctl preview --stack %s%s`\n", f.stack, f.sameState())
		case !f.dryRun:
			fmt.Fprintf(stdout, "the account was not changed; now `platformctl preview --stack %s%s` shows the differences as in-place updates\n", f.stack, f.sameState())
		}
		return nil
	})
}

// runPreflight checks every credential and endpoint the stack's
// operations use, and prints every problem with its fix.
func runPreflight(c *catalog.Catalog, f options, stdout, stderr io.Writer) error {
	return withSession(c, f, stdout, stderr, func(ctx context.Context, s *engine.Session) error {
		problems, err := s.PreflightWith(ctx, f.stack, engine.PreflightOptions{Drift: f.drift, PlanDir: f.planDir})
		if err != nil {
			return fmt.Errorf("%s failed: %w", f.stack, err)
		}
		blocking := 0
		for _, p := range problems {
			if p.Warning {
				fmt.Fprintf(stderr, "preflight: warning: %v\n", p)
				continue
			}
			blocking++
			fmt.Fprintf(stderr, "preflight: %v\n", p)
		}
		if blocking > 0 {
			return fmt.Errorf("%s: %d problem(s); nothing was run", f.stack, blocking)
		}
		also := ""
		if f.readOnly {
			also = "; the run's token opens no environment that holds a writing credential"
		}
		fmt.Fprintf(stdout, "preflight of %s: the backend, the ESC environments and their logins, the Harness key, the GitHub credential, the AWS roles and the deployed clusters' API answer%s\n", f.stack, also)
		return nil
	})
}

// reportCalls prints, offline, the Harness and GitHub calls the run made
// (as the real providers would have sent them), the least real time they
// need under each API budget, and starts counting afresh.
func reportCalls(s *engine.Session, run string, w io.Writer) {
	calls, err := s.APICalls()
	s.ResetAPICalls()
	if err != nil || calls.Total.IsZero() {
		return
	}
	needs := calls.Total.Needs(apibudget.Budgets)
	fmt.Fprintf(w, "API calls of the %s: %s; at least %s of real time\n", run, calls.Total, apibudget.Duration(apibudget.Least(needs)))
	for _, line := range apibudget.Lines(needs) {
		fmt.Fprintf(w, "  %s\n", line)
	}
	// By service, the costliest first (every one: Session.APICalls).
	services := apibudget.Costliest(calls.ByService)
	for i, svc := range services {
		if i == 5 {
			fmt.Fprintf(w, "  … and %d more services\n", len(services)-i)
			break
		}
		name := "the platform's own objects"
		if svc != "" {
			name = svc
		}
		fmt.Fprintf(w, "  %s: %s\n", name, calls.ByService[svc])
	}
}
