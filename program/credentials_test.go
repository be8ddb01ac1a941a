package program

import (
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/internal/mocktest"
	"github.com/company/harness-platform/plan"
)

const (
	tSMSecret      = "aws:secretsmanager/secret:Secret"
	tSecretVersion = "aws:secretsmanager/secretVersion:SecretVersion"
)

// An environment's credentials stack holds its delegates' tokens, each
// copied into Secrets Manager where the delegate's cluster reads it; the
// platform stack holds none (TestClustersAndDelegates).
func TestCredentialsStackHoldsTheTokens(t *testing.T) {
	c := example(t)
	for _, env := range c.Chain {
		stack := catalog.CredentialsStackName(env)
		rec := mustRun(t, c, stack)
		creds, err := plan.Credentials(c, env)
		if err != nil {
			t.Fatal(err)
		}
		tokens, secrets, versions := rec.OfType(tDelegateToken), rec.OfType(tSMSecret), rec.OfType(tSecretVersion)
		if len(tokens) != len(creds) || len(secrets) != len(creds) || len(versions) != len(creds) {
			t.Fatalf("%s: %d tokens, %d secrets, %d versions for %d delegates", stack, len(tokens), len(secrets), len(versions), len(creds))
		}
		names := map[string]bool{}
		for _, s := range secrets {
			names[str(s, "name")] = true
		}
		for _, cr := range creds {
			if !names[cr.Secret.Name] {
				t.Errorf("%s: no secret %s for token %s", stack, cr.Secret.Name, cr.Token)
			}
		}
		for _, v := range versions {
			s := v.Inputs["secretString"]
			if !s.IsSecret() || s.SecretValue().Element.StringValue() != mocktest.TestDelegateToken {
				t.Errorf("%s: secret version %s holds %v, want the token, secret", stack, v.Name, s)
			}
		}
		for _, p := range rec.OfType(tAWSProvider) {
			if got := propertyStrings(value(p, "allowedAccountIds")); len(got) != 1 || got[0] != c.Stacks[env].AWS.Account() {
				t.Errorf("%s: AWS provider %s allows %v", stack, p.Name, got)
			}
		}
	}
}

// A token the platform stack's delegates still run with stays until they
// run with the new one: the up of the credentials stack that comes before
// the platform stack's never revokes the token the running pods use.
func TestCredentialsKeepTheTokenInUse(t *testing.T) {
	c := example(t)
	creds, err := plan.Credentials(c, "dev")
	if err != nil {
		t.Fatal(err)
	}
	outputs := deployedChain(c)
	inUse := map[string]any{}
	for _, cr := range creds {
		inUse[cr.Delegate] = cr.Token + "-previous"
	}
	outputs["dev"][OutDelegateTokens] = resource.NewPropertyValue(inUse)
	rec, err := runWith(outputs, c, catalog.CredentialsStackName("dev"), false)
	if err != nil {
		t.Fatal(err)
	}
	held := map[string]bool{}
	for _, tok := range rec.OfType(tDelegateToken) {
		held[str(tok, "name")] = true
	}
	for _, cr := range creds {
		if !held[cr.Token] || !held[cr.Token+"-previous"] {
			t.Errorf("tokens %v, want %s and the one its delegate runs with", held, cr.Token)
		}
	}
	if len(held) != 2*len(creds) {
		t.Errorf("tokens %v, want %d", held, 2*len(creds))
	}
}
