package plan

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/ident"
)

// GitHub is what a stack declares in GitHub. The foundation stack owns
// this program's repository settings and the services' Backstage files;
// every service stack owns, in each organisation holding its services'
// repositories, one Actions variable with its triggers' webhook URLs,
// because only it knows them.
type GitHub struct {
	// Repository is set on the foundation stack when the catalog names
	// this program's repository.
	Repository *RepositorySettings
	// Webhooks are the stack's webhook variables, one per owner of its
	// services' repositories.
	Webhooks []WebhookVariable
	// CatalogInfo are the Backstage files of the services asking for one
	// (foundation stack only).
	CatalogInfo []CatalogInfo
	// WebhookAPIKeyConfig is the optional config secret whose value is
	// given to the webhook variables' repositories as an organisation
	// secret (WebhookVariable.APIKeySecret).
	WebhookAPIKeyConfig string
}

// Lookups is how many reads the program makes of GitHub, by lookup, in a
// preview or up of the stack, at most: a team per reviewer team of this
// program's repository (getTeam); a repository per repository of a
// webhook variable (getRepository), on the stack's first run, after which
// only those it has kept no id for; and this program's repository, for
// its runner group, only when it has no environment whose state holds
// the id.
func (g *GitHub) Lookups() int {
	n := 0
	for _, v := range g.Webhooks {
		n += len(v.Repos)
	}
	if g.Repository != nil {
		for _, e := range g.Repository.Environments {
			n += len(e.ReviewerTeams)
		}
		if len(g.Repository.Environments) == 0 {
			n++ // the repository's id, for its runner group
		}
	}
	return n
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
	// RunnerGroup is the organisation's runner group of the deployer
	// runners.
	RunnerGroup RunnerGroup
}

// RunnerGroup is an organisation's group of self-hosted runners that
// only this repository, and only Workflows of it, may use: GitHub runs a
// job on a group's runner only for a workflow the group selects, pinned
// to a ref ("Managing access to self-hosted runners using groups":
// selected workflows, "Only jobs directly defined within the selected
// workflows will have access"), so a pull request's copy of a workflow,
// whose ref is refs/pull/<n>/merge, cannot take them, whatever its
// runs-on says.
type RunnerGroup struct {
	Name string
	// Workflows are the selected workflows: owner/repo/path@ref.
	Workflows []string
}

// DeployerRunnerGroup is the runner group the workflows' jobs that
// update stacks, or save the plans an update applies, run in (runs-on:
// group).
const DeployerRunnerGroup = "harness-platform-deployers"

// DeployerWorkflows are the workflows whose jobs run in the
// DeployerRunnerGroup: the reusable workflows that define those jobs (a
// selected workflow gives its own jobs, not its callers', the group).
var DeployerWorkflows = []string{".github/workflows/up-stack.yml", ".github/workflows/plan-stack.yml"}

// RepositoryEnvironment is a GitHub environment with required reviewers.
type RepositoryEnvironment struct {
	Name          string
	ReviewerTeams []string // GitHub team slugs: the catalog's team names
	// PreventSelfReview: whoever started a run cannot approve its job.
	PreventSelfReview bool
}

// WebhookVariable is an organisation's Actions variable holding what a
// service stack's builds need to start their deployments: its services'
// webhook URLs in its environment, as JSON (Value), visible only to
// their repositories. One object per stack and owner, written when a
// service of the stack is added, removed or its trigger changes, instead
// of a GitHub environment and a variable per repository and environment
// (two content-generating writes per service, at 1,000 services four
// hours of GitHub's 500 an hour): the reusable workflow
// deploy-to-harness.yml finds the caller's service among the variables
// the repository sees (docs.github.com, "Store information in
// variables": organisation variables with selected repositories).
type WebhookVariable struct {
	Owner string
	// Name is HARNESS_WEBHOOKS_<STACK> (ident.GitHubName: unique, as
	// catalog validation refuses two service stacks that would share it).
	Name string
	// Environment is the Harness environment's name, which the workflow's
	// caller names.
	Environment string
	// Repos are the repositories (names, sorted) that may read it.
	Repos []string
	// Hooks are the services' triggers, in deployment order.
	Hooks []Webhook
	// APIKeySecret is the organisation secret holding the webhook API key
	// for the same repositories, when one is configured:
	// HARNESS_API_KEY_<STACK>.
	APIKeySecret string
}

// Resource is the Pulumi resource name of the variable; its lookups and
// the API key secret are named after it.
func (v WebhookVariable) Resource() string { return v.Owner + "-webhooks" }

// Webhook is a service's trigger, whose URL Harness computes.
type Webhook struct {
	Service   string
	TriggerID string
}

// WebhookValue is a webhook variable's value: what the workflow reads.
type WebhookValue struct {
	Environment  string            `json:"environment"`
	APIKeySecret string            `json:"apiKeySecret,omitempty"`
	Webhooks     map[string]string `json:"webhooks"` // service name: URL
}

// MaxVariableBytes is the most GitHub stores in one variable ("Limits for
// configuration variables": 48 KB).
const MaxVariableBytes = 48 * 1024

// Value is the variable's JSON value, given the triggers' URLs by
// identifier, naming the API key secret when one is written: keys sorted
// (encoding/json), so an unchanged stack writes an unchanged value.
func (v WebhookVariable) Value(urls map[string]string, apiKey bool) (string, error) {
	val := WebhookValue{Environment: v.Environment, Webhooks: map[string]string{}}
	if apiKey {
		val.APIKeySecret = v.APIKeySecret
	}
	for _, h := range v.Hooks {
		url, ok := urls[h.TriggerID]
		if !ok {
			return "", fmt.Errorf("no webhook URL for trigger %s", h.TriggerID)
		}
		val.Webhooks[h.Service] = url
	}
	data, err := json.Marshal(val)
	if err != nil {
		return "", err
	}
	if len(data) > MaxVariableBytes {
		return "", fmt.Errorf("%s: %d bytes of webhook URLs for %d services; GitHub stores at most 48 KB in a variable: lower serviceStacks.maxServices in %s so that each service stack holds fewer services",
			v.Name, len(data), len(v.Hooks), catalog.TeamsFile)
	}
	return string(data), nil
}

// Prefixes of the organisation objects the stacks write; the workflow
// reads every variable whose name starts with WebhookVariablePrefix.
const (
	WebhookVariablePrefix = "HARNESS_WEBHOOKS_"
	APIKeySecretPrefix    = "HARNESS_API_KEY_"
)

// Resource is the Pulumi resource name of the file.
func (ci CatalogInfo) Resource() string { return ci.Repo + "-catalog-info" }

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
	// DeployURL opens the Backstage deploy template with the service
	// filled in (DeployTemplateURL), or "" when the foundation names no
	// Backstage instance (backstageUrl).
	DeployURL string
}

// NamedID is a labelled identifier.
type NamedID struct{ Label, ID string }

// The branch this program's repository protects, and the check (the
// preview workflow's job) a pull request must pass to merge into it.
const (
	PreviewCheck = "preview"
	MainBranch   = "main"
)

// GitHubActionsAppID is the GitHub App that sets GitHub Actions jobs'
// statuses. A required check is declared with it (context:app_id): one
// declared without it is bound to the app that first sets its status,
// and the provider reads it back as preview:15368, which the drift check
// would report every night (terraform-provider-github,
// resource_github_branch_protection_v3; docs.github.com, "Update branch
// protection": checks[].app_id).
const GitHubActionsAppID = "15368"

func buildGitHub(p *Plan, c *catalog.Catalog, st *catalog.Stack) {
	g := &GitHub{WebhookAPIKeyConfig: catalog.WebhookAPIKeyKey}
	byOwner := map[string]int{}
	for _, d := range p.Deployments {
		s, _ := c.Service(d.Service)
		owner, repo, _ := strings.Cut(s.Repo, "/")
		i, ok := byOwner[owner]
		if !ok {
			i = len(g.Webhooks)
			byOwner[owner] = i
			name := ident.GitHubName(p.Stack)
			g.Webhooks = append(g.Webhooks, WebhookVariable{Owner: owner, Name: WebhookVariablePrefix + name,
				Environment: st.Environment.Name, APIKeySecret: APIKeySecretPrefix + name})
		}
		w := &g.Webhooks[i]
		if !slices.Contains(w.Repos, repo) {
			w.Repos = append(w.Repos, repo)
		}
		w.Hooks = append(w.Hooks, Webhook{Service: d.Service, TriggerID: d.Trigger.Identifier})
	}
	for i := range g.Webhooks {
		slices.Sort(g.Webhooks[i].Repos)
	}
	if f := st.Foundation; f != nil && p.IsPlatform() {
		if f.Repository != "" {
			owner, name, _ := strings.Cut(f.Repository, "/")
			r := &RepositorySettings{Owner: owner, Name: name, Branch: MainBranch, RequiredCheck: PreviewCheck + ":" + GitHubActionsAppID, Approvals: 1}
			r.RunnerGroup = RunnerGroup{Name: DeployerRunnerGroup}
			for _, w := range DeployerWorkflows {
				r.RunnerGroup.Workflows = append(r.RunnerGroup.Workflows, f.Repository+"/"+w+"@refs/heads/"+MainBranch)
			}
			// The stacks after the root apply what dev proved; each waits
			// for the platform team's review.
			for _, name := range c.Chain[1:] {
				r.Environments = append(r.Environments, RepositoryEnvironment{Name: name, ReviewerTeams: []string{c.PlatformTeam}, PreventSelfReview: true})
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
			if f := c.Root().Foundation; f != nil && f.BackstageURL != "" {
				info.DeployURL = DeployTemplateURL(f.BackstageURL, s.Name)
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

// The Backstage software template that runs a service's pipeline
// (backstage/generate.go writes it: backstage/templates/deploy-service),
// its form's field for the service, and the title of the service page's
// link to it (seed 004, section 11: "Deploy to Environment" on the
// service page).
const (
	DeployTemplate     = "deploy-service"
	DeployServiceField = "service"
	DeployLinkTitle    = "Deploy to an environment"
	// DeployLinkIcon is one of the icons every Backstage app has
	// (@backstage/core-app-api AppIcons: "scaffolder", the scaffolder's
	// own "Create..." icon); EntityLinksCard shows a link's icon with
	// app.getSystemIcon(icon), a generic one for an unknown key.
	DeployLinkIcon = "scaffolder"
)

// DeployTemplateURL opens the deploy template of the Backstage instance at
// base with the service filled in. The scaffolder serves a template at
// <base>/create/templates/<namespace>/<name> (plugin-scaffolder: its page's
// default path /create, selectedTemplateRouteRef
// /templates/:namespace/:templateName; the template is in the default
// namespace), and its form starts from the JSON object in the formData
// query parameter (@backstage/plugin-scaffolder-react,
// useFormDataFromQuery: qs.parse(location.search), then
// JSON.parse(query.formData)). The service is the entity ref the form's
// EntityPicker holds for the service's Component, stringifyEntityRef's
// kind:namespace/name in lower case: its catalog-info.yaml names no
// namespace, so default. An absolute URL: the catalog refuses a link
// that is not one (@backstage/catalog-model FieldFormatEntityPolicy,
// isValidUrl: new URL(value)).
func DeployTemplateURL(base, service string) string {
	data, _ := json.Marshal(map[string]string{DeployServiceField: "component:default/" + strings.ToLower(service)})
	return strings.TrimRight(base, "/") + "/create/templates/default/" + DeployTemplate + "?formData=" + url.QueryEscape(string(data))
}

// Content is the catalog-info.yaml of the service in account: the Harness
// plugin's annotations (harness.io/pipelines and harness.io/services, each
// a block of "label: URL" lines), a link to each pipeline and, first,
// when the foundation names the Backstage instance, the link that opens
// the deploy template for the service.
func (ci CatalogInfo) Content(account string) (string, error) {
	var pipelines strings.Builder
	var linkList []map[string]string
	if ci.DeployURL != "" {
		linkList = append(linkList, map[string]string{"url": ci.DeployURL, "title": DeployLinkTitle, "icon": DeployLinkIcon})
	}
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
