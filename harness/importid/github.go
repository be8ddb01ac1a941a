package importid

// GitHub objects a stack declares for its services' repositories. Of
// them, only an organisation's Actions variable refuses to be created
// when it exists: terraform-provider-github v6.12.1 (which pulumi-github
// v6.14.1 bridges) creates it with a POST (CreateOrgVariable), which
// GitHub answers with "409 Already exists"; its import ID is the
// variable's name (ImportStatePassthrough: the ID is the name, the
// organisation the provider's owner). Organisation secrets, environments
// and branch protections are written with a PUT, and the program's
// repository files overwrite on create, so a first up takes those over in
// place.

// GitHubOrgVariable is the type of an organisation's Actions variable.
const GitHubOrgVariable = "github:index/actionsOrganizationVariable:ActionsOrganizationVariable"

// GitHubOrgSecret is the type of an organisation's Actions secret.
const GitHubOrgSecret = "github:index/actionsOrganizationSecret:ActionsOrganizationSecret"

// GitHubOrgVariables is the data source listing the provider owner's
// organisation variables
// (data_source_github_actions_organization_variables.go), answering
// variables[].name, value, visibility.
const GitHubOrgVariables = "github:index/getActionsOrganizationVariables:getActionsOrganizationVariables"
