package platform

import (
	"reflect"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

var organizationToken = register("harness:platform/organization:Organization", OrganizationArgs{}, func() pulumi.CustomResource { return &Organization{} })

// Organization is a Harness organization.
type Organization struct {
	pulumi.CustomResourceState

	Description pulumi.StringPtrOutput   `pulumi:"description"`
	Identifier  pulumi.StringOutput      `pulumi:"identifier"`
	Name        pulumi.StringOutput      `pulumi:"name"`
	Tags        pulumi.StringArrayOutput `pulumi:"tags"`
}

type organizationArgs struct {
	Description *string  `pulumi:"description"`
	Identifier  string   `pulumi:"identifier"`
	Name        *string  `pulumi:"name"`
	Tags        []string `pulumi:"tags"`
}

// OrganizationArgs are the inputs of an Organization.
type OrganizationArgs struct {
	Description pulumi.StringPtrInput
	Identifier  pulumi.StringInput
	Name        pulumi.StringPtrInput
	Tags        pulumi.StringArrayInput
}

func (OrganizationArgs) ElementType() reflect.Type {
	return reflect.TypeOf((*organizationArgs)(nil)).Elem()
}

// NewOrganization registers an Organization.
func NewOrganization(ctx *pulumi.Context, name string, args *OrganizationArgs, opts ...pulumi.ResourceOption) (*Organization, error) {
	if args == nil {
		return nil, errMissingArgs
	}
	if args.Identifier == nil {
		return nil, required("Identifier")
	}
	var resource Organization
	if err := ctx.RegisterResource(organizationToken, name, args, &resource, defaultOpts(opts)...); err != nil {
		return nil, err
	}
	return &resource, nil
}

var projectToken = register("harness:platform/project:Project", ProjectArgs{}, func() pulumi.CustomResource { return &Project{} })

// Project is a Harness project.
type Project struct {
	pulumi.CustomResourceState

	Color       pulumi.StringOutput      `pulumi:"color"`
	Description pulumi.StringPtrOutput   `pulumi:"description"`
	Identifier  pulumi.StringOutput      `pulumi:"identifier"`
	Modules     pulumi.StringArrayOutput `pulumi:"modules"`
	Name        pulumi.StringOutput      `pulumi:"name"`
	OrgId       pulumi.StringOutput      `pulumi:"orgId"`
	Tags        pulumi.StringArrayOutput `pulumi:"tags"`
}

type projectArgs struct {
	Color       *string  `pulumi:"color"`
	Description *string  `pulumi:"description"`
	Identifier  string   `pulumi:"identifier"`
	Name        *string  `pulumi:"name"`
	OrgId       string   `pulumi:"orgId"`
	Tags        []string `pulumi:"tags"`
}

// ProjectArgs are the inputs of a Project.
type ProjectArgs struct {
	Color       pulumi.StringPtrInput
	Description pulumi.StringPtrInput
	Identifier  pulumi.StringInput
	Name        pulumi.StringPtrInput
	OrgId       pulumi.StringInput
	Tags        pulumi.StringArrayInput
}

func (ProjectArgs) ElementType() reflect.Type { return reflect.TypeOf((*projectArgs)(nil)).Elem() }

// NewProject registers a Project.
func NewProject(ctx *pulumi.Context, name string, args *ProjectArgs, opts ...pulumi.ResourceOption) (*Project, error) {
	if args == nil {
		return nil, errMissingArgs
	}
	if args.Identifier == nil {
		return nil, required("Identifier")
	}
	if args.OrgId == nil {
		return nil, required("OrgId")
	}
	var resource Project
	if err := ctx.RegisterResource(projectToken, name, args, &resource, defaultOpts(opts)...); err != nil {
		return nil, err
	}
	return &resource, nil
}
