package program

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/catalog"
	ex "github.com/company/harness-platform/internal/example"
	"github.com/company/harness-platform/internal/mocktest"
	"github.com/company/harness-platform/plan"
)

const (
	tGHEnv         = "github:index/repositoryEnvironment:RepositoryEnvironment"
	tGHOrgVariable = "github:index/actionsOrganizationVariable:ActionsOrganizationVariable"
	tGHSecret      = "github:index/actionsOrganizationSecret:ActionsOrganizationSecret"
	tGHBranch      = "github:index/branchProtectionV3:BranchProtectionV3"
	tGHFile        = "github:index/repositoryFile:RepositoryFile"
	tGHTeamRepo    = "github:index/teamRepository:TeamRepository"
	tGHRunnerGroup = "github:index/actionsRunnerGroup:ActionsRunnerGroup"
)

// pluginMatch parses a URL as the Harness CI/CD plugin for Backstage
// (harness/backstage-plugins, plugins/harness-ci-cd,
// hooks/useProjectSlugEntity.tsx) does: path-to-regexp's match of
// '(.*)/account/:accountId/<module>/orgs/:orgId/projects/:projectId/<kind>/:id/(.*)',
// the <module> part chosen by whether the URL holds /module/ or /all/
// (here compiled as path-to-regexp compiles it: a parameter is
// [^/#?]+?, case-insensitive, an optional trailing delimiter).
func pluginMatch(url, kind string) (map[string]string, bool) {
	module := `([^/#?]+?)`
	switch {
	case strings.Contains(url, "/module/"):
		module = `module/([^/#?]+?)`
	case strings.Contains(url, "/all/"):
		module = `all()`
	}
	param := `([^/#?]+?)`
	re := regexp.MustCompile(`(?i)^(.*)/account/` + param + `/` + module + `/orgs/` + param + `/projects/` + param + `/` + kind + `/` + param + `/(.*)[/#?]?$`)
	m := re.FindStringSubmatch(url)
	if m == nil {
		return nil, false
	}
	return map[string]string{"accountId": m[2], "orgId": m[4], "projectId": m[5], "id": m[6]}, true
}

func TestGitHubRepositorySettings(t *testing.T) {
	c := example(t)
	rec := mustRun(t, c, "dev")
	envs := map[string]mocktest.Registered{}
	for _, e := range rec.OfType(tGHEnv) {
		if str(e, "repository") == "harness-platform" {
			envs[str(e, "environment")] = e
		}
	}
	for _, name := range []string{"staging", "production"} {
		e, ok := envs[name]
		if !ok {
			t.Fatalf("no %s environment in this repository: %v", name, envs)
		}
		teams := value(e, "reviewers").ArrayValue()[0].ObjectValue()["teams"].ArrayValue()
		if len(teams) != 1 || int(teams[0].NumberValue()) != mocktest.TeamID(c.PlatformTeam) {
			t.Errorf("%s reviewers %v, want the platform team's id", name, teams)
		}
		if !value(e, "preventSelfReview").BoolValue() || value(e, "canAdminsBypass").BoolValue() || !value(e, "deploymentBranchPolicy.protectedBranches").BoolValue() {
			t.Errorf("%s: %v", name, e.Inputs)
		}
	}
	if len(envs) != 2 {
		t.Errorf("environments %v: dev deploys without review", slices.Collect(func(yield func(string) bool) {
			for k := range envs {
				yield(k)
			}
		}))
	}
	b := rec.OfType(tGHBranch)
	if len(b) != 1 || str(b[0], "branch") != "main" || !value(b[0], "enforceAdmins").BoolValue() ||
		!slices.Equal(propertyStrings(value(b[0], "requiredStatusChecks.checks")), []string{plan.PreviewCheck + ":" + plan.GitHubActionsAppID}) || !value(b[0], "requiredStatusChecks.strict").BoolValue() ||
		value(b[0], "requiredPullRequestReviews.requiredApprovingReviewCount").NumberValue() != 1 {
		t.Errorf("main's protection: %v", b)
	}
	// The deployer runners: this repository only, the workflows that
	// update stacks only, at main, never public repositories.
	g := rec.OfType(tGHRunnerGroup)
	if len(g) != 1 || str(g[0], "name") != plan.DeployerRunnerGroup || str(g[0], "visibility") != "selected" ||
		!value(g[0], "restrictedToWorkflows").BoolValue() || value(g[0], "allowsPublicRepositories").BoolValue() ||
		!slices.Equal(propertyStrings(value(g[0], "selectedWorkflows")), []string{
			ex.L(t, "company/harness-platform/.github/workflows/up-stack.yml@refs/heads/main"),
			ex.L(t, "company/harness-platform/.github/workflows/plan-stack.yml@refs/heads/main")}) ||
		!slices.Equal(value(g[0], "selectedRepositoryIds").ArrayValue(), []resource.PropertyValue{
			resource.NewNumberProperty(float64(mocktest.RepoID(ex.L(t, "company/harness-platform"))))}) {
		t.Errorf("the deployer runner group: %+v", g)
	}
	// The reviewing team can read (and write) the repository it reviews.
	tr := rec.OfType(tGHTeamRepo)
	if len(tr) != 1 || str(tr[0], "teamId") != c.PlatformTeam || str(tr[0], "repository") != "harness-platform" || str(tr[0], "permission") != "push" {
		t.Errorf("reviewer access: %+v", tr)
	}
	for _, stack := range []string{"staging", "production"} {
		if n := len(mustRun(t, c, stack).OfType(tGHBranch)); n != 0 {
			t.Errorf("%s declares the repository's protection too", stack)
		}
	}
}

// Each service stack gives its services' repositories, through one
// organisation variable visible to them alone, the webhook URLs of their
// triggers in its environment; the API key only when configured, and then
// only as an organisation secret for the same repositories.
func TestServiceRepositories(t *testing.T) {
	c := example(t)
	checked := 0
	for _, env := range c.Chain {
		rec := mustRun(t, c, env)
		variables := map[string]mocktest.Registered{}
		for _, v := range rec.OfType(tGHOrgVariable) {
			variables[str(v, "variableName")] = v
		}
		want, lookups := 0, 0
		for _, stack := range c.StacksOf(env) {
			p, err := plan.Build(c, stack)
			if err != nil {
				t.Fatal(err)
			}
			lookups += p.GitHub.Lookups()
			for _, w := range p.GitHub.Webhooks {
				want++
				v, ok := variables[w.Name]
				if !ok {
					t.Errorf("%s: no variable %s", stack, w.Name)
					continue
				}
				if str(v, "visibility") != "selected" {
					t.Errorf("%s: %s visible to %q", stack, w.Name, str(v, "visibility"))
				}
				var ids []int
				for _, id := range value(v, "selectedRepositoryIds").ArrayValue() {
					ids = append(ids, int(id.NumberValue()))
				}
				var wantIDs []int
				for _, repo := range w.Repos {
					wantIDs = append(wantIDs, mocktest.RepoID(w.Owner+"/"+repo))
				}
				if !slices.Equal(ids, wantIDs) {
					t.Errorf("%s: %s is visible to %v, want its repositories %v (%v)", stack, w.Name, ids, wantIDs, w.Repos)
				}
				var val plan.WebhookValue
				if err := json.Unmarshal([]byte(str(v, "value")), &val); err != nil {
					t.Fatalf("%s: %v", w.Name, err)
				}
				if val.Environment != c.Stacks[env].Environment.Name || val.APIKeySecret != "" || len(val.Webhooks) != len(p.Deployments) {
					t.Errorf("%s: %s holds %+v", stack, w.Name, val)
				}
				for _, d := range p.Deployments {
					checked++
					if url := "https://app.harness.io/webhook/" + d.Trigger.Identifier; val.Webhooks[d.Service] != url {
						t.Errorf("%s: %s's webhook is %q, want %q", stack, d.Service, val.Webhooks[d.Service], url)
					}
					s, _ := c.Service(d.Service)
					if !slices.Contains(w.Repos, s.Repo[strings.Index(s.Repo, "/")+1:]) {
						t.Errorf("%s: %s's repository %s may not read %s", stack, d.Service, s.Repo, w.Name)
					}
				}
			}
		}
		// What preflight counts of a run's lookups is what the program
		// looks up.
		if got := len(rec.Lookups()); got != lookups {
			t.Errorf("%s: the program looks GitHub up %d times, its plans say %d", env, got, lookups)
		}
		if len(variables) != want || want == 0 {
			t.Errorf("%s: %d webhook variables, want %d", env, len(variables), want)
		}
		if n := len(rec.OfType(tGHSecret)); n != 0 {
			t.Errorf("%s: %d API key secrets without the setting", env, n)
		}
	}
	if checked == 0 {
		t.Fatal("no service's webhook checked")
	}
	const key = "harness_api_key_never_in_plaintext"
	rec, err := runWith(deployedChain(c), c, "staging", false, mocktest.WithConfig(map[string]string{
		"harness:accountId": mocktest.TestAccount, catalog.WebhookAPIKeyKey: key}, catalog.WebhookAPIKeyKey))
	if err != nil {
		t.Fatal(err)
	}
	variables := map[string]mocktest.Registered{}
	for _, v := range rec.OfType(tGHOrgVariable) {
		variables[str(v, "value")] = v
	}
	secrets := rec.OfType(tGHSecret)
	if len(secrets) != len(variables) || len(secrets) == 0 {
		t.Errorf("%d API key secrets for %d webhook variables", len(secrets), len(variables))
	}
	named := map[string]bool{}
	for v := range variables {
		var val plan.WebhookValue
		if err := json.Unmarshal([]byte(v), &val); err != nil {
			t.Fatal(err)
		}
		named[val.APIKeySecret] = true
	}
	for _, s := range secrets {
		if !s.Inputs["plaintextValue"].IsSecret() || !named[str(s, "secretName")] || !strings.HasPrefix(str(s, "secretName"), plan.APIKeySecretPrefix) ||
			str(s, "visibility") != "selected" || len(value(s, "selectedRepositoryIds").ArrayValue()) == 0 {
			t.Errorf("API key %v (the variables name %v)", s.Inputs, named)
		}
	}
	for _, r := range rec.Resources() {
		var walk func(v resource.PropertyValue)
		walk = func(v resource.PropertyValue) {
			switch {
			case v.IsSecret():
			case v.IsString() && strings.Contains(v.StringValue(), key):
				t.Errorf("%s holds the API key in plaintext", r.Name)
			case v.IsObject():
				for _, e := range v.ObjectValue() {
					walk(e)
				}
			case v.IsArray():
				for _, e := range v.ArrayValue() {
					walk(e)
				}
			}
		}
		walk(resource.NewObjectProperty(r.Inputs))
	}
}

// A service that asks for it gets a catalog-info.yaml whose annotations the
// Harness plugin parses (blocks of "label: URL" lines), a link to each of
// its pipelines and, when the foundation names the Backstage instance,
// first, the link that opens the deploy template for it; without
// backstageUrl, no such link and no error.
func TestCatalogInfo(t *testing.T) {
	c := example(t)
	base := c.Root().Foundation.BackstageURL
	if base == "" {
		t.Fatal("the example foundation has no backstageUrl: nothing checks the deploy link")
	}
	files := c.Files()
	stackFile := "Pulumi." + c.Chain[0] + ".yaml"
	line := "    backstageUrl: " + base + "\n"
	if !strings.Contains(string(files[stackFile]), line) {
		t.Fatalf("%s has no %q", stackFile, line)
	}
	without := catalog.Files{}
	for k, v := range files {
		without[k] = v
	}
	without[stackFile] = []byte(strings.Replace(string(files[stackFile]), line, "", 1))
	unset, err := catalog.Resolve(without, nil)
	if err != nil {
		t.Fatalf("without backstageUrl: %v", err)
	}
	checkCatalogInfo(t, c, base)
	checkCatalogInfo(t, unset, "")
}

func checkCatalogInfo(t *testing.T, c *catalog.Catalog, backstage string) {
	t.Helper()
	files := mustRun(t, c, "dev").OfType(tGHFile)
	var wanted []string
	for _, s := range c.Services {
		if s.Backstage {
			wanted = append(wanted, s.Name)
		}
	}
	if len(files) != len(wanted) || len(wanted) == 0 {
		t.Fatalf("%d catalog-info files for %v", len(files), wanted)
	}
	for _, f := range files {
		var doc struct {
			Metadata struct {
				Name        string
				Annotations map[string]string
				Links       []struct{ URL, Title, Icon string }
			}
			Spec struct{ Owner string }
		}
		if err := yaml.Unmarshal([]byte(str(f, "content")), &doc); err != nil {
			t.Fatal(err)
		}
		s, _ := c.Service(doc.Metadata.Name)
		if str(f, "file") != "catalog-info.yaml" || doc.Spec.Owner != s.Team {
			t.Errorf("%s: file %s owner %s", s.Name, str(f, "file"), doc.Spec.Owner)
		}
		links := doc.Metadata.Links
		if backstage != "" {
			// The deploy link: the template's page in that instance, its
			// form filled in with the service's entity ref
			// (backstage/backstage_test.go renders the template with it).
			want := backstage + "/create/templates/default/" + plan.DeployTemplate +
				"?formData=%7B%22" + plan.DeployServiceField + "%22%3A%22component%3Adefault%2F" + s.Name + "%22%7D"
			if len(links) == 0 || links[0].URL != want || links[0].Title != plan.DeployLinkTitle || links[0].Icon != "scaffolder" {
				t.Errorf("%s: first link %+v, want the deploy link %s", s.Name, links, want)
			} else {
				links = links[1:]
			}
		}
		lines := strings.Split(strings.TrimSpace(doc.Metadata.Annotations["harness.io/pipelines"]), "\n")
		if len(lines) != len(s.Environments) || len(links) != len(lines) {
			t.Errorf("%s: %d pipeline lines, %d pipeline links, %d environments", s.Name, len(lines), len(links), len(s.Environments))
		}
		for _, l := range links {
			if strings.Contains(l.URL, "/create/templates/") {
				t.Errorf("%s: a second or unexpected deploy link %s (backstageUrl %q)", s.Name, l.URL, backstage)
			}
		}
		for _, l := range lines {
			// The plugin splits each line at its first ':'.
			label, url, _ := strings.Cut(l, ":")
			url = strings.TrimSpace(url)
			params, ok := pluginMatch(url, "pipelines")
			if strings.TrimSpace(label) == "" || !ok || params["accountId"] != mocktest.TestAccount || params["id"] == "" {
				t.Errorf("%s: pipeline line %q is not what the Harness plugin parses (%v)", s.Name, l, params)
			}
		}
		svc := strings.TrimSpace(doc.Metadata.Annotations["harness.io/services"])
		label, url, _ := strings.Cut(svc, ":")
		if params, ok := pluginMatch(strings.TrimSpace(url), "services"); label != s.Name || !ok || params["id"] == "" {
			t.Errorf("%s: service line %q is not what the Harness plugin parses", s.Name, svc)
		}
	}
}

// A service stack looks a repository's id up only the first time it
// selects it: the ids its last update kept (its own outputs) are used as
// they are, a repository new to it is looked up, and RereadRepositories
// looks every one up again.
func TestRepositoryIDsAreKept(t *testing.T) {
	c := example(t)
	stack := c.StacksOf("staging")[1]
	p, err := plan.Build(c, stack)
	if err != nil {
		t.Fatal(err)
	}
	var repos []string
	for _, w := range p.GitHub.Webhooks {
		for _, r := range w.Repos {
			repos = append(repos, w.Owner+"/"+r)
		}
	}
	if len(repos) < 2 {
		t.Fatalf("%s selects %d repositories; the test needs two", stack, len(repos))
	}
	// Kept: every repository but the last, under ids GitHub would not
	// give (the mocks' lookup answers mocktest.RepoID).
	kept := map[string]any{}
	for i, r := range repos[:len(repos)-1] {
		kept[r] = float64(900 + i)
	}
	outputs := deployedChain(c)
	outputs[stack][OutRepositoryIDs] = resource.NewPropertyValue(kept)
	// The repositories each variable selects, by "owner/name".
	selected := func(rec *mocktest.Recorder) map[string]int {
		got := map[string]int{}
		for _, v := range rec.OfType(tGHOrgVariable) {
			for _, w := range p.GitHub.Webhooks {
				if w.Name != str(v, "variableName") {
					continue
				}
				for i, id := range value(v, "selectedRepositoryIds").ArrayValue() {
					got[w.Owner+"/"+w.Repos[i]] = int(id.NumberValue())
				}
			}
		}
		return got
	}
	lookups := func(rec *mocktest.Recorder) int {
		n := 0
		for _, l := range rec.Lookups() {
			if l == "github:index/getRepository:getRepository" {
				n++
			}
		}
		return n
	}
	for _, reread := range []bool{false, true} {
		rec, err := runProgram(New(c.Files(), RereadRepositories(reread)), outputs, c, stack, false)
		if err != nil {
			t.Fatal(err)
		}
		got := selected(rec)
		for _, r := range repos {
			want := mocktest.RepoID(r)
			if id, ok := kept[r]; ok && !reread {
				want = int(id.(float64))
			}
			if got[r] != want {
				t.Errorf("reread %v: %s selects %s as %d, want %d", reread, stack, r, got[r], want)
			}
		}
		want := 1
		if reread {
			want = len(repos)
		}
		if n := lookups(rec); n != want {
			t.Errorf("reread %v: %s looks up %d repositories, want %d", reread, stack, n, want)
		}
	}
}
