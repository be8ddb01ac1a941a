package platformctl

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path"
	"slices"
	"strings"

	"github.com/company/harness-platform/catalog"
)

// A merge ups the stacks its change touches (--changed): each stack's
// base is the commit its last up applied (engine.DeployedCommitTag), and
// the stacks of the environment that a change from there may touch are
// upped, the others left alone. The catalog's own changes are judged by
// affectedStacks (a service's entry: its stack; anything else in the
// catalog or the stack files: every stack); a change to the program
// itself (anything that is not the catalog, a stack file, documentation
// or the delivery files around it) reaches every stack. A stack without
// a recorded base, or whose base this clone's history lacks, is upped.

// inert are the paths a change to which changes no stack: they are read
// by people, CI and Argo CD, not by the program.
func inert(p string) bool {
	for _, prefix := range []string{"docs/", ".github/", ".harness/", "deploy/", "esc/", ".ci/"} {
		if strings.HasPrefix(p, prefix) {
			return true
		}
	}
	return path.Ext(p) == ".md"
}

// settings are the paths affectedStacks judges from the catalogs.
func settings(p string) bool {
	return strings.HasPrefix(p, "catalog/") || path.Dir(p) == "." && strings.HasPrefix(p, "Pulumi.") && path.Ext(p) == ".yaml"
}

// uncommitted is the commit an up from a working tree with uncommitted
// changes records: the stacks it applied are upped by the next --changed.
const uncommitted = "uncommitted"

// deployed says which commit each stack's last up applied
// (engine.Session).
type deployed interface {
	DeployedCommit(ctx context.Context, stack string) (string, error)
}

// headCommit is the commit an up from the project in dir applies: HEAD,
// uncommitted where the working tree differs from it, "" outside a git
// clone.
func headCommit(dir string) string {
	head, err := gitOut(dir, "rev-parse", "HEAD")
	if err != nil {
		return ""
	}
	if status, err := gitOut(dir, "status", "--porcelain", "--untracked-files=no"); err != nil || status != "" {
		return uncommitted
	}
	return head
}

// changedStacks are the stacks of environment env the up of head (this
// clone's HEAD) must apply, in order, and the commit to record; each
// reason is written to out.
func changedStacks(ctx context.Context, s deployed, c *catalog.Catalog, dir, env string, out io.Writer) ([]string, string, error) {
	head := headCommit(dir)
	if head == "" {
		return nil, "", fmt.Errorf("--changed needs the project's git clone: %s is none", dir)
	}
	all := c.StacksOf(env)
	bases := map[string][]string{}
	for _, st := range all {
		b, err := s.DeployedCommit(ctx, st)
		if err != nil {
			return nil, "", err
		}
		bases[b] = append(bases[b], st)
	}
	keep := map[string]bool{}
	for _, base := range slices.Sorted(maps.Keys(bases)) {
		stacks := bases[base]
		mark := func(why string, which []string) {
			for _, st := range which {
				keep[st] = true
			}
			fmt.Fprintf(out, "%s: %s\n", strings.Join(which, ", "), why)
		}
		switch {
		case base == "":
			mark("no up recorded its commit: updated", stacks)
			continue
		case base == uncommitted || head == uncommitted:
			mark("an up of uncommitted files, before or now: updated", stacks)
			continue
		case base == head:
			fmt.Fprintf(out, "%s: deployed at %s already\n", strings.Join(stacks, ", "), short(head))
			continue
		}
		diff, err := gitOut(dir, "diff", "--name-only", base, head)
		if err != nil {
			mark(fmt.Sprintf("last deployed at %s, which this clone's history lacks (fetch-depth: 0): updated", short(base)), stacks)
			continue
		}
		files := strings.Fields(diff)
		if i := slices.IndexFunc(files, func(p string) bool { return !inert(p) && !settings(p) }); i >= 0 {
			mark(fmt.Sprintf("the program changed since %s (%s): updated", short(base), files[i]), stacks)
			continue
		}
		if !slices.ContainsFunc(files, settings) {
			fmt.Fprintf(out, "%s: nothing the stacks read changed since %s\n", strings.Join(stacks, ", "), short(base))
			continue
		}
		old, err := catalogAt(dir, base)
		if err != nil {
			mark(fmt.Sprintf("the catalog at %s does not load (%v): updated", short(base), err), stacks)
			continue
		}
		var touched []string
		for _, st := range affectedStacks(c, old) {
			if slices.Contains(stacks, st) {
				touched = append(touched, st)
			}
		}
		if len(touched) > 0 {
			mark(fmt.Sprintf("the catalog changed them since %s: updated", short(base)), touched)
		}
	}
	// Not nil when empty: nil would mean every stack (engine's Only).
	run := []string{}
	for _, st := range all {
		if keep[st] {
			run = append(run, st)
		}
	}
	return run, head, nil
}

// catalogAt loads the catalog of commit rev of the project in dir.
func catalogAt(dir, rev string) (*catalog.Catalog, error) {
	tmp, err := os.MkdirTemp("", "harness-platform-base-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	archive := exec.Command("git", "-C", dir, "archive", "--format=tar", rev)
	var tarball bytes.Buffer
	archive.Stdout = &tarball
	if err := archive.Run(); err != nil {
		return nil, fmt.Errorf("git archive %s: %w", rev, err)
	}
	untar := exec.Command("tar", "-x", "-C", tmp)
	untar.Stdin = &tarball
	if out, err := untar.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("tar: %w: %s", err, out)
	}
	return catalog.Load(tmp)
}

func gitOut(dir string, args ...string) (string, error) {
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).Output()
	return strings.TrimSpace(string(out)), err
}

func short(sha string) string {
	if len(sha) > 7 {
		return sha[:7]
	}
	return sha
}
