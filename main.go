// Command harness-platform is the Pulumi program: it validates the catalog
// and every stack file, then declares the current stack's Harness
// resources. Invalid input stops it before anything is declared.
package main

import (
	"fmt"
	"os"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/program"
)

func main() {
	c, err := catalog.Load(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	pulumi.Run(program.New(c))
}
