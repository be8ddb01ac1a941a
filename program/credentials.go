package program

import (
	"fmt"
	"maps"
	"slices"

	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/components"
	"github.com/company/harness-platform/plan"
)

// declareCredentials declares the credentials stack of environment env
// (catalog.CredentialsStackName): the delegate tokens its configuration
// names, and those its platform stack's delegates still run with
// (OutDelegateTokens), each with its copy in Secrets Manager. A rotated
// token is therefore revoked by the first up of this stack after the
// delegates moved to the new one, never before: the credentials stack
// goes first in an environment's up, the platform stack rolls the
// delegates after it, and the next up of this stack (the next merge, or
// step 3 of platformctl rotate-delegate-token) revokes the old token.
func declareCredentials(ctx *pulumi.Context, c *catalog.Catalog, env string, done chan<- error) (err error) {
	defer func() { done <- err }()
	creds, err := plan.Credentials(c, env)
	if err != nil {
		return err
	}
	account := accountID(ctx)
	if account == "" && len(creds) > 0 {
		return fmt.Errorf("nothing was changed: delegate tokens name the Harness account; set HARNESS_ACCOUNT_ID or `pulumi config set harness:accountId ID`, as for the provider")
	}
	inUse, err := tokensInUse(ctx, env)
	if err != nil {
		return err
	}
	st := c.Stacks[env]
	declared := map[string]bool{}
	for _, cr := range creds {
		declared[cr.Token] = true
	}
	// A token the delegates still run with is kept, under the delegate's
	// current plan but its own name and secret.
	for _, cr := range slices.Clone(creds) {
		if old, ok := inUse[cr.Delegate]; ok && !declared[old] {
			kept := cr
			kept.Token = old
			kept.Secret = plan.TokenSecretOf(cr.Secret, st.Environment.Name, old)
			creds = append(creds, kept)
			declared[old] = true
		}
	}
	providers := map[string]*aws.Provider{}
	for _, cr := range creds {
		key := cr.Secret.Account + "/" + cr.Secret.AWSRegion
		p, ok := providers[key]
		if !ok {
			// As the clusters' providers: the run's own credentials
			// (the deployer's login), refused in any other account.
			p, err = aws.NewProvider(ctx, "aws-"+cr.Secret.AWSRegion, &aws.ProviderArgs{
				Region:            pulumi.String(cr.Secret.AWSRegion),
				AllowedAccountIds: pulumi.StringArray{pulumi.String(cr.Secret.Account)},
			}, pulumi.Version(components.AWSVersion))
			if err != nil {
				return err
			}
			providers[key] = p
		}
		if _, err := components.NewDelegateToken(ctx, &components.DelegateTokenArgs{
			Credential: cr,
			AccountID:  account,
			AWS:        p,
			Tags:       map[string]string{"environment": st.Environment.Name, "managed-by": plan.ManagedBy},
		}); err != nil {
			return err
		}
	}
	tokens := pulumi.StringMap{}
	for _, cr := range creds {
		tokens[cr.Token] = pulumi.String(cr.Delegate)
	}
	ctx.Export(OutTokens, tokens)
	return nil
}

// OutTokens (credentials stacks) are the delegate tokens the stack holds,
// each with its delegate: names only.
const OutTokens = "tokens"

// tokensInUse are the tokens the delegates of platform stack env run with,
// by delegate: none before its first deployment.
func tokensInUse(ctx *pulumi.Context, env string) (map[string]string, error) {
	outputs, err := deployedOutputs(ctx, env)
	if err != nil {
		return nil, fmt.Errorf("reading the delegates' tokens from stack %s: %w", env, err)
	}
	out := map[string]string{}
	if m, ok := outputs[OutDelegateTokens].(map[string]any); ok {
		for _, d := range slices.Sorted(maps.Keys(m)) {
			if t, ok := m[d].(string); ok {
				out[d] = t
			}
		}
	}
	return out, nil
}
