package platform

import (
	"context"
	"reflect"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func init() {
	pulumi.RegisterOutputType(AwsConnectorInheritFromDelegateOutput{})
	pulumi.RegisterOutputType(AwsConnectorInheritFromDelegatePtrOutput{})
}

var delegatetokenToken = register("harness:platform/delegatetoken:Delegatetoken", DelegatetokenArgs{}, func() pulumi.CustomResource { return &Delegatetoken{} })

// Delegatetoken is a token delegates register with. Its Value is computed
// by Harness and always a secret.
type Delegatetoken struct {
	pulumi.CustomResourceState

	AccountId   pulumi.StringOutput    `pulumi:"accountId"`
	CreatedAt   pulumi.IntOutput       `pulumi:"createdAt"`
	CreatedBy   pulumi.StringMapOutput `pulumi:"createdBy"`
	Name        pulumi.StringOutput    `pulumi:"name"`
	OrgId       pulumi.StringPtrOutput `pulumi:"orgId"`
	ProjectId   pulumi.StringPtrOutput `pulumi:"projectId"`
	RevokeAfter pulumi.IntPtrOutput    `pulumi:"revokeAfter"`
	TokenStatus pulumi.StringOutput    `pulumi:"tokenStatus"`
	Value       pulumi.StringOutput    `pulumi:"value"`
}

type delegatetokenArgs struct {
	AccountId   string  `pulumi:"accountId"`
	Name        *string `pulumi:"name"`
	OrgId       *string `pulumi:"orgId"`
	ProjectId   *string `pulumi:"projectId"`
	RevokeAfter *int    `pulumi:"revokeAfter"`
}

// DelegatetokenArgs are the inputs of a Delegatetoken. The provider's
// computed inputs (createdAt, createdBy, tokenStatus, value) are not bound:
// the value is Harness's, never the program's.
type DelegatetokenArgs struct {
	AccountId   pulumi.StringInput
	Name        pulumi.StringPtrInput
	OrgId       pulumi.StringPtrInput
	ProjectId   pulumi.StringPtrInput
	RevokeAfter pulumi.IntPtrInput
}

func (DelegatetokenArgs) ElementType() reflect.Type {
	return reflect.TypeOf((*delegatetokenArgs)(nil)).Elem()
}

// NewDelegatetoken registers a Delegatetoken; its value is a secret output
// (the provider's secretOutputs), as the official SDK registers it.
func NewDelegatetoken(ctx *pulumi.Context, name string, args *DelegatetokenArgs, opts ...pulumi.ResourceOption) (*Delegatetoken, error) {
	if args == nil {
		return nil, errMissingArgs
	}
	if args.AccountId == nil {
		return nil, required("AccountId")
	}
	opts = append(opts, pulumi.AdditionalSecretOutputs([]string{"value"}))
	var resource Delegatetoken
	if err := ctx.RegisterResource(delegatetokenToken, name, args, &resource, defaultOpts(opts)...); err != nil {
		return nil, err
	}
	return &resource, nil
}

var awsConnectorToken = register("harness:platform/awsConnector:AwsConnector", AwsConnectorArgs{}, func() pulumi.CustomResource { return &AwsConnector{} })

// AwsConnector is a Harness connector to an AWS account.
type AwsConnector struct {
	pulumi.CustomResourceState

	Description         pulumi.StringPtrOutput                   `pulumi:"description"`
	ExecuteOnDelegate   pulumi.BoolPtrOutput                     `pulumi:"executeOnDelegate"`
	Identifier          pulumi.StringOutput                      `pulumi:"identifier"`
	InheritFromDelegate AwsConnectorInheritFromDelegatePtrOutput `pulumi:"inheritFromDelegate"`
	Name                pulumi.StringOutput                      `pulumi:"name"`
	OrgId               pulumi.StringPtrOutput                   `pulumi:"orgId"`
	ProjectId           pulumi.StringPtrOutput                   `pulumi:"projectId"`
	Tags                pulumi.StringArrayOutput                 `pulumi:"tags"`
}

type awsConnectorArgs struct {
	Description         *string                          `pulumi:"description"`
	ExecuteOnDelegate   *bool                            `pulumi:"executeOnDelegate"`
	Identifier          string                           `pulumi:"identifier"`
	InheritFromDelegate *AwsConnectorInheritFromDelegate `pulumi:"inheritFromDelegate"`
	Name                *string                          `pulumi:"name"`
	OrgId               *string                          `pulumi:"orgId"`
	ProjectId           *string                          `pulumi:"projectId"`
	Tags                []string                         `pulumi:"tags"`
}

// AwsConnectorArgs are the inputs of an AwsConnector. Of the provider's
// credential blocks (exactly one of inheritFromDelegate, irsa, manual,
// oidcAuthentication) only inheritFromDelegate is bound: this project never
// gives a connector keys.
type AwsConnectorArgs struct {
	Description         pulumi.StringPtrInput
	ExecuteOnDelegate   pulumi.BoolPtrInput
	Identifier          pulumi.StringInput
	InheritFromDelegate AwsConnectorInheritFromDelegatePtrInput
	Name                pulumi.StringPtrInput
	OrgId               pulumi.StringPtrInput
	ProjectId           pulumi.StringPtrInput
	Tags                pulumi.StringArrayInput
}

func (AwsConnectorArgs) ElementType() reflect.Type {
	return reflect.TypeOf((*awsConnectorArgs)(nil)).Elem()
}

// NewAwsConnector registers an AwsConnector.
func NewAwsConnector(ctx *pulumi.Context, name string, args *AwsConnectorArgs, opts ...pulumi.ResourceOption) (*AwsConnector, error) {
	if args == nil {
		return nil, errMissingArgs
	}
	if args.Identifier == nil {
		return nil, required("Identifier")
	}
	var resource AwsConnector
	if err := ctx.RegisterResource(awsConnectorToken, name, args, &resource, defaultOpts(opts)...); err != nil {
		return nil, err
	}
	return &resource, nil
}

// --- AwsConnectorInheritFromDelegate ---

// AwsConnectorInheritFromDelegate makes a connector use the credentials of
// the delegate it runs on (its IRSA role).
type AwsConnectorInheritFromDelegate struct {
	DelegateSelectors []string `pulumi:"delegateSelectors"`
	Region            *string  `pulumi:"region"`
}

// AwsConnectorInheritFromDelegateArgs is its input form.
type AwsConnectorInheritFromDelegateArgs struct {
	DelegateSelectors pulumi.StringArrayInput `pulumi:"delegateSelectors"`
	Region            pulumi.StringPtrInput   `pulumi:"region"`
}

func (AwsConnectorInheritFromDelegateArgs) ElementType() reflect.Type {
	return reflect.TypeOf((*AwsConnectorInheritFromDelegate)(nil)).Elem()
}

func (i AwsConnectorInheritFromDelegateArgs) ToAwsConnectorInheritFromDelegatePtrOutput() AwsConnectorInheritFromDelegatePtrOutput {
	return pulumi.ToOutputWithContext(context.Background(), i).(AwsConnectorInheritFromDelegateOutput).ApplyT(
		func(v AwsConnectorInheritFromDelegate) *AwsConnectorInheritFromDelegate { return &v }).(AwsConnectorInheritFromDelegatePtrOutput)
}

// AwsConnectorInheritFromDelegatePtrInput accepts *AwsConnectorInheritFromDelegateArgs.
type AwsConnectorInheritFromDelegatePtrInput interface {
	pulumi.Input
	ToAwsConnectorInheritFromDelegatePtrOutput() AwsConnectorInheritFromDelegatePtrOutput
}

type AwsConnectorInheritFromDelegateOutput struct{ *pulumi.OutputState }

func (AwsConnectorInheritFromDelegateOutput) ElementType() reflect.Type {
	return reflect.TypeOf((*AwsConnectorInheritFromDelegate)(nil)).Elem()
}

type AwsConnectorInheritFromDelegatePtrOutput struct{ *pulumi.OutputState }

func (AwsConnectorInheritFromDelegatePtrOutput) ElementType() reflect.Type {
	return reflect.TypeOf((**AwsConnectorInheritFromDelegate)(nil)).Elem()
}

func (o AwsConnectorInheritFromDelegatePtrOutput) ToAwsConnectorInheritFromDelegatePtrOutput() AwsConnectorInheritFromDelegatePtrOutput {
	return o
}
