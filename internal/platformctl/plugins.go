package platformctl

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/engine"
	"github.com/company/harness-platform/simulated"
)

// runCheckPlugins previews every stack with real provider plugins swapped
// in for the simulated ones (engine.CheckPlugins) and reports, per stack,
// what the plugins said. It fails unless every figure is zero.
// The command line's --plugin values are NAME=PATH (spec.check).
func runCheckPlugins(c *catalog.Catalog, f options, stdout, _ io.Writer) error {
	plugins := map[string]string{}
	for _, p := range f.plugins {
		name, path, _ := strings.Cut(p, "=")
		plugins[name] = path
	}
	state := f.state
	if state == "" {
		dir, err := os.MkdirTemp("", "check-plugins-")
		if err != nil {
			return err
		}
		state = filepath.Join(dir, "state")
	}
	ctx, cancel := interruptible()
	defer cancel()
	start := time.Now()
	reports, err := engine.CheckPlugins(ctx, engine.Options{
		ProjectDir: f.dir, StateDir: state, Catalog: c, Plugins: plugins,
		Simulation: simulated.Simulation{},
		Passphrase: os.Getenv("PULUMI_CONFIG_PASSPHRASE"),
		Stdout:     io.Discard, Stderr: io.Discard,
	}, f.parallel, f.charts)
	clean := printPluginReports(stdout, reports)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\n%d previews in %s; state: %s\n", len(reports), time.Since(start).Round(time.Second), state)
	if !clean {
		return fmt.Errorf("the plugins reported errors, warnings or changes (above)")
	}
	return nil
}

// printPluginReports writes a table of the reports, then every message;
// it reports whether every figure is zero.
func printPluginReports(w io.Writer, reports []engine.PluginReport) bool {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "stack\tpreview\tobjects\terrors\twarnings\tchanges\tother errors")
	clean := true
	for _, r := range reports {
		phase := "deployed"
		if r.Fresh {
			phase = "fresh"
		}
		var changes []string
		n := 0
		for op, k := range r.Changes {
			changes = append(changes, fmt.Sprintf("%s %d", op, k))
			n += k
		}
		sort.Strings(changes)
		if len(changes) == 0 {
			changes = []string{"0"}
		}
		if len(r.Errors)+len(r.Warnings)+len(r.Other)+n > 0 {
			clean = false
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\t%d\n", r.Stack, phase, r.Objects, len(r.Errors), len(r.Warnings), strings.Join(changes, ", "), len(r.Other))
	}
	tw.Flush()
	for _, r := range reports {
		for _, group := range []struct {
			what string
			msgs []string
		}{{"error", r.Errors}, {"warning", r.Warnings}, {"change", r.Diffs}, {"other error", r.Other}} {
			for _, m := range group.msgs {
				fmt.Fprintf(w, "\n%s (%s): %s", r.Stack, group.what, m)
			}
		}
	}
	fmt.Fprintln(w)
	return clean
}
