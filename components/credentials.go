package components

import (
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/secretsmanager"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/harness/sdk/platform"
	"github.com/company/harness-platform/plan"
)

// DelegateTokenArgs are the inputs of a DelegateToken.
type DelegateTokenArgs struct {
	Credential plan.Credential
	// AccountID is the Harness account the token registers delegates
	// with.
	AccountID string
	// AWS is the provider of the account and region of the token's
	// secret.
	AWS pulumi.ProviderResource
	// Tags are the secret's AWS tags.
	Tags map[string]string
}

// DelegateToken is one delegate's Harness token and its copy in AWS
// Secrets Manager, where the delegate's cluster reads it
// (plan.TokenSecret): declared by the environment's credentials stack,
// which only the environment's deployer reads.
type DelegateToken struct {
	pulumi.ResourceState
}

// TokenSecretRecoveryDays is how long Secrets Manager keeps a deleted
// token secret recoverable: the shortest it allows (7 to 30 days; AWS
// Secrets Manager API, DeleteSecret RecoveryWindowInDays). A secret is
// deleted when its token is revoked, so nothing needs it back.
const TokenSecretRecoveryDays = 7

// NewDelegateToken declares a delegate's token, named by its plan.
func NewDelegateToken(ctx *pulumi.Context, args *DelegateTokenArgs, opts ...pulumi.ResourceOption) (*DelegateToken, error) {
	c := args.Credential
	t := &DelegateToken{}
	if err := ctx.RegisterComponentResource(DelegateTokenType, c.Token, t, opts...); err != nil {
		return nil, err
	}
	// Moved from a platform stack (platformctl move), a token is at the
	// stack's root: the alias takes it in, unchanged.
	token, err := platform.NewDelegatetoken(ctx, c.Token, &platform.DelegatetokenArgs{
		AccountId: pulumi.String(args.AccountID),
		Name:      pulumi.String(c.Token),
	}, pulumi.Parent(t), pulumi.Aliases([]pulumi.Alias{{NoParent: pulumi.Bool(true)}}))
	if err != nil {
		return nil, err
	}
	aws := []pulumi.ResourceOption{pulumi.Parent(t), pulumi.Provider(args.AWS), pulumi.Version(AWSVersion)}
	secret, err := secretsmanager.NewSecret(ctx, c.Token, &secretsmanager.SecretArgs{
		Name:                 pulumi.String(c.Secret.Name),
		Description:          pulumi.String("Harness delegate token " + c.Token + " of delegate " + c.Delegate + " (harness-platform credentials stack)"),
		RecoveryWindowInDays: pulumi.Int(TokenSecretRecoveryDays),
		Tags:                 pulumi.ToStringMap(args.Tags),
	}, aws...)
	if err != nil {
		return nil, err
	}
	if _, err := secretsmanager.NewSecretVersion(ctx, c.Token, &secretsmanager.SecretVersionArgs{
		SecretId:     secret.ID(),
		SecretString: token.Value,
	}, aws...); err != nil {
		return nil, err
	}
	return t, ctx.RegisterResourceOutputs(t, pulumi.Map{"secret": pulumi.String(c.Secret.Name)})
}
