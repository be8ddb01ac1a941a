// Command platformctl works on the catalog and drives the program. Its
// command line is built on cobra and pflag, as the Pulumi CLI's is, with
// Pulumi's flag names: --stack/-s, --yes/-y, --parallel/-p, --json/-j,
// --diff, --expect-no-changes, --preview-only, --save-plan, --plan,
// --policy-pack, --policy-pack-config. Long flags take two dashes.
//
// Without cloud, state or the Pulumi CLI:
//
//	platformctl validate                       check the catalog and every stack file
//	platformctl render -s STACK [--service N]  print the documents STACK declares
//	platformctl stacks [--base DIR]            the stacks, in chain order
//	platformctl gitops [-y]                    check (write) the operator's service Stacks
//	platformctl summary -s STACK --events F    a preview's pull-request summary
//	platformctl policy-pack                    build the CrossGuard pack, print its path
//
// Through the Pulumi Automation API (the CLI from scripts/install-pulumi.sh),
// against the real backend and providers, or --offline against a local
// file:// backend and the simulated cloud under --state:
//
//	platformctl preflight|preview|outputs|recover|backup -s STACK [--offline]
//	platformctl up|destroy -s STACK -y             change the stack (refused without --yes)
//	platformctl refresh -s STACK -y                write what the cloud holds into the state
//	platformctl refresh -s STACK --preview-only --expect-no-changes   the drift check
//	platformctl restore -s STACK --from FILE -y    a damaged state, from a backup
//	platformctl import|move -s STACK [-y]          without --yes only report
//	platformctl check-plugins --plugin NAME=PATH   previews with real provider plugins
//	platformctl demo                               the offline demo: up, preview, drift check
//
// Each command has its own flags; `platformctl COMMAND -h` lists them.
// Exit codes: 0 done, 1 the work failed, 2 the command line is wrong (an
// unknown flag, a stray argument, a missing --stack or --yes), 3 the
// drift check found drift.
package main

import (
	"os"

	"github.com/company/harness-platform/internal/platformctl"
)

func main() {
	os.Exit(platformctl.Run(os.Args[1:], os.Stdout, os.Stderr))
}
