package trust

import (
	"context"
	"fmt"
	"time"

	"github.com/pulumi/esc/ast"
	"github.com/pulumi/esc/eval"
)

// Definition reads an environment's definition (its YAML, as Pulumi
// Cloud holds it: GET /api/esc/environments/{org}/{project}/{env}).
type Definition func(ctx context.Context, env string) ([]byte, error)

// ShortestLogin is the shortest AWS login that opening env starts, read
// from the definitions def answers (env's and, transitively, its
// imports'), without opening anything; 0 when there is none. A login
// without a duration lasts aws-login's default, 2 hours
// (defaultLoginDuration; the published schema's default too).
func ShortestLogin(ctx context.Context, env string, def Definition) (time.Duration, error) {
	var least time.Duration
	seen := map[string]bool{}
	var visit func(name string) error
	visit = func(name string) error {
		if seen[name] {
			return nil
		}
		seen[name] = true
		data, err := def(ctx, name)
		if err != nil {
			return err
		}
		decl, diags, err := eval.LoadYAMLBytes(name, data)
		if err != nil {
			return err
		}
		if diags.HasErrors() {
			return fmt.Errorf("%s: %v", name, diags)
		}
		lives, err := awsLogins(decl)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		for _, l := range lives {
			if least == 0 || l < least {
				least = l
			}
		}
		for _, imp := range decl.Imports.GetElements() {
			if imp.Environment != nil {
				if err := visit(imp.Environment.Value); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return least, visit(env)
}

// awsLogins are the durations of decl's fn::open::aws-login calls.
func awsLogins(decl *ast.EnvironmentDecl) ([]time.Duration, error) {
	var out []time.Duration
	var errs []error
	var walk func(e ast.Expr)
	walk = func(e ast.Expr) {
		switch x := e.(type) {
		case *ast.OpenExpr:
			if x.Provider != nil && x.Provider.Value == "aws-login" {
				d, err := loginDuration(x.Inputs)
				if err != nil {
					errs = append(errs, err)
				} else {
					out = append(out, d)
				}
			}
			walk(x.Inputs)
		case *ast.ObjectExpr:
			for _, kv := range x.Entries {
				walk(kv.Value)
			}
		case *ast.ArrayExpr:
			for _, v := range x.Elements {
				walk(v)
			}
		}
	}
	if decl.Values != nil {
		for _, kv := range decl.Values.GetEntries() {
			walk(kv.Value)
		}
	}
	if len(errs) > 0 {
		return nil, errs[0]
	}
	return out, nil
}

func loginDuration(inputs ast.Expr) (time.Duration, error) {
	oidc := field(inputs, "oidc")
	e := field(oidc, "duration")
	if e == nil {
		return defaultLoginDuration, nil
	}
	d, ok := e.(*ast.StringExpr)
	if !ok {
		return 0, fmt.Errorf("aws-login duration: not a literal (%T), its life cannot be read", e)
	}
	v, err := time.ParseDuration(d.Value)
	if err != nil {
		return 0, fmt.Errorf("aws-login duration %q: %w", d.Value, err)
	}
	return v, nil
}

func field(e ast.Expr, key string) ast.Expr {
	obj, ok := e.(*ast.ObjectExpr)
	if !ok {
		return nil
	}
	for _, kv := range obj.Entries {
		if kv.Key != nil && kv.Key.Value == key {
			return kv.Value
		}
	}
	return nil
}
