// Command platformctl works on the catalog without cloud, state or the
// Pulumi CLI:
//
//	platformctl validate                      check the catalog and every stack file
//	platformctl render --stack S [--service N]  print the pipelines and triggers S declares
//
// Both run in the project directory (or --dir). validate exits 1 with one
// path:line:col: message line per problem on stderr.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/internal/diag"
	"github.com/company/harness-platform/internal/render"
)

const usage = `usage:
  platformctl validate [--dir DIR]
  platformctl render --stack STACK [--service NAME] [--dir DIR]
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	fs := flag.NewFlagSet(args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", ".", "project directory")
	stack := fs.String("stack", "", "stack to render")
	service := fs.String("service", "", "only this service")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	c, err := catalog.Load(*dir)
	if err != nil {
		if d, ok := err.(*diag.Error); ok {
			for _, p := range d.List {
				fmt.Fprintln(stderr, p)
			}
			fmt.Fprintf(stderr, "%d problem(s); nothing was declared\n", len(d.List))
		} else {
			fmt.Fprintln(stderr, err)
		}
		return 1
	}
	switch args[0] {
	case "validate":
		fmt.Fprintf(stdout, "ok: %d services, %d teams, %d archetypes, stacks %v\n", len(c.Services), len(c.Teams), len(c.Archetypes), c.Chain)
		return 0
	case "render":
		if *stack == "" {
			fmt.Fprint(stderr, "render needs --stack\n", usage)
			return 2
		}
		out, err := render.Stack(c, *stack, *service)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		_, _ = stdout.Write(out)
		return 0
	default:
		fmt.Fprint(stderr, usage)
		return 2
	}
}
