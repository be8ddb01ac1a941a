// Package regotest evaluates the Rego policies Harness runs as Harness's
// policy engine does (Rego v0 syntax, a deny set of messages), with the
// OPA library; test support only.
package regotest

import (
	"context"
	"testing"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// Deny evaluates data.<pkg>.deny of policy for input, at now when it is
// not zero, and returns its messages.
func Deny(t testing.TB, pkg, policy string, input any, now time.Time) []string {
	t.Helper()
	opts := []func(*rego.Rego){
		rego.Query("data." + pkg + ".deny"),
		rego.Module(pkg+".rego", policy),
		rego.SetRegoVersion(ast.RegoV0),
		rego.Input(input),
	}
	if !now.IsZero() {
		opts = append(opts, rego.Time(now))
	}
	rs, err := rego.New(opts...).Eval(context.Background())
	if err != nil {
		t.Fatalf("evaluating %s: %v", pkg, err)
	}
	if len(rs) != 1 || len(rs[0].Expressions) != 1 {
		t.Fatalf("%s: unexpected result %v", pkg, rs)
	}
	var out []string
	for _, m := range rs[0].Expressions[0].Value.([]any) {
		out = append(out, m.(string))
	}
	return out
}
