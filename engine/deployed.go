package engine

import (
	"context"
	"slices"

	"github.com/company/harness-platform/catalog"
)

// A merge ups the stacks its change touches (platformctl up --changed):
// each stack's base is the commit its last up applied, recorded by that
// up as the stack tag DeployedCommitTag, where any later up reads it
// back. A skipped, failed or rerun merge moves no tag, so the next one
// sees every change since; a stack without one is upped.

// DeployedCommitTag is the stack tag an up records its commit in.
const DeployedCommitTag = "harness-platform:commit"

// DeployedCommit is the commit stack's last up applied: "" when none
// recorded it, or the stack does not exist.
func (s *Session) DeployedCommit(ctx context.Context, stack string) (string, error) {
	existing, err := s.existingStacks(ctx)
	if err != nil || !existing[stack] {
		return "", err
	}
	tags, err := s.workspace.ListTags(ctx, stack)
	if err != nil {
		return "", err
	}
	return tags[DeployedCommitTag], nil
}

// recordCommit tags stack with the commit its up applied ("" records
// nothing).
func (s *Session) recordCommit(ctx context.Context, stack, commit string) error {
	if commit == "" {
		return nil
	}
	return s.workspace.SetTag(ctx, stack, DeployedCommitTag, commit)
}

// only keeps, of waves, the stacks of keep (nil: all of them), dropping
// waves left empty.
func only(waves [][]string, keep []string) [][]string {
	if keep == nil {
		return waves
	}
	var out [][]string
	for _, w := range waves {
		kept := slices.DeleteFunc(slices.Clone(w), func(st string) bool { return !slices.Contains(keep, st) })
		if len(kept) > 0 {
			out = append(out, kept)
		}
	}
	return out
}

// isPlatform reports whether stack is an environment's platform stack
// (no shard).
func isPlatform(stack string) bool {
	_, shard := catalog.SplitStack(stack)
	return shard == ""
}
