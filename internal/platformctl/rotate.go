package platformctl

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/engine"
	"github.com/company/harness-platform/ident"
)

// runRotate rotates a region's delegate token (engine.RotateDelegateTokens):
// it raises the region's delegateTokenGeneration in the stack file past
// every name Harness holds, then rotates; a rotation already under way
// (the state holds a token the file no longer names) is finished as is.
func runRotate(c *catalog.Catalog, f options, stdout, stderr io.Writer) error {
	st, _, err := c.EnvironmentOf(f.stack)
	if err != nil {
		return err
	}
	if st.Name != f.stack {
		return usageErrorf("--stack %s: name the environment's platform stack, %s, whose delegates it is", f.stack, st.Name)
	}
	var stale []string
	next, current := 0, 0
	err = withSession(c, f, stdout, stderr, func(ctx context.Context, s *engine.Session) error {
		if stale, err = s.StaleDelegateTokens(ctx, st.Name); err != nil || len(stale) > 0 {
			return err
		}
		i := slices.IndexFunc(st.Regions, func(r catalog.StackRegion) bool { return r.Name == f.region })
		if i < 0 {
			var names []string
			for _, r := range st.Regions {
				names = append(names, r.Name)
			}
			return usageErrorf("--region %q: name one of %s's regions: %s", f.region, st.Name, strings.Join(names, ", "))
		}
		current = st.Regions[i].TokenGeneration
		next, err = s.NextTokenGeneration(ctx, st.Name, f.region, current)
		return err
	})
	if err != nil {
		return err
	}
	file := filepath.Join(f.dir, st.File)
	if len(stale) == 0 {
		delegate := ident.DelegateName(st.Environment.Name, f.region)
		fmt.Fprintf(stdout, "%s: %s moves from %s to %s (delegateTokenGeneration %d to %d)\n", st.File, f.region,
			ident.TokenName(delegate, current), ident.TokenName(delegate, next), current, next)
		if f.dryRun {
			fmt.Fprintf(stdout, "nothing was changed; run again with --yes to rotate\n")
			return nil
		}
		data, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		edited, err := catalog.SetTokenGeneration(data, st.File, f.region, next)
		if err != nil {
			return err
		}
		if err := os.WriteFile(file, edited, 0o644); err != nil {
			return err
		}
		// The session reads the stack's settings from the files.
		if c, err = catalog.Load(f.dir); err != nil {
			return fmt.Errorf("%s was edited and no longer loads (restore it with git): %w", st.File, err)
		}
	} else {
		fmt.Fprintf(stdout, "%s: a rotation is under way (the state still holds %s): finishing it\n", st.Name, strings.Join(stale, ", "))
		if f.dryRun {
			fmt.Fprintf(stdout, "nothing was changed; run again with --yes to finish it\n")
			return nil
		}
	}
	return withSession(c, f, stdout, stderr, func(ctx context.Context, s *engine.Session) error {
		r, err := s.RotateDelegateTokens(ctx, st.Name, engine.RotateOptions{})
		for _, g := range r.Reported {
			fmt.Fprintf(stdout, "reported in: %s (%d delegates)\n", g.Name, g.Instances)
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "created %s; revoked %s (Harness keeps the revoked names 30 days); state backups: %s\n",
			strings.Join(r.Created, ", "), strings.Join(r.Revoked, ", "), strings.Join(r.Backups, ", "))
		fmt.Fprintf(stdout, "commit %s: it names the new generation, and an up of a file without it would ask Harness for a revoked name\n", st.File)
		return nil
	})
}
