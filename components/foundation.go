package components

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/harness/sdk/platform"
	"github.com/company/harness-platform/plan"
)

// FoundationArgs are the inputs of a Foundation.
type FoundationArgs struct {
	Plan  *plan.Foundation
	Scope plan.Scope
	// AccountID is the Harness account, which resource groups name.
	AccountID string
}

// Foundation is what every environment shares: the project (and the org if
// asked), a user group and role assignment per team, the AWS Secrets
// Manager connector and the secrets that reference it (no value: Harness
// reads them there), the GitHub connector (as a GitHub App), the Docker
// registry connector, and the
// Harness CI pipeline that runs this program, with its repository's
// connector and its triggers, and the pipeline rules Harness evaluates on
// every pipeline's save and run;
// the catalog's Harness services are in the root environment's service
// stacks (DeclareCatalogServices). The project,
// org, connector and secret are protected: deleting a Harness project
// deletes everything in it.
type Foundation struct {
	pulumi.ResourceState

	// Resources are the declared objects, for what other objects need.
	Resources Resources
}

// NewFoundation declares the foundation.
func NewFoundation(ctx *pulumi.Context, name string, args *FoundationArgs, opts ...pulumi.ResourceOption) (*Foundation, error) {
	f := &Foundation{Resources: Resources{}}
	if err := ctx.RegisterComponentResource(FoundationType, name, f, opts...); err != nil {
		return nil, err
	}
	fp, res := args.Plan, f.Resources
	org, proj := pulumi.String(args.Scope.OrgID), pulumi.String(args.Scope.ProjectID)
	child := func(needs []plan.Ref) []pulumi.ResourceOption {
		return []pulumi.ResourceOption{pulumi.Parent(f), res.dependsOn(needs)}
	}
	protected := func(needs []plan.Ref) []pulumi.ResourceOption {
		return append(child(needs), pulumi.Protect(true))
	}
	if o := fp.Organization; o != nil {
		r, err := platform.NewOrganization(ctx, o.Identifier, &platform.OrganizationArgs{
			Identifier: pulumi.String(o.Identifier),
			Name:       pulumi.String(o.Name),
			Tags:       stringArray(o.Tags),
		}, protected(nil)...)
		if err != nil {
			return nil, err
		}
		res.add(plan.KindOrganization, o.Identifier, r)
	}
	p := fp.Project
	project, err := platform.NewProject(ctx, p.Identifier, &platform.ProjectArgs{
		Identifier:  pulumi.String(p.Identifier),
		Name:        pulumi.String(p.Name),
		Description: pulumi.String(p.Description),
		OrgId:       org,
		Tags:        stringArray(p.Tags),
	}, protected(p.Needs)...)
	if err != nil {
		return nil, err
	}
	res.add(plan.KindProject, p.Identifier, project)
	for _, g := range fp.UserGroups {
		r, err := platform.NewUsergroup(ctx, g.Identifier, &platform.UsergroupArgs{
			Identifier:  pulumi.String(g.Identifier),
			Name:        pulumi.String(g.Name),
			Description: pulumi.String(g.Description),
			OrgId:       org,
			ProjectId:   proj,
			UserEmails:  stringArray(g.Members),
			Tags:        stringArray(g.Tags),
		}, child(g.Needs)...)
		if err != nil {
			return nil, err
		}
		res.add(plan.KindUserGroup, g.Identifier, r)
	}
	for _, g := range fp.ResourceGroups {
		filter := platform.ResourceGroupResourceFilterResourceArray{}
		for _, sel := range g.Resources {
			filter = append(filter, platform.ResourceGroupResourceFilterResourceArgs{
				ResourceType: pulumi.String(sel.Type),
				Identifiers:  stringArray(sel.Identifiers),
			})
		}
		r, err := platform.NewResourceGroup(ctx, g.Identifier, &platform.ResourceGroupArgs{
			Identifier:         pulumi.String(g.Identifier),
			Name:               pulumi.String(g.Name),
			Description:        pulumi.String(g.Description),
			AccountId:          pulumi.String(args.AccountID),
			OrgId:              org,
			ProjectId:          proj,
			AllowedScopeLevels: pulumi.StringArray{pulumi.String("project")},
			IncludedScopes: platform.ResourceGroupIncludedScopeArray{platform.ResourceGroupIncludedScopeArgs{
				Filter:    pulumi.String("EXCLUDING_CHILD_SCOPES"),
				AccountId: pulumi.String(args.AccountID),
				OrgId:     org,
				ProjectId: proj,
			}},
			ResourceFilters: platform.ResourceGroupResourceFilterArray{platform.ResourceGroupResourceFilterArgs{
				IncludeAllResources: pulumi.Bool(false),
				Resources:           filter,
			}},
			Tags: stringArray(g.Tags),
		}, child(g.Needs)...)
		if err != nil {
			return nil, err
		}
		res.add(plan.KindResourceGroup, g.Identifier, r)
	}
	for _, a := range fp.RoleAssignments {
		if _, err := platform.NewRoleAssignments(ctx, a.Resource, &platform.RoleAssignmentsArgs{
			Identifier:              pulumi.String(a.Identifier),
			OrgId:                   org,
			ProjectId:               proj,
			ResourceGroupIdentifier: pulumi.String(a.ResourceGroup),
			RoleIdentifier:          pulumi.String(a.Role),
			Principals: platform.RoleAssignmentsPrincipalArray{platform.RoleAssignmentsPrincipalArgs{
				Identifier: pulumi.String(a.UserGroup),
				Type:       pulumi.String("USER_GROUP"),
			}},
		}, child(a.Needs)...); err != nil {
			return nil, err
		}
	}
	sm := fp.SecretManager
	manager, err := platform.NewAwsSecretManagerConnector(ctx, sm.Identifier, &platform.AwsSecretManagerConnectorArgs{
		Identifier:  pulumi.String(sm.Identifier),
		Name:        pulumi.String(sm.Name),
		Description: pulumi.String(sm.Description),
		OrgId:       org,
		ProjectId:   proj,
		Region:      pulumi.String(sm.Region),
		Credentials: &platform.AwsSecretManagerConnectorCredentialsArgs{
			OidcAuthentication: &platform.AwsSecretManagerConnectorCredentialsOidcAuthenticationArgs{IamRoleArn: pulumi.String(sm.RoleArn)},
		},
		// Explicit where the provider has a default: the connector only
		// reads, and is not the project's default secret manager.
		Default:           pulumi.Bool(false),
		UsePutSecret:      pulumi.Bool(false),
		ExecuteOnDelegate: pulumi.Bool(false),
		Tags:              stringArray(sm.Tags),
	}, protected(sm.Needs)...)
	if err != nil {
		return nil, err
	}
	res.add(plan.KindSecretManager, sm.Identifier, manager)
	// A reference's value is the secret's name, not a credential; the
	// provider marks every value secret all the same.
	secretText := func(s plan.SecretText) error {
		r, err := platform.NewSecretText(ctx, s.Identifier, &platform.SecretTextArgs{
			Identifier:              pulumi.String(s.Identifier),
			Name:                    pulumi.String(s.Name),
			Description:             pulumi.String(s.Description),
			OrgId:                   org,
			ProjectId:               proj,
			SecretManagerIdentifier: pulumi.String(s.SecretManager),
			ValueType:               pulumi.String("Reference"),
			Value:                   pulumi.String(s.Reference),
			Tags:                    stringArray(s.Tags),
		}, protected(s.Needs)...)
		if err == nil {
			res.add(plan.KindSecret, s.Identifier, r)
		}
		return err
	}
	if err := secretText(fp.GithubAppKey); err != nil {
		return nil, err
	}
	githubConnector := func(g plan.GithubConnector) error {
		gh, err := platform.NewGithubConnector(ctx, g.Identifier, &platform.GithubConnectorArgs{
			Identifier:     pulumi.String(g.Identifier),
			Name:           pulumi.String(g.Name),
			Description:    pulumi.String(g.Description),
			OrgId:          org,
			ProjectId:      proj,
			ConnectionType: pulumi.String(g.ConnectionType),
			Url:            pulumi.String(g.URL),
			Credentials: &platform.GithubConnectorCredentialsArgs{Http: &platform.GithubConnectorCredentialsHttpArgs{
				GithubApp: &platform.GithubConnectorCredentialsHttpGithubAppArgs{
					ApplicationId:  pulumi.String(g.App.ApplicationID),
					InstallationId: pulumi.String(g.App.InstallationID),
					PrivateKeyRef:  pulumi.String(g.App.PrivateKeyRef),
				},
			}},
			ApiAuthentication: &platform.GithubConnectorApiAuthenticationArgs{GithubApp: &platform.GithubConnectorApiAuthenticationGithubAppArgs{
				ApplicationId:  pulumi.String(g.App.ApplicationID),
				InstallationId: pulumi.String(g.App.InstallationID),
				PrivateKeyRef:  pulumi.String(g.App.PrivateKeyRef),
			}},
			ExecuteOnDelegate: pulumi.Bool(g.ExecuteOnDelegate),
			Tags:              stringArray(g.Tags),
		}, protected(g.Needs)...)
		if err == nil {
			res.add(plan.KindGithubConnector, g.Identifier, gh)
		}
		return err
	}
	if err := githubConnector(fp.GithubConnector); err != nil {
		return nil, err
	}
	if s := fp.RegistryPassword; s != nil {
		if err := secretText(*s); err != nil {
			return nil, err
		}
	}
	d := fp.Registry
	var credentials platform.DockerConnectorCredentialsPtrInput
	if d.Username != "" {
		credentials = &platform.DockerConnectorCredentialsArgs{
			Username:    pulumi.String(d.Username),
			PasswordRef: pulumi.String(d.PasswordRef),
		}
	}
	registry, err := platform.NewDockerConnector(ctx, d.Identifier, &platform.DockerConnectorArgs{
		Identifier:        pulumi.String(d.Identifier),
		Name:              pulumi.String(d.Name),
		Description:       pulumi.String(d.Description),
		OrgId:             org,
		ProjectId:         proj,
		Type:              pulumi.String(d.Type),
		Url:               pulumi.String(d.URL),
		Credentials:       credentials,
		ExecuteOnDelegate: pulumi.Bool(d.ExecuteOnDelegate),
		Tags:              stringArray(d.Tags),
	}, protected(d.Needs)...)
	if err != nil {
		return nil, err
	}
	res.add(plan.KindDockerConnector, d.Identifier, registry)
	if r := fp.PipelineRules; r != nil {
		if err := declarePolicies(ctx, args.Scope, r.Policy, r.Sets, child, res.add); err != nil {
			return nil, err
		}
		if err := declarePolicies(ctx, args.Scope, r.Template, []plan.PolicySet{r.TemplateSet}, child, res.add); err != nil {
			return nil, err
		}
	}
	if ci := fp.CI; ci != nil {
		if err := githubConnector(ci.Connector); err != nil {
			return nil, err
		}
		p, err := newPipeline(ctx, ci.Pipeline, args.Scope, child(ci.Pipeline.Needs)...)
		if err != nil {
			return nil, err
		}
		res.add(plan.KindPipeline, ci.Pipeline.Identifier, p)
		for _, tp := range ci.Triggers {
			if _, err := newTrigger(ctx, tp, args.Scope, child(tp.Needs)...); err != nil {
				return nil, err
			}
		}
	}
	return f, ctx.RegisterResourceOutputs(f, pulumi.Map{})
}
