package trust_test

import (
	"context"
	"testing"
	"time"

	"github.com/company/harness-platform/trust"
)

// ShortestLogin reads, without opening, the logins ESC's evaluator runs
// when it opens the environment: the same shortest life for every
// committed environment.
func TestShortestLoginIsWhatOpeningGrants(t *testing.T) {
	m := load(t)
	ctx := context.Background()
	def := func(_ context.Context, env string) ([]byte, error) { return m.Environments[env], nil }
	for env := range m.Environments {
		var team string
		for _, tm := range m.Access.Teams {
			if tm.MayOpen(env) {
				team = tm.Name
				break
			}
		}
		o, err := m.Open(ctx, team, env, false)
		if err != nil {
			t.Fatalf("%s: %v", env, err)
		}
		var opened time.Duration
		for _, g := range o.Grants {
			if g.Kind == trust.KindAWSRole && (opened == 0 || g.Lifetime < opened) {
				opened = g.Lifetime
			}
		}
		read, err := trust.ShortestLogin(ctx, env, def)
		if err != nil || read != opened || read == 0 {
			t.Errorf("%s: read %s (%v), opening grants %s", env, read, err, opened)
		}
	}
	// A login with no duration lasts aws-login's default.
	bare := []byte("values:\n  l:\n    fn::open::aws-login:\n      oidc: {roleArn: arn:aws:iam::111111111111:role/x, sessionName: s}\n")
	if d, err := trust.ShortestLogin(ctx, "e", func(context.Context, string) ([]byte, error) { return bare, nil }); d != 2*time.Hour || err != nil {
		t.Errorf("a login with no duration: %s, %v; want 2h", d, err)
	}
}
