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
