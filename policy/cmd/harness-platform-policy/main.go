// Command harness-platform-policy is the project's CrossGuard policy pack
// as an analyzer plugin: run it with `pulumi preview --policy-pack
// PATH/TO/harness-platform-policy` (`platformctl policy-pack` builds it
// and prints the path).
package main

import (
	"fmt"
	"os"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/policyx"

	"github.com/company/harness-platform/policy/crossguard"
)

func main() {
	if err := policyx.Main(func(*pulumi.Context) (policyx.PolicyPack, error) { return crossguard.New() }); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
