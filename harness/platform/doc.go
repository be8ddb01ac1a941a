// Package platform is a local, typed binding of the Harness Pulumi
// provider's `platform` module (pulumi-harness v0.16.0, bridging
// terraform-provider-harness v0.45.0), for the resources this project uses.
//
// The official Go SDK (github.com/pulumi/pulumi-harness/sdk/go/harness/platform)
// is not served by this workplace's module proxy. This package mirrors its
// API shape: the same type tokens, constructor names, argument struct and
// field names and input types, so that switching to the official SDK is an
// import change. Its conformance test checks every binding against the
// provider's published facts (../shared/harness-provider/schema.json).
package platform

import (
	"errors"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// Resources maps each bound type token to an empty value of its args type,
// so tests can check every binding against the provider's facts.
var Resources = map[string]any{}

// states makes an empty resource struct per token, as the official SDK's
// resource module does to rehydrate resources.
var states = map[string]func() pulumi.CustomResource{}

func register(token string, args any, state func() pulumi.CustomResource) string {
	Resources[token] = args
	states[token] = state
	return token
}

// NewState returns an empty resource struct of token's type (such as
// *Pipeline), or nil for a token this package does not bind.
func NewState(token string) pulumi.CustomResource {
	if f, ok := states[token]; ok {
		return f()
	}
	return nil
}

func required(name string) error {
	return errors.New("invalid value for required argument '" + name + "'")
}

var errMissingArgs = errors.New("missing one or more required arguments")

// secret wraps an optional input as a Pulumi secret, as the official SDK
// does for inputs the provider marks secret.
func secret(in pulumi.StringPtrInput) pulumi.StringPtrInput {
	if in == nil {
		return nil
	}
	return pulumi.ToSecret(in).(pulumi.StringPtrInput)
}

// Version is the version of the Harness provider these bindings mirror.
// Every registration asks for it, as the official SDK's default resource
// options do, so that an empty plugin cache installs exactly this version
// and never "the latest".
const Version = "0.16.0"

// defaultOpts puts the provider version first, so a caller's own
// pulumi.Version still wins.
func defaultOpts(opts []pulumi.ResourceOption) []pulumi.ResourceOption {
	return append([]pulumi.ResourceOption{pulumi.Version(Version)}, opts...)
}
