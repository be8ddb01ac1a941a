package importid

// Listings: what exists in a scope, whether the catalog declares it or
// not. Import lists a declared project's pipelines, services and
// environments, and a declared organisation's projects, with the
// provider's list data sources, and reports those the catalog does not
// declare (it never deletes them). The data sources and their arguments
// are terraform-provider-harness v0.45's (pulumi-harness v0.16.0 bridges
// them as harness:platform/get<Type>List):
//
//   - platform_project_list: org_id; page, limit (the API's pageIndex,
//     pageSize) -> projects[].identifier, name;
//   - platform_pipeline_list: org_id, project_id; page, limit ->
//     pipelines[].identifier, name;
//   - platform_service_list: org_id, project_id; page, size (default 100,
//     at most 1000) -> services[].identifier, name;
//   - platform_environment_list: org_id, project_id; no paging (the API's
//     default page: 100 environments) -> environments[].identifier, name.

// Listing is one list data source of the provider.
type Listing struct {
	// Type is the resource type it lists.
	Type string
	// Token is the data source's function token.
	Token string
	// Scope are the arguments naming where to list (orgId, projectId).
	Scope []string
	// Field is the result's list of {identifier, name}.
	Field string
	// Page and Size are the paging arguments ("" when it does not page),
	// PageSize the size Import asks for.
	Page, Size string
	PageSize   int
}

var listings = []Listing{
	{Type: "harness:platform/project:Project", Token: "harness:platform/getProjectList:getProjectList",
		Scope: []string{"orgId"}, Field: "projects", Page: "page", Size: "limit", PageSize: 100},
	{Type: "harness:platform/pipeline:Pipeline", Token: "harness:platform/getPipelineList:getPipelineList",
		Scope: []string{"orgId", "projectId"}, Field: "pipelines", Page: "page", Size: "limit", PageSize: 100},
	{Type: "harness:platform/service:Service", Token: "harness:platform/getServiceList:getServiceList",
		Scope: []string{"orgId", "projectId"}, Field: "services", Page: "page", Size: "size", PageSize: 1000},
	{Type: "harness:platform/environment:Environment", Token: "harness:platform/getEnvironmentList:getEnvironmentList",
		Scope: []string{"orgId", "projectId"}, Field: "environments"},
}

// Listings are the provider's list data sources Import uses.
func Listings() []Listing { return listings }

// ListingOf is the listing whose data source token is token.
func ListingOf(token string) (Listing, bool) {
	for _, l := range listings {
		if l.Token == token {
			return l, true
		}
	}
	return Listing{}, false
}
