package platform

import (
	"reflect"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

var resourceGroupToken = register("harness:platform/resourceGroup:ResourceGroup", ResourceGroupArgs{}, func() pulumi.CustomResource { return &ResourceGroup{} })

// ResourceGroup is a set of Harness resources a role is granted on.
type ResourceGroup struct {
	pulumi.CustomResourceState

	AccountId          pulumi.StringOutput                    `pulumi:"accountId"`
	AllowedScopeLevels pulumi.StringArrayOutput               `pulumi:"allowedScopeLevels"`
	Color              pulumi.StringPtrOutput                 `pulumi:"color"`
	Description        pulumi.StringPtrOutput                 `pulumi:"description"`
	Identifier         pulumi.StringOutput                    `pulumi:"identifier"`
	IncludedScopes     ResourceGroupIncludedScopeArrayOutput  `pulumi:"includedScopes"`
	Name               pulumi.StringPtrOutput                 `pulumi:"name"`
	OrgId              pulumi.StringPtrOutput                 `pulumi:"orgId"`
	ProjectId          pulumi.StringPtrOutput                 `pulumi:"projectId"`
	ResourceFilters    ResourceGroupResourceFilterArrayOutput `pulumi:"resourceFilters"`
	Tags               pulumi.StringArrayOutput               `pulumi:"tags"`
}

type resourceGroupArgs struct {
	AccountId          string                        `pulumi:"accountId"`
	AllowedScopeLevels []string                      `pulumi:"allowedScopeLevels"`
	Color              *string                       `pulumi:"color"`
	Description        *string                       `pulumi:"description"`
	Identifier         string                        `pulumi:"identifier"`
	IncludedScopes     []ResourceGroupIncludedScope  `pulumi:"includedScopes"`
	Name               *string                       `pulumi:"name"`
	OrgId              *string                       `pulumi:"orgId"`
	ProjectId          *string                       `pulumi:"projectId"`
	ResourceFilters    []ResourceGroupResourceFilter `pulumi:"resourceFilters"`
	Tags               []string                      `pulumi:"tags"`
}

// ResourceGroupArgs are the inputs of a ResourceGroup.
type ResourceGroupArgs struct {
	AccountId          pulumi.StringInput
	AllowedScopeLevels pulumi.StringArrayInput
	Color              pulumi.StringPtrInput
	Description        pulumi.StringPtrInput
	Identifier         pulumi.StringInput
	IncludedScopes     ResourceGroupIncludedScopeArrayInput
	Name               pulumi.StringPtrInput
	OrgId              pulumi.StringPtrInput
	ProjectId          pulumi.StringPtrInput
	ResourceFilters    ResourceGroupResourceFilterArrayInput
	Tags               pulumi.StringArrayInput
}

func (ResourceGroupArgs) ElementType() reflect.Type {
	return reflect.TypeOf((*resourceGroupArgs)(nil)).Elem()
}

// NewResourceGroup registers a ResourceGroup.
func NewResourceGroup(ctx *pulumi.Context, name string, args *ResourceGroupArgs, opts ...pulumi.ResourceOption) (*ResourceGroup, error) {
	if args == nil {
		return nil, errMissingArgs
	}
	if args.AccountId == nil {
		return nil, required("AccountId")
	}
	if args.Identifier == nil {
		return nil, required("Identifier")
	}
	var resource ResourceGroup
	if err := ctx.RegisterResource(resourceGroupToken, name, args, &resource, defaultOpts(opts)...); err != nil {
		return nil, err
	}
	return &resource, nil
}
