package platformctl

import (
	"fmt"
	"io"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/company/harness-platform/components"
	"github.com/company/harness-platform/engine"
	"github.com/company/harness-platform/policy/crossguard"
	"github.com/company/harness-platform/simulated/harness"
)

// versionCommand prints what this platformctl is and pins: its build,
// the Pulumi CLI it drives, the provider versions the program registers
// its resources with, and its policy pack's. It reads no catalog.
func versionCommand(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "print platformctl's build and the versions it pins",
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			build := "(no build information)"
			if info, ok := debug.ReadBuildInfo(); ok {
				build = info.Main.Path + " " + info.Main.Version + ", " + info.GoVersion
				for _, s := range info.Settings {
					if s.Key == "vcs.revision" {
						build += ", commit " + s.Value
					}
				}
			}
			fmt.Fprintf(stdout, "platformctl: %s\n", build)
			fmt.Fprintf(stdout, "Pulumi CLI: v%s (scripts/install-pulumi.sh builds it into %s)\n", engine.CLIVersion, engine.CLIRoot())
			fmt.Fprintf(stdout, "providers: aws v%s, kubernetes v%s, github v%s, harness v%s\n",
				components.AWSVersion, components.KubernetesVersion, components.GitHubVersion, harness.Version)
			fmt.Fprintf(stdout, "policy pack: %s v%s\n", crossguard.Name, crossguard.Version)
			return nil
		},
	}
}
