// Command harness-platform is the Pulumi program: it reads the catalog and
// the stack files, resolves them with the current stack's Pulumi config,
// and declares the stack's Harness resources. Invalid input stops it
// before anything is declared.
package main

import (
	"fmt"
	"os"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/program"
)

func main() {
	files, err := catalog.ReadFiles(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	pulumi.Run(program.New(files, program.Delivery(catalog.RunDelivery()),
		program.RereadRepositories(os.Getenv(program.RereadRepositoriesEnv) != "")))
}
