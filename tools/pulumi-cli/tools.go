//go:build tools

// Package tools pins the Pulumi CLI's module; the binary is built with
// `go build github.com/pulumi/pulumi/pkg/v3/cmd/pulumi` in this module.
package tools
