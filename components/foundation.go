package components

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/harness/platform"
	"github.com/company/harness-platform/internal/harnessyaml"
	"github.com/company/harness-platform/internal/pipeline"
)

// Harness's built-in roles and resource group used for team access.
const (
	allProjectResources = "_all_project_level_resources"
	executorRole        = "_pipeline_executor"
	adminRole           = "_project_admin"
	githubTokenSecretID = "github_manifests_token"
	harnessSecretStore  = "harnessSecretManager"
)

// FoundationArgs are the inputs of a Foundation.
type FoundationArgs struct {
	Catalog *catalog.Catalog
	// Stack is the stack with no upstream; its foundation settings are used.
	Stack *catalog.Stack
	// GithubToken is the manifests connector's token; it must be a secret.
	GithubToken pulumi.StringInput
}

// Foundation is what every environment shares: the project (and the org if
// asked), a user group and role assignment per team, the GitHub connector
// and its token, and one Harness service per catalog entry. The project,
// org, connector and secret are protected: deleting a Harness project
// deletes everything in it.
type Foundation struct {
	pulumi.ResourceState

	OrgID             pulumi.StringOutput    `pulumi:"orgId"`
	ProjectID         pulumi.StringOutput    `pulumi:"projectId"`
	GithubConnectorID pulumi.StringOutput    `pulumi:"githubConnectorId"`
	UserGroups        pulumi.StringMapOutput `pulumi:"userGroups"`
	Services          pulumi.StringMapOutput `pulumi:"services"`
}

// NewFoundation declares the foundation.
func NewFoundation(ctx *pulumi.Context, name string, args *FoundationArgs, opts ...pulumi.ResourceOption) (*Foundation, error) {
	f := &Foundation{}
	if err := ctx.RegisterComponentResource(FoundationType, name, f, opts...); err != nil {
		return nil, err
	}
	c, settings := args.Catalog, args.Stack.Foundation
	child := pulumi.Parent(f)
	protected := []pulumi.ResourceOption{child, pulumi.Protect(true)}
	tags := tagList(map[string]string{"managed-by": pipeline.ManagedBy})

	orgID := pulumi.String(settings.Org.Identifier).ToStringOutput()
	if settings.Org.Create {
		org, err := platform.NewOrganization(ctx, settings.Org.Identifier, &platform.OrganizationArgs{
			Identifier: pulumi.String(settings.Org.Identifier),
			Name:       pulumi.String(orDefault(settings.Org.Name, settings.Org.Identifier)),
			Tags:       tags,
		}, protected...)
		if err != nil {
			return nil, err
		}
		orgID = org.Identifier
	}
	project, err := platform.NewProject(ctx, settings.Project.Identifier, &platform.ProjectArgs{
		Identifier:  pulumi.String(settings.Project.Identifier),
		Name:        pulumi.String(orDefault(settings.Project.Name, settings.Project.Identifier)),
		Description: pulumi.String(settings.Project.Description),
		OrgId:       orgID,
		Tags:        tags,
	}, protected...)
	if err != nil {
		return nil, err
	}
	org, proj := orgID.ToStringPtrOutput(), project.Identifier.ToStringPtrOutput()

	groups := pulumi.StringMap{}
	for _, t := range c.Teams {
		g, err := platform.NewUsergroup(ctx, t.UserGroup, &platform.UsergroupArgs{
			Identifier:  pulumi.String(t.UserGroup),
			Name:        pulumi.String(t.Name),
			Description: pulumi.String(t.Description),
			OrgId:       org,
			ProjectId:   proj,
			UserEmails:  pulumi.ToStringArray(t.Members),
			Tags:        tagList(map[string]string{"team": t.Name, "managed-by": pipeline.ManagedBy}),
		}, child)
		if err != nil {
			return nil, err
		}
		groups[t.Name] = g.Identifier
		role := executorRole
		if t == c.PlatformTeam {
			role = adminRole
		}
		if _, err := platform.NewRoleAssignments(ctx, t.UserGroup+"-"+role, &platform.RoleAssignmentsArgs{
			Identifier:              pulumi.String(t.UserGroup + role),
			OrgId:                   org,
			ProjectId:               proj,
			ResourceGroupIdentifier: pulumi.String(allProjectResources),
			RoleIdentifier:          pulumi.String(role),
			Principals: platform.RoleAssignmentsPrincipalArray{platform.RoleAssignmentsPrincipalArgs{
				Identifier: g.Identifier,
				Type:       pulumi.String("USER_GROUP"),
			}},
		}, child); err != nil {
			return nil, err
		}
	}

	token, err := platform.NewSecretText(ctx, githubTokenSecretID, &platform.SecretTextArgs{
		Identifier:              pulumi.String(githubTokenSecretID),
		Name:                    pulumi.String("GitHub token of " + settings.Github.Username),
		Description:             pulumi.String("Read access to the manifests repository, for " + settings.Github.ConnectorIdentifier),
		OrgId:                   org,
		ProjectId:               proj,
		SecretManagerIdentifier: pulumi.String(harnessSecretStore),
		ValueType:               pulumi.String("Inline"),
		Value:                   args.GithubToken,
		Tags:                    tags,
	}, protected...)
	if err != nil {
		return nil, err
	}
	gh, err := platform.NewGithubConnector(ctx, settings.Github.ConnectorIdentifier, &platform.GithubConnectorArgs{
		Identifier:     pulumi.String(settings.Github.ConnectorIdentifier),
		Name:           pulumi.String(settings.Github.ConnectorIdentifier),
		Description:    pulumi.String("Cross-org access to the generated manifests"),
		OrgId:          org,
		ProjectId:      proj,
		ConnectionType: pulumi.String("Repo"),
		Url:            pulumi.String(settings.Github.URL),
		Credentials: &platform.GithubConnectorCredentialsArgs{Http: &platform.GithubConnectorCredentialsHttpArgs{
			Username: pulumi.String(settings.Github.Username),
			TokenRef: token.Identifier.ToStringPtrOutput(),
		}},
		ApiAuthentication: &platform.GithubConnectorApiAuthenticationArgs{TokenRef: token.Identifier.ToStringPtrOutput()},
		Tags:              tags,
	}, protected...)
	if err != nil {
		return nil, err
	}

	services := pulumi.StringMap{}
	for _, s := range c.Services {
		yamlBody := pulumi.All(orgID, project.Identifier, gh.Identifier).ApplyT(func(v []any) (string, error) {
			gs := settings.Github
			gs.ConnectorIdentifier = v[2].(string)
			y, err := pipeline.Marshal(harnessyaml.BuildService(s, gs, v[0].(string), v[1].(string)))
			return string(y), err
		}).(pulumi.StringOutput)
		svc, err := platform.NewService(ctx, catalog.ServiceIdentifier(s), &platform.ServiceArgs{
			Identifier:  pulumi.String(catalog.ServiceIdentifier(s)),
			Name:        pulumi.String(s.Name),
			Description: pulumi.String(s.Description),
			OrgId:       org,
			ProjectId:   proj,
			Tags:        tagList(pipeline.ServiceTags(s)),
			Yaml:        yamlBody,
		}, child)
		if err != nil {
			return nil, err
		}
		services[s.Name] = svc.Identifier
	}

	f.OrgID = orgID
	f.ProjectID = project.Identifier
	f.GithubConnectorID = gh.Identifier
	f.UserGroups = groups.ToStringMapOutput()
	f.Services = services.ToStringMapOutput()
	return f, ctx.RegisterResourceOutputs(f, pulumi.Map{
		"orgId":             f.OrgID,
		"projectId":         f.ProjectID,
		"githubConnectorId": f.GithubConnectorID,
		"userGroups":        f.UserGroups,
		"services":          f.Services,
	})
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
