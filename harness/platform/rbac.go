package platform

import (
	"reflect"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

var usergroupToken = register("harness:platform/usergroup:Usergroup", UsergroupArgs{}, func() pulumi.CustomResource { return &Usergroup{} })

// Usergroup is a Harness user group.
type Usergroup struct {
	pulumi.CustomResourceState

	Description       pulumi.StringPtrOutput   `pulumi:"description"`
	ExternallyManaged pulumi.BoolPtrOutput     `pulumi:"externallyManaged"`
	Identifier        pulumi.StringOutput      `pulumi:"identifier"`
	Name              pulumi.StringOutput      `pulumi:"name"`
	OrgId             pulumi.StringPtrOutput   `pulumi:"orgId"`
	ProjectId         pulumi.StringPtrOutput   `pulumi:"projectId"`
	Tags              pulumi.StringArrayOutput `pulumi:"tags"`
	UserEmails        pulumi.StringArrayOutput `pulumi:"userEmails"`
	Users             pulumi.StringArrayOutput `pulumi:"users"`
}

type usergroupArgs struct {
	Description       *string  `pulumi:"description"`
	ExternallyManaged *bool    `pulumi:"externallyManaged"`
	Identifier        string   `pulumi:"identifier"`
	Name              *string  `pulumi:"name"`
	OrgId             *string  `pulumi:"orgId"`
	ProjectId         *string  `pulumi:"projectId"`
	Tags              []string `pulumi:"tags"`
	UserEmails        []string `pulumi:"userEmails"`
	Users             []string `pulumi:"users"`
}

// UsergroupArgs are the inputs of a Usergroup.
type UsergroupArgs struct {
	Description       pulumi.StringPtrInput
	ExternallyManaged pulumi.BoolPtrInput
	Identifier        pulumi.StringInput
	Name              pulumi.StringPtrInput
	OrgId             pulumi.StringPtrInput
	ProjectId         pulumi.StringPtrInput
	Tags              pulumi.StringArrayInput
	UserEmails        pulumi.StringArrayInput
	Users             pulumi.StringArrayInput
}

func (UsergroupArgs) ElementType() reflect.Type { return reflect.TypeOf((*usergroupArgs)(nil)).Elem() }

// NewUsergroup registers a Usergroup.
func NewUsergroup(ctx *pulumi.Context, name string, args *UsergroupArgs, opts ...pulumi.ResourceOption) (*Usergroup, error) {
	if args == nil {
		return nil, errMissingArgs
	}
	if args.Identifier == nil {
		return nil, required("Identifier")
	}
	var resource Usergroup
	if err := ctx.RegisterResource(usergroupToken, name, args, &resource, defaultOpts(opts)...); err != nil {
		return nil, err
	}
	return &resource, nil
}

var roleAssignmentsToken = register("harness:platform/roleAssignments:RoleAssignments", RoleAssignmentsArgs{}, func() pulumi.CustomResource { return &RoleAssignments{} })

// RoleAssignments assigns a role over a resource group to principals.
type RoleAssignments struct {
	pulumi.CustomResourceState

	Disabled                pulumi.BoolOutput                   `pulumi:"disabled"`
	Identifier              pulumi.StringOutput                 `pulumi:"identifier"`
	Managed                 pulumi.BoolOutput                   `pulumi:"managed"`
	OrgId                   pulumi.StringPtrOutput              `pulumi:"orgId"`
	Principals              RoleAssignmentsPrincipalArrayOutput `pulumi:"principals"`
	ProjectId               pulumi.StringPtrOutput              `pulumi:"projectId"`
	ResourceGroupIdentifier pulumi.StringOutput                 `pulumi:"resourceGroupIdentifier"`
	RoleIdentifier          pulumi.StringOutput                 `pulumi:"roleIdentifier"`
}

type roleAssignmentsArgs struct {
	Disabled                *bool                      `pulumi:"disabled"`
	Identifier              *string                    `pulumi:"identifier"`
	Managed                 *bool                      `pulumi:"managed"`
	OrgId                   *string                    `pulumi:"orgId"`
	Principals              []RoleAssignmentsPrincipal `pulumi:"principals"`
	ProjectId               *string                    `pulumi:"projectId"`
	ResourceGroupIdentifier *string                    `pulumi:"resourceGroupIdentifier"`
	RoleIdentifier          *string                    `pulumi:"roleIdentifier"`
}

// RoleAssignmentsArgs are the inputs of a RoleAssignments.
type RoleAssignmentsArgs struct {
	Disabled                pulumi.BoolPtrInput
	Identifier              pulumi.StringPtrInput
	Managed                 pulumi.BoolPtrInput
	OrgId                   pulumi.StringPtrInput
	Principals              RoleAssignmentsPrincipalArrayInput
	ProjectId               pulumi.StringPtrInput
	ResourceGroupIdentifier pulumi.StringPtrInput
	RoleIdentifier          pulumi.StringPtrInput
}

func (RoleAssignmentsArgs) ElementType() reflect.Type {
	return reflect.TypeOf((*roleAssignmentsArgs)(nil)).Elem()
}

// NewRoleAssignments registers a RoleAssignments.
func NewRoleAssignments(ctx *pulumi.Context, name string, args *RoleAssignmentsArgs, opts ...pulumi.ResourceOption) (*RoleAssignments, error) {
	if args == nil {
		args = &RoleAssignmentsArgs{}
	}
	var resource RoleAssignments
	if err := ctx.RegisterResource(roleAssignmentsToken, name, args, &resource, defaultOpts(opts)...); err != nil {
		return nil, err
	}
	return &resource, nil
}
