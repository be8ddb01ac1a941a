package engine

import "io"

// The options of each operation, as auto's optpreview, optup, optrefresh
// and optdestroy give them: each takes what its CLI command takes.
// Parallel is --parallel (0: paced within the Harness key's budget
// online, DefaultParallel offline); StackParallel, how many stacks of an
// environment run at once (default DefaultStackParallel); Stdout and
// Stderr, when set, receive the run's progress instead of the session's
// writers.

// PreviewOptions are a preview's (pulumi preview).
type PreviewOptions struct {
	Diff            bool
	ExpectNoChanges bool
	// PolicyPacks and PolicyPackConfigs: --policy-pack and
	// --policy-pack-config.
	PolicyPacks, PolicyPackConfigs []string
	// EventLog, when set, receives the engine's events, one JSON object a
	// line, as the CLI's --event-log writes them.
	EventLog io.Writer
	// PlanDir, when set, receives an update plan per stack
	// (<stack>.plan.json; pulumi preview --save-plan) for an up to apply.
	PlanDir                 string
	Parallel, StackParallel int
	Stdout, Stderr          io.Writer
	// Only, when not nil, are the stacks of the environment previewed
	// (a merge's changed stacks), the others left out.
	Only []string
}

func (o PreviewOptions) run() runOptions {
	return runOptions{Diff: o.Diff, ExpectNoChanges: o.ExpectNoChanges, PolicyPacks: o.PolicyPacks, PolicyPackConfigs: o.PolicyPackConfigs,
		EventLog: o.EventLog, PlanDir: o.PlanDir, Parallel: o.Parallel, StackParallel: o.StackParallel, Stdout: o.Stdout, Stderr: o.Stderr, only: o.Only}
}

// UpOptions are an update's (pulumi up --yes).
type UpOptions struct {
	Diff                           bool
	PolicyPacks, PolicyPackConfigs []string
	// PlanDir, when set, holds the plans a preview saved: the up applies
	// exactly them (pulumi up --plan), so an up approved from a preview
	// does what that preview showed, or fails.
	PlanDir                 string
	Parallel, StackParallel int
	Stdout, Stderr          io.Writer
	// Only, when not nil, are the stacks of the environment upped (a
	// merge's changed stacks); the credentials stack only with the
	// platform stack.
	Only []string
	// Commit, when set, is recorded on each stack the up applies
	// (DeployedCommitTag).
	Commit string
}

func (o UpOptions) run() runOptions {
	return runOptions{Diff: o.Diff, PolicyPacks: o.PolicyPacks, PolicyPackConfigs: o.PolicyPackConfigs, PlanDir: o.PlanDir,
		Parallel: o.Parallel, StackParallel: o.StackParallel, Stdout: o.Stdout, Stderr: o.Stderr, only: o.Only, commit: o.Commit}
}

// RefreshOptions are a refresh's (pulumi refresh).
type RefreshOptions struct {
	Diff bool
	// PreviewOnly reports drift without writing state (--preview-only);
	// ExpectNoChanges fails on any (--expect-no-changes): the drift check.
	PreviewOnly, ExpectNoChanges bool
	Parallel, StackParallel      int
	Stdout, Stderr               io.Writer
}

func (o RefreshOptions) run() runOptions {
	return runOptions{Diff: o.Diff, PreviewOnly: o.PreviewOnly, ExpectNoChanges: o.ExpectNoChanges,
		Parallel: o.Parallel, StackParallel: o.StackParallel, Stdout: o.Stdout, Stderr: o.Stderr}
}

// DestroyOptions are a destroy's (pulumi destroy --yes).
type DestroyOptions struct {
	Parallel, StackParallel int
	Stdout, Stderr          io.Writer
}

func (o DestroyOptions) run() runOptions {
	return runOptions{Parallel: o.Parallel, StackParallel: o.StackParallel, Stdout: o.Stdout, Stderr: o.Stderr}
}

// RepairOptions are those of the operations that repair a stack's state
// (Recover, Restore): the refresh and preview they run.
type RepairOptions struct {
	Parallel       int
	Stdout, Stderr io.Writer
	// DryRun: only report the pending operations Recover would settle;
	// the states are not written and nothing is refreshed.
	DryRun bool
}

func (o RepairOptions) run() runOptions {
	return runOptions{Parallel: o.Parallel, Stdout: o.Stdout, Stderr: o.Stderr}
}
