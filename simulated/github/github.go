package github

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/company/harness-platform/harness/importid"
	"github.com/company/harness-platform/plan"
	"github.com/company/harness-platform/simulated/core"
)

// Version is the version of the GitHub provider this room stands in for.
const Version = "6.14.1"

// Behavior simulates the GitHub provider for the types the program
// declares: the required inputs below are the ones the provider's Go SDK
// requires (pulumi-github v6.14.1: the `args.X == nil` checks of each New
// function), and a type not listed here is refused: a new type is
// simulated on purpose, not by accident. Its zero value is ready to use.
type Behavior struct {
	core.KeyIsID
	// owner is the organisation the provider was last configured for
	// (GitHub's URLs name it; the simulation holds one).
	owner atomic.Value
}

// New is the simulated GitHub.
func New() *Behavior { return &Behavior{} }

var (
	_ core.Behavior         = (*Behavior)(nil)
	_ core.Addressed        = (*Behavior)(nil)
	_ core.Configurer       = (*Behavior)(nil)
	_ core.Refuser          = (*Behavior)(nil)
	_ core.ReadGuard        = (*Behavior)(nil)
	_ core.WriteGuard       = (*Behavior)(nil)
	_ core.DuplicateRefuser = (*Behavior)(nil)
	_ core.Live             = (*Behavior)(nil)
	_ core.Invoker          = (*Behavior)(nil)
	_ core.CloudInvoker     = (*Behavior)(nil)
	_ core.Budgeted         = (*Behavior)(nil)
	_ core.Paced            = (*Behavior)(nil)
)

const (
	environmentType      = "github:index/repositoryEnvironment:RepositoryEnvironment"
	branchProtectionType = "github:index/branchProtectionV3:BranchProtectionV3"
	repositoryFileType   = "github:index/repositoryFile:RepositoryFile"
	// runnerGroupType is an organisation's runner group
	// (terraform-provider-github resource_github_actions_runner_group.go).
	runnerGroupType = "github:index/actionsRunnerGroup:ActionsRunnerGroup"
)

// required lists each type's required inputs.
var required = map[string][]string{
	environmentType:                              {"environment", "repository"},
	branchProtectionType:                         {"branch", "repository"},
	importid.GitHubOrgVariable:                   {"value", "variableName", "visibility"},
	importid.GitHubOrgSecret:                     {"secretName", "visibility"},
	repositoryFileType:                           {"content", "file", "repository"},
	"github:index/teamRepository:TeamRepository": {"repository", "teamId"},
	runnerGroupType:                              {"name", "visibility"},
}

// Check refuses missing required inputs and the names the provider
// refuses, and fills the Terraform defaults the real provider's Check
// fills.
func (*Behavior) Check(typ, _ string, news resource.PropertyMap) (resource.PropertyMap, []*pulumirpc.CheckFailure) {
	req, ok := required[typ]
	if !ok {
		return news, core.UnknownType("github", typ)
	}
	failures := core.MissingRequired(news, req)
	failures = append(failures, checkNames(typ, news)...)
	// The runner group's visibility: validation.StringInSlice, as the
	// provider's schema declares it.
	if v := core.Str(news, "visibility"); typ == runnerGroupType && v != "" && !slices.Contains([]string{"all", "selected", "private"}, v) {
		failures = append(failures, &pulumirpc.CheckFailure{Property: "visibility", Reason: fmt.Sprintf("expected visibility to be one of [\"all\" \"selected\" \"private\"], got %s", v)})
	}
	out := news
	if defaults := defaults[typ]; len(defaults) > 0 {
		out = news.Copy()
		for k, v := range defaults {
			if _, set := out[resource.PropertyKey(k)]; !set {
				out[resource.PropertyKey(k)] = resource.NewPropertyValue(v)
			}
		}
	}
	return out, failures
}

// checkNames is the provider's validation of an Actions variable's or
// secret's name (terraform-provider-github util.go,
// validateSecretNameFunc).
func checkNames(typ string, news resource.PropertyMap) []*pulumirpc.CheckFailure {
	key := map[string]string{importid.GitHubOrgVariable: "variableName",
		importid.GitHubOrgSecret: "secretName"}[typ]
	v, ok := news[resource.PropertyKey(key)]
	if key == "" || !ok || !v.IsString() {
		return nil
	}
	var out []*pulumirpc.CheckFailure
	if !actionsName.MatchString(v.StringValue()) {
		out = append(out, &pulumirpc.CheckFailure{Property: key, Reason: "secret names can only contain alphanumeric characters or underscores and must not start with a number"})
	}
	if strings.HasPrefix(strings.ToUpper(v.StringValue()), "GITHUB_") {
		out = append(out, &pulumirpc.CheckFailure{Property: key, Reason: "secret names must not start with the GITHUB_ prefix"})
	}
	return out
}

var actionsName = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*$`)

// ID is where the store keeps an object, which is also its id: an
// organisation's Actions variables have the provider's IDs (package
// importid), as GitHub holds one variable of a name per organisation; an
// organisation secret is its name too; the others a generated one.
// (Organisation objects are keyed by name alone: the simulation holds
// one organisation's.)
func (*Behavior) ID(typ, name string, news resource.PropertyMap) string {
	switch typ {
	case importid.GitHubOrgVariable:
		if v := core.Str(news, "variableName"); v != "" {
			return v
		}
	case importid.GitHubOrgSecret:
		if v := core.Str(news, "secretName"); v != "" {
			return v
		}
	case runnerGroupType:
		// GitHub's numeric id (d.SetId(strconv.FormatInt(runnerGroup.GetID(), 10))).
		return strconv.Itoa(RunnerGroupID(core.Str(news, "name")))
	}
	return core.GeneratedID(typ, name)
}

// ImportedInputs are an imported object's state without what the
// provider computes: the provider's importer sets the inputs it reads
// (for a variable: repository, environment, variable name, value).
func (b *Behavior) ImportedInputs(typ string, state resource.PropertyMap) resource.PropertyMap {
	return core.WithoutComputed(state, b.Computed(typ, "", state))
}

// Duplicate is the refusal of an object that exists: GitHub's to a POST
// of an existing organisation variable.
func (*Behavior) Duplicate(typ, _ string, _ resource.PropertyMap) error {
	switch typ {
	case importid.GitHubOrgVariable:
		// CreateOrgVariable: a POST. (An organisation secret is written
		// with a PUT, which takes one that exists over.)
		return errors.New("POST https://api.github.com/orgs/{org}/actions/variables: 409 Already exists - Variable already exists []")
	}
	return nil
}

// schemaVersions are the Terraform schema versions (SchemaVersion) of
// the GitHub resources the program declares that have one, in
// terraform-provider-github v6.12.1 (what pulumi-github v6.14.1 bridges).
var schemaVersions = map[string]string{
	environmentType:    "1",
	repositoryFileType: "1",
}

// defaults are the top-level Default values of the same resources'
// Terraform schemas, which the real provider's Check writes into the
// inputs it returns (so they are in the state, and a Diff compares them).
var defaults = map[string]map[string]any{
	environmentType: {"canAdminsBypass": true, "preventSelfReview": false},
	"github:index/teamRepository:TeamRepository": {"permission": "pull"},
	branchProtectionType:                         {"enforceAdmins": false, "requireSignedCommits": false, "requireConversationResolution": false},
	repositoryFileType:                           {"overwriteOnCreate": false, "autocreateBranch": false, "autocreateBranchSourceBranch": "main"},
	runnerGroupType:                              {"allowsPublicRepositories": false, "restrictedToWorkflows": false},
}

// Computed are the outputs the provider computes: the schema version the
// bridge records, a repository's id, a variable's or secret's dates.
func (*Behavior) Computed(typ, _ string, news resource.PropertyMap) resource.PropertyMap {
	out := resource.PropertyMap{}
	if v, ok := schemaVersions[typ]; ok {
		// The bridge records the Terraform schema version of what it
		// wrote; without it the real provider takes the state for
		// version 0 and upgrades it, asking GitHub for the repository.
		out["__meta"] = resource.NewStringProperty(`{"schema_version":"` + v + `"}`)
	}
	switch typ {
	case environmentType:
		out["repositoryId"] = resource.NewNumberProperty(float64(TeamID(core.Str(news, "repository"))))
	case importid.GitHubOrgVariable, importid.GitHubOrgSecret:
		// Set from GitHub's answer on create and read.
		out["createdAt"] = resource.NewStringProperty("2026-01-01 00:00:00 +0000 UTC")
		out["updatedAt"] = resource.NewStringProperty("2026-01-01 00:00:00 +0000 UTC")
	case runnerGroupType:
		// GitHub's runner group as the provider's Read sets it: an
		// organisation's own group, not its default, with its API URLs
		// and the response's ETag.
		id := RunnerGroupID(core.Str(news, "name"))
		urls := fmt.Sprintf("https://api.github.com/orgs/{org}/actions/runner-groups/%d/", id)
		out["default"] = resource.NewBoolProperty(false)
		out["inherited"] = resource.NewBoolProperty(false)
		out["runnersUrl"] = resource.NewStringProperty(urls + "runners")
		out["selectedRepositoriesUrl"] = resource.NewStringProperty(urls + "repositories")
		out["etag"] = resource.NewStringProperty(fmt.Sprintf(`W/"%x"`, sha256.Sum256([]byte(fmt.Sprint(news.Mappable())))))
	}
	return out
}

// Live is an object as GitHub reads it back: a branch protection's
// required checks bound to their app (checksWithApp).
func (*Behavior) Live(typ string, out resource.PropertyMap) resource.PropertyMap {
	if typ == branchProtectionType {
		return checksWithApp(out)
	}
	return out
}

// checksWithApp is a branch protection's required checks as GitHub
// reads them back: a check declared without an app is bound to the app
// that sets its status, and the provider reads it as context:app_id
// (terraform-provider-github, resource_github_branch_protection_v3
// flattenChecks), so a check declared as "preview" drifts to
// "preview:15368" (plan.GitHubActionsAppID: the app of GitHub Actions).
func checksWithApp(out resource.PropertyMap) resource.PropertyMap {
	rsc, ok := out["requiredStatusChecks"]
	if !ok || !rsc.IsObject() {
		return out
	}
	obj := rsc.ObjectValue().Copy()
	checks, ok := obj["checks"]
	if !ok || !checks.IsArray() {
		return out
	}
	var read []resource.PropertyValue
	for _, c := range checks.ArrayValue() {
		if c.IsString() && !strings.Contains(c.StringValue(), ":") {
			c = resource.NewStringProperty(c.StringValue() + ":" + plan.GitHubActionsAppID)
		}
		read = append(read, c)
	}
	obj["checks"] = resource.NewArrayProperty(read)
	out = out.Copy()
	out["requiredStatusChecks"] = resource.NewObjectProperty(obj)
	return out
}

// immutable are the inputs terraform-provider-github marks ForceNew.
var immutable = map[string][]string{
	importid.GitHubOrgVariable: {"variableName", "visibility"},
	importid.GitHubOrgSecret:   {"secretName", "visibility", "plaintextValue", "encryptedValue"},
}

// Replaces: an organisation variable's or secret's name, visibility and
// secret value.
func (*Behavior) Replaces(typ string, _, _ resource.PropertyMap, changed []string) []string {
	var out []string
	for _, c := range changed {
		if slices.Contains(immutable[typ], c) {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return out
}

// getRepository is the getRepository lookup (by fullName).
const getRepository = "github:index/getRepository:getRepository"

// Invoke answers the lookups the program makes: getTeam, with a stable
// id per slug (GitHub owns team ids), and getRepository.
func (*Behavior) Invoke(token string, args resource.PropertyMap) (resource.PropertyMap, error) {
	switch token {
	case "github:index/getTeam:getTeam":
		return team(args)
	case getRepository:
		return repository(args)
	}
	return nil, fmt.Errorf("the simulated github provider does not answer %s", token)
}

// repository answers getRepository with the repository's id (TeamID of
// its name, as the simulated API's /repos answers).
func repository(args resource.PropertyMap) (resource.PropertyMap, error) {
	full := core.Str(args, "fullName")
	owner, name, ok := strings.Cut(full, "/")
	if !ok || owner == "" || name == "" {
		return nil, fmt.Errorf("getRepository: fullName %q is not <owner>/<repository>", full)
	}
	return resource.PropertyMap{
		"id":            resource.NewStringProperty(name),
		"fullName":      resource.NewStringProperty(full),
		"name":          resource.NewStringProperty(name),
		"repoId":        resource.NewNumberProperty(float64(TeamID(name))),
		"defaultBranch": resource.NewStringProperty("main"),
	}, nil
}

// CloudInvoke answers the lookups that read what exists: the
// organisation's Actions variables (import's probe), all on one page.
func (*Behavior) CloudInvoke(token string, args resource.PropertyMap, cloud *core.Cloud) (resource.PropertyMap, bool, error) {
	if token != importid.GitHubOrgVariables {
		return nil, false, nil
	}
	var variables []resource.PropertyValue
	for _, id := range cloud.IDs() {
		rec, _ := cloud.Get(id)
		if rec.Type != importid.GitHubOrgVariable {
			continue
		}
		variables = append(variables, resource.NewObjectProperty(resource.NewPropertyMapFromMap(map[string]any{
			"name": rec.Properties["variableName"], "value": rec.Properties["value"], "visibility": rec.Properties["visibility"],
			"createdAt": rec.Properties["createdAt"], "updatedAt": rec.Properties["updatedAt"]})))
	}
	out := args.Copy()
	out["variables"] = resource.NewArrayProperty(variables)
	return out, true, nil
}

// team answers getTeam.
func team(args resource.PropertyMap) (resource.PropertyMap, error) {
	slug := core.Str(args, "slug")
	if slug == "" {
		return nil, fmt.Errorf("getTeam: slug is required")
	}
	return resource.PropertyMap{
		"id":   resource.NewStringProperty(fmt.Sprint(TeamID(slug))),
		"slug": resource.NewStringProperty(slug),
		"name": resource.NewStringProperty(slug),
	}, nil
}

// RunnerGroupID is the id the simulated GitHub gives a runner group.
func RunnerGroupID(name string) int { return TeamID("runner-group/" + name) }

// TeamID is the id the simulated GitHub gives a team (and a repository,
// an organisation: the simulated API's ids).
func TeamID(slug string) int {
	h := sha256.Sum256([]byte(slug))
	return 1000000 + int(h[0])<<16 | int(h[1])<<8 | int(h[2])
}
