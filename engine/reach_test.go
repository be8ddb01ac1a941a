package engine

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/sig"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/simulated"
	"github.com/company/harness-platform/trust"
)

// stateCredentials lists, by stack, the resources whose state in the
// checkpoint holds a secret value (a credential a reader of the stack
// decrypts): every custom resource but providers, whose configuration
// (a kubeconfig that runs `aws eks get-token`) holds none, and Harness
// secrets by reference.
func stateCredentials(t *testing.T, state string, stacks []string) trust.StateCredentials {
	t.Helper()
	out := trust.StateCredentials{}
	for _, stack := range stacks {
		for _, r := range checkpointResources(t, state, stack) {
			if !r.Custom || strings.HasPrefix(r.Type, "pulumi:providers:") {
				continue
			}
			// A Harness secret of type Reference holds the name of the
			// Secrets Manager secret, which the provider's schema marks
			// secret as it marks every value (plan.SecretText).
			if r.Type == "harness:platform/secretText:SecretText" && r.Outputs["valueType"] == "Reference" {
				continue
			}
			if holdsSecret(r.Outputs) {
				out[stack] = append(out[stack], r.Type+" "+r.URN[strings.LastIndex(r.URN, "::")+2:])
			}
		}
	}
	return out
}

func holdsSecret(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		if v[sig.Key] == sig.Secret {
			return true
		}
		for _, e := range v {
			if holdsSecret(e) {
				return true
			}
		}
	case []any:
		return slices.ContainsFunc(v, holdsSecret)
	}
	return false
}

// After an offline up of the chain, the states as exported: the
// credentials they hold are each environment's delegate tokens, in its
// credentials stack alone; by the teams' stack permissions
// (esc/pulumi/access.yaml), the preview team decrypts none, and each
// deployer only its own environment's.
func checkStateReach(t *testing.T, c *catalog.Catalog, state string) {
	t.Helper()
	m, err := trust.Load()
	if err != nil {
		t.Fatal(err)
	}
	creds := stateCredentials(t, state, append(c.AllStacks(), c.CredentialsStacks()...))
	for stack, held := range creds {
		if !catalog.IsCredentialsStack(stack) {
			t.Errorf("stack %s holds credentials %v: only an environment's credentials stack may", stack, held)
		}
	}
	for _, env := range c.Chain {
		if held := creds[catalog.CredentialsStackName(env)]; len(held) == 0 {
			t.Errorf("%s holds no credential: its delegate tokens are not where this test looks", catalog.CredentialsStackName(env))
		}
	}
	if got := m.Decrypts(trust.Identity{Run: "preview", Team: "harness-platform-preview"}, creds); len(got) > 0 {
		t.Errorf("the preview team decrypts %v", got)
	}
	for _, env := range c.Chain {
		got := m.Decrypts(trust.Identity{Run: "up " + env, Team: "harness-platform-" + env}, creds)
		if !slices.Equal(got, creds[catalog.CredentialsStackName(env)]) {
			t.Errorf("harness-platform-%s decrypts %v, want its own credentials %v", env, got, creds[catalog.CredentialsStackName(env)])
		}
	}
}

// Previews and the drift check run as each environment's preview role:
// in the clusters, its group's ClusterRole reads every object the stacks
// declare and the Helm releases kept in ConfigMaps, and no Secret
// (simulated/kubernetes CheckRead); they pass on deployed dev.
func TestPreviewsRunAsThePreviewRole(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := example(t)
	s := open(t, deployedDev(t), c)
	reach := simulated.DefaultReach(c)
	reach.Identities = nil
	for _, env := range c.Chain {
		reach.Identities = append(reach.Identities, c.Stacks[env].AWS.PreviewRoleArn)
	}
	s.servers().SetReach(reach)
	if err := s.Refresh(ctx, "dev", RefreshOptions{PreviewOnly: true, ExpectNoChanges: true}); err != nil {
		t.Fatalf("the drift check as the preview role: %v\n%s", err, s.out)
	}
	if _, err := s.Preview(ctx, "dev", PreviewOptions{ExpectNoChanges: true}); err != nil {
		t.Fatalf("a preview as the preview role: %v\n%s", err, s.out)
	}
}
