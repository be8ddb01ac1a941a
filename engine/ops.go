package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/events"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optrefresh"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"

	"github.com/company/harness-platform/apibudget"
	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/plan"
)

// writeEvents writes engine events as JSON lines until the channel closes.
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

// DefaultParallel caps concurrent resource operations offline, where the
// CPU is the limit.
const DefaultParallel = 8

// CallsPerSlot is what one operation slot sends Harness in a minute at
// most: an operation is a write and a read back (apibudget.Of), each
// taken as a quarter second through the bridged provider. That is an
// assumption (the simulation has no latency); a real account's run logs
// would tell, and a slower API only leaves more room.
const CallsPerSlot = 240

// PacedParallel is the --parallel that keeps stackParallel stacks run at
// once within one Harness API key's budget (apibudget.HarnessKey): a
// budget met by the provider's retries of 429 fails the step after ten
// of them, so a run is paced below it instead (2 at 2 stacks).
func PacedParallel(stackParallel int) int {
	if stackParallel < 1 {
		stackParallel = DefaultStackParallel
	}
	return max(1, apibudget.HarnessKey.Limit/(CallsPerSlot*stackParallel))
}

// paced is o with, for a run against the real services, the paced
// --parallel unless one is given; offline the simulated services answer
// at once and DefaultParallel keeps the cores busy.
func (s *Session) paced(o runOptions) runOptions {
	if o.Parallel == 0 && !s.opts.Offline {
		o.Parallel = PacedParallel(o.StackParallel)
	}
	return o
}

// runOptions are every operation's options, as the operations share
// them; callers give each operation its own (PreviewOptions, UpOptions,
// ...), as auto's optpreview and optup do.
type runOptions struct {
	Diff            bool
	ExpectNoChanges bool
	PreviewOnly     bool // refresh: report drift without writing state
	PolicyPacks     []string
	// PolicyPackConfigs are JSON files of policy config
	// (--policy-pack-config).
	PolicyPackConfigs []string
	// EventLog, when set, receives a preview's engine events, one JSON
	// object a line, as the CLI's --event-log writes them.
	EventLog io.Writer
	Parallel int
	// Stdout and Stderr, when set, receive this run's progress instead
	// of the session's writers (RunStacks prefixes each stack's lines).
	Stdout, Stderr io.Writer
	// StackParallel is how many stacks of an environment run at once
	// (default DefaultStackParallel).
	StackParallel int
	// PlanDir holds update plans, one per stack (<stack>.plan.json): a
	// preview saves them there (pulumi preview --save-plan), an up
	// applies exactly them (pulumi up --plan), so an up approved from a
	// preview does what that preview showed, or fails.
	PlanDir string

	previewed bool   // Up: every stack was previewed (strictly) already
	target    string // preview only this resource (Up's guard check)
	// targets and exclude: an up of these resources only, or of all but
	// these (pulumi up --target, --exclude; a rotation's two steps).
	targets, exclude []string
	// only: the stacks of the environment to run (nil: all); commit:
	// recorded on each stack an up applies.
	only   []string
	commit string
}

func (o runOptions) streams(s *Session) (stdout, stderr io.Writer) {
	stdout, stderr = s.opts.Stdout, s.opts.Stderr
	if o.Stdout != nil {
		stdout = o.Stdout
	}
	if o.Stderr != nil {
		stderr = o.Stderr
	}
	return stdout, stderr
}

func (o runOptions) parallel() int {
	if o.Parallel > 0 {
		return o.Parallel
	}
	return DefaultParallel
}

// Preview shows what up would change: of one stack, or of every stack of
// an environment (Waves), the changes summed.
func (s *Session) Preview(ctx context.Context, name string, opts PreviewOptions) (auto.PreviewResult, error) {
	o := s.paced(opts.run())
	var out auto.PreviewResult
	var mu sync.Mutex
	if o.EventLog != nil {
		// Stacks previewed at once share the log: one event, one line.
		o.EventLog = &lockedWriter{w: o.EventLog}
	}
	waves, err := Waves(s.Catalog, name)
	if err != nil {
		return out, err
	}
	waves = only(waves, o.only)
	if len(waves) == 0 {
		stdout, _ := o.streams(s)
		fmt.Fprintf(stdout, "%s: no stack to preview\n", name)
		if o.PlanDir != "" {
			// Saved all the same, so that the plans (none) have a digest
			// and an artifact, and their up applies nothing.
			if err := os.MkdirAll(o.PlanDir, 0o700); err != nil {
				return out, err
			}
			return out, os.WriteFile(filepath.Join(o.PlanDir, "no-stack-changed"), []byte(name+": no stack changed since its last up\n"), 0o600)
		}
		return out, nil
	}
	err = s.eachOf(ctx, waves, o, func(ctx context.Context, stack string, o runOptions) error {
		r, err := s.previewStack(ctx, stack, o)
		mu.Lock()
		defer mu.Unlock()
		out.StdOut += r.StdOut
		out.StdErr += r.StdErr
		for op, n := range r.ChangeSummary {
			if out.ChangeSummary == nil {
				out.ChangeSummary = map[apitype.OpType]int{}
			}
			out.ChangeSummary[op] += n
		}
		return err
	})
	if err == nil && o.PlanDir != "" {
		err = s.laterWaves(waves, o)
	}
	return out, err
}

// laterWaves drops the plans of the stacks after the first wave when a
// stack of the first (the platform stack) plans a first step: they are
// planned with the rest, once it is applied (their providers read the
// clusters it makes).
func (s *Session) laterWaves(waves [][]string, o runOptions) error {
	var first []string
	for _, stack := range waves[0] {
		if step, err := readFirstStep(o.PlanDir, stack); err != nil {
			return err
		} else if step != nil {
			first = append(first, stack)
		}
	}
	if len(first) == 0 {
		return nil
	}
	stdout, _ := o.streams(s)
	for _, wave := range waves[1:] {
		for _, stack := range wave {
			if err := os.Remove(planFile(o.PlanDir, stack)); err != nil && !os.IsNotExist(err) {
				return err
			}
			fmt.Fprintf(stdout, "%s: planned after the first step of %s\n", stack, strings.Join(first, ", "))
		}
	}
	return nil
}

// each runs op on the stacks name stands for (Waves), in dependency order,
// o.StackParallel at once, each with its own progress streams.
func (s *Session) each(ctx context.Context, name string, o runOptions, op stackOp) error {
	waves, err := Waves(s.Catalog, name)
	if err != nil {
		return err
	}
	return s.eachOf(ctx, waves, o, op)
}

// stackOp is one stack's operation, o its options with its own streams.
type stackOp func(ctx context.Context, stack string, o runOptions) error

// eachOf runs op on the stacks of waves, as each does.
func (s *Session) eachOf(ctx context.Context, waves [][]string, o runOptions, op stackOp) error {
	stdout, stderr := o.streams(s)
	return RunStacks(ctx, waves, o.StackParallel, stdout, stderr, func(ctx context.Context, stack string, out, errOut io.Writer) error {
		o := o
		o.Stdout, o.Stderr = out, errOut
		return op(ctx, stack, o)
	})
}

func (s *Session) previewStack(ctx context.Context, name string, o runOptions) (auto.PreviewResult, error) {
	defer s.flush()
	stdout, stderr := o.streams(s)
	stack, err := s.stack(ctx, name, true)
	if err != nil {
		return auto.PreviewResult{}, err
	}
	opts := []optpreview.Option{
		optpreview.ProgressStreams(stdout), optpreview.ErrorProgressStreams(stderr),
		optpreview.Parallel(o.parallel()), optpreview.PolicyPacks(o.PolicyPacks...),
		optpreview.PolicyPackConfigs(o.PolicyPackConfigs...),
	}
	if o.Diff {
		opts = append(opts, optpreview.Diff())
	}
	if o.target != "" {
		opts = append(opts, optpreview.Target([]string{o.target}))
	}
	if o.EventLog != nil {
		ch := make(chan events.EngineEvent)
		done := make(chan error, 1)
		go func() { done <- writeEvents(o.EventLog, ch) }()
		opts = append(opts, optpreview.EventStreams(ch))
		defer func() { <-done }()
	}
	if o.ExpectNoChanges {
		opts = append(opts, optpreview.ExpectNoChanges())
	}
	if o.PlanDir == "" || o.target != "" {
		return stack.Preview(ctx, opts...)
	}
	if err := os.MkdirAll(o.PlanDir, 0o700); err != nil {
		return auto.PreviewResult{}, err
	}
	file := planFile(o.PlanDir, name)
	if err := os.Remove(firstStepFile(o.PlanDir, name)); err != nil && !os.IsNotExist(err) {
		return auto.PreviewResult{}, err
	}
	r, err := stack.Preview(ctx, append(opts, optpreview.Plan(file))...)
	if err != nil {
		return r, err
	}
	if err := writePlanBase(ctx, o.PlanDir, name, stack); err != nil {
		return r, err
	}
	step, err := firstStepOf(file)
	if err != nil || step == nil {
		return r, err
	}
	// Providers configured from what this update creates: plan what
	// their configuration comes from first (firststep.go).
	fmt.Fprintf(stdout, "\n%s: %d resources have providers configured from what this update creates (a new cluster's), and cannot be planned before it exists: "+
		"planning a first step, the %d resources their configuration comes from; once it is applied, preview again for the rest\n",
		name, step.Waiting, len(step.Targets))
	// Without the policy packs: the preview above ran them on every
	// resource, and a targeted preview shows them the resources it
	// leaves for later without their inputs (Pulumi's --target), which
	// they refuse (a connector without its delegate credentials, ...).
	firstOpts := []optpreview.Option{optpreview.ProgressStreams(stdout), optpreview.ErrorProgressStreams(stderr), optpreview.Parallel(o.parallel())}
	if o.Diff {
		firstOpts = append(firstOpts, optpreview.Diff())
	}
	first, err := stack.Preview(ctx, append(firstOpts, optpreview.Plan(file), optpreview.Target(step.Targets))...)
	if err != nil {
		return first, fmt.Errorf("planning the first step of %s: %w", name, err)
	}
	first.StdOut = r.StdOut + first.StdOut
	return first, writeFirstStep(o.PlanDir, name, step)
}

// Up applies one stack, or every stack of an environment (Waves); the
// result is the last stack's, its resource changes summed over all.
//
// The stacks after the first wave (an environment's service stacks) are
// previewed first, their guards as strict as an update's and with the
// policy packs: a refusal in any of them (a promotion, a decommissioning,
// a policy) stops the update before the platform stack changes. The
// platform stack needs no such preview: its own update refuses before
// registering anything (and previews for the policy packs).
//
// An environment's up starts with its credentials stack
// (catalog.CredentialsStackName: the delegate tokens its clusters read
// from Secrets Manager), once the checks above passed.
func (s *Session) Up(ctx context.Context, name string, opts UpOptions) (auto.UpResult, error) {
	if err := s.checkDelivery(name); err != nil {
		return auto.UpResult{}, err
	}
	o := s.paced(opts.run())
	var out auto.UpResult
	waves, err := Waves(s.Catalog, name)
	if err != nil {
		return out, err
	}
	waves = only(waves, o.only)
	if len(waves) == 0 {
		stdout, _ := o.streams(s)
		fmt.Fprintf(stdout, "%s: no stack to update\n", name)
		return out, nil
	}
	// Without its platform stack, an environment's up leaves its
	// credentials stack too (it changes only with a cluster), and
	// previews every service stack it runs before the first changes.
	platform := slices.ContainsFunc(waves[0], isPlatform)
	if o.PlanDir != "" {
		if err := s.checkPlanBases(ctx, o.PlanDir, waves); err != nil {
			return out, err
		}
		// A plan's first step applies the platform stack's part alone.
		for _, stack := range waves[0] {
			if step, err := readFirstStep(o.PlanDir, stack); err != nil {
				return out, err
			} else if step != nil {
				// A first step applies part of the platform stack: its
				// commit is not recorded, so the rest is planned from
				// the same base.
				waves = waves[:1]
				o.commit = ""
			}
		}
	}
	creds, withCreds := CredentialsOf(name)
	withCreds = withCreds && platform
	if withCreds {
		if err := s.requireTokensMoved(ctx, name); err != nil {
			return out, err
		}
	}
	// What is checked before anything changes: the service stacks, and,
	// where the credentials stack comes first, the platform stack too
	// (its own update would refuse only after the credentials changed).
	checked := waves[1:]
	if withCreds || !platform {
		checked = waves
	}
	if len(checked) > 0 {
		check := runOptions{PolicyPacks: o.PolicyPacks, PolicyPackConfigs: o.PolicyPackConfigs, Parallel: o.Parallel,
			StackParallel: o.StackParallel, Stdout: o.Stdout, Stderr: o.Stderr}
		err := s.eachOf(ctx, checked, check, func(ctx context.Context, stack string, check runOptions) error {
			s.checks.Store(stack, verdict{})
			defer s.checks.Delete(stack)
			if len(check.PolicyPacks) > 0 {
				_, err := s.previewStack(ctx, stack, check)
				return err
			}
			// Only the guards to check: the program runs them before it
			// registers anything and reports their verdict, so a preview
			// targeting the stack's root alone (no provider is asked to
			// check or diff the rest) is enough, for a fraction of the
			// full one's cost. Such a preview fails by itself where the
			// update would delete something (Pulumi refuses deletes
			// outside the targets); the verdict decides.
			check.target = string(resource.DefaultRootStackURN(tokens.QName(stack), tokens.PackageName(s.project)))
			check.Stdout, check.Stderr = io.Discard, io.Discard // the verdict says it all
			_, err := s.previewStack(ctx, stack, check)
			if v, _ := s.checks.Load(stack); v.(verdict).reached {
				return v.(verdict).err
			}
			return err // the program did not reach its guards
		})
		if err != nil {
			return out, fmt.Errorf("nothing was changed: the preview of %s's stacks before the update failed: %w", name, err)
		}
	}
	changes := map[string]int{}
	var mu sync.Mutex
	if withCreds {
		// The credentials stack first: the delegate tokens the platform
		// stack's clusters are about to read from Secrets Manager. Not
		// from a saved plan: previews cannot read it (its state holds
		// the tokens), so none planned it; it changes only when a
		// cluster or a token generation does.
		co := o
		co.PlanDir = ""
		r, err := s.upStack(ctx, creds, co)
		if r.Summary.ResourceChanges != nil {
			maps.Copy(changes, *r.Summary.ResourceChanges)
		}
		if err != nil {
			return out, fmt.Errorf("%s: %w\nnot run, as they depend on it: %v", creds, err, slices.Concat(waves...))
		}
	}
	err = s.eachOf(ctx, waves, o, func(ctx context.Context, stack string, o runOptions) error {
		if len(waves) > 1 && !slices.Contains(waves[0], stack) || !platform {
			o.previewed = true
		}
		r, err := s.upStack(ctx, stack, o)
		if err == nil {
			err = s.recordCommit(ctx, stack, o.commit)
		}
		mu.Lock()
		defer mu.Unlock()
		stdout := out.StdOut + r.StdOut
		if r.Summary.ResourceChanges != nil || out.Summary.ResourceChanges == nil {
			out = r
		}
		out.StdOut = stdout
		if r.Summary.ResourceChanges != nil {
			for k, n := range *r.Summary.ResourceChanges {
				changes[k] += n
			}
			out.Summary.ResourceChanges = &changes
		}
		return err
	})
	return out, err
}

func (s *Session) upStack(ctx context.Context, name string, o runOptions) (auto.UpResult, error) {
	defer s.flush()
	stdout, stderr := o.streams(s)
	stack, err := s.Stack(ctx, name)
	if err != nil {
		return auto.UpResult{}, err
	}
	if len(o.PolicyPacks) > 0 && !o.previewed {
		// As `pulumi up` does before it asks: a preview first, so that a
		// mandatory policy violation refuses the update before any step
		// runs (an update alone stops only when it reaches the violating
		// resource, after creating what came before it).
		if _, err := s.previewStack(ctx, name, runOptions{PolicyPacks: o.PolicyPacks, PolicyPackConfigs: o.PolicyPackConfigs, Parallel: o.Parallel, Stdout: o.Stdout, Stderr: o.Stderr}); err != nil {
			return auto.UpResult{}, fmt.Errorf("nothing was changed: the preview before the update failed: %w", err)
		}
	}
	if err := s.backupBefore(ctx, stack, "update"); err != nil {
		return auto.UpResult{}, err
	}
	opts := []optup.Option{
		optup.ProgressStreams(stdout), optup.ErrorProgressStreams(stderr),
		optup.Parallel(o.parallel()), optup.PolicyPacks(o.PolicyPacks...),
		optup.PolicyPackConfigs(o.PolicyPackConfigs...),
		// The summary the Automation API reads back from the stack's
		// history after the update: with its configuration's secrets
		// left encrypted (nothing reads them, and decrypting costs the
		// CLI a key derivation).
		optup.ShowSecrets(false),
	}
	if o.Diff {
		opts = append(opts, optup.Diff())
	}
	if len(o.targets) > 0 {
		opts = append(opts, optup.Target(o.targets))
	}
	if len(o.exclude) > 0 {
		opts = append(opts, optup.Exclude(o.exclude))
	}
	if o.ExpectNoChanges {
		opts = append(opts, optup.ExpectNoChanges())
	}
	if o.PlanDir != "" {
		file := planFile(o.PlanDir, name)
		if _, err := os.Stat(file); err != nil {
			return auto.UpResult{}, fmt.Errorf("no update plan for %s in %s: make it with `platformctl preview --stack %s --save-plan %s`: %w", name, o.PlanDir, name, o.PlanDir, err)
		}
		opts = append(opts, optup.Plan(file))
		step, err := readFirstStep(o.PlanDir, name)
		if err != nil {
			return auto.UpResult{}, err
		}
		if step != nil {
			fmt.Fprintf(stdout, "%s: applying the plan's first step (%d resources); then preview again (--save-plan) for the rest\n", name, len(step.Targets))
			opts = append(opts, optup.Target(step.Targets))
			if len(o.PolicyPacks) > 0 {
				// Without the policy packs, as the first step's preview
				// (previewStack): the preview before this update ran
				// them on every resource, and a targeted update shows
				// them those it leaves for later without their inputs.
				opts = append(opts, optup.PolicyPacks(), optup.PolicyPackConfigs())
			}
		}
	}
	r, err := stack.Up(ctx, opts...)
	if err != nil {
		r.Outputs = nil // what a failed update left: read it again
		// Harness answers a token name it holds, active or revoked, with
		// the same words (harness-core DelegateNgTokenServiceImpl
		// createToken); its list tells which.
		if strings.Contains(err.Error(), "Token with given name already exists") && s.holdsRevokedToken(ctx, name) {
			err = fmt.Errorf("%w\n\na delegate token's name stays taken 30 days after it is revoked: "+
				"move the region to a name Harness does not hold (`platformctl rotate-delegate-token --stack %s --region <region>` picks it; `platformctl preflight --stack %s` names the regions)", err, name, name)
		} else if exists(err) {
			err = fmt.Errorf("%w\n\nobjects %s declares already exist in Harness (Harness refuses a second object with one identifier): "+
				"if they were made outside Pulumi, adopt them unchanged with `platformctl import --stack %s%s --yes`; "+
				"if an interrupted up made them, settle it with `platformctl recover --stack %s%s --yes`", err, name, name, s.mode(), name, s.mode())
		}
	}
	s.deployedOutputs(name, r.Outputs)
	return r, err
}

// holdsRevokedToken reports whether Harness holds, revoked, a delegate
// token name stack declares (its environment's, in its credentials
// stack); true when Harness cannot be asked, so that the advice names
// the cause a failed create of a token most often has.
func (s *Session) holdsRevokedToken(ctx context.Context, stack string) bool {
	env, _ := catalog.SplitStack(stack)
	creds, err := plan.Credentials(s.Catalog, env)
	if err != nil {
		return true
	}
	held, err := s.services(env).DelegateTokens(ctx, s.account())
	if err != nil {
		return true
	}
	for _, cr := range creds {
		for _, h := range held {
			if h.Name == cr.Token && h.Status == "REVOKED" {
				return true
			}
		}
	}
	return false
}

// exists reports whether an update failed because an object it creates
// already exists: Harness's DUPLICATE_FIELD error.
func exists(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "DUPLICATE_FIELD") || strings.Contains(msg, "already exists")
}

// Refresh reads the cloud back. With PreviewOnly it is the drift check: it
// reports differences and leaves the state as it was, so the next check
// still sees the drift (a plain refresh would accept it into the state).
func (s *Session) Refresh(ctx context.Context, name string, opts RefreshOptions) error {
	if !opts.PreviewOnly {
		if err := s.checkDelivery(name); err != nil {
			return err
		}
	}
	o := s.paced(opts.run())
	return s.each(ctx, name, o, s.refreshStack)
}

func (s *Session) refreshStack(ctx context.Context, name string, o runOptions) error {
	defer s.flush()
	stdout, stderr := o.streams(s)
	stack, err := s.Stack(ctx, name)
	if err != nil {
		return err
	}
	opts := []optrefresh.Option{
		optrefresh.ProgressStreams(stdout), optrefresh.ErrorProgressStreams(stderr),
		optrefresh.Parallel(o.parallel()), optrefresh.ShowSecrets(false), // as Up's
	}
	if o.Diff {
		opts = append(opts, optrefresh.Diff())
	}
	if o.PreviewOnly {
		// The drift check: the refresh preview's own answer (what it
		// would change) tells drift from a failure to run it.
		res, err := stack.PreviewRefresh(ctx, opts...)
		if err != nil {
			return err
		}
		if changed := changes(res.ChangeSummary); o.ExpectNoChanges && len(changed) > 0 {
			return fmt.Errorf("%w in %s: the cloud differs from the state (%s)", ErrDrift, name, strings.Join(changed, ", "))
		}
		return nil
	}
	if o.ExpectNoChanges {
		opts = append(opts, optrefresh.ExpectNoChanges())
	}
	_, err = stack.Refresh(ctx, opts...)
	return err
}

// ErrDrift is the drift check's finding: it ran, and the cloud differs
// from the state. Any other error of a check is a failure to run it.
var ErrDrift = errors.New("drift")

// OnlyDrift reports whether err is drift and nothing else: every error it
// joins is ErrDrift (a check of several stacks may find drift in one and
// fail to run in another, which is a failure).
func OnlyDrift(err error) bool {
	switch u := err.(type) {
	case nil:
		return false
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			if !OnlyDrift(e) {
				return false
			}
		}
		return len(u.Unwrap()) > 0
	case interface{ Unwrap() error }:
		return OnlyDrift(u.Unwrap())
	}
	return err == ErrDrift
}

// changes are the operations of a change summary other than same, as
// "update: 2".
func changes(summary map[apitype.OpType]int) []string {
	var out []string
	for op, n := range summary {
		if op != apitype.OpSame && n > 0 {
			out = append(out, fmt.Sprintf("%s: %d", op, n))
		}
	}
	sort.Strings(out)
	return out
}

// Destroy removes the stack's resources. It previews first and refuses
// if anything would be refused (a protected resource): the engine's destroy
// would otherwise delete every unprotected resource before failing.
//
// An environment's stacks are destroyed service stacks first, and only
// once the destroy of every one of them previews: a protected resource in
// the platform stack refuses the whole environment before its service
// stacks lose anything.
func (s *Session) Destroy(ctx context.Context, name string, opts DestroyOptions) error {
	if err := s.checkDelivery(name); err != nil {
		return err
	}
	o := s.paced(opts.run())
	waves, err := Waves(s.Catalog, name)
	if err != nil {
		return err
	}
	waves = Reverse(waves)
	// The tokens last: the delegates run with them until their releases
	// are gone.
	if creds, ok := CredentialsOf(name); ok {
		if _, err := s.selected(ctx, creds); err == nil {
			waves = append(waves, []string{creds})
		}
	}
	err = s.eachOf(ctx, waves, o, func(ctx context.Context, stack string, o runOptions) error {
		return s.destroyStack(ctx, stack, o, true)
	})
	if err != nil {
		return fmt.Errorf("destroy of %s refused, nothing was deleted: %w", name, err)
	}
	return s.eachOf(ctx, waves, o, func(ctx context.Context, stack string, o runOptions) error {
		return s.destroyStack(ctx, stack, o, false)
	})
}

// requireTokensMoved refuses an up of environment env while its platform
// stack still holds delegate tokens: its credentials stack would create
// them again, and Harness refuses a name it holds.
func (s *Session) requireTokensMoved(ctx context.Context, env string) error {
	existing, err := s.existingStacks(ctx)
	if err != nil {
		return err
	}
	if _, ok := existing[env]; !ok {
		return nil
	}
	// Pending operations are recover's to report (after the lock).
	resources, err := s.readState(ctx, env, true)
	if err != nil {
		return err
	}
	m := tokenMove(env, resources)
	if m == nil {
		return nil
	}
	return fmt.Errorf("nothing was changed: stack %s holds delegate tokens (%s) that now belong to its credentials stack %s; "+
		"run `platformctl move --stack %s --yes` first: it moves their state, deleting and creating nothing", env, strings.Join(m.Tokens, ", "), m.To, env)
}

// destroyStack previews the destroy of one stack, or destroys it.
func (s *Session) destroyStack(ctx context.Context, name string, o runOptions, preview bool) error {
	defer s.flush()
	stdout, stderr := o.streams(s)
	stack, err := s.selected(ctx, name)
	if err != nil {
		return err
	}
	opts := []optdestroy.Option{optdestroy.ProgressStreams(stdout), optdestroy.ErrorProgressStreams(stderr),
		optdestroy.Parallel(o.parallel()), optdestroy.ShowSecrets(false)} // as Up's
	if preview {
		_, err = stack.PreviewDestroy(ctx, opts...)
	} else {
		if err := s.backupBefore(ctx, stack, "destroy"); err != nil {
			return err
		}
		_, err = stack.Destroy(ctx, opts...)
		s.deployed.Delete(name)
		s.deployedOutputs(name, nil)
	}
	return err
}

// Outputs returns the stack's outputs.
func (s *Session) Outputs(ctx context.Context, name string) (auto.OutputMap, error) {
	stack, err := s.selected(ctx, name)
	if err != nil {
		return nil, err
	}
	return stack.Outputs(ctx)
}

// flush writes the simulated cloud when an operation ends, so that what the
// engine did is on disk for whoever looks next.
func (s *Session) flush() {
	if s.cloud != nil {
		if err := s.cloud.Flush(); err != nil {
			fmt.Fprintf(s.opts.Stderr, "warning: writing the simulated cloud: %v\n", err)
		}
	}
}

// lockedWriter serializes writes: each json.Encoder.Encode is one Write.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

// planFile is a stack's update plan in dir.
func planFile(dir, stack string) string { return filepath.Join(dir, stack+".plan.json") }
