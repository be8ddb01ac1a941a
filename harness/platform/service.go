package platform

import (
	"reflect"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

var serviceToken = register("harness:platform/service:Service", ServiceArgs{}, func() pulumi.CustomResource { return &Service{} })

// Service is a Harness service.
type Service struct {
	pulumi.CustomResourceState

	Description pulumi.StringPtrOutput   `pulumi:"description"`
	ForceDelete pulumi.BoolOutput        `pulumi:"forceDelete"`
	Identifier  pulumi.StringOutput      `pulumi:"identifier"`
	Name        pulumi.StringOutput      `pulumi:"name"`
	OrgId       pulumi.StringPtrOutput   `pulumi:"orgId"`
	ProjectId   pulumi.StringPtrOutput   `pulumi:"projectId"`
	Tags        pulumi.StringArrayOutput `pulumi:"tags"`
	Yaml        pulumi.StringOutput      `pulumi:"yaml"`
}

type serviceArgs struct {
	Description *string  `pulumi:"description"`
	ForceDelete *bool    `pulumi:"forceDelete"`
	Identifier  string   `pulumi:"identifier"`
	Name        *string  `pulumi:"name"`
	OrgId       *string  `pulumi:"orgId"`
	ProjectId   *string  `pulumi:"projectId"`
	Tags        []string `pulumi:"tags"`
	Yaml        *string  `pulumi:"yaml"`
}

// ServiceArgs are the inputs of a Service.
type ServiceArgs struct {
	Description pulumi.StringPtrInput
	ForceDelete pulumi.BoolPtrInput
	Identifier  pulumi.StringInput
	Name        pulumi.StringPtrInput
	OrgId       pulumi.StringPtrInput
	ProjectId   pulumi.StringPtrInput
	Tags        pulumi.StringArrayInput
	Yaml        pulumi.StringPtrInput
}

func (ServiceArgs) ElementType() reflect.Type { return reflect.TypeOf((*serviceArgs)(nil)).Elem() }

// NewService registers a Service.
func NewService(ctx *pulumi.Context, name string, args *ServiceArgs, opts ...pulumi.ResourceOption) (*Service, error) {
	if args == nil {
		return nil, errMissingArgs
	}
	if args.Identifier == nil {
		return nil, required("Identifier")
	}
	var resource Service
	if err := ctx.RegisterResource(serviceToken, name, args, &resource, defaultOpts(opts)...); err != nil {
		return nil, err
	}
	return &resource, nil
}
