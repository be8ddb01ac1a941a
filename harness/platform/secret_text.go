package platform

import (
	"reflect"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

var secretTextToken = register("harness:platform/secretText:SecretText", SecretTextArgs{}, func() pulumi.CustomResource { return &SecretText{} })

// SecretText is a Harness text secret. Its value is always a Pulumi secret.
type SecretText struct {
	pulumi.CustomResourceState

	Description             pulumi.StringPtrOutput   `pulumi:"description"`
	Identifier              pulumi.StringOutput      `pulumi:"identifier"`
	Name                    pulumi.StringOutput      `pulumi:"name"`
	OrgId                   pulumi.StringPtrOutput   `pulumi:"orgId"`
	ProjectId               pulumi.StringPtrOutput   `pulumi:"projectId"`
	SecretManagerIdentifier pulumi.StringOutput      `pulumi:"secretManagerIdentifier"`
	Tags                    pulumi.StringArrayOutput `pulumi:"tags"`
	Value                   pulumi.StringPtrOutput   `pulumi:"value"`
	ValueType               pulumi.StringOutput      `pulumi:"valueType"`
}

type secretTextArgs struct {
	Description             *string  `pulumi:"description"`
	Identifier              string   `pulumi:"identifier"`
	Name                    *string  `pulumi:"name"`
	OrgId                   *string  `pulumi:"orgId"`
	ProjectId               *string  `pulumi:"projectId"`
	SecretManagerIdentifier string   `pulumi:"secretManagerIdentifier"`
	Tags                    []string `pulumi:"tags"`
	Value                   *string  `pulumi:"value"`
	ValueType               string   `pulumi:"valueType"`
}

// SecretTextArgs are the inputs of a SecretText.
type SecretTextArgs struct {
	Description             pulumi.StringPtrInput
	Identifier              pulumi.StringInput
	Name                    pulumi.StringPtrInput
	OrgId                   pulumi.StringPtrInput
	ProjectId               pulumi.StringPtrInput
	SecretManagerIdentifier pulumi.StringInput
	Tags                    pulumi.StringArrayInput
	Value                   pulumi.StringPtrInput
	// ValueType is Inline or Reference.
	ValueType pulumi.StringInput
}

func (SecretTextArgs) ElementType() reflect.Type {
	return reflect.TypeOf((*secretTextArgs)(nil)).Elem()
}

// NewSecretText registers a SecretText. Value is made a secret whatever
// was passed, and the provider's value output stays secret.
func NewSecretText(ctx *pulumi.Context, name string, args *SecretTextArgs, opts ...pulumi.ResourceOption) (*SecretText, error) {
	if args == nil {
		return nil, errMissingArgs
	}
	if args.Identifier == nil {
		return nil, required("Identifier")
	}
	if args.SecretManagerIdentifier == nil {
		return nil, required("SecretManagerIdentifier")
	}
	if args.ValueType == nil {
		return nil, required("ValueType")
	}
	args.Value = secret(args.Value)
	opts = append(opts, pulumi.AdditionalSecretOutputs([]string{"value"}))
	var resource SecretText
	if err := ctx.RegisterResource(secretTextToken, name, args, &resource, defaultOpts(opts)...); err != nil {
		return nil, err
	}
	return &resource, nil
}
