package platform

import (
	"reflect"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

var environmentToken = register("harness:platform/environment:Environment", EnvironmentArgs{}, func() pulumi.CustomResource { return &Environment{} })

// Environment is a Harness environment.
type Environment struct {
	pulumi.CustomResourceState

	Color       pulumi.StringOutput      `pulumi:"color"`
	Description pulumi.StringPtrOutput   `pulumi:"description"`
	ForceDelete pulumi.BoolOutput        `pulumi:"forceDelete"`
	Identifier  pulumi.StringOutput      `pulumi:"identifier"`
	Name        pulumi.StringOutput      `pulumi:"name"`
	OrgId       pulumi.StringPtrOutput   `pulumi:"orgId"`
	ProjectId   pulumi.StringPtrOutput   `pulumi:"projectId"`
	Tags        pulumi.StringArrayOutput `pulumi:"tags"`
	Type        pulumi.StringOutput      `pulumi:"type"`
	Yaml        pulumi.StringOutput      `pulumi:"yaml"`
}

type environmentArgs struct {
	Color       *string  `pulumi:"color"`
	Description *string  `pulumi:"description"`
	ForceDelete *bool    `pulumi:"forceDelete"`
	Identifier  *string  `pulumi:"identifier"`
	Name        *string  `pulumi:"name"`
	OrgId       *string  `pulumi:"orgId"`
	ProjectId   *string  `pulumi:"projectId"`
	Tags        []string `pulumi:"tags"`
	Type        string   `pulumi:"type"`
	Yaml        *string  `pulumi:"yaml"`
}

// EnvironmentArgs are the inputs of an Environment.
type EnvironmentArgs struct {
	Color       pulumi.StringPtrInput
	Description pulumi.StringPtrInput
	ForceDelete pulumi.BoolPtrInput
	Identifier  pulumi.StringPtrInput
	Name        pulumi.StringPtrInput
	OrgId       pulumi.StringPtrInput
	ProjectId   pulumi.StringPtrInput
	Tags        pulumi.StringArrayInput
	// Type is PreProduction or Production.
	Type pulumi.StringInput
	Yaml pulumi.StringPtrInput
}

func (EnvironmentArgs) ElementType() reflect.Type {
	return reflect.TypeOf((*environmentArgs)(nil)).Elem()
}

// NewEnvironment registers an Environment.
func NewEnvironment(ctx *pulumi.Context, name string, args *EnvironmentArgs, opts ...pulumi.ResourceOption) (*Environment, error) {
	if args == nil {
		return nil, errMissingArgs
	}
	if args.Type == nil {
		return nil, required("Type")
	}
	var resource Environment
	if err := ctx.RegisterResource(environmentToken, name, args, &resource, defaultOpts(opts)...); err != nil {
		return nil, err
	}
	return &resource, nil
}

var infrastructureToken = register("harness:platform/infrastructure:Infrastructure", InfrastructureArgs{}, func() pulumi.CustomResource { return &Infrastructure{} })

// Infrastructure is a Harness infrastructure definition.
type Infrastructure struct {
	pulumi.CustomResourceState

	DeploymentType pulumi.StringOutput      `pulumi:"deploymentType"`
	Description    pulumi.StringPtrOutput   `pulumi:"description"`
	EnvId          pulumi.StringOutput      `pulumi:"envId"`
	ForceDelete    pulumi.BoolOutput        `pulumi:"forceDelete"`
	Identifier     pulumi.StringOutput      `pulumi:"identifier"`
	Name           pulumi.StringOutput      `pulumi:"name"`
	OrgId          pulumi.StringPtrOutput   `pulumi:"orgId"`
	ProjectId      pulumi.StringPtrOutput   `pulumi:"projectId"`
	Tags           pulumi.StringArrayOutput `pulumi:"tags"`
	Type           pulumi.StringOutput      `pulumi:"type"`
	Yaml           pulumi.StringOutput      `pulumi:"yaml"`
}

type infrastructureArgs struct {
	DeploymentType *string  `pulumi:"deploymentType"`
	Description    *string  `pulumi:"description"`
	EnvId          string   `pulumi:"envId"`
	ForceDelete    *bool    `pulumi:"forceDelete"`
	Identifier     *string  `pulumi:"identifier"`
	Name           *string  `pulumi:"name"`
	OrgId          *string  `pulumi:"orgId"`
	ProjectId      *string  `pulumi:"projectId"`
	Tags           []string `pulumi:"tags"`
	Type           *string  `pulumi:"type"`
	Yaml           *string  `pulumi:"yaml"`
}

// InfrastructureArgs are the inputs of an Infrastructure.
type InfrastructureArgs struct {
	DeploymentType pulumi.StringPtrInput
	Description    pulumi.StringPtrInput
	EnvId          pulumi.StringInput
	ForceDelete    pulumi.BoolPtrInput
	Identifier     pulumi.StringPtrInput
	Name           pulumi.StringPtrInput
	OrgId          pulumi.StringPtrInput
	ProjectId      pulumi.StringPtrInput
	Tags           pulumi.StringArrayInput
	Type           pulumi.StringPtrInput
	Yaml           pulumi.StringPtrInput
}

func (InfrastructureArgs) ElementType() reflect.Type {
	return reflect.TypeOf((*infrastructureArgs)(nil)).Elem()
}

// NewInfrastructure registers an Infrastructure.
func NewInfrastructure(ctx *pulumi.Context, name string, args *InfrastructureArgs, opts ...pulumi.ResourceOption) (*Infrastructure, error) {
	if args == nil {
		return nil, errMissingArgs
	}
	if args.EnvId == nil {
		return nil, required("EnvId")
	}
	var resource Infrastructure
	if err := ctx.RegisterResource(infrastructureToken, name, args, &resource, defaultOpts(opts)...); err != nil {
		return nil, err
	}
	return &resource, nil
}
