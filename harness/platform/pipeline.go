package platform

import (
	"reflect"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

var pipelineToken = register("harness:platform/pipeline:Pipeline", PipelineArgs{}, func() pulumi.CustomResource { return &Pipeline{} })

// Pipeline is a Harness pipeline given as YAML. The provider requires its
// tags to equal the tags inside the YAML.
type Pipeline struct {
	pulumi.CustomResourceState

	Description pulumi.StringPtrOutput   `pulumi:"description"`
	Identifier  pulumi.StringOutput      `pulumi:"identifier"`
	Name        pulumi.StringOutput      `pulumi:"name"`
	OrgId       pulumi.StringOutput      `pulumi:"orgId"`
	ProjectId   pulumi.StringOutput      `pulumi:"projectId"`
	Tags        pulumi.StringArrayOutput `pulumi:"tags"`
	Yaml        pulumi.StringOutput      `pulumi:"yaml"`
}

type pipelineArgs struct {
	Description *string  `pulumi:"description"`
	Identifier  string   `pulumi:"identifier"`
	Name        *string  `pulumi:"name"`
	OrgId       string   `pulumi:"orgId"`
	ProjectId   string   `pulumi:"projectId"`
	Tags        []string `pulumi:"tags"`
	Yaml        *string  `pulumi:"yaml"`
}

// PipelineArgs are the inputs of a Pipeline.
type PipelineArgs struct {
	Description pulumi.StringPtrInput
	Identifier  pulumi.StringInput
	Name        pulumi.StringPtrInput
	OrgId       pulumi.StringInput
	ProjectId   pulumi.StringInput
	Tags        pulumi.StringArrayInput
	Yaml        pulumi.StringPtrInput
}

func (PipelineArgs) ElementType() reflect.Type { return reflect.TypeOf((*pipelineArgs)(nil)).Elem() }

// NewPipeline registers a Pipeline.
func NewPipeline(ctx *pulumi.Context, name string, args *PipelineArgs, opts ...pulumi.ResourceOption) (*Pipeline, error) {
	if args == nil {
		return nil, errMissingArgs
	}
	switch {
	case args.Identifier == nil:
		return nil, required("Identifier")
	case args.OrgId == nil:
		return nil, required("OrgId")
	case args.ProjectId == nil:
		return nil, required("ProjectId")
	}
	var resource Pipeline
	if err := ctx.RegisterResource(pipelineToken, name, args, &resource, defaultOpts(opts)...); err != nil {
		return nil, err
	}
	return &resource, nil
}

var triggersToken = register("harness:platform/triggers:Triggers", TriggersArgs{}, func() pulumi.CustomResource { return &Triggers{} })

// Triggers is a pipeline trigger given as YAML.
type Triggers struct {
	pulumi.CustomResourceState

	Description pulumi.StringPtrOutput   `pulumi:"description"`
	Identifier  pulumi.StringOutput      `pulumi:"identifier"`
	IgnoreError pulumi.BoolPtrOutput     `pulumi:"ignoreError"`
	Name        pulumi.StringOutput      `pulumi:"name"`
	OrgId       pulumi.StringOutput      `pulumi:"orgId"`
	ProjectId   pulumi.StringOutput      `pulumi:"projectId"`
	Tags        pulumi.StringArrayOutput `pulumi:"tags"`
	TargetId    pulumi.StringOutput      `pulumi:"targetId"`
	// WebhookUrl is computed by Harness: where the custom webhook is called.
	WebhookUrl pulumi.StringOutput `pulumi:"webhookUrl"`
	Yaml       pulumi.StringOutput `pulumi:"yaml"`
}

type triggersArgs struct {
	Description *string  `pulumi:"description"`
	Identifier  string   `pulumi:"identifier"`
	IfMatch     *string  `pulumi:"ifMatch"`
	IgnoreError *bool    `pulumi:"ignoreError"`
	Name        *string  `pulumi:"name"`
	OrgId       string   `pulumi:"orgId"`
	ProjectId   string   `pulumi:"projectId"`
	Tags        []string `pulumi:"tags"`
	TargetId    string   `pulumi:"targetId"`
	Yaml        string   `pulumi:"yaml"`
}

// TriggersArgs are the inputs of a Triggers.
type TriggersArgs struct {
	Description pulumi.StringPtrInput
	Identifier  pulumi.StringInput
	IfMatch     pulumi.StringPtrInput
	IgnoreError pulumi.BoolPtrInput
	Name        pulumi.StringPtrInput
	OrgId       pulumi.StringInput
	ProjectId   pulumi.StringInput
	Tags        pulumi.StringArrayInput
	// TargetId is the pipeline identifier.
	TargetId pulumi.StringInput
	Yaml     pulumi.StringInput
}

func (TriggersArgs) ElementType() reflect.Type { return reflect.TypeOf((*triggersArgs)(nil)).Elem() }

// NewTriggers registers a Triggers.
func NewTriggers(ctx *pulumi.Context, name string, args *TriggersArgs, opts ...pulumi.ResourceOption) (*Triggers, error) {
	if args == nil {
		return nil, errMissingArgs
	}
	switch {
	case args.Identifier == nil:
		return nil, required("Identifier")
	case args.OrgId == nil:
		return nil, required("OrgId")
	case args.ProjectId == nil:
		return nil, required("ProjectId")
	case args.TargetId == nil:
		return nil, required("TargetId")
	case args.Yaml == nil:
		return nil, required("Yaml")
	}
	var resource Triggers
	if err := ctx.RegisterResource(triggersToken, name, args, &resource, defaultOpts(opts)...); err != nil {
		return nil, err
	}
	return &resource, nil
}

var inputSetToken = register("harness:platform/inputSet:InputSet", InputSetArgs{}, func() pulumi.CustomResource { return &InputSet{} })

// InputSet is a named set of runtime inputs of a pipeline.
type InputSet struct {
	pulumi.CustomResourceState

	Description pulumi.StringPtrOutput   `pulumi:"description"`
	Identifier  pulumi.StringOutput      `pulumi:"identifier"`
	Name        pulumi.StringOutput      `pulumi:"name"`
	OrgId       pulumi.StringOutput      `pulumi:"orgId"`
	PipelineId  pulumi.StringOutput      `pulumi:"pipelineId"`
	ProjectId   pulumi.StringOutput      `pulumi:"projectId"`
	Tags        pulumi.StringArrayOutput `pulumi:"tags"`
	Yaml        pulumi.StringOutput      `pulumi:"yaml"`
}

type inputSetArgs struct {
	Description *string  `pulumi:"description"`
	Identifier  string   `pulumi:"identifier"`
	Name        *string  `pulumi:"name"`
	OrgId       string   `pulumi:"orgId"`
	PipelineId  string   `pulumi:"pipelineId"`
	ProjectId   string   `pulumi:"projectId"`
	Tags        []string `pulumi:"tags"`
	Yaml        *string  `pulumi:"yaml"`
}

// InputSetArgs are the inputs of an InputSet.
type InputSetArgs struct {
	Description pulumi.StringPtrInput
	Identifier  pulumi.StringInput
	Name        pulumi.StringPtrInput
	OrgId       pulumi.StringInput
	PipelineId  pulumi.StringInput
	ProjectId   pulumi.StringInput
	Tags        pulumi.StringArrayInput
	Yaml        pulumi.StringPtrInput
}

func (InputSetArgs) ElementType() reflect.Type { return reflect.TypeOf((*inputSetArgs)(nil)).Elem() }

// NewInputSet registers an InputSet.
func NewInputSet(ctx *pulumi.Context, name string, args *InputSetArgs, opts ...pulumi.ResourceOption) (*InputSet, error) {
	if args == nil {
		return nil, errMissingArgs
	}
	switch {
	case args.Identifier == nil:
		return nil, required("Identifier")
	case args.OrgId == nil:
		return nil, required("OrgId")
	case args.PipelineId == nil:
		return nil, required("PipelineId")
	case args.ProjectId == nil:
		return nil, required("ProjectId")
	}
	var resource InputSet
	if err := ctx.RegisterResource(inputSetToken, name, args, &resource, defaultOpts(opts)...); err != nil {
		return nil, err
	}
	return &resource, nil
}
