package platform

import (
	"reflect"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

var kubernetesConnectorToken = register("harness:platform/kubernetesConnector:KubernetesConnector", KubernetesConnectorArgs{}, func() pulumi.CustomResource { return &KubernetesConnector{} })

// KubernetesConnector is a Harness connector to one Kubernetes cluster.
type KubernetesConnector struct {
	pulumi.CustomResourceState

	DelegateSelectors   pulumi.StringArrayOutput                        `pulumi:"delegateSelectors"`
	Description         pulumi.StringPtrOutput                          `pulumi:"description"`
	Identifier          pulumi.StringOutput                             `pulumi:"identifier"`
	InheritFromDelegate KubernetesConnectorInheritFromDelegatePtrOutput `pulumi:"inheritFromDelegate"`
	Name                pulumi.StringOutput                             `pulumi:"name"`
	OrgId               pulumi.StringPtrOutput                          `pulumi:"orgId"`
	ProjectId           pulumi.StringPtrOutput                          `pulumi:"projectId"`
	Tags                pulumi.StringArrayOutput                        `pulumi:"tags"`
}

type kubernetesConnectorArgs struct {
	DelegateSelectors   []string                                `pulumi:"delegateSelectors"`
	Description         *string                                 `pulumi:"description"`
	ForceDelete         *bool                                   `pulumi:"forceDelete"`
	Identifier          string                                  `pulumi:"identifier"`
	InheritFromDelegate *KubernetesConnectorInheritFromDelegate `pulumi:"inheritFromDelegate"`
	Name                *string                                 `pulumi:"name"`
	OrgId               *string                                 `pulumi:"orgId"`
	ProjectId           *string                                 `pulumi:"projectId"`
	Tags                []string                                `pulumi:"tags"`
}

// KubernetesConnectorArgs are the inputs of a KubernetesConnector. Of the
// provider's authentication blocks only inheritFromDelegate is bound: this
// project never gives a connector inline credentials.
type KubernetesConnectorArgs struct {
	DelegateSelectors   pulumi.StringArrayInput
	Description         pulumi.StringPtrInput
	ForceDelete         pulumi.BoolPtrInput
	Identifier          pulumi.StringInput
	InheritFromDelegate KubernetesConnectorInheritFromDelegatePtrInput
	Name                pulumi.StringPtrInput
	OrgId               pulumi.StringPtrInput
	ProjectId           pulumi.StringPtrInput
	Tags                pulumi.StringArrayInput
}

func (KubernetesConnectorArgs) ElementType() reflect.Type {
	return reflect.TypeOf((*kubernetesConnectorArgs)(nil)).Elem()
}

// NewKubernetesConnector registers a KubernetesConnector.
func NewKubernetesConnector(ctx *pulumi.Context, name string, args *KubernetesConnectorArgs, opts ...pulumi.ResourceOption) (*KubernetesConnector, error) {
	if args == nil {
		return nil, errMissingArgs
	}
	if args.Identifier == nil {
		return nil, required("Identifier")
	}
	var resource KubernetesConnector
	if err := ctx.RegisterResource(kubernetesConnectorToken, name, args, &resource, defaultOpts(opts)...); err != nil {
		return nil, err
	}
	return &resource, nil
}

var githubConnectorToken = register("harness:platform/githubConnector:GithubConnector", GithubConnectorArgs{}, func() pulumi.CustomResource { return &GithubConnector{} })

// GithubConnector is a Harness connector to GitHub.
type GithubConnector struct {
	pulumi.CustomResourceState

	ApiAuthentication GithubConnectorApiAuthenticationPtrOutput `pulumi:"apiAuthentication"`
	ConnectionType    pulumi.StringOutput                       `pulumi:"connectionType"`
	Credentials       GithubConnectorCredentialsOutput          `pulumi:"credentials"`
	DelegateSelectors pulumi.StringArrayOutput                  `pulumi:"delegateSelectors"`
	Description       pulumi.StringPtrOutput                    `pulumi:"description"`
	ExecuteOnDelegate pulumi.BoolPtrOutput                      `pulumi:"executeOnDelegate"`
	Identifier        pulumi.StringOutput                       `pulumi:"identifier"`
	Name              pulumi.StringOutput                       `pulumi:"name"`
	OrgId             pulumi.StringPtrOutput                    `pulumi:"orgId"`
	ProjectId         pulumi.StringPtrOutput                    `pulumi:"projectId"`
	Tags              pulumi.StringArrayOutput                  `pulumi:"tags"`
	Url               pulumi.StringOutput                       `pulumi:"url"`
	ValidationRepo    pulumi.StringPtrOutput                    `pulumi:"validationRepo"`
}

type githubConnectorArgs struct {
	ApiAuthentication *GithubConnectorApiAuthentication `pulumi:"apiAuthentication"`
	ConnectionType    string                            `pulumi:"connectionType"`
	Credentials       GithubConnectorCredentials        `pulumi:"credentials"`
	DelegateSelectors []string                          `pulumi:"delegateSelectors"`
	Description       *string                           `pulumi:"description"`
	ExecuteOnDelegate *bool                             `pulumi:"executeOnDelegate"`
	ForceDelete       *bool                             `pulumi:"forceDelete"`
	Identifier        string                            `pulumi:"identifier"`
	Name              *string                           `pulumi:"name"`
	OrgId             *string                           `pulumi:"orgId"`
	ProjectId         *string                           `pulumi:"projectId"`
	Tags              []string                          `pulumi:"tags"`
	Url               string                            `pulumi:"url"`
	ValidationRepo    *string                           `pulumi:"validationRepo"`
}

// GithubConnectorArgs are the inputs of a GithubConnector.
type GithubConnectorArgs struct {
	ApiAuthentication GithubConnectorApiAuthenticationPtrInput
	// ConnectionType is Account or Repo.
	ConnectionType    pulumi.StringInput
	Credentials       GithubConnectorCredentialsPtrInput
	DelegateSelectors pulumi.StringArrayInput
	Description       pulumi.StringPtrInput
	ExecuteOnDelegate pulumi.BoolPtrInput
	ForceDelete       pulumi.BoolPtrInput
	Identifier        pulumi.StringInput
	Name              pulumi.StringPtrInput
	OrgId             pulumi.StringPtrInput
	ProjectId         pulumi.StringPtrInput
	Tags              pulumi.StringArrayInput
	Url               pulumi.StringInput
	ValidationRepo    pulumi.StringPtrInput
}

func (GithubConnectorArgs) ElementType() reflect.Type {
	return reflect.TypeOf((*githubConnectorArgs)(nil)).Elem()
}

// NewGithubConnector registers a GithubConnector.
func NewGithubConnector(ctx *pulumi.Context, name string, args *GithubConnectorArgs, opts ...pulumi.ResourceOption) (*GithubConnector, error) {
	if args == nil {
		return nil, errMissingArgs
	}
	switch {
	case args.ConnectionType == nil:
		return nil, required("ConnectionType")
	case args.Credentials == nil:
		return nil, required("Credentials")
	case args.Identifier == nil:
		return nil, required("Identifier")
	case args.Url == nil:
		return nil, required("Url")
	}
	var resource GithubConnector
	if err := ctx.RegisterResource(githubConnectorToken, name, args, &resource, defaultOpts(opts)...); err != nil {
		return nil, err
	}
	return &resource, nil
}
