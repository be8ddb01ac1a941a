package platform

import (
	"context"
	"reflect"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// Nested object types, each with the Args/Input/Output family the official
// SDK generates: pass `&platform.XArgs{...}` where a resource takes an XPtrInput,
// and `platform.XArray{...}` where it takes an XArrayInput.

func init() {
	pulumi.RegisterOutputType(KubernetesConnectorInheritFromDelegateOutput{})
	pulumi.RegisterOutputType(KubernetesConnectorInheritFromDelegatePtrOutput{})
	pulumi.RegisterOutputType(GithubConnectorCredentialsOutput{})
	pulumi.RegisterOutputType(GithubConnectorCredentialsPtrOutput{})
	pulumi.RegisterOutputType(GithubConnectorCredentialsHttpOutput{})
	pulumi.RegisterOutputType(GithubConnectorCredentialsHttpPtrOutput{})
	pulumi.RegisterOutputType(GithubConnectorApiAuthenticationOutput{})
	pulumi.RegisterOutputType(GithubConnectorApiAuthenticationPtrOutput{})
	pulumi.RegisterOutputType(RoleAssignmentsPrincipalOutput{})
	pulumi.RegisterOutputType(RoleAssignmentsPrincipalArrayOutput{})
	pulumi.RegisterOutputType(PolicySetPolicyOutput{})
	pulumi.RegisterOutputType(PolicySetPolicyArrayOutput{})
}

// --- KubernetesConnectorInheritFromDelegate ---

// KubernetesConnectorInheritFromDelegate makes a connector use the
// credentials of the delegates its selectors name.
type KubernetesConnectorInheritFromDelegate struct {
	DelegateSelectors []string `pulumi:"delegateSelectors"`
}

// KubernetesConnectorInheritFromDelegateArgs is its input form.
type KubernetesConnectorInheritFromDelegateArgs struct {
	DelegateSelectors pulumi.StringArrayInput `pulumi:"delegateSelectors"`
}

func (KubernetesConnectorInheritFromDelegateArgs) ElementType() reflect.Type {
	return reflect.TypeOf((*KubernetesConnectorInheritFromDelegate)(nil)).Elem()
}

func (i KubernetesConnectorInheritFromDelegateArgs) ToKubernetesConnectorInheritFromDelegatePtrOutput() KubernetesConnectorInheritFromDelegatePtrOutput {
	return pulumi.ToOutputWithContext(context.Background(), i).(KubernetesConnectorInheritFromDelegateOutput).ApplyT(
		func(v KubernetesConnectorInheritFromDelegate) *KubernetesConnectorInheritFromDelegate { return &v }).(KubernetesConnectorInheritFromDelegatePtrOutput)
}

// KubernetesConnectorInheritFromDelegatePtrInput accepts *KubernetesConnectorInheritFromDelegateArgs.
type KubernetesConnectorInheritFromDelegatePtrInput interface {
	pulumi.Input
	ToKubernetesConnectorInheritFromDelegatePtrOutput() KubernetesConnectorInheritFromDelegatePtrOutput
}

type KubernetesConnectorInheritFromDelegateOutput struct{ *pulumi.OutputState }

func (KubernetesConnectorInheritFromDelegateOutput) ElementType() reflect.Type {
	return reflect.TypeOf((*KubernetesConnectorInheritFromDelegate)(nil)).Elem()
}

type KubernetesConnectorInheritFromDelegatePtrOutput struct{ *pulumi.OutputState }

func (KubernetesConnectorInheritFromDelegatePtrOutput) ElementType() reflect.Type {
	return reflect.TypeOf((**KubernetesConnectorInheritFromDelegate)(nil)).Elem()
}

func (o KubernetesConnectorInheritFromDelegatePtrOutput) ToKubernetesConnectorInheritFromDelegatePtrOutput() KubernetesConnectorInheritFromDelegatePtrOutput {
	return o
}

// --- GithubConnectorCredentials ---

// GithubConnectorCredentials are how a GitHub connector authenticates.
type GithubConnectorCredentials struct {
	Http *GithubConnectorCredentialsHttp `pulumi:"http"`
}

// GithubConnectorCredentialsArgs is its input form.
type GithubConnectorCredentialsArgs struct {
	Http GithubConnectorCredentialsHttpPtrInput `pulumi:"http"`
}

func (GithubConnectorCredentialsArgs) ElementType() reflect.Type {
	return reflect.TypeOf((*GithubConnectorCredentials)(nil)).Elem()
}

func (i GithubConnectorCredentialsArgs) ToGithubConnectorCredentialsPtrOutput() GithubConnectorCredentialsPtrOutput {
	return pulumi.ToOutputWithContext(context.Background(), i).(GithubConnectorCredentialsOutput).ApplyT(
		func(v GithubConnectorCredentials) *GithubConnectorCredentials { return &v }).(GithubConnectorCredentialsPtrOutput)
}

// GithubConnectorCredentialsPtrInput accepts *GithubConnectorCredentialsArgs.
type GithubConnectorCredentialsPtrInput interface {
	pulumi.Input
	ToGithubConnectorCredentialsPtrOutput() GithubConnectorCredentialsPtrOutput
}

type GithubConnectorCredentialsOutput struct{ *pulumi.OutputState }

func (GithubConnectorCredentialsOutput) ElementType() reflect.Type {
	return reflect.TypeOf((*GithubConnectorCredentials)(nil)).Elem()
}

type GithubConnectorCredentialsPtrOutput struct{ *pulumi.OutputState }

func (GithubConnectorCredentialsPtrOutput) ElementType() reflect.Type {
	return reflect.TypeOf((**GithubConnectorCredentials)(nil)).Elem()
}

func (o GithubConnectorCredentialsPtrOutput) ToGithubConnectorCredentialsPtrOutput() GithubConnectorCredentialsPtrOutput {
	return o
}

// GithubConnectorCredentialsHttp authenticates over HTTPS with a token
// held in a Harness secret (tokenRef).
type GithubConnectorCredentialsHttp struct {
	TokenRef    *string `pulumi:"tokenRef"`
	Username    *string `pulumi:"username"`
	UsernameRef *string `pulumi:"usernameRef"`
}

// GithubConnectorCredentialsHttpArgs is its input form.
type GithubConnectorCredentialsHttpArgs struct {
	TokenRef    pulumi.StringPtrInput `pulumi:"tokenRef"`
	Username    pulumi.StringPtrInput `pulumi:"username"`
	UsernameRef pulumi.StringPtrInput `pulumi:"usernameRef"`
}

func (GithubConnectorCredentialsHttpArgs) ElementType() reflect.Type {
	return reflect.TypeOf((*GithubConnectorCredentialsHttp)(nil)).Elem()
}

func (i GithubConnectorCredentialsHttpArgs) ToGithubConnectorCredentialsHttpPtrOutput() GithubConnectorCredentialsHttpPtrOutput {
	return pulumi.ToOutputWithContext(context.Background(), i).(GithubConnectorCredentialsHttpOutput).ApplyT(
		func(v GithubConnectorCredentialsHttp) *GithubConnectorCredentialsHttp { return &v }).(GithubConnectorCredentialsHttpPtrOutput)
}

// GithubConnectorCredentialsHttpPtrInput accepts *GithubConnectorCredentialsHttpArgs.
type GithubConnectorCredentialsHttpPtrInput interface {
	pulumi.Input
	ToGithubConnectorCredentialsHttpPtrOutput() GithubConnectorCredentialsHttpPtrOutput
}

type GithubConnectorCredentialsHttpOutput struct{ *pulumi.OutputState }

func (GithubConnectorCredentialsHttpOutput) ElementType() reflect.Type {
	return reflect.TypeOf((*GithubConnectorCredentialsHttp)(nil)).Elem()
}

type GithubConnectorCredentialsHttpPtrOutput struct{ *pulumi.OutputState }

func (GithubConnectorCredentialsHttpPtrOutput) ElementType() reflect.Type {
	return reflect.TypeOf((**GithubConnectorCredentialsHttp)(nil)).Elem()
}

func (o GithubConnectorCredentialsHttpPtrOutput) ToGithubConnectorCredentialsHttpPtrOutput() GithubConnectorCredentialsHttpPtrOutput {
	return o
}

// GithubConnectorApiAuthentication is the token the connector uses for
// GitHub API calls.
type GithubConnectorApiAuthentication struct {
	TokenRef *string `pulumi:"tokenRef"`
}

// GithubConnectorApiAuthenticationArgs is its input form.
type GithubConnectorApiAuthenticationArgs struct {
	TokenRef pulumi.StringPtrInput `pulumi:"tokenRef"`
}

func (GithubConnectorApiAuthenticationArgs) ElementType() reflect.Type {
	return reflect.TypeOf((*GithubConnectorApiAuthentication)(nil)).Elem()
}

func (i GithubConnectorApiAuthenticationArgs) ToGithubConnectorApiAuthenticationPtrOutput() GithubConnectorApiAuthenticationPtrOutput {
	return pulumi.ToOutputWithContext(context.Background(), i).(GithubConnectorApiAuthenticationOutput).ApplyT(
		func(v GithubConnectorApiAuthentication) *GithubConnectorApiAuthentication { return &v }).(GithubConnectorApiAuthenticationPtrOutput)
}

// GithubConnectorApiAuthenticationPtrInput accepts *GithubConnectorApiAuthenticationArgs.
type GithubConnectorApiAuthenticationPtrInput interface {
	pulumi.Input
	ToGithubConnectorApiAuthenticationPtrOutput() GithubConnectorApiAuthenticationPtrOutput
}

type GithubConnectorApiAuthenticationOutput struct{ *pulumi.OutputState }

func (GithubConnectorApiAuthenticationOutput) ElementType() reflect.Type {
	return reflect.TypeOf((*GithubConnectorApiAuthentication)(nil)).Elem()
}

type GithubConnectorApiAuthenticationPtrOutput struct{ *pulumi.OutputState }

func (GithubConnectorApiAuthenticationPtrOutput) ElementType() reflect.Type {
	return reflect.TypeOf((**GithubConnectorApiAuthentication)(nil)).Elem()
}

func (o GithubConnectorApiAuthenticationPtrOutput) ToGithubConnectorApiAuthenticationPtrOutput() GithubConnectorApiAuthenticationPtrOutput {
	return o
}

// --- RoleAssignmentsPrincipal ---

// RoleAssignmentsPrincipal is who a role is assigned to.
type RoleAssignmentsPrincipal struct {
	Identifier *string `pulumi:"identifier"`
	ScopeLevel *string `pulumi:"scopeLevel"`
	Type       string  `pulumi:"type"`
}

// RoleAssignmentsPrincipalArgs is its input form.
type RoleAssignmentsPrincipalArgs struct {
	Identifier pulumi.StringPtrInput `pulumi:"identifier"`
	ScopeLevel pulumi.StringPtrInput `pulumi:"scopeLevel"`
	// Type is USER_GROUP, USER or SERVICE_ACCOUNT.
	Type pulumi.StringInput `pulumi:"type"`
}

func (RoleAssignmentsPrincipalArgs) ElementType() reflect.Type {
	return reflect.TypeOf((*RoleAssignmentsPrincipal)(nil)).Elem()
}

type RoleAssignmentsPrincipalOutput struct{ *pulumi.OutputState }

func (RoleAssignmentsPrincipalOutput) ElementType() reflect.Type {
	return reflect.TypeOf((*RoleAssignmentsPrincipal)(nil)).Elem()
}

// RoleAssignmentsPrincipalInput is satisfied by RoleAssignmentsPrincipalArgs.
type RoleAssignmentsPrincipalInput interface{ pulumi.Input }

// RoleAssignmentsPrincipalArray is a list of principals.
type RoleAssignmentsPrincipalArray []RoleAssignmentsPrincipalInput

func (RoleAssignmentsPrincipalArray) ElementType() reflect.Type {
	return reflect.TypeOf((*[]RoleAssignmentsPrincipal)(nil)).Elem()
}

func (i RoleAssignmentsPrincipalArray) ToRoleAssignmentsPrincipalArrayOutput() RoleAssignmentsPrincipalArrayOutput {
	return pulumi.ToOutputWithContext(context.Background(), i).(RoleAssignmentsPrincipalArrayOutput)
}

// RoleAssignmentsPrincipalArrayInput accepts a RoleAssignmentsPrincipalArray.
type RoleAssignmentsPrincipalArrayInput interface {
	pulumi.Input
	ToRoleAssignmentsPrincipalArrayOutput() RoleAssignmentsPrincipalArrayOutput
}

type RoleAssignmentsPrincipalArrayOutput struct{ *pulumi.OutputState }

func (RoleAssignmentsPrincipalArrayOutput) ElementType() reflect.Type {
	return reflect.TypeOf((*[]RoleAssignmentsPrincipal)(nil)).Elem()
}

func (o RoleAssignmentsPrincipalArrayOutput) ToRoleAssignmentsPrincipalArrayOutput() RoleAssignmentsPrincipalArrayOutput {
	return o
}

// --- PolicySetPolicy ---

// PolicySetPolicy is one policy of a policy set.
type PolicySetPolicy struct {
	Identifier string `pulumi:"identifier"`
	Severity   string `pulumi:"severity"`
}

// PolicySetPolicyArgs is its input form.
type PolicySetPolicyArgs struct {
	Identifier pulumi.StringInput `pulumi:"identifier"`
	// Severity is warning or error.
	Severity pulumi.StringInput `pulumi:"severity"`
}

func (PolicySetPolicyArgs) ElementType() reflect.Type {
	return reflect.TypeOf((*PolicySetPolicy)(nil)).Elem()
}

type PolicySetPolicyOutput struct{ *pulumi.OutputState }

func (PolicySetPolicyOutput) ElementType() reflect.Type {
	return reflect.TypeOf((*PolicySetPolicy)(nil)).Elem()
}

// PolicySetPolicyInput is satisfied by PolicySetPolicyArgs.
type PolicySetPolicyInput interface{ pulumi.Input }

// PolicySetPolicyArray is a list of policies.
type PolicySetPolicyArray []PolicySetPolicyInput

func (PolicySetPolicyArray) ElementType() reflect.Type {
	return reflect.TypeOf((*[]PolicySetPolicy)(nil)).Elem()
}

func (i PolicySetPolicyArray) ToPolicySetPolicyArrayOutput() PolicySetPolicyArrayOutput {
	return pulumi.ToOutputWithContext(context.Background(), i).(PolicySetPolicyArrayOutput)
}

// PolicySetPolicyArrayInput accepts a PolicySetPolicyArray.
type PolicySetPolicyArrayInput interface {
	pulumi.Input
	ToPolicySetPolicyArrayOutput() PolicySetPolicyArrayOutput
}

type PolicySetPolicyArrayOutput struct{ *pulumi.OutputState }

func (PolicySetPolicyArrayOutput) ElementType() reflect.Type {
	return reflect.TypeOf((*[]PolicySetPolicy)(nil)).Elem()
}

func (o PolicySetPolicyArrayOutput) ToPolicySetPolicyArrayOutput() PolicySetPolicyArrayOutput {
	return o
}
