package platform

import (
	"context"
	"reflect"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// Nested types of the Docker and Prometheus connectors, monitored services
// and resource groups, in the shape of types.go.

func init() {
	pulumi.RegisterOutputType(DockerConnectorCredentialsOutput{})
	pulumi.RegisterOutputType(DockerConnectorCredentialsPtrOutput{})
	pulumi.RegisterOutputType(MonitoredServiceRequestHealthSourceOutput{})
	pulumi.RegisterOutputType(MonitoredServiceRequestHealthSourceArrayOutput{})
	pulumi.RegisterOutputType(MonitoredServiceRequestOutput{})
	pulumi.RegisterOutputType(MonitoredServiceRequestPtrOutput{})
	pulumi.RegisterOutputType(ResourceGroupIncludedScopeOutput{})
	pulumi.RegisterOutputType(ResourceGroupIncludedScopeArrayOutput{})
	pulumi.RegisterOutputType(ResourceGroupResourceFilterResourceOutput{})
	pulumi.RegisterOutputType(ResourceGroupResourceFilterResourceArrayOutput{})
	pulumi.RegisterOutputType(ResourceGroupResourceFilterOutput{})
	pulumi.RegisterOutputType(ResourceGroupResourceFilterArrayOutput{})
}

// --- DockerConnectorCredentials ---

// DockerConnectorCredentials are how a Docker registry connector authenticates: a username (plain or a secret reference) and a password secret.
type DockerConnectorCredentials struct {
	PasswordRef string  `pulumi:"passwordRef"`
	Username    *string `pulumi:"username"`
	UsernameRef *string `pulumi:"usernameRef"`
}

// DockerConnectorCredentialsArgs is its input form.
type DockerConnectorCredentialsArgs struct {
	PasswordRef pulumi.StringInput    `pulumi:"passwordRef"`
	Username    pulumi.StringPtrInput `pulumi:"username"`
	UsernameRef pulumi.StringPtrInput `pulumi:"usernameRef"`
}

func (DockerConnectorCredentialsArgs) ElementType() reflect.Type {
	return reflect.TypeOf((*DockerConnectorCredentials)(nil)).Elem()
}

type DockerConnectorCredentialsOutput struct{ *pulumi.OutputState }

func (DockerConnectorCredentialsOutput) ElementType() reflect.Type {
	return reflect.TypeOf((*DockerConnectorCredentials)(nil)).Elem()
}

func (i DockerConnectorCredentialsArgs) ToDockerConnectorCredentialsPtrOutput() DockerConnectorCredentialsPtrOutput {
	return pulumi.ToOutputWithContext(context.Background(), i).(DockerConnectorCredentialsOutput).ApplyT(
		func(v DockerConnectorCredentials) *DockerConnectorCredentials { return &v }).(DockerConnectorCredentialsPtrOutput)
}

// DockerConnectorCredentialsPtrInput accepts *DockerConnectorCredentialsArgs.
type DockerConnectorCredentialsPtrInput interface {
	pulumi.Input
	ToDockerConnectorCredentialsPtrOutput() DockerConnectorCredentialsPtrOutput
}

type DockerConnectorCredentialsPtrOutput struct{ *pulumi.OutputState }

func (DockerConnectorCredentialsPtrOutput) ElementType() reflect.Type {
	return reflect.TypeOf((**DockerConnectorCredentials)(nil)).Elem()
}

func (o DockerConnectorCredentialsPtrOutput) ToDockerConnectorCredentialsPtrOutput() DockerConnectorCredentialsPtrOutput {
	return o
}

// --- MonitoredServiceRequestHealthSource ---

// MonitoredServiceRequestHealthSource is where a monitored service's metrics come from; Spec is the source's JSON.
type MonitoredServiceRequestHealthSource struct {
	Identifier string  `pulumi:"identifier"`
	Name       string  `pulumi:"name"`
	Spec       string  `pulumi:"spec"`
	Type       string  `pulumi:"type"`
	Version    *string `pulumi:"version"`
}

// MonitoredServiceRequestHealthSourceArgs is its input form.
type MonitoredServiceRequestHealthSourceArgs struct {
	Identifier pulumi.StringInput    `pulumi:"identifier"`
	Name       pulumi.StringInput    `pulumi:"name"`
	Spec       pulumi.StringInput    `pulumi:"spec"`
	Type       pulumi.StringInput    `pulumi:"type"`
	Version    pulumi.StringPtrInput `pulumi:"version"`
}

func (MonitoredServiceRequestHealthSourceArgs) ElementType() reflect.Type {
	return reflect.TypeOf((*MonitoredServiceRequestHealthSource)(nil)).Elem()
}

type MonitoredServiceRequestHealthSourceOutput struct{ *pulumi.OutputState }

func (MonitoredServiceRequestHealthSourceOutput) ElementType() reflect.Type {
	return reflect.TypeOf((*MonitoredServiceRequestHealthSource)(nil)).Elem()
}

// MonitoredServiceRequestHealthSourceInput is satisfied by MonitoredServiceRequestHealthSourceArgs.
type MonitoredServiceRequestHealthSourceInput interface{ pulumi.Input }

// MonitoredServiceRequestHealthSourceArray is a list of MonitoredServiceRequestHealthSourceArgs.
type MonitoredServiceRequestHealthSourceArray []MonitoredServiceRequestHealthSourceInput

func (MonitoredServiceRequestHealthSourceArray) ElementType() reflect.Type {
	return reflect.TypeOf((*[]MonitoredServiceRequestHealthSource)(nil)).Elem()
}

func (i MonitoredServiceRequestHealthSourceArray) ToMonitoredServiceRequestHealthSourceArrayOutput() MonitoredServiceRequestHealthSourceArrayOutput {
	return pulumi.ToOutputWithContext(context.Background(), i).(MonitoredServiceRequestHealthSourceArrayOutput)
}

// MonitoredServiceRequestHealthSourceArrayInput accepts a MonitoredServiceRequestHealthSourceArray.
type MonitoredServiceRequestHealthSourceArrayInput interface {
	pulumi.Input
	ToMonitoredServiceRequestHealthSourceArrayOutput() MonitoredServiceRequestHealthSourceArrayOutput
}

type MonitoredServiceRequestHealthSourceArrayOutput struct{ *pulumi.OutputState }

func (MonitoredServiceRequestHealthSourceArrayOutput) ElementType() reflect.Type {
	return reflect.TypeOf((*[]MonitoredServiceRequestHealthSource)(nil)).Elem()
}

func (o MonitoredServiceRequestHealthSourceArrayOutput) ToMonitoredServiceRequestHealthSourceArrayOutput() MonitoredServiceRequestHealthSourceArrayOutput {
	return o
}

// --- MonitoredServiceRequest ---

// MonitoredServiceRequest is a monitored service: a Harness service in one environment, with its health sources.
type MonitoredServiceRequest struct {
	Description    *string                               `pulumi:"description"`
	Enabled        *bool                                 `pulumi:"enabled"`
	EnvironmentRef string                                `pulumi:"environmentRef"`
	HealthSources  []MonitoredServiceRequestHealthSource `pulumi:"healthSources"`
	Name           string                                `pulumi:"name"`
	ServiceRef     string                                `pulumi:"serviceRef"`
	Tags           []string                              `pulumi:"tags"`
	Type           string                                `pulumi:"type"`
}

// MonitoredServiceRequestArgs is its input form.
type MonitoredServiceRequestArgs struct {
	Description    pulumi.StringPtrInput                         `pulumi:"description"`
	Enabled        pulumi.BoolPtrInput                           `pulumi:"enabled"`
	EnvironmentRef pulumi.StringInput                            `pulumi:"environmentRef"`
	HealthSources  MonitoredServiceRequestHealthSourceArrayInput `pulumi:"healthSources"`
	Name           pulumi.StringInput                            `pulumi:"name"`
	ServiceRef     pulumi.StringInput                            `pulumi:"serviceRef"`
	Tags           pulumi.StringArrayInput                       `pulumi:"tags"`
	Type           pulumi.StringInput                            `pulumi:"type"`
}

func (MonitoredServiceRequestArgs) ElementType() reflect.Type {
	return reflect.TypeOf((*MonitoredServiceRequest)(nil)).Elem()
}

type MonitoredServiceRequestOutput struct{ *pulumi.OutputState }

func (MonitoredServiceRequestOutput) ElementType() reflect.Type {
	return reflect.TypeOf((*MonitoredServiceRequest)(nil)).Elem()
}

func (i MonitoredServiceRequestArgs) ToMonitoredServiceRequestPtrOutput() MonitoredServiceRequestPtrOutput {
	return pulumi.ToOutputWithContext(context.Background(), i).(MonitoredServiceRequestOutput).ApplyT(
		func(v MonitoredServiceRequest) *MonitoredServiceRequest { return &v }).(MonitoredServiceRequestPtrOutput)
}

// MonitoredServiceRequestPtrInput accepts *MonitoredServiceRequestArgs.
type MonitoredServiceRequestPtrInput interface {
	pulumi.Input
	ToMonitoredServiceRequestPtrOutput() MonitoredServiceRequestPtrOutput
}

type MonitoredServiceRequestPtrOutput struct{ *pulumi.OutputState }

func (MonitoredServiceRequestPtrOutput) ElementType() reflect.Type {
	return reflect.TypeOf((**MonitoredServiceRequest)(nil)).Elem()
}

func (o MonitoredServiceRequestPtrOutput) ToMonitoredServiceRequestPtrOutput() MonitoredServiceRequestPtrOutput {
	return o
}

// --- ResourceGroupIncludedScope ---

// ResourceGroupIncludedScope is a scope a resource group covers.
type ResourceGroupIncludedScope struct {
	AccountId *string `pulumi:"accountId"`
	Filter    string  `pulumi:"filter"`
	OrgId     *string `pulumi:"orgId"`
	ProjectId *string `pulumi:"projectId"`
}

// ResourceGroupIncludedScopeArgs is its input form.
type ResourceGroupIncludedScopeArgs struct {
	AccountId pulumi.StringPtrInput `pulumi:"accountId"`
	Filter    pulumi.StringInput    `pulumi:"filter"`
	OrgId     pulumi.StringPtrInput `pulumi:"orgId"`
	ProjectId pulumi.StringPtrInput `pulumi:"projectId"`
}

func (ResourceGroupIncludedScopeArgs) ElementType() reflect.Type {
	return reflect.TypeOf((*ResourceGroupIncludedScope)(nil)).Elem()
}

type ResourceGroupIncludedScopeOutput struct{ *pulumi.OutputState }

func (ResourceGroupIncludedScopeOutput) ElementType() reflect.Type {
	return reflect.TypeOf((*ResourceGroupIncludedScope)(nil)).Elem()
}

// ResourceGroupIncludedScopeInput is satisfied by ResourceGroupIncludedScopeArgs.
type ResourceGroupIncludedScopeInput interface{ pulumi.Input }

// ResourceGroupIncludedScopeArray is a list of ResourceGroupIncludedScopeArgs.
type ResourceGroupIncludedScopeArray []ResourceGroupIncludedScopeInput

func (ResourceGroupIncludedScopeArray) ElementType() reflect.Type {
	return reflect.TypeOf((*[]ResourceGroupIncludedScope)(nil)).Elem()
}

func (i ResourceGroupIncludedScopeArray) ToResourceGroupIncludedScopeArrayOutput() ResourceGroupIncludedScopeArrayOutput {
	return pulumi.ToOutputWithContext(context.Background(), i).(ResourceGroupIncludedScopeArrayOutput)
}

// ResourceGroupIncludedScopeArrayInput accepts a ResourceGroupIncludedScopeArray.
type ResourceGroupIncludedScopeArrayInput interface {
	pulumi.Input
	ToResourceGroupIncludedScopeArrayOutput() ResourceGroupIncludedScopeArrayOutput
}

type ResourceGroupIncludedScopeArrayOutput struct{ *pulumi.OutputState }

func (ResourceGroupIncludedScopeArrayOutput) ElementType() reflect.Type {
	return reflect.TypeOf((*[]ResourceGroupIncludedScope)(nil)).Elem()
}

func (o ResourceGroupIncludedScopeArrayOutput) ToResourceGroupIncludedScopeArrayOutput() ResourceGroupIncludedScopeArrayOutput {
	return o
}

// --- ResourceGroupResourceFilterResource ---

// ResourceGroupResourceFilterResource selects resources of one type, by identifier.
type ResourceGroupResourceFilterResource struct {
	Identifiers  []string `pulumi:"identifiers"`
	ResourceType string   `pulumi:"resourceType"`
}

// ResourceGroupResourceFilterResourceArgs is its input form.
type ResourceGroupResourceFilterResourceArgs struct {
	Identifiers  pulumi.StringArrayInput `pulumi:"identifiers"`
	ResourceType pulumi.StringInput      `pulumi:"resourceType"`
}

func (ResourceGroupResourceFilterResourceArgs) ElementType() reflect.Type {
	return reflect.TypeOf((*ResourceGroupResourceFilterResource)(nil)).Elem()
}

type ResourceGroupResourceFilterResourceOutput struct{ *pulumi.OutputState }

func (ResourceGroupResourceFilterResourceOutput) ElementType() reflect.Type {
	return reflect.TypeOf((*ResourceGroupResourceFilterResource)(nil)).Elem()
}

// ResourceGroupResourceFilterResourceInput is satisfied by ResourceGroupResourceFilterResourceArgs.
type ResourceGroupResourceFilterResourceInput interface{ pulumi.Input }

// ResourceGroupResourceFilterResourceArray is a list of ResourceGroupResourceFilterResourceArgs.
type ResourceGroupResourceFilterResourceArray []ResourceGroupResourceFilterResourceInput

func (ResourceGroupResourceFilterResourceArray) ElementType() reflect.Type {
	return reflect.TypeOf((*[]ResourceGroupResourceFilterResource)(nil)).Elem()
}

func (i ResourceGroupResourceFilterResourceArray) ToResourceGroupResourceFilterResourceArrayOutput() ResourceGroupResourceFilterResourceArrayOutput {
	return pulumi.ToOutputWithContext(context.Background(), i).(ResourceGroupResourceFilterResourceArrayOutput)
}

// ResourceGroupResourceFilterResourceArrayInput accepts a ResourceGroupResourceFilterResourceArray.
type ResourceGroupResourceFilterResourceArrayInput interface {
	pulumi.Input
	ToResourceGroupResourceFilterResourceArrayOutput() ResourceGroupResourceFilterResourceArrayOutput
}

type ResourceGroupResourceFilterResourceArrayOutput struct{ *pulumi.OutputState }

func (ResourceGroupResourceFilterResourceArrayOutput) ElementType() reflect.Type {
	return reflect.TypeOf((*[]ResourceGroupResourceFilterResource)(nil)).Elem()
}

func (o ResourceGroupResourceFilterResourceArrayOutput) ToResourceGroupResourceFilterResourceArrayOutput() ResourceGroupResourceFilterResourceArrayOutput {
	return o
}

// --- ResourceGroupResourceFilter ---

// ResourceGroupResourceFilter is what a resource group holds.
type ResourceGroupResourceFilter struct {
	IncludeAllResources *bool                                 `pulumi:"includeAllResources"`
	Resources           []ResourceGroupResourceFilterResource `pulumi:"resources"`
}

// ResourceGroupResourceFilterArgs is its input form.
type ResourceGroupResourceFilterArgs struct {
	IncludeAllResources pulumi.BoolPtrInput                           `pulumi:"includeAllResources"`
	Resources           ResourceGroupResourceFilterResourceArrayInput `pulumi:"resources"`
}

func (ResourceGroupResourceFilterArgs) ElementType() reflect.Type {
	return reflect.TypeOf((*ResourceGroupResourceFilter)(nil)).Elem()
}

type ResourceGroupResourceFilterOutput struct{ *pulumi.OutputState }

func (ResourceGroupResourceFilterOutput) ElementType() reflect.Type {
	return reflect.TypeOf((*ResourceGroupResourceFilter)(nil)).Elem()
}

// ResourceGroupResourceFilterInput is satisfied by ResourceGroupResourceFilterArgs.
type ResourceGroupResourceFilterInput interface{ pulumi.Input }

// ResourceGroupResourceFilterArray is a list of ResourceGroupResourceFilterArgs.
type ResourceGroupResourceFilterArray []ResourceGroupResourceFilterInput

func (ResourceGroupResourceFilterArray) ElementType() reflect.Type {
	return reflect.TypeOf((*[]ResourceGroupResourceFilter)(nil)).Elem()
}

func (i ResourceGroupResourceFilterArray) ToResourceGroupResourceFilterArrayOutput() ResourceGroupResourceFilterArrayOutput {
	return pulumi.ToOutputWithContext(context.Background(), i).(ResourceGroupResourceFilterArrayOutput)
}

// ResourceGroupResourceFilterArrayInput accepts a ResourceGroupResourceFilterArray.
type ResourceGroupResourceFilterArrayInput interface {
	pulumi.Input
	ToResourceGroupResourceFilterArrayOutput() ResourceGroupResourceFilterArrayOutput
}

type ResourceGroupResourceFilterArrayOutput struct{ *pulumi.OutputState }

func (ResourceGroupResourceFilterArrayOutput) ElementType() reflect.Type {
	return reflect.TypeOf((*[]ResourceGroupResourceFilter)(nil)).Elem()
}

func (o ResourceGroupResourceFilterArrayOutput) ToResourceGroupResourceFilterArrayOutput() ResourceGroupResourceFilterArrayOutput {
	return o
}
