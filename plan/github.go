package plan

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/ident"
)

// GitHub is what a stack declares in GitHub. The foundation stack owns
// this program's repository settings and the services' Backstage files;
// every stack owns, in each of its services' repositories, the GitHub
// environment of its Harness environment, because only it knows its
// triggers' webhook URLs.
type GitHub struct {
	// Repository is set on the foundation stack when the catalog names
	// this program's repository.
	Repository *RepositorySettings
	// Environments are one per repository of this stack's deployments.
	Environments []ServiceEnvironment
	// CatalogInfo are the Backstage files of the services asking for one
	// (foundation stack only).
	CatalogInfo []CatalogInfo
	// WebhookAPIKeyConfig is the optional config secret whose value is
	// given to every service environment as HARNESS_API_KEY.
	WebhookAPIKeyConfig string
}

// RepositorySettings protect this program's repository: who approves the
// up of staging and production, and that main changes only through a
// reviewed pull request whose preview passed.
type RepositorySettings struct {
	Owner, Name string
	// Environments are the GitHub environments of the up workflow's
	// protected jobs, each with the team (slug) that reviews it.
	Environments  []RepositoryEnvironment
	Branch        string
	RequiredCheck string
	Approvals     int
}

// RepositoryEnvironment is a GitHub environment with required reviewers.
type RepositoryEnvironment struct {
	Name          string
	ReviewerTeams []string // GitHub team slugs: the catalog's team names
}

// ServiceEnvironment is the GitHub environment of a Harness environment in
// a service repository: what its builds need to start deployments.
type ServiceEnvironment struct {
	Owner, Repo string
	Environment string
	Webhooks    []Webhook
}

// Resource is the Pulumi resource name of the GitHub environment; its
// variables and secret are named after it.
func (e ServiceEnvironment) Resource() string { return e.Repo + "-" + e.Environment }

// Resource is the Pulumi resource name of the file.
func (ci CatalogInfo) Resource() string { return ci.Repo + "-catalog-info" }

// Webhook is the Actions variable holding a trigger's webhook URL.
type Webhook struct {
	Service string
	// Variable is HARNESS_WEBHOOK_URL, or HARNESS_WEBHOOK_URL_<SERVICE>
	// in a repository holding several services.
	Variable  string
	TriggerID string
}

// WebhookVariable and APIKeySecret are the names builds read.
const (
	WebhookVariable = "HARNESS_WEBHOOK_URL"
	APIKeySecret    = "HARNESS_API_KEY"
)

// CatalogInfo is a service's Backstage catalog-info.yaml.
type CatalogInfo struct {
	Service     string
	Owner, Repo string
	Path        string
	Team        string
	Description string
	// Pipelines are the service's pipeline identifiers by environment
	// name, in chain order; ServiceID its Harness service.
	Pipelines []NamedID
	ServiceID string
	Scope     Scope
}

// NamedID is a labelled identifier.
type NamedID struct{ Label, ID string }

// The branch this program's repository protects, and the check (the
// preview workflow's job) a pull request must pass to merge into it.
const (
	PreviewCheck = "preview"
	MainBranch   = "main"
)

func buildGitHub(p *Plan, c *catalog.Catalog, st *catalog.Stack) {
	g := &GitHub{WebhookAPIKeyConfig: catalog.WebhookAPIKeyKey}
	byRepo := map[string]int{}
	for _, d := range p.Deployments {
		s, _ := c.Service(d.Service)
		i, ok := byRepo[s.Repo]
		if !ok {
			owner, repo, _ := strings.Cut(s.Repo, "/")
			i = len(g.Environments)
			byRepo[s.Repo] = i
			g.Environments = append(g.Environments, ServiceEnvironment{Owner: owner, Repo: repo, Environment: st.Environment.Name})
		}
		g.Environments[i].Webhooks = append(g.Environments[i].Webhooks, Webhook{Service: d.Service, Variable: WebhookVariable, TriggerID: d.Trigger.Identifier})
	}
	for i := range g.Environments {
		if hooks := g.Environments[i].Webhooks; len(hooks) > 1 {
			for j := range hooks {
				hooks[j].Variable = WebhookVariable + "_" + strings.ToUpper(ident.From(hooks[j].Service))
			}
		}
	}
	if f := st.Foundation; f != nil && p.IsPlatform() {
		if f.Repository != "" {
			owner, name, _ := strings.Cut(f.Repository, "/")
			r := &RepositorySettings{Owner: owner, Name: name, Branch: MainBranch, RequiredCheck: PreviewCheck, Approvals: 1}
			// The stacks after the root apply what dev proved; each waits
			// for the platform team's review.
			for _, name := range c.Chain[1:] {
				r.Environments = append(r.Environments, RepositoryEnvironment{Name: name, ReviewerTeams: []string{c.PlatformTeam}})
			}
			g.Repository = r
		}
	}
	if st.OwnsFoundation() && !p.IsPlatform() {
		for i := range c.Services {
			s := &c.Services[i]
			if !s.Backstage || s.Stack != p.Shard {
				continue
			}
			owner, repo, _ := strings.Cut(s.Repo, "/")
			info := CatalogInfo{Service: s.Name, Owner: owner, Repo: repo, Path: "catalog-info.yaml", Team: s.Team,
				Description: s.Description, ServiceID: ident.Service(s.Name), Scope: p.Scope}
			for _, env := range s.Environments {
				e := c.Stacks[env].Environment
				info.Pipelines = append(info.Pipelines, NamedID{Label: e.Name, ID: ident.Pipeline(s.Name, e.Identifier)})
			}
			g.CatalogInfo = append(g.CatalogInfo, info)
		}
	}
	p.GitHub = g
}

// HarnessURL is the base of Harness's UI.
const HarnessURL = "https://app.harness.io"

// PipelineURL is a pipeline's page in the form the Harness CI/CD plugin
// for Backstage parses: harness-ci-cd's useProjectSlugFromEntity matches
// '(.*)/account/:accountId/:module/orgs/:orgId/projects/:projectId/pipelines/:pipelineId/(.*)'
// (path-to-regexp), so a segment after the pipeline's identifier is
// needed; the page is its executions (.../pipelines/<id>/executions), and
// the URL is also the form IDP scorecards' Harness data source splits
// (developer.harness.io, "Harness" data source: from under Projects).
func PipelineURL(account string, s Scope, id string) string {
	return fmt.Sprintf("%s/ng/account/%s/home/orgs/%s/projects/%s/pipelines/%s/executions", HarnessURL, account, s.OrgID, s.ProjectID, id)
}

// ServiceURL is a service's page in the same form: the plugin matches
// '.../services/:serviceId/(.*)', and Harness's service page has no
// segment after the identifier, so the URL ends with '/'.
func ServiceURL(account string, s Scope, id string) string {
	return fmt.Sprintf("%s/ng/account/%s/home/orgs/%s/projects/%s/services/%s/", HarnessURL, account, s.OrgID, s.ProjectID, id)
}

// Content is the catalog-info.yaml of the service in account: the Harness
// plugin's annotations (harness.io/pipelines and harness.io/services, each
// a block of "label: URL" lines) and a link to each pipeline.
func (ci CatalogInfo) Content(account string) (string, error) {
	var pipelines strings.Builder
	var linkList []map[string]string
	for _, p := range ci.Pipelines {
		url := PipelineURL(account, ci.Scope, p.ID)
		fmt.Fprintf(&pipelines, "%s: %s\n", p.Label, url)
		linkList = append(linkList, map[string]string{"url": url, "title": "Harness pipeline " + p.Label, "icon": "dashboard"})
	}
	doc := map[string]any{
		"apiVersion": "backstage.io/v1alpha1",
		"kind":       "Component",
		"metadata": map[string]any{
			"name":        ci.Service,
			"description": ci.Description,
			"annotations": map[string]string{
				"harness.io/pipelines": pipelines.String(),
				"harness.io/services":  ci.Service + ": " + ServiceURL(account, ci.Scope, ci.ServiceID) + "\n",
			},
			"links": linkList,
		},
		"spec": map[string]any{"type": "service", "owner": ci.Team, "lifecycle": "production"},
	}
	b, err := yaml.Marshal(doc)
	if err != nil {
		return "", err
	}
	return "# Generated by harness-platform from catalog/services.yaml; edits are overwritten.\n" + string(b), nil
}
