package simulated

import (
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/company/harness-platform/harness/importid"
	"github.com/company/harness-platform/plan"
)

// infra simulates the AWS, Kubernetes and GitHub providers for the types
// the program declares. ../shared has facts for Harness only, so the
// required inputs below are the ones the providers' Go SDKs require
// (pulumi-aws v6.83.2, pulumi-kubernetes v4.33.0 and pulumi-github v6.14.1:
// the `args.X == nil` checks of
// each New function, and the Terraform schema's required nested
// properties), and a type not listed here is refused: a new type is
// simulated on purpose, not by accident.
type infra struct{ provider string }

// required lists each type's required inputs; a dotted path is required
// whenever its enclosing object is given.
var required = map[string][]string{
	"aws:ec2/vpc:Vpc":                                     {},
	"aws:ec2/internetGateway:InternetGateway":             {},
	"aws:ec2/subnet:Subnet":                               {"vpcId"},
	"aws:ec2/routeTable:RouteTable":                       {"vpcId"},
	"aws:ec2/routeTableAssociation:RouteTableAssociation": {"routeTableId"},
	"aws:ec2/eip:Eip":                                     {},
	"aws:ec2/natGateway:NatGateway":                       {"subnetId"},
	"aws:kms/key:Key":                                     {},
	"aws:cloudwatch/logGroup:LogGroup":                    {},
	"aws:iam/role:Role":                                   {"assumeRolePolicy"},
	"aws:iam/rolePolicyAttachment:RolePolicyAttachment":   {"policyArn", "role"},
	"aws:iam/openIdConnectProvider:OpenIdConnectProvider": {"clientIdLists", "url"},
	"aws:eks/cluster:Cluster": {"roleArn", "vpcConfig", "vpcConfig.subnetIds",
		"encryptionConfig.provider", "encryptionConfig.provider.keyArn", "encryptionConfig.resources"},
	"aws:eks/accessEntry:AccessEntry":                         {"clusterName", "principalArn"},
	"aws:eks/accessPolicyAssociation:AccessPolicyAssociation": {"accessScope", "accessScope.type", "clusterName", "policyArn", "principalArn"},
	"aws:eks/nodeGroup:NodeGroup": {"clusterName", "nodeRoleArn", "scalingConfig", "subnetIds",
		"scalingConfig.desiredSize", "scalingConfig.maxSize", "scalingConfig.minSize"},
	"kubernetes:core/v1:Namespace":                             {},
	"kubernetes:core/v1:Secret":                                {},
	"kubernetes:helm.sh/v3:Release":                            {"chart"},
	"kubernetes:rbac.authorization.k8s.io/v1:RoleBinding":      {"roleRef", "roleRef.apiGroup", "roleRef.kind", "roleRef.name"},
	"github:index/repositoryEnvironment:RepositoryEnvironment": {"environment", "repository"},
	"github:index/branchProtectionV3:BranchProtectionV3":       {"branch", "repository"},
	importid.GitHubOrgVariable:                                 {"value", "variableName", "visibility"},
	importid.GitHubOrgSecret:                                   {"secretName", "visibility"},
	"github:index/repositoryFile:RepositoryFile":               {"content", "file", "repository"},
	"github:index/teamRepository:TeamRepository":               {"repository", "teamId"},
}

// autoNamed are the inputs the AWS provider names in Check when the
// program leaves them unset: the resource name and a random suffix (here
// a stable one), known from the preview on.
var autoNamed = map[string]string{
	"aws:iam/role:Role":           "name",
	"aws:eks/nodeGroup:NodeGroup": "nodeGroupName",
}

func (b infra) Check(typ, name string, news resource.PropertyMap) (resource.PropertyMap, []*pulumirpc.CheckFailure) {
	req, ok := required[typ]
	if !ok {
		return news, []*pulumirpc.CheckFailure{{Reason: fmt.Sprintf("unknown resource type %q: the simulated %s provider does not serve it", typ, b.provider)}}
	}
	var failures []*pulumirpc.CheckFailure
	if b.provider == "aws" {
		// The Terraform schema's required inputs (aws-constraints.json)
		// beside the list above, which names the same for the inputs the
		// program sets (TestAWSConstraints).
		var more []string
		for path, c := range awsConstraints[typ] {
			if c.Required && !slices.Contains(req, path) {
				more = append(more, path)
			}
		}
		sort.Strings(more)
		req = append(append([]string(nil), req...), more...)
	}
	for _, path := range req {
		if missing(news, strings.Split(path, ".")) {
			failures = append(failures, &pulumirpc.CheckFailure{Property: path, Reason: fmt.Sprintf("Missing required argument: %q is required", path)})
		}
	}
	if b.provider == "aws" {
		failures = append(failures, checkAWS(typ, news)...)
	}
	if b.provider == "github" {
		failures = append(failures, checkGitHubNames(typ, news)...)
	}
	out := news
	if defaults := githubDefaults[typ]; len(defaults) > 0 {
		out = news.Copy()
		for k, v := range defaults {
			if _, set := out[resource.PropertyKey(k)]; !set {
				out[resource.PropertyKey(k)] = resource.NewPropertyValue(v)
			}
		}
	}
	if key, ok := autoNamed[typ]; ok {
		if _, set := news[resource.PropertyKey(key)]; !set {
			out = news.Copy()
			out[resource.PropertyKey(key)] = resource.NewStringProperty(name + "-" + shortHash(typ + name)[:7])
		}
	}
	return out, failures
}

// missing reports a required path whose last key is absent while its
// enclosing object is given (an absent parent is reported on its own, if
// it is required); an unknown value (a preview's output) counts as given.
func missing(m resource.PropertyMap, path []string) bool {
	v, ok := m[resource.PropertyKey(path[0])]
	if len(path) == 1 {
		return !ok || v.IsNull()
	}
	if !ok || v.IsNull() {
		return false
	}
	for v.IsSecret() {
		v = v.SecretValue().Element
	}
	if !v.IsObject() {
		return false
	}
	return missing(v.ObjectValue(), path[1:])
}

// checkGitHubNames is the provider's validation of an Actions variable's
// or secret's name (terraform-provider-github util.go,
// validateSecretNameFunc).
func checkGitHubNames(typ string, news resource.PropertyMap) []*pulumirpc.CheckFailure {
	key := map[string]string{importid.GitHubOrgVariable: "variableName",
		importid.GitHubOrgSecret: "secretName"}[typ]
	v, ok := news[resource.PropertyKey(key)]
	if key == "" || !ok || !v.IsString() {
		return nil
	}
	var out []*pulumirpc.CheckFailure
	if !githubName.MatchString(v.StringValue()) {
		out = append(out, &pulumirpc.CheckFailure{Property: key, Reason: "secret names can only contain alphanumeric characters or underscores and must not start with a number"})
	}
	if strings.HasPrefix(strings.ToUpper(v.StringValue()), "GITHUB_") {
		out = append(out, &pulumirpc.CheckFailure{Property: key, Reason: "secret names must not start with the GITHUB_ prefix"})
	}
	return out
}

var githubName = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*$`)

// ID is where the store keeps an object, which is also its id: GitHub's
// Actions variables have the provider's IDs (package importid), as
// GitHub holds one variable of a name per environment or organisation;
// an organisation secret is its name too; the others a generated one.
// (Organisation objects are keyed by name alone: the simulation holds
// one organisation's.)
func (infra) ID(typ, name string, news resource.PropertyMap) string {
	switch typ {
	case importid.GitHubOrgVariable:
		if v := str(news, "variableName"); v != "" {
			return v
		}
	case importid.GitHubOrgSecret:
		if v := str(news, "secretName"); v != "" {
			return v
		}
	}
	return name + "-" + shortHash(typ+name)
}

// ResourceID: an object's id is its store key.
func (infra) ResourceID(_, key string, _ resource.PropertyMap) string { return key }

// KeyOf: an object's id is its store key, and an import ID is the id.
func (infra) KeyOf(_, id string, _ resource.PropertyMap) (string, error) { return id, nil }

// ImportedInputs are an imported object's state without what the
// provider computes: the provider's importer sets the inputs it reads
// (for a variable: repository, environment, variable name, value).
func (b infra) ImportedInputs(typ string, state resource.PropertyMap) resource.PropertyMap {
	out := state.Copy()
	for k := range b.Computed(typ, "", state) {
		delete(out, k)
	}
	return out
}

// Duplicate is the refusal of an object that exists: GitHub's to a POST
// of an existing environment variable.
func (infra) Duplicate(typ, id string, news resource.PropertyMap) error {
	switch typ {
	case importid.GitHubOrgVariable:
		// CreateOrgVariable: a POST. (An organisation secret is written
		// with a PUT, which takes one that exists over.)
		return errors.New("POST https://api.github.com/orgs/{org}/actions/variables: 409 Already exists - Variable already exists []")
	}
	return nil
}

// awsAccount is the simulated AWS account.
const awsAccount = "000000000000"

// Computed are the outputs the providers compute: ARNs, the cluster's
// endpoint, CA and OIDC issuer, key ids, a Helm release's status.
func (b infra) Computed(typ, id string, news resource.PropertyMap) resource.PropertyMap {
	switch b.provider {
	case "aws":
		service := strings.SplitN(strings.TrimPrefix(typ, "aws:"), "/", 2)[0]
		out := resource.PropertyMap{"arn": resource.NewStringProperty(fmt.Sprintf("arn:aws:%s:eu-west-1:%s:%s", service, awsAccount, id))}
		switch typ {
		case "aws:eks/cluster:Cluster":
			h := strings.ToUpper(shortHash(id) + shortHash(id+"oidc"))
			out["endpoint"] = resource.NewStringProperty("https://" + h + ".gr7.eu-west-1.eks.amazonaws.com")
			out["certificateAuthority"] = resource.NewObjectProperty(resource.PropertyMap{
				"data": resource.NewStringProperty(base64.StdEncoding.EncodeToString(clusterCA(id)))})
			out["identities"] = resource.NewArrayProperty([]resource.PropertyValue{resource.NewObjectProperty(resource.PropertyMap{
				"oidcs": resource.NewArrayProperty([]resource.PropertyValue{resource.NewObjectProperty(resource.PropertyMap{
					"issuer": resource.NewStringProperty("https://oidc.eks.eu-west-1.amazonaws.com/id/" + h)})})})})
			out["status"] = resource.NewStringProperty("ACTIVE")
		case "aws:kms/key:Key":
			out["keyId"] = resource.NewStringProperty(id)
		case "aws:iam/openIdConnectProvider:OpenIdConnectProvider":
			url := strings.TrimPrefix(str(news, "url"), "https://")
			out["arn"] = resource.NewStringProperty("arn:aws:iam::" + awsAccount + ":oidc-provider/" + url)
		case "aws:iam/role:Role":
			out["arn"] = resource.NewStringProperty("arn:aws:iam::" + awsAccount + ":role/" + str(news, "name"))
		}
		return out
	case "github":
		out := resource.PropertyMap{}
		if v, ok := githubSchemaVersions[typ]; ok {
			// The bridge records the Terraform schema version of what it
			// wrote; without it the real provider takes the state for
			// version 0 and upgrades it, asking GitHub for the repository.
			out["__meta"] = resource.NewStringProperty(`{"schema_version":"` + v + `"}`)
		}
		switch typ {
		case "github:index/repositoryEnvironment:RepositoryEnvironment":
			out["repositoryId"] = resource.NewNumberProperty(float64(TeamID(str(news, "repository"))))
		case importid.GitHubOrgVariable, importid.GitHubOrgSecret:
			// Set from GitHub's answer on create and read.
			out["createdAt"] = resource.NewStringProperty("2026-01-01 00:00:00 +0000 UTC")
			out["updatedAt"] = resource.NewStringProperty("2026-01-01 00:00:00 +0000 UTC")
		}
		return out
	case "kubernetes":
		if typ != "kubernetes:helm.sh/v3:Release" {
			// The real provider's state of an object is the live object
			// and, beside it, the inputs it applied (its Diff prunes the
			// live object to them: without them every field is new, and
			// an immutable one, such as a RoleBinding's roleRef, replaces
			// the object), the API version it was created with and its
			// server-side-apply field manager.
			return resource.PropertyMap{
				"__inputs":            resource.NewObjectProperty(news.Copy()),
				"__initialApiVersion": resource.NewStringProperty(str(news, "apiVersion")),
				"__fieldManager":      resource.NewStringProperty("pulumi-kubernetes-" + shortHash(id)[:8]),
			}
		}
		if typ == "kubernetes:helm.sh/v3:Release" {
			return resource.PropertyMap{"status": resource.NewObjectProperty(resource.PropertyMap{
				"name":      resource.NewStringProperty(str(news, "name")),
				"namespace": resource.NewStringProperty(str(news, "namespace")),
				"chart":     resource.NewStringProperty(str(news, "chart")),
				"version":   resource.NewStringProperty(str(news, "version")),
				"status":    resource.NewStringProperty("deployed"),
				"revision":  resource.NewNumberProperty(1),
			})}
		}
	}
	return nil
}

// Live is an object as its service stores it: the Kubernetes API server
// turns a Secret's stringData into base64 data (and the real provider's
// state holds the live object, its Diff comparing the inputs with it).
func (b infra) Live(typ string, out resource.PropertyMap) resource.PropertyMap {
	if typ == "github:index/branchProtectionV3:BranchProtectionV3" {
		return checksWithApp(out)
	}
	if typ != "kubernetes:core/v1:Secret" {
		return out
	}
	sd, ok := out["stringData"]
	if !ok {
		return out
	}
	secret := sd.ContainsSecrets()
	plain := sd
	for plain.IsSecret() {
		plain = plain.SecretValue().Element
	}
	if !plain.IsObject() {
		return out
	}
	data := resource.PropertyMap{}
	if d, ok := out["data"]; ok && d.IsObject() {
		data = d.ObjectValue().Copy()
	}
	for k, v := range plain.ObjectValue() {
		for v.IsSecret() {
			v = v.SecretValue().Element
		}
		if v.IsString() {
			data[k] = resource.NewStringProperty(base64.StdEncoding.EncodeToString([]byte(v.StringValue())))
		}
	}
	delete(out, "stringData")
	out["data"] = resource.NewObjectProperty(data)
	if secret {
		out["data"] = resource.MakeSecret(out["data"])
	}
	return out
}

// githubSchemaVersions are the Terraform schema versions (SchemaVersion)
// of the GitHub resources the program declares that have one, in
// terraform-provider-github v6.12.1 (what pulumi-github v6.14.1 bridges).
var githubSchemaVersions = map[string]string{
	"github:index/repositoryEnvironment:RepositoryEnvironment": "1",
	"github:index/repositoryFile:RepositoryFile":               "1",
}

// githubDefaults are the top-level Default values of the same resources'
// Terraform schemas, which the real provider's Check writes into the
// inputs it returns (so they are in the state, and a Diff compares them).
var githubDefaults = map[string]map[string]any{
	"github:index/repositoryEnvironment:RepositoryEnvironment": {"canAdminsBypass": true, "preventSelfReview": false},
	"github:index/teamRepository:TeamRepository":               {"permission": "pull"},
	"github:index/branchProtectionV3:BranchProtectionV3":       {"enforceAdmins": false, "requireSignedCommits": false, "requireConversationResolution": false},
	"github:index/repositoryFile:RepositoryFile":               {"overwriteOnCreate": false, "autocreateBranch": false, "autocreateBranchSourceBranch": "main"},
}

// Replaces: names and placement are immutable in AWS and Kubernetes; on
// AWS, every force-new property of the Terraform schema; on GitHub, an
// organisation variable's or secret's name, visibility and secret value.
func (infra) Replaces(typ string, olds, news resource.PropertyMap, changed []string) []string {
	immutable := map[string][]string{
		"aws:ec2/vpc:Vpc":              {"cidrBlock"},
		"aws:ec2/subnet:Subnet":        {"cidrBlock", "availabilityZone", "vpcId"},
		"aws:eks/cluster:Cluster":      {"name", "encryptionConfig", "roleArn"},
		"aws:eks/nodeGroup:NodeGroup":  {"clusterName", "nodeGroupName", "subnetIds", "instanceTypes", "nodeRoleArn"},
		"aws:iam/role:Role":            {"name"},
		"kubernetes:core/v1:Namespace": {"metadata"},
		// terraform-provider-github: ForceNew.
		importid.GitHubOrgVariable: {"variableName", "visibility"},
		importid.GitHubOrgSecret:   {"secretName", "visibility", "plaintextValue", "encryptedValue"},
	}[typ]
	var out []string
	for _, c := range changed {
		for _, k := range immutable {
			if c == k {
				out = append(out, c)
			}
		}
	}
	for _, c := range awsReplaces(typ, olds, news, changed) {
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return out
}

// Invoke answers the lookups the program makes: GitHub's getTeam, with a
// stable id per slug (GitHub owns team ids).
func (b infra) Invoke(token string, args resource.PropertyMap) (resource.PropertyMap, error) {
	switch {
	case b.provider == "github" && token == "github:index/getTeam:getTeam":
		return team(args)
	case b.provider == "github" && token == githubRepository:
		return repository(args)
	}
	return nil, fmt.Errorf("the simulated %s provider does not answer %s", b.provider, token)
}

// githubRepository is the getRepository lookup (by fullName).
const githubRepository = "github:index/getRepository:getRepository"

// repository answers getRepository with the repository's id (TeamID of
// its name, as the simulated API's /repos answers).
func repository(args resource.PropertyMap) (resource.PropertyMap, error) {
	full := str(args, "fullName")
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
func (b infra) CloudInvoke(token string, args resource.PropertyMap, cloud *Cloud) (resource.PropertyMap, bool, error) {
	if b.provider != "github" || token != importid.GitHubOrgVariables {
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
	slug := str(args, "slug")
	if slug == "" {
		return nil, fmt.Errorf("getTeam: slug is required")
	}
	return resource.PropertyMap{
		"id":   resource.NewStringProperty(fmt.Sprint(TeamID(slug))),
		"slug": resource.NewStringProperty(slug),
		"name": resource.NewStringProperty(slug),
	}, nil
}

// TeamID is the id the simulated GitHub gives a team.
func TeamID(slug string) int {
	h := sha256.Sum256([]byte(slug))
	return 1000000 + int(h[0])<<16 | int(h[1])<<8 | int(h[2])
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
