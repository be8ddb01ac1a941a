// Command platformctl works on the catalog and drives the program.
//
// Without cloud, state or the Pulumi CLI:
//
//	platformctl validate                        check the catalog and every stack file
//	platformctl render --stack S [--service N]  print the pipelines and triggers S declares
//
// Through the Pulumi Automation API (the CLI from scripts/install-pulumi.sh),
// against the real backend and providers, or --offline against a local
// file:// backend and the simulated cloud under --state:
//
//	platformctl preview|up|refresh|destroy|outputs --stack S [--offline]
//	platformctl demo                            the offline demo: up, preview, drift check
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/diag"
	"github.com/company/harness-platform/engine"
	"github.com/company/harness-platform/plan"
)

const usage = `usage:
  platformctl validate [--dir DIR]
  platformctl render --stack STACK [--service NAME] [--dir DIR]
  platformctl preview --stack STACK [--offline] [--state DIR] [--diff] [--expect-no-changes] [--policy-pack PATH]
  platformctl up --stack STACK --yes [--offline] [--state DIR] [--diff] [--policy-pack PATH]
  platformctl refresh --stack STACK [--offline] [--state DIR] [--preview-only] [--expect-no-changes]
  platformctl destroy --stack STACK --yes [--offline] [--state DIR]
  platformctl outputs --stack STACK [--offline] [--state DIR] [--json]
  platformctl demo [--state DIR]
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// flags are every command's options.
type flags struct {
	dir, stack, service, state string
	offline, diff, yes         bool
	expectNoChanges            bool
	previewOnly, json          bool
	parallel                   int
	policyPacks                multiFlag
}

type multiFlag []string

func (m *multiFlag) String() string     { return fmt.Sprint(*m) }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var f flags
	fs := flag.NewFlagSet(args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.dir, "dir", ".", "project directory")
	fs.StringVar(&f.stack, "stack", "", "stack name (dev, staging, production)")
	fs.StringVar(&f.service, "service", "", "render: only this service")
	fs.StringVar(&f.state, "state", "", "offline state directory (default <dir>/.state)")
	fs.BoolVar(&f.offline, "offline", false, "use a local file:// backend and the simulated cloud")
	fs.BoolVar(&f.diff, "diff", false, "show a detailed diff")
	fs.BoolVar(&f.yes, "yes", false, "up/destroy: proceed without asking")
	fs.BoolVar(&f.expectNoChanges, "expect-no-changes", false, "fail if there are changes")
	fs.BoolVar(&f.previewOnly, "preview-only", false, "refresh: report drift without writing state")
	fs.BoolVar(&f.json, "json", false, "outputs: print JSON")
	fs.IntVar(&f.parallel, "parallel", engine.DefaultParallel, "concurrent resource operations")
	fs.Var(&f.policyPacks, "policy-pack", "policy pack to run (repeatable)")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	if f.state == "" {
		f.state = filepath.Join(f.dir, ".state")
	}
	c, err := catalog.Load(f.dir)
	if err != nil {
		printLoadError(stderr, err)
		return 1
	}
	switch args[0] {
	case "validate":
		fmt.Fprintf(stdout, "ok: %d services, %d teams, %d archetypes, stacks %v\n", len(c.Services), len(c.Teams), len(c.Archetypes), c.Chain)
		return 0
	case "render":
		if f.stack == "" {
			fmt.Fprint(stderr, "render needs --stack\n", usage)
			return 2
		}
		if err := renderStack(c, f.stack, f.service, stdout); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		return 0
	case "preview", "up", "refresh", "destroy", "outputs":
		return runEngine(args[0], c, f, stdout, stderr)
	case "demo":
		return runDemo(c, f, stdout, stderr)
	default:
		fmt.Fprint(stderr, usage)
		return 2
	}
}

func printLoadError(w io.Writer, err error) {
	if d, ok := err.(*diag.Error); ok {
		for _, p := range d.List {
			fmt.Fprintln(w, p)
		}
		fmt.Fprintf(w, "%d problem(s); nothing was declared\n", len(d.List))
		return
	}
	fmt.Fprintln(w, err)
}

// renderStack prints the plan of stack (or of one service in it): every
// YAML document the program would register, byte for byte.
func renderStack(c *catalog.Catalog, stack, service string, w io.Writer) error {
	p, err := plan.Build(c, stack)
	if err != nil {
		return err
	}
	if service != "" {
		if _, ok := c.Service(service); !ok {
			return fmt.Errorf("no service %q in %s", service, catalog.ServicesFile)
		}
		if !slices.Contains(p.Services(), service) {
			return fmt.Errorf("service %q is not enabled in stack %q", service, stack)
		}
	}
	return plan.Render(w, p, service)
}
