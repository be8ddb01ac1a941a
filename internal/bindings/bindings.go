// Package bindings is test support for the generated Harness bindings
// (harness/sdk): for each resource the program declares, its Args type and
// an empty resource of its Go type, which tests need and the generated SDK
// keeps unexported (its resource module). TestCoversTheList keeps it in step
// with harness/bindings.txt, the generator's list.
package bindings

import (
	"github.com/company/harness-platform/harness/sdk/platform"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// Binding is one generated resource type.
type Binding struct {
	Args any                          // an empty value of its Args type
	New  func() pulumi.CustomResource // an empty resource, to rehydrate
}

// Resources are the generated Harness resources, by type token.
var Resources = map[string]Binding{
	"harness:platform/awsConnector:AwsConnector":                           {Args: platform.AwsConnectorArgs{}, New: func() pulumi.CustomResource { return &platform.AwsConnector{} }},
	"harness:platform/awsSecretManagerConnector:AwsSecretManagerConnector": {Args: platform.AwsSecretManagerConnectorArgs{}, New: func() pulumi.CustomResource { return &platform.AwsSecretManagerConnector{} }},
	"harness:platform/delegatetoken:Delegatetoken":                         {Args: platform.DelegatetokenArgs{}, New: func() pulumi.CustomResource { return &platform.Delegatetoken{} }},
	"harness:platform/dockerConnector:DockerConnector":                     {Args: platform.DockerConnectorArgs{}, New: func() pulumi.CustomResource { return &platform.DockerConnector{} }},
	"harness:platform/environment:Environment":                             {Args: platform.EnvironmentArgs{}, New: func() pulumi.CustomResource { return &platform.Environment{} }},
	"harness:platform/fileStoreFile:FileStoreFile":                         {Args: platform.FileStoreFileArgs{}, New: func() pulumi.CustomResource { return &platform.FileStoreFile{} }},
	"harness:platform/githubConnector:GithubConnector":                     {Args: platform.GithubConnectorArgs{}, New: func() pulumi.CustomResource { return &platform.GithubConnector{} }},
	"harness:platform/infrastructure:Infrastructure":                       {Args: platform.InfrastructureArgs{}, New: func() pulumi.CustomResource { return &platform.Infrastructure{} }},
	"harness:platform/inputSet:InputSet":                                   {Args: platform.InputSetArgs{}, New: func() pulumi.CustomResource { return &platform.InputSet{} }},
	"harness:platform/kubernetesConnector:KubernetesConnector":             {Args: platform.KubernetesConnectorArgs{}, New: func() pulumi.CustomResource { return &platform.KubernetesConnector{} }},
	"harness:platform/monitoredService:MonitoredService":                   {Args: platform.MonitoredServiceArgs{}, New: func() pulumi.CustomResource { return &platform.MonitoredService{} }},
	"harness:platform/organization:Organization":                           {Args: platform.OrganizationArgs{}, New: func() pulumi.CustomResource { return &platform.Organization{} }},
	"harness:platform/pipeline:Pipeline":                                   {Args: platform.PipelineArgs{}, New: func() pulumi.CustomResource { return &platform.Pipeline{} }},
	"harness:platform/policy:Policy":                                       {Args: platform.PolicyArgs{}, New: func() pulumi.CustomResource { return &platform.Policy{} }},
	"harness:platform/policySet:PolicySet":                                 {Args: platform.PolicySetArgs{}, New: func() pulumi.CustomResource { return &platform.PolicySet{} }},
	"harness:platform/project:Project":                                     {Args: platform.ProjectArgs{}, New: func() pulumi.CustomResource { return &platform.Project{} }},
	"harness:platform/prometheusConnector:PrometheusConnector":             {Args: platform.PrometheusConnectorArgs{}, New: func() pulumi.CustomResource { return &platform.PrometheusConnector{} }},
	"harness:platform/resourceGroup:ResourceGroup":                         {Args: platform.ResourceGroupArgs{}, New: func() pulumi.CustomResource { return &platform.ResourceGroup{} }},
	"harness:platform/roleAssignments:RoleAssignments":                     {Args: platform.RoleAssignmentsArgs{}, New: func() pulumi.CustomResource { return &platform.RoleAssignments{} }},
	"harness:platform/secretText:SecretText":                               {Args: platform.SecretTextArgs{}, New: func() pulumi.CustomResource { return &platform.SecretText{} }},
	"harness:platform/service:Service":                                     {Args: platform.ServiceArgs{}, New: func() pulumi.CustomResource { return &platform.Service{} }},
	"harness:platform/template:Template":                                   {Args: platform.TemplateArgs{}, New: func() pulumi.CustomResource { return &platform.Template{} }},
	"harness:platform/triggers:Triggers":                                   {Args: platform.TriggersArgs{}, New: func() pulumi.CustomResource { return &platform.Triggers{} }},
	"harness:platform/usergroup:Usergroup":                                 {Args: platform.UsergroupArgs{}, New: func() pulumi.CustomResource { return &platform.Usergroup{} }},
}

// NewState returns an empty resource of token's Go type (such as
// *platform.Pipeline), or nil for a token that is not bound.
func NewState(token string) pulumi.CustomResource {
	if b, ok := Resources[token]; ok {
		return b.New()
	}
	return nil
}
