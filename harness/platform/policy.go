package platform

import (
	"reflect"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

var policyToken = register("harness:platform/policy:Policy", PolicyArgs{}, func() pulumi.CustomResource { return &Policy{} })

// Policy is a Harness OPA policy written in Rego.
type Policy struct {
	pulumi.CustomResourceState

	Description pulumi.StringPtrOutput   `pulumi:"description"`
	Identifier  pulumi.StringOutput      `pulumi:"identifier"`
	Name        pulumi.StringOutput      `pulumi:"name"`
	OrgId       pulumi.StringPtrOutput   `pulumi:"orgId"`
	ProjectId   pulumi.StringPtrOutput   `pulumi:"projectId"`
	Rego        pulumi.StringOutput      `pulumi:"rego"`
	Tags        pulumi.StringArrayOutput `pulumi:"tags"`
}

type policyArgs struct {
	Description *string  `pulumi:"description"`
	Identifier  string   `pulumi:"identifier"`
	Name        *string  `pulumi:"name"`
	OrgId       *string  `pulumi:"orgId"`
	ProjectId   *string  `pulumi:"projectId"`
	Rego        string   `pulumi:"rego"`
	Tags        []string `pulumi:"tags"`
}

// PolicyArgs are the inputs of a Policy.
type PolicyArgs struct {
	Description pulumi.StringPtrInput
	Identifier  pulumi.StringInput
	Name        pulumi.StringPtrInput
	OrgId       pulumi.StringPtrInput
	ProjectId   pulumi.StringPtrInput
	Rego        pulumi.StringInput
	Tags        pulumi.StringArrayInput
}

func (PolicyArgs) ElementType() reflect.Type { return reflect.TypeOf((*policyArgs)(nil)).Elem() }

// NewPolicy registers a Policy.
func NewPolicy(ctx *pulumi.Context, name string, args *PolicyArgs, opts ...pulumi.ResourceOption) (*Policy, error) {
	if args == nil {
		return nil, errMissingArgs
	}
	if args.Identifier == nil {
		return nil, required("Identifier")
	}
	if args.Rego == nil {
		return nil, required("Rego")
	}
	var resource Policy
	if err := ctx.RegisterResource(policyToken, name, args, &resource, defaultOpts(opts)...); err != nil {
		return nil, err
	}
	return &resource, nil
}

var policySetToken = register("harness:platform/policySet:PolicySet", PolicySetArgs{}, func() pulumi.CustomResource { return &PolicySet{} })

// PolicySet groups policies evaluated together on an action.
type PolicySet struct {
	pulumi.CustomResourceState

	Action      pulumi.StringOutput        `pulumi:"action"`
	Description pulumi.StringPtrOutput     `pulumi:"description"`
	Enabled     pulumi.BoolPtrOutput       `pulumi:"enabled"`
	Identifier  pulumi.StringOutput        `pulumi:"identifier"`
	Name        pulumi.StringOutput        `pulumi:"name"`
	OrgId       pulumi.StringPtrOutput     `pulumi:"orgId"`
	Policies    PolicySetPolicyArrayOutput `pulumi:"policies"`
	ProjectId   pulumi.StringPtrOutput     `pulumi:"projectId"`
	Tags        pulumi.StringArrayOutput   `pulumi:"tags"`
	Type        pulumi.StringOutput        `pulumi:"type"`
}

type policySetArgs struct {
	Action      string            `pulumi:"action"`
	Description *string           `pulumi:"description"`
	Enabled     *bool             `pulumi:"enabled"`
	Identifier  string            `pulumi:"identifier"`
	Name        *string           `pulumi:"name"`
	OrgId       *string           `pulumi:"orgId"`
	Policies    []PolicySetPolicy `pulumi:"policies"`
	ProjectId   *string           `pulumi:"projectId"`
	Tags        []string          `pulumi:"tags"`
	Type        string            `pulumi:"type"`
}

// PolicySetArgs are the inputs of a PolicySet.
type PolicySetArgs struct {
	// Action is when the set is evaluated, e.g. onrun, onsave, onstep.
	Action      pulumi.StringInput
	Description pulumi.StringPtrInput
	Enabled     pulumi.BoolPtrInput
	Identifier  pulumi.StringInput
	Name        pulumi.StringPtrInput
	OrgId       pulumi.StringPtrInput
	Policies    PolicySetPolicyArrayInput
	ProjectId   pulumi.StringPtrInput
	Tags        pulumi.StringArrayInput
	// Type is the entity type evaluated, e.g. pipeline or custom.
	Type pulumi.StringInput
}

func (PolicySetArgs) ElementType() reflect.Type { return reflect.TypeOf((*policySetArgs)(nil)).Elem() }

// NewPolicySet registers a PolicySet.
func NewPolicySet(ctx *pulumi.Context, name string, args *PolicySetArgs, opts ...pulumi.ResourceOption) (*PolicySet, error) {
	if args == nil {
		return nil, errMissingArgs
	}
	switch {
	case args.Action == nil:
		return nil, required("Action")
	case args.Identifier == nil:
		return nil, required("Identifier")
	case args.Type == nil:
		return nil, required("Type")
	}
	var resource PolicySet
	if err := ctx.RegisterResource(policySetToken, name, args, &resource, defaultOpts(opts)...); err != nil {
		return nil, err
	}
	return &resource, nil
}
