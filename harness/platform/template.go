package platform

import (
	"reflect"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

var templateToken = register("harness:platform/template:Template", TemplateArgs{}, func() pulumi.CustomResource { return &Template{} })

// Template is one version of a Harness template given as YAML
// (templateYaml, whose template.identifier and versionLabel must equal
// Identifier and Version). The provider updates a version in place when
// Version changes, so each version is its own resource; IsStable only
// ever marks a version stable (the provider never unsets it).
type Template struct {
	pulumi.CustomResourceState

	Comments     pulumi.StringPtrOutput   `pulumi:"comments"`
	ForceDelete  pulumi.BoolOutput        `pulumi:"forceDelete"`
	Identifier   pulumi.StringOutput      `pulumi:"identifier"`
	IsStable     pulumi.BoolOutput        `pulumi:"isStable"`
	Name         pulumi.StringOutput      `pulumi:"name"`
	OrgId        pulumi.StringPtrOutput   `pulumi:"orgId"`
	ProjectId    pulumi.StringPtrOutput   `pulumi:"projectId"`
	Tags         pulumi.StringArrayOutput `pulumi:"tags"`
	TemplateYaml pulumi.StringOutput      `pulumi:"templateYaml"`
	Version      pulumi.StringOutput      `pulumi:"version"`
}

type templateArgs struct {
	Comments     *string  `pulumi:"comments"`
	ForceDelete  *bool    `pulumi:"forceDelete"`
	Identifier   string   `pulumi:"identifier"`
	IsStable     *bool    `pulumi:"isStable"`
	Name         *string  `pulumi:"name"`
	OrgId        *string  `pulumi:"orgId"`
	ProjectId    *string  `pulumi:"projectId"`
	Tags         []string `pulumi:"tags"`
	TemplateYaml *string  `pulumi:"templateYaml"`
	Version      string   `pulumi:"version"`
}

// TemplateArgs are the inputs of a Template.
type TemplateArgs struct {
	Comments     pulumi.StringPtrInput
	ForceDelete  pulumi.BoolPtrInput
	Identifier   pulumi.StringInput
	IsStable     pulumi.BoolPtrInput
	Name         pulumi.StringPtrInput
	OrgId        pulumi.StringPtrInput
	ProjectId    pulumi.StringPtrInput
	Tags         pulumi.StringArrayInput
	TemplateYaml pulumi.StringPtrInput
	Version      pulumi.StringInput
}

func (TemplateArgs) ElementType() reflect.Type { return reflect.TypeOf((*templateArgs)(nil)).Elem() }

// NewTemplate registers a Template version.
func NewTemplate(ctx *pulumi.Context, name string, args *TemplateArgs, opts ...pulumi.ResourceOption) (*Template, error) {
	if args == nil {
		return nil, errMissingArgs
	}
	switch {
	case args.Identifier == nil:
		return nil, required("Identifier")
	case args.Version == nil:
		return nil, required("Version")
	}
	var resource Template
	if err := ctx.RegisterResource(templateToken, name, args, &resource, defaultOpts(opts)...); err != nil {
		return nil, err
	}
	return &resource, nil
}
