// Command gencatalog writes a copy of the project with a synthetic catalog
// of N services, for measuring the program at scale:
//
//	go run ./tools/gencatalog -n 1000 -out /tmp/project-1000
//	go run ./cmd/platformctl demo --dir /tmp/project-1000
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/company/harness-platform/internal/catalogtest"
)

func main() {
	n := flag.Int("n", 100, "number of services")
	out := flag.String("out", "", "directory to write the project to")
	root := flag.String("dir", ".", "the project to copy")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "gencatalog: -out is required")
		os.Exit(2)
	}
	files, err := catalogtest.Synthetic(*root, *n)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	pulumiYAML, err := os.ReadFile(filepath.Join(*root, "Pulumi.yaml"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	files["Pulumi.yaml"] = pulumiYAML
	for name, data := range files {
		path := filepath.Join(*out, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err == nil {
			err = os.WriteFile(path, data, 0o644)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	fmt.Printf("wrote a project with %d services to %s\n", *n, *out)
}
