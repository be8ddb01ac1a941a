package harness

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/harness/importid"
	"github.com/company/harness-platform/harness/provider"
	"github.com/company/harness-platform/simulated/core"
)

// Version is the version of the Harness provider this room stands in for.
const Version = "0.16.0"

// Behavior simulates the Harness provider: it refuses what the real one
// refuses, using the provider's published facts, and computes webhook URLs.
type Behavior struct {
	facts       *provider.Facts
	constraints *provider.Constraints
}

// New is the Harness of the provider's facts and constraints
// (provider.LoadFrom).
func New(facts *provider.Facts, constraints *provider.Constraints) Behavior {
	return Behavior{facts: facts, constraints: constraints}
}

var (
	_ core.Behavior     = Behavior{}
	_ core.Addressed    = Behavior{}
	_ core.Refuser      = Behavior{}
	_ core.Budgeted     = Behavior{}
	_ core.CloudInvoker = Behavior{}
	_ core.SaveGuard    = Behavior{}
	_ core.DeleteGuard  = Behavior{}
	_ core.Storer       = Behavior{}
	_ core.UnsetKeeper  = Behavior{}
)

var identifierPattern = regexp.MustCompile(`^[a-zA-Z_][0-9a-zA-Z_$]{0,127}$`)

func (h Behavior) Check(typ, name string, news resource.PropertyMap) (resource.PropertyMap, []*pulumirpc.CheckFailure) {
	res, ok := h.facts.Resources[typ]
	if !ok {
		return news, []*pulumirpc.CheckFailure{{Reason: fmt.Sprintf("unknown resource type %q", typ)}}
	}
	var failures []*pulumirpc.CheckFailure
	fail := func(prop, format string, args ...any) {
		failures = append(failures, &pulumirpc.CheckFailure{Property: prop, Reason: fmt.Sprintf(format, args...)})
	}
	keys := make([]string, 0, len(news))
	for k := range news {
		keys = append(keys, string(k))
	}
	sort.Strings(keys)
	for _, k := range keys {
		if _, ok := res.Inputs[k]; !ok {
			fail(k, "Invalid or unknown key: %q is not an argument of %s", k, typ)
		}
	}
	for _, k := range res.RequiredInputs {
		if v, ok := news[resource.PropertyKey(k)]; !ok || v.IsNull() {
			fail(k, "Missing required argument: The argument %q is required, but no definition was found.", k)
		}
	}
	for _, p := range h.facts.CheckResource(typ, news) {
		// Unknown and missing inputs are reported above in the provider's words.
		if !strings.Contains(p, "unknown input") && !strings.Contains(p, "required input") {
			fail("", "%s", p)
		}
	}
	if v, ok := news["identifier"]; ok && v.IsString() && !identifierPattern.MatchString(v.StringValue()) {
		fail("identifier", "invalid value for identifier (%q): must match %s", v.StringValue(), identifierPattern)
	}
	if typ == "harness:platform/monitoredService:MonitoredService" {
		for _, msg := range checkHealthSources(news) {
			fail("request.healthSources", "%s", msg)
		}
	}
	// The Terraform constraints, checked on the inputs as given; the
	// result carries the defaults the real provider fills in.
	for _, v := range h.constraints.Check(typ, news) {
		fail(v.Path, "%s", v.Message(name))
	}
	return h.constraints.WithDefaults(typ, name, news), failures
}

// checkHealthSources refuses what the provider cannot read: it decodes a
// metric health source's spec JSON and reads connectorRef and
// metricDefinitions from it unchecked (health_source_utls.go: a spec
// without them panics the plugin), so the simulation says so instead.
func checkHealthSources(news resource.PropertyMap) []string {
	req, ok := news["request"]
	if !ok || !req.IsObject() {
		return nil
	}
	sources, ok := req.ObjectValue()["healthSources"]
	if !ok || !sources.IsArray() {
		return nil
	}
	var out []string
	for i, hs := range sources.ArrayValue() {
		if !hs.IsObject() || core.Str(hs.ObjectValue(), "type") != "Prometheus" {
			continue
		}
		var spec struct {
			ConnectorRef      *string `json:"connectorRef"`
			MetricDefinitions []struct {
				Identifier *string `json:"identifier"`
				MetricName *string `json:"metricName"`
				Query      string  `json:"query"`
			} `json:"metricDefinitions"`
		}
		if err := json.Unmarshal([]byte(core.Str(hs.ObjectValue(), "spec")), &spec); err != nil {
			out = append(out, fmt.Sprintf("health source %d: spec is not JSON: %v", i, err))
			continue
		}
		if spec.ConnectorRef == nil || spec.MetricDefinitions == nil {
			out = append(out, fmt.Sprintf("health source %d: a Prometheus spec needs connectorRef and metricDefinitions (the provider panics without them)", i))
		}
		for j, m := range spec.MetricDefinitions {
			if m.Identifier == nil || m.MetricName == nil || !strings.Contains(m.Query, "{") {
				out = append(out, fmt.Sprintf("health source %d, metric %d: needs identifier, metricName and a query with a {label} filter", i, j))
			}
		}
	}
	return out
}

// ID is where the store keeps the object: its type, scope and identifier
// (a delegate token's name), unique as Harness makes them.
func (Behavior) ID(typ, name string, news resource.PropertyMap) string {
	id := core.Str(news, "identifier")
	if id == "" && importid.Known(typ) {
		id = core.Str(news, "name")
	}
	if id == "" {
		return core.GeneratedID(typ, name)
	}
	parts := []string{}
	for _, scope := range []string{"orgId", "projectId", "envId", "targetId", "pipelineId"} {
		if s := core.Str(news, scope); s != "" {
			parts = append(parts, s)
		}
	}
	kind := typ[strings.LastIndex(typ, ":")+1:]
	if typ == TemplateType {
		// Harness keeps each version of a template: one object each.
		id += "@" + core.Str(news, "version")
	}
	return strings.Join(append(append([]string{kind}, parts...), id), "/")
}

// ResourceID is the id the real provider reports: the bare identifier (a
// delegate token's name), as its Create and importers set it
// (d.SetId(identifier); package importid).
func (Behavior) ResourceID(typ, key string, props resource.PropertyMap) string {
	if id := importid.ResourceID(typ, plainStrings(props)); id != "" {
		return id
	}
	return key
}

// KeyOf finds an object from its properties (the state the engine passes
// on refresh, update and delete) or, for an import, from its import ID in
// the provider's format.
func (h Behavior) KeyOf(typ, id string, props resource.PropertyMap) (string, error) {
	if core.Str(props, "identifier") != "" || (core.Str(props, "name") != "" && importid.Known(typ)) {
		return h.ID(typ, "", props), nil
	}
	if !importid.Known(typ) {
		return id, nil
	}
	parsed, err := importid.Parse(typ, id)
	if err != nil {
		return "", err
	}
	named := resource.PropertyMap{}
	for k, v := range parsed {
		named[resource.PropertyKey(k)] = resource.NewStringProperty(v)
	}
	return h.ID(typ, "", named), nil
}

// ImportedInputs are the inputs of an imported object as the bridged
// provider reports them (pulumi-terraform-bridge ExtractInputsFromOutputs,
// extractSchemaInputs): the properties of its read state that are inputs
// of its type, at every depth, where a value that is not required and is
// its default, or its zero value when it has none ("", false, 0, [], an
// object left with nothing), is elided. So an inline service's read-back
// git details keep only what is set, and a GitHub connector's empty
// anonymous block does not stand beside its username.
func (h Behavior) ImportedInputs(typ string, state resource.PropertyMap) resource.PropertyMap {
	res, ok := h.facts.Resources[typ]
	if !ok {
		return state
	}
	rules := h.constraints.Resources[typ].Properties
	out := resource.PropertyMap{}
	for k, v := range state {
		in, input := res.Inputs[string(k)]
		if !input {
			continue
		}
		v = h.importedValue(rules, string(k), in.Type, v)
		if in.Required || !defaultOrZero(rules[string(k)], v) {
			out[k] = v
		}
	}
	return out
}

// importedValue is v, of schema type typ at path, with its nested
// inputs extracted as ImportedInputs does at the top.
func (h Behavior) importedValue(rules map[string]provider.PropertyConstraint, path, typ string, v resource.PropertyValue) resource.PropertyValue {
	switch {
	case strings.HasPrefix(typ, "array<") && v.IsArray():
		elem := strings.TrimSuffix(strings.TrimPrefix(typ, "array<"), ">")
		var items []resource.PropertyValue
		for _, e := range v.ArrayValue() {
			items = append(items, h.importedValue(rules, path+"[]", elem, e))
		}
		return resource.NewArrayProperty(items)
	case strings.HasPrefix(typ, "object:") && v.IsObject():
		t, ok := h.facts.Types[strings.TrimPrefix(typ, "object:")]
		if !ok {
			return v
		}
		obj := resource.PropertyMap{}
		for k, e := range v.ObjectValue() {
			pf, input := t.Properties[string(k)]
			child := path + "." + string(k)
			if !input || rules[child].ComputedOnly {
				continue
			}
			e = h.importedValue(rules, child, pf.Type, e)
			if pf.Required || !defaultOrZero(rules[child], e) {
				obj[k] = e
			}
		}
		return resource.NewObjectProperty(obj)
	}
	return v // a scalar, or a map: kept whole
}

// defaultOrZero is the bridge's isDefaultOrZeroValue: v equals the
// property's default where it has one, else v is a zero value.
func defaultOrZero(rule provider.PropertyConstraint, v resource.PropertyValue) bool {
	if rule.Default != nil {
		d := rule.Default
		if i, ok := d.(int); ok {
			d = float64(i)
		}
		return d == v.V
	}
	switch {
	case v.IsNull():
		return true
	case v.IsBool():
		return !v.BoolValue()
	case v.IsNumber():
		return v.NumberValue() == 0
	case v.IsString():
		return v.StringValue() == ""
	case v.IsArray():
		return len(v.ArrayValue()) == 0
	case v.IsObject():
		return len(v.ObjectValue()) == 0
	case v.IsSecret():
		return defaultOrZero(rule, v.SecretValue().Element)
	}
	return false
}

// KeepsUnset reports whether an input the configuration leaves unset
// keeps its value (Terraform's optional computed attributes): an adopted
// object's value for it is no change.
func (h Behavior) KeepsUnset(typ, key string) bool {
	return h.constraints.Resources[typ].Properties[key].Computed
}

// plainStrings are the string properties of props.
func plainStrings(props resource.PropertyMap) map[string]string {
	out := map[string]string{}
	for k, v := range props {
		if v.IsString() {
			out[string(k)] = v.StringValue()
		}
	}
	return out
}

// computedValues are what Harness answers for the properties only the
// provider sets (constraints.json: computedOnly), and for optional
// computed ones the program leaves unset. Harness chooses these values;
// here they are stand-ins with the real shape, so that the state the
// simulation writes has every property the real provider's would (a real
// preview against it would otherwise show them added).
var computedValues = map[string]map[string]resource.PropertyValue{
	"harness:platform/project:Project": {
		// A project created without modules gets the account's modules.
		"modules": resource.NewArrayProperty([]resource.PropertyValue{
			resource.NewStringProperty("CD"), resource.NewStringProperty("CI"), resource.NewStringProperty("CV"),
			resource.NewStringProperty("CF"), resource.NewStringProperty("CE"), resource.NewStringProperty("STO"),
		}),
		"color": resource.NewStringProperty("#0063f7"),
	},
	// What the real provider (v0.16.0) returns for optional computed
	// inputs the program leaves unset (issue: a preview against state the
	// simulation made showed them added).
	"harness:platform/environment:Environment":     {"color": resource.NewStringProperty("#0063f7"), "forceDelete": falseValue},
	"harness:platform/resourceGroup:ResourceGroup": {"color": resource.NewStringProperty("#0063f7")},
	"harness:platform/service:Service": {"fetchResolvedYaml": falseValue, "importFromGit": falseValue, "isForceImport": falseValue, "forceDelete": falseValue,
		// An inline service's git details (resource_service.go
		// readGitDetails): Harness returns empty entity git details, no
		// connector, so a Harness Code repository; the other attributes
		// of the block are SDKv2's zero values.
		"gitDetails": resource.NewObjectProperty(resource.PropertyMap{
			"baseBranch": emptyString, "branch": emptyString, "commitMessage": emptyString, "connectorRef": emptyString,
			"filePath": emptyString, "isHarnessCodeRepo": resource.NewBoolProperty(true), "isNewBranch": falseValue,
			"lastCommitId": emptyString, "lastObjectId": emptyString, "loadFromCache": falseValue,
			"loadFromFallbackBranch": falseValue, "repoName": emptyString, "storeType": emptyString,
		})},
	"harness:platform/infrastructure:Infrastructure":           {"description": resource.NewStringProperty(""), "forceDelete": falseValue},
	"harness:platform/awsConnector:AwsConnector":               {"forceDelete": falseValue},
	"harness:platform/githubConnector:GithubConnector":         {"forceDelete": falseValue},
	"harness:platform/kubernetesConnector:KubernetesConnector": {"forceDelete": falseValue},
	// Optional lists and strings left unset: a Terraform SDKv2 provider's
	// state holds them as [] and "" (the bridge reports them so).
	"harness:platform/usergroup:Usergroup":                     {"ssoLinked": falseValue, "notificationConfigs": emptyList},
	"harness:platform/prometheusConnector:PrometheusConnector": {"headers": emptyList},
	"harness:platform/secretText:SecretText":                   {"additionalMetadatas": emptyList},
	// Who created and last changed a file, and when: the API key's user.
	"harness:platform/fileStoreFile:FileStoreFile": {
		"createdBies":      principal,
		"lastModifiedBies": principal,
		"lastModifiedAt":   resource.NewNumberProperty(1.7e12),
		"fileContentPath":  emptyString,
	},
}

var (
	falseValue  = resource.NewBoolProperty(false)
	emptyString = resource.NewStringProperty("")
	emptyList   = resource.NewArrayProperty([]resource.PropertyValue{})
)

// nestedValues fills, in the nested objects an object's inputs hold, what
// the provider's state has for their optional properties left unset (an
// SDKv2 block keeps every attribute: lists as [], strings as ""), and
// what Harness answers for a principal's scope. These are inputs with
// more in them; the diff holds such zero values equal to unset, as the
// bridged provider's does.
func nestedValues(typ string, news resource.PropertyMap) resource.PropertyMap {
	out := resource.PropertyMap{}
	switch typ {
	case "harness:platform/monitoredService:MonitoredService":
		req, ok := objectOf(news, "request")
		if !ok {
			break
		}
		fill(req, "changeSources", emptyList)
		fill(req, "dependencies", emptyList)
		fill(req, "notificationRuleRefs", emptyList)
		if v, ok := req["healthSources"]; ok && v.IsArray() {
			var sources []resource.PropertyValue
			for _, hs := range v.ArrayValue() {
				if hs.IsObject() {
					m := hs.ObjectValue().Copy()
					fill(m, "version", emptyString)
					hs = resource.NewObjectProperty(m)
				}
				sources = append(sources, hs)
			}
			req["healthSources"] = resource.NewArrayProperty(sources)
		}
		out["request"] = resource.NewObjectProperty(req)
	case "harness:platform/githubConnector:GithubConnector":
		creds, ok := objectOf(news, "credentials")
		if !ok {
			break
		}
		if http, ok := objectOf(creds, "http"); ok {
			fill(http, "anonymouses", emptyList)
			creds["http"] = resource.NewObjectProperty(http)
			out["credentials"] = resource.NewObjectProperty(creds)
		}
	case "harness:platform/roleAssignments:RoleAssignments":
		// Harness answers each principal's scope level (role_assignments.go
		// reads principal.scope_level): the assignment's own scope.
		v, ok := news["principals"]
		if !ok || !v.IsArray() {
			break
		}
		var principals []resource.PropertyValue
		for _, p := range v.ArrayValue() {
			if p.IsObject() {
				m := p.ObjectValue().Copy()
				fill(m, "scopeLevel", resource.NewStringProperty(scopeLevel(news)))
				p = resource.NewObjectProperty(m)
			}
			principals = append(principals, p)
		}
		out["principals"] = resource.NewArrayProperty(principals)
	}
	return out
}

// scopeLevel is the Harness scope level of an object: project,
// organization or account.
func scopeLevel(props resource.PropertyMap) string {
	switch {
	case core.Str(props, "projectId") != "":
		return "project"
	case core.Str(props, "orgId") != "":
		return "organization"
	}
	return "account"
}

// objectOf is a copy of the object props holds at key.
func objectOf(props resource.PropertyMap, key resource.PropertyKey) (resource.PropertyMap, bool) {
	v, ok := props[key]
	if !ok || !v.IsObject() {
		return nil, false
	}
	return v.ObjectValue().Copy(), true
}

// fill sets key to v where m leaves it unset.
func fill(m resource.PropertyMap, key resource.PropertyKey, v resource.PropertyValue) {
	if _, set := m[key]; !set {
		m[key] = v
	}
}

var principal = resource.NewArrayProperty([]resource.PropertyValue{resource.NewObjectProperty(resource.PropertyMap{
	"email": resource.NewStringProperty("pulumi-automation@company.io"),
	"name":  resource.NewStringProperty("pulumi-automation"),
})})

// Computed are the outputs Harness adds: webhook URLs, and every
// computed-only property (plus optional computed ones left unset).
func (h Behavior) Computed(typ, id string, news resource.PropertyMap) resource.PropertyMap {
	out := resource.PropertyMap{}
	for k, v := range computedValues[typ] {
		if _, set := news[resource.PropertyKey(k)]; !set {
			out[resource.PropertyKey(k)] = v
		}
	}
	for k, v := range nestedValues(typ, news) {
		out[k] = v
	}
	if typ == "harness:platform/fileStoreFile:FileStoreFile" {
		// A file's path is its folder's path and its name; the root
		// folder's identifier is "Root".
		dir := "/"
		if parent := core.Str(news, "parentIdentifier"); parent != "Root" {
			dir = "/" + parent + "/"
		}
		out["path"] = resource.NewStringProperty(dir + core.Str(news, "name"))
	}
	if typ == "harness:platform/delegatetoken:Delegatetoken" {
		// Harness generates the token; the provider marks it sensitive.
		out["value"] = resource.MakeSecret(resource.NewStringProperty(DelegateToken(id)))
		out["tokenStatus"] = resource.NewStringProperty("ACTIVE")
		out["createdAt"] = resource.NewNumberProperty(1.7e12)
		out["createdBy"] = resource.NewObjectProperty(resource.PropertyMap{"email": resource.NewStringProperty("pulumi-automation@company.io")})
	}
	if typ == "harness:platform/roleAssignments:RoleAssignments" {
		if _, set := news["roleReference"]; !set {
			// The role the assignment grants, at the assignment's scope.
			out["roleReference"] = resource.NewObjectProperty(resource.PropertyMap{
				"identifier": resource.NewStringProperty(core.Str(news, "roleIdentifier")),
				"scopeLevel": resource.NewStringProperty(scopeLevel(news)),
			})
		}
	}
	if typ == "harness:platform/triggers:Triggers" && triggerSource(core.Str(news, "yaml")) != "Custom" {
		// A Git provider's trigger: Harness receives the provider's
		// webhooks for the whole account at one URL, and matches them to
		// triggers by repository and event.
		out["webhookUrl"] = resource.NewStringProperty("https://app.harness.io/gateway/ng/api/webhook?accountIdentifier=" + Account)
	} else if typ == "harness:platform/triggers:Triggers" {
		out["webhookUrl"] = resource.NewStringProperty(CustomWebhookURL(core.Str(news, "orgId"), core.Str(news, "projectId"), core.Str(news, "targetId"), core.Str(news, "identifier")))
	}
	return out
}

// CustomWebhookURL is the URL Harness gives a custom webhook trigger, as
// its server builds it (WebhookHelper.generateCustomWebhookUrl): the
// pipeline service's base URL, the trigger's custom webhook token (one
// Harness generates when it creates the trigger and never changes; here
// derived from the trigger's place, so it is the same on every run), then
// the trigger's scope. Since custom webhook tokens (Harness release notes,
// CDS-58115) a URL without the token is not one Harness issues.
// https://developer.harness.io/docs/platform/triggers/trigger-deployments-using-custom-triggers
func CustomWebhookURL(org, project, pipeline, trigger string) string {
	key := strings.Join([]string{Account, org, project, pipeline, trigger}, "/")
	token := core.ShortHash("custom webhook token "+key) + core.ShortHash(key+" custom webhook token") + core.ShortHash(key)[:6]
	return fmt.Sprintf("https://app.harness.io/gateway/pipeline/api/webhook/custom/%s/v3?accountIdentifier=%s&orgIdentifier=%s&projectIdentifier=%s&pipelineIdentifier=%s&triggerIdentifier=%s",
		token, Account, org, project, pipeline, trigger)
}

// triggerSource is a trigger's webhook source type: Custom, Github, ...
func triggerSource(y string) string {
	var doc struct {
		Trigger struct {
			Source struct {
				Spec struct {
					Type string `yaml:"type"`
				} `yaml:"spec"`
			} `yaml:"source"`
		} `yaml:"trigger"`
	}
	_ = yaml.Unmarshal([]byte(y), &doc)
	return doc.Trigger.Source.Spec.Type
}

// CheckDelete refuses, as Harness does, to delete a service that a
// pipeline of its project still deploys: the service must leave every
// environment (its pipelines deleted) before the foundation deletes it.
func (Behavior) CheckDelete(typ, id string, cloud *core.Cloud) error {
	if typ == TemplateType {
		return checkTemplateDelete(id, cloud)
	}
	if typ != "harness:platform/service:Service" {
		return nil
	}
	svc, ok := cloud.Get(id)
	if !ok {
		return nil
	}
	ref := regexp.MustCompile(`(?m)^\s*serviceRef:\s*` + regexp.QuoteMeta(fmt.Sprint(svc.Properties["identifier"])) + `\s*$`)
	var users []string
	for _, p := range cloud.OfType("harness:platform/pipeline:Pipeline") {
		if p.Properties["orgId"] == svc.Properties["orgId"] && p.Properties["projectId"] == svc.Properties["projectId"] &&
			ref.MatchString(fmt.Sprint(p.Properties["yaml"])) {
			users = append(users, fmt.Sprint(p.Properties["identifier"]))
		}
	}
	if len(users) == 0 {
		return nil
	}
	sort.Strings(users)
	return fmt.Errorf("%s: ENTITY_REFERENCE_EXCEPTION: service %q cannot be deleted: it is referenced by pipeline(s) %s; "+
		"remove the service from every environment first (docs/contributing.md, Decommissioning)", typ, svc.Properties["identifier"], strings.Join(users, ", "))
}

// CheckSave refuses, as Harness does, a pipeline that the project's
// on-save policies deny (enforceOnSave), and one whose Pipeline stage runs
// a pipeline that does not exist in its scope, or one that itself chains
// another (Harness chains one level only): Harness reads the child when it
// saves the parent, to resolve its inputs.
// https://developer.harness.io/docs/platform/pipelines/pipeline-chaining/
func (Behavior) CheckSave(typ string, news resource.PropertyMap, cloud *core.Cloud) error {
	if typ == TemplateType {
		if err := checkTemplateYAML(news); err != nil {
			return err
		}
		var doc map[string]any
		if err := yaml.Unmarshal([]byte(core.Str(news, "templateYaml")), &doc); err != nil {
			return err
		}
		// No template policy set is evaluated: the provider saves a
		// template through the OpenAPI template API
		// (terraform-provider-harness internal/service/pipeline/template/
		// resource_template.go: ProjectTemplateApi.CreateTemplatesProject,
		// UpdateTemplateProject), whose implementation never calls the
		// template service's governance (harness-core
		// ProjectTemplateApiImpl -> TemplateResourceApiHelper.createTemplate,
		// updateTemplate: no validateGovernanceRules, which only
		// NGTemplateResourceImpl, the UI's /template/api/templates, calls,
		// and then only where the service runs with enableOpaEvaluation).
		return nil
	}
	if typ != "harness:platform/pipeline:Pipeline" {
		return nil
	}
	// Harness resolves the pipeline's templates first (a reference to a
	// template or version that does not exist is refused), and its
	// policies see the pipeline expanded.
	doc, _, err := expandPipeline(core.Str(news, "yaml"), core.Str(news, "orgId"), core.Str(news, "projectId"), cloud)
	if err != nil {
		return fmt.Errorf("%s: pipeline %s: %w", typ, core.Str(news, "identifier"), err)
	}
	if err := enforceOnSave("pipeline", typ, news, doc, cloud); err != nil {
		return err
	}
	for _, c := range chainedStages(core.Str(news, "yaml")) {
		var child *core.Record
		for _, p := range cloud.OfType(typ) {
			if p.Properties["identifier"] == c.Spec.Pipeline && p.Properties["orgId"] == c.Spec.Org && p.Properties["projectId"] == c.Spec.Project {
				child = &p
				break
			}
		}
		if child == nil {
			return fmt.Errorf("%s: INVALID_REQUEST: stage %s: pipeline %s does not exist in %s/%s; create it first (its stack comes earlier in the chain)",
				typ, c.Identifier, c.Spec.Pipeline, c.Spec.Org, c.Spec.Project)
		}
		if len(chainedStages(fmt.Sprint(child.Properties["yaml"]))) > 0 {
			return fmt.Errorf("%s: INVALID_REQUEST: stage %s: pipeline %s has a Pipeline stage itself; a chained pipeline cannot chain another",
				typ, c.Identifier, c.Spec.Pipeline)
		}
	}
	return nil
}

type chainedStage struct {
	Identifier string `yaml:"identifier"`
	Type       string `yaml:"type"`
	Spec       struct {
		Org      string `yaml:"org"`
		Project  string `yaml:"project"`
		Pipeline string `yaml:"pipeline"`
	} `yaml:"spec"`
}

// chainedStages are the Pipeline stages of a pipeline's YAML.
func chainedStages(y string) []chainedStage {
	var doc struct {
		Pipeline struct {
			Stages []struct {
				Stage chainedStage `yaml:"stage"`
			} `yaml:"stages"`
		} `yaml:"pipeline"`
	}
	_ = yaml.Unmarshal([]byte(y), &doc)
	var out []chainedStage
	for _, s := range doc.Pipeline.Stages {
		if s.Stage.Type == "Pipeline" {
			out = append(out, s.Stage)
		}
	}
	return out
}

// Replaces are the changes the provider's forceNew properties replace.
func (h Behavior) Replaces(typ string, olds, news resource.PropertyMap, changed []string) []string {
	return h.constraints.Replaces(typ, olds, news, changed)
}

// DelegateToken is the value the simulated Harness gives the delegate token
// with this id (tests look for it where it must never be in plaintext).
func DelegateToken(id string) string {
	return "simulated-" + core.ShortHash(id) + core.ShortHash(id+"token")
}
