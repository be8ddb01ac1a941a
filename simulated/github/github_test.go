package github

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"

	"github.com/company/harness-platform/harness/importid"
	"github.com/company/harness-platform/simulated/core"
)

// The simulated GitHub's Check fills the Terraform defaults the real
// provider's Check fills (an omitted input it does not fill would show as
// a change when the real plugin diffs the state: check-plugins found
// canAdminsBypass and preventSelfReview so), and keeps what is given; its
// state records the schema version, as the bridge does.
func TestGitHubCheckDefaults(t *testing.T) {
	gh := New()
	typ := "github:index/repositoryEnvironment:RepositoryEnvironment"
	out, failures := gh.Check(typ, "e", resource.NewPropertyMapFromMap(map[string]any{
		"repository": "payments", "environment": "prod", "preventSelfReview": true}))
	if len(failures) > 0 {
		t.Fatalf("failures: %v", failures)
	}
	if !out["canAdminsBypass"].IsBool() || !out["canAdminsBypass"].BoolValue() {
		t.Errorf("canAdminsBypass = %v, want the provider's default true", out["canAdminsBypass"])
	}
	if !out["preventSelfReview"].BoolValue() {
		t.Errorf("preventSelfReview given true became %v", out["preventSelfReview"])
	}
	meta := gh.Computed(typ, "payments:prod", out)["__meta"]
	if !meta.IsString() || meta.StringValue() != `{"schema_version":"1"}` {
		t.Errorf("__meta = %v, want schema version 1", meta)
	}
}

// The loopback GitHub answers the reads the real provider makes in a
// preview (the GHES form of the path), with the simulation's ids, and 404
// for the rest.
func TestGitHubAPI(t *testing.T) {
	api, err := StartAPI()
	if err != nil {
		t.Fatal(err)
	}
	defer api.Close()
	get := func(path string) (int, map[string]any) {
		resp, err := http.Get(api.URL() + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&body)
		return resp.StatusCode, body
	}
	code, team := get("api/v3/orgs/company/teams/platform")
	if code != 200 || team["id"] != float64(TeamID("platform")) || team["slug"] != "platform" {
		t.Errorf("team: %d %v", code, team)
	}
	code, repo := get("api/v3/repos/company/payments")
	if code != 200 || repo["id"] != float64(TeamID("payments")) {
		t.Errorf("repo: %d %v", code, repo)
	}
	if code, _ := get("api/v3/repos/company/payments/environments"); code != 404 {
		t.Errorf("an unknown path answered %d, want 404", code)
	}
}

// An organisation variable or secret is written only with the token's
// organisation permission Variables or Secrets (write); GitHub answers
// anything less with 403, at the request the provider makes first.
func TestOrgWritesNeedTheirPermission(t *testing.T) {
	variable := resource.PropertyMap{"variableName": resource.NewStringProperty("HARNESS_WEBHOOKS_DEV"), "visibility": resource.NewStringProperty("all")}
	secret := resource.PropertyMap{"secretName": resource.NewStringProperty("HARNESS_API_KEY_DEV"), "visibility": resource.NewStringProperty("all")}
	const orgs = "https://api.github.com/orgs/company/actions/"
	for _, tc := range []struct {
		account core.GitHubAccount
		typ     string
		news    resource.PropertyMap
		create  bool
		want    string
	}{
		{core.GitHubAccount{}, importid.GitHubOrgVariable, variable, true, ""},
		{core.GitHubAccount{}, importid.GitHubOrgSecret, secret, true, ""},
		{core.GitHubAccount{Variables: "read"}, importid.GitHubOrgVariable, variable, true, "POST " + orgs + "variables: 403 Resource not accessible by integration []"},
		{core.GitHubAccount{Variables: "none"}, importid.GitHubOrgVariable, variable, false, "PATCH " + orgs + "variables/HARNESS_WEBHOOKS_DEV: 403 Resource not accessible by integration []"},
		{core.GitHubAccount{Secrets: "none"}, importid.GitHubOrgSecret, secret, true, "GET " + orgs + "secrets/public-key: 403 Resource not accessible by integration []"},
		{core.GitHubAccount{Secrets: "read"}, importid.GitHubOrgSecret, secret, false, "PUT " + orgs + "secrets/HARNESS_API_KEY_DEV: 403 Resource not accessible by integration []"},
		{core.GitHubAccount{Secrets: "none"}, importid.GitHubOrgVariable, variable, true, ""},
	} {
		err := writeRefusal(core.Reach{GitHub: tc.account}, tc.typ, tc.news, "company", tc.create)
		if got := fmt.Sprint(err); tc.want == "" && err != nil || tc.want != "" && got != tc.want {
			t.Errorf("%+v %s: %v, want %q", tc.account, tc.typ, err, tc.want)
		}
	}
}

// A refresh's read of an organisation variable or secret without the
// permission is GitHub's 403. (ESC's part: package simulated's
// TestOpenEnvironmentAndOrgReads.)
func TestOpenEnvironmentAndOrgReads(t *testing.T) {
	r := core.Reach{GitHub: core.GitHubAccount{Variables: "none", Secrets: "none"}}
	state := resource.PropertyMap{"variableName": resource.NewStringProperty("HARNESS_WEBHOOK_DEV")}
	if err := readRefusal(r, importid.GitHubOrgVariable, state, "company"); err == nil || !strings.Contains(err.Error(), "403 Resource not accessible by integration") {
		t.Errorf("reading an organisation variable without Variables: %v", err)
	}
	if err := readRefusal(core.Reach{}, importid.GitHubOrgVariable, state, "company"); err != nil {
		t.Errorf("with the permission: %v", err)
	}
}

// A runner group as terraform-provider-github declares it
// (resource_github_actions_runner_group.go): name and visibility
// required, visibility one of all, selected, private; allows_public_
// repositories and restricted_to_workflows default false; selected
// repositories only with visibility selected (the provider's refusal);
// its id GitHub's number. Managing it needs the organisation permission
// Self-hosted runners: write, reading it read.
func TestRunnerGroup(t *testing.T) {
	gh := New()
	in := resource.NewPropertyMapFromMap(map[string]any{"name": "deployers", "visibility": "selected",
		"selectedRepositoryIds": []any{1}, "restrictedToWorkflows": true, "selectedWorkflows": []any{"company/harness-platform/.github/workflows/up-stack.yml@refs/heads/main"}})
	out, failures := gh.Check(runnerGroupType, "deployers", in)
	if len(failures) > 0 || out["allowsPublicRepositories"].BoolValue() || !out["restrictedToWorkflows"].BoolValue() {
		t.Errorf("check: %v %v", failures, out)
	}
	if _, failures := gh.Check(runnerGroupType, "g", resource.NewPropertyMapFromMap(map[string]any{"visibility": "public"})); len(failures) != 2 ||
		failures[0].Property != "name" || !strings.Contains(failures[1].Reason, `expected visibility to be one of ["all" "selected" "private"], got public`) {
		t.Errorf("a runner group with no name and visibility public: %v", failures)
	}
	if id := gh.ID(runnerGroupType, "deployers", in); id != fmt.Sprint(RunnerGroupID("deployers")) {
		t.Errorf("id %q", id)
	}
	all := in.Copy()
	all["visibility"] = resource.NewStringProperty("all")
	const groups = "https://api.github.com/orgs/company/actions/runner-groups"
	for _, tc := range []struct {
		account core.GitHubAccount
		news    resource.PropertyMap
		create  bool
		want    string
	}{
		{core.GitHubAccount{}, in, true, ""},
		{core.GitHubAccount{}, all, true, "cannot use selected_repository_ids without visibility being set to selected"},
		{core.GitHubAccount{RunnerGroups: "read"}, in, true, "POST " + groups + ": 403 Resource not accessible by integration []"},
		{core.GitHubAccount{RunnerGroups: "read"}, in, false, fmt.Sprintf("PATCH %s/%d: 403 Resource not accessible by integration []", groups, RunnerGroupID("deployers"))},
	} {
		err := writeRefusal(core.Reach{GitHub: tc.account}, runnerGroupType, tc.news, "company", tc.create)
		if got := fmt.Sprint(err); tc.want == "" && err != nil || tc.want != "" && got != tc.want {
			t.Errorf("%+v: %v, want %q", tc.account, err, tc.want)
		}
	}
	if err := readRefusal(core.Reach{GitHub: core.GitHubAccount{RunnerGroups: "read"}}, runnerGroupType, in, "company"); err != nil {
		t.Errorf("a read with read permission: %v", err)
	}
	if err := readRefusal(core.Reach{GitHub: core.GitHubAccount{RunnerGroups: "none"}}, runnerGroupType, in, "company"); err == nil {
		t.Error("a read without the permission was answered")
	}
}

// A repository environment's repositoryId is its repository's id, the
// one getRepository answers: terraform-provider-github v6.12.1
// (resource_github_repository_environment.go) sets repository_id at
// Create from Repositories.Get, and its Read does not touch it, so the
// runner group takes this program's repository's id from there.
func TestEnvironmentKeepsItsRepositoryID(t *testing.T) {
	gh := New()
	env := gh.Computed(environmentType, "harness-platform:staging", resource.NewPropertyMapFromMap(map[string]any{
		"repository": "harness-platform", "environment": "staging"}))["repositoryId"]
	repo, err := gh.Invoke(getRepository, resource.NewPropertyMapFromMap(map[string]any{"fullName": "company/harness-platform"}))
	if err != nil {
		t.Fatal(err)
	}
	if !env.IsNumber() || env.NumberValue() != repo["repoId"].NumberValue() || env.NumberValue() == 0 {
		t.Errorf("the environment's repositoryId is %v, the repository's id %v", env, repo["repoId"])
	}
}
