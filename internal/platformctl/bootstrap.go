package platformctl

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/company/harness-platform/bootstrap"
	"github.com/company/harness-platform/bootstrap/answers"
	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/engine"
	"github.com/company/harness-platform/preflight"
	"github.com/company/harness-platform/trust"
)

// runBootstrap prints the bootstrap checklist, or with --check runs its
// checks: preflight of every environment, as the up runs it and as a
// run that changes nothing (the preview roles and environments), each
// problem given to its step; every undone step is named at once.
func runBootstrap(c *catalog.Catalog, f options, stdout, stderr io.Writer) error {
	switch {
	case f.printAnswers:
		cur, err := bootstrap.Current(f.dir)
		if err != nil {
			return err
		}
		_, err = stdout.Write(cur.Marshal())
		return err
	case f.answers != "":
		written, err := writeAnswers(f, stdout)
		if err != nil || !written {
			return err
		}
		// The checklist of the files as they are now.
		if c, err = catalog.Load(f.dir); err != nil {
			return err
		}
	}
	m, err := trust.LoadFS(os.DirFS(filepath.Join(f.dir, "esc")))
	if err != nil {
		return err
	}
	steps := bootstrap.Steps(c, m)
	if !f.check {
		fmt.Fprintf(stdout, "Bootstrap, in this order; each step is done when its check passes (platformctl bootstrap --check runs them):\n\n")
		for i, s := range steps {
			fmt.Fprintf(stdout, "%d. %s (%s)\n   do: %s\n   check: %s\n", i+1, s.Title, s.Owner, s.Do, s.Check)
		}
		return nil
	}
	// One session each way, opened when first asked.
	sessions := map[bool]*engine.Session{}
	defer func() {
		for _, s := range sessions {
			s.Close()
		}
	}()
	ctx, cancel := interruptible()
	defer cancel()
	r, err := bootstrap.Check(ctx, c, steps, func(ctx context.Context, env string, readOnly bool) ([]preflight.Problem, error) {
		s, ok := sessions[readOnly]
		if !ok {
			g := f
			g.readOnly = readOnly
			var err error
			if s, err = open(ctx, c, g, stdout, stderr); err != nil {
				return nil, err
			}
			sessions[readOnly] = s
		}
		return s.PreflightWith(ctx, env, engine.PreflightOptions{})
	})
	if err != nil {
		return err
	}
	for i, v := range r.Steps {
		mark := "✓"
		switch {
		case len(v.Findings) > 0:
			mark = "✗"
		case !v.Checked():
			mark = "?"
		}
		fmt.Fprintf(stdout, "%s %d. %s (%s): %s\n", mark, i+1, v.Title, v.Owner, v.Check)
		for _, fd := range v.Findings {
			fmt.Fprintf(stdout, "    - %s\n", fd)
		}
	}
	if len(r.Other) > 0 {
		fmt.Fprintf(stdout, "Also in the way of the first up (the stack files', not a bootstrap step's):\n")
		for _, fd := range r.Other {
			fmt.Fprintf(stdout, "    - %s\n", fd)
		}
	}
	missing := r.Missing()
	if len(missing) == 0 && len(r.Other) == 0 {
		fmt.Fprintf(stdout, "every checked step is done; the steps marked ? are checked as they say\n")
		return nil
	}
	var names []string
	for _, v := range missing {
		names = append(names, v.Title+" ("+v.Owner+")")
	}
	return fmt.Errorf("%d step(s) not done: %s; %d other problem(s)", len(missing), strings.Join(names, "; "), len(r.Other))
}

// writeAnswers rewrites the tracked files of f.dir from their own answers
// to those of f.answers: without --yes it only lists the changes. It
// reports whether it wrote.
func writeAnswers(f options, stdout io.Writer) (bool, error) {
	cur, err := bootstrap.Current(f.dir)
	if err != nil {
		return false, err
	}
	to, err := answers.Read(f.answers, cur)
	if err != nil {
		return false, err
	}
	files, err := answers.Tracked(f.dir)
	if err != nil {
		return false, err
	}
	r, err := answers.Plan(files, cur, to)
	if err != nil {
		return false, err
	}
	if r.Empty() {
		fmt.Fprintf(stdout, "the files hold these answers already; nothing to write\n\n")
		return false, nil
	}
	renamed := map[string]string{}
	for old, n := range r.Renamed {
		renamed[n] = old
	}
	for _, name := range slices.Sorted(maps.Keys(r.Files)) {
		if old, ok := renamed[name]; ok {
			fmt.Fprintf(stdout, "  %s (was %s)\n", name, old)
		} else {
			fmt.Fprintf(stdout, "  %s\n", name)
		}
	}
	for _, what := range slices.Sorted(maps.Keys(r.Changes)) {
		fmt.Fprintf(stdout, "  %d × %s\n", r.Changes[what], what)
	}
	if !f.yes {
		fmt.Fprintf(stdout, "dry run: %d values in %d files would change (Go sources are not written); run again with --yes to write them\n\n", r.Values(), len(r.Files))
		return false, nil
	}
	if err := r.Apply(f.dir); err != nil {
		return false, err
	}
	fmt.Fprintf(stdout, "wrote %d values in %d files; review them with git diff and commit them, then do the checklist's steps:\n\n", r.Values(), len(r.Files))
	return true, nil
}
