// Command pulumi-language-harness-platform is the language host `pulumi
// import` asks, for this project, which packages the program needs. The
// program itself always runs inline, through the Automation API (package
// engine), which serves its own language host to every other command;
// `pulumi import` has no flag to use it and loads the project's runtime's
// plugin instead, which a CLI built from source (scripts/install-pulumi.sh)
// does not have. Every import names its resources' provider versions, so
// the answer is: no packages. Nothing here runs a program.
//
// The engine builds it (engine.Import) and runs `pulumi import` in a
// directory whose Pulumi.yaml names the runtime harness-platform.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
)

type host struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
}

func (host) Handshake(context.Context, *pulumirpc.LanguageHandshakeRequest) (*pulumirpc.LanguageHandshakeResponse, error) {
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (host) GetRequiredPackages(context.Context, *pulumirpc.GetRequiredPackagesRequest) (*pulumirpc.GetRequiredPackagesResponse, error) {
	return &pulumirpc.GetRequiredPackagesResponse{}, nil
}

func (host) GetRequiredPlugins(context.Context, *pulumirpc.GetRequiredPluginsRequest) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return &pulumirpc.GetRequiredPluginsResponse{}, nil
}

func (host) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: "1.0.0"}, nil
}

func (host) Run(context.Context, *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	return &pulumirpc.RunResponse{Error: "harness-platform's program runs inline through platformctl, not through this host"}, nil
}

func main() {
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, host{})
			return nil
		},
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(handle.Port) // the engine reads the port from the first line
	if err := <-handle.Done; err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
