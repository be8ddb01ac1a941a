package platform

import (
	"reflect"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

var dockerConnectorToken = register("harness:platform/dockerConnector:DockerConnector", DockerConnectorArgs{}, func() pulumi.CustomResource { return &DockerConnector{} })

// DockerConnector is a Harness connector to a Docker registry: where a service's primary artifact and its tags are read.
type DockerConnector struct {
	pulumi.CustomResourceState

	Credentials       DockerConnectorCredentialsPtrOutput `pulumi:"credentials"`
	DelegateSelectors pulumi.StringArrayOutput            `pulumi:"delegateSelectors"`
	Description       pulumi.StringPtrOutput              `pulumi:"description"`
	ExecuteOnDelegate pulumi.BoolPtrOutput                `pulumi:"executeOnDelegate"`
	Identifier        pulumi.StringOutput                 `pulumi:"identifier"`
	Name              pulumi.StringPtrOutput              `pulumi:"name"`
	OrgId             pulumi.StringPtrOutput              `pulumi:"orgId"`
	ProjectId         pulumi.StringPtrOutput              `pulumi:"projectId"`
	Tags              pulumi.StringArrayOutput            `pulumi:"tags"`
	Type              pulumi.StringOutput                 `pulumi:"type"`
	Url               pulumi.StringOutput                 `pulumi:"url"`
}

type dockerConnectorArgs struct {
	Credentials       *DockerConnectorCredentials `pulumi:"credentials"`
	DelegateSelectors []string                    `pulumi:"delegateSelectors"`
	Description       *string                     `pulumi:"description"`
	ExecuteOnDelegate *bool                       `pulumi:"executeOnDelegate"`
	Identifier        string                      `pulumi:"identifier"`
	Name              *string                     `pulumi:"name"`
	OrgId             *string                     `pulumi:"orgId"`
	ProjectId         *string                     `pulumi:"projectId"`
	Tags              []string                    `pulumi:"tags"`
	Type              string                      `pulumi:"type"`
	Url               string                      `pulumi:"url"`
}

// DockerConnectorArgs are the inputs of a DockerConnector.
type DockerConnectorArgs struct {
	Credentials       DockerConnectorCredentialsPtrInput
	DelegateSelectors pulumi.StringArrayInput
	Description       pulumi.StringPtrInput
	ExecuteOnDelegate pulumi.BoolPtrInput
	Identifier        pulumi.StringInput
	Name              pulumi.StringPtrInput
	OrgId             pulumi.StringPtrInput
	ProjectId         pulumi.StringPtrInput
	Tags              pulumi.StringArrayInput
	Type              pulumi.StringInput
	Url               pulumi.StringInput
}

func (DockerConnectorArgs) ElementType() reflect.Type {
	return reflect.TypeOf((*dockerConnectorArgs)(nil)).Elem()
}

// NewDockerConnector registers a DockerConnector.
func NewDockerConnector(ctx *pulumi.Context, name string, args *DockerConnectorArgs, opts ...pulumi.ResourceOption) (*DockerConnector, error) {
	if args == nil {
		return nil, errMissingArgs
	}
	if args.Identifier == nil {
		return nil, required("Identifier")
	}
	if args.Type == nil {
		return nil, required("Type")
	}
	if args.Url == nil {
		return nil, required("Url")
	}
	var resource DockerConnector
	if err := ctx.RegisterResource(dockerConnectorToken, name, args, &resource, defaultOpts(opts)...); err != nil {
		return nil, err
	}
	return &resource, nil
}
