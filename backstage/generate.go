package backstage

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"

	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/ident"
	"github.com/company/harness-platform/plan"
)

// The generated templates, relative to the project directory, and their
// names: the scaffolder serves a template at
// /create/templates/default/<name>.
const (
	OnboardFile = "backstage/templates/onboard-service/template.yaml"
	DeployFile  = "backstage/templates/deploy-service/template.yaml"
	OnboardName = "onboard-service"
	// DeployName is the template a service's catalog-info.yaml links to
	// (plan.DeployTemplateURL).
	DeployName = plan.DeployTemplate
)

// HarnessProxy is the Backstage proxy route to Harness's API: the one the
// Harness CI/CD plugin reads executions through ('/harness/prod',
// targeting https://app.harness.io/ with the API key as x-api-key; its
// README), so the instance configures one route for both. The deploy
// template posts through it with http:backstage:request, whose path is
// always /proxy/<route>/<API path> (its README).
const HarnessProxy = "/proxy/harness/prod"

// AccountParameter is the scaffolder's default-environment parameter that
// holds the Harness account identifier (app-config.yaml:
// scaffolder.defaultEnvironment.parameters.harnessAccountId; templates
// read it as environment.parameters.<name>). The account is not in this
// repository: the program reads it from its ESC environment.
const AccountParameter = "harnessAccountId"

// page is one step of the onboarding form: the catalog fields it asks.
type page struct {
	title, description string
	keys               []string
}

// pages lay out the service entry's fields over the form's steps, in the
// order the entry is written. Every property of the entry's schema is on
// a page or in notAsked (TestFormCoversTheSchema).
var pages = []page{
	{"Service", "What the service is and who owns it: one entry of catalog/services.yaml.",
		[]string{"name", "team", "archetype", "repo", "image", "description"}},
	{"Where it runs", "Leave both empty to run in every environment, and in every region of each.",
		[]string{"environments", "regions"}},
	{"Overrides", "Leave empty to take the archetype's defaults.",
		[]string{"overrides"}},
	{"Harness and Backstage", "",
		[]string{"tags", "backstage"}},
}

// notAsked are the entry's fields the form leaves to the platform team,
// with the reason.
var notAsked = map[string]string{
	"retired": "decommissioning, not onboarding: a platform engineer sets it (docs/runbook.md, remove a service)",
	"stack":   "which service stack holds it is the platform team's choice; its team's stack is the default (docs/operating.md)",
}

// titles are the form's labels by field path; a field without one is
// labelled with its key.
var titles = map[string]string{
	"name": "Name", "team": "Team", "archetype": "Archetype", "repo": "Repository", "image": "Image",
	"description": "Description", "environments": "Environments", "regions": "Regions",
	"overrides": "Overrides of the archetype", "overrides.productionStrategy": "Production strategy",
	"overrides.replicas": "Replicas", "overrides.verification": "Continuous verification",
	"overrides.resources": "Resources", "overrides.resources.requests": "Requests",
	"overrides.resources.limits": "Limits", "tags": "Harness tags", "backstage": "Backstage catalog-info.yaml",
}

// Patterns the form holds its answers to; the catalog's own validation is
// the oracle (TestFormAgreesWithTheCatalog).
const (
	// serviceName is ident.CheckDNSLabel's rule (a service name is also
	// its Kubernetes namespace and release name) starting with a letter,
	// as its Harness identifier must (ident.Check).
	serviceName = `^[a-z]([-a-z0-9]*[a-z0-9])?$`
	// repoPattern is the catalog's owner/name.
	repoPattern = `^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$`
	// pathComponent is one component of an image repository as Docker
	// parses it (github.com/distribution/reference, grammar.go); the
	// form asks for none of a tag or a digest.
	pathComponent = `[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*`
	// imageTag is a Docker tag (the same grammar's tag).
	imageTag = `^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$`
)

// Templates generates the two templates from the project in dir: the
// catalog files and stack files (catalog.Load) and the JSON Schema of
// catalog/services.yaml. Keys are paths relative to dir.
func Templates(dir string) (map[string][]byte, error) {
	c, err := catalog.Load(dir)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(filepath.Join(dir, catalog.SchemaFiles[catalog.ServicesFile]))
	if err != nil {
		return nil, err
	}
	svc, err := ServiceSchema(data)
	if err != nil {
		return nil, err
	}
	root := c.Root()
	if root.Foundation == nil || root.Foundation.Repository == "" {
		return nil, fmt.Errorf("%s: harness-platform:foundation.repository is not set: the onboarding template opens its pull requests there", root.File)
	}
	onboard, err := marshal(onboardTemplate(c, svc))
	if err != nil {
		return nil, err
	}
	deploy, err := marshal(deployTemplate(c))
	if err != nil {
		return nil, err
	}
	return map[string][]byte{OnboardFile: onboard, DeployFile: deploy}, nil
}

// Schema is the part of a JSON Schema the catalog's generator writes.
type Schema struct {
	Type                 string             `json:"type"`
	Description          string             `json:"description"`
	Properties           map[string]*Schema `json:"properties"`
	Required             []string           `json:"required"`
	Items                *Schema            `json:"items"`
	AdditionalProperties json.RawMessage    `json:"additionalProperties"`
	Enum                 []string           `json:"enum"`
	MinLength            *int               `json:"minLength"`
	Pattern              string             `json:"pattern"`
}

// mapOf is the schema of a map's values, or nil when s is no map.
func (s *Schema) mapOf() *Schema {
	var v Schema
	if s.Properties != nil || len(s.AdditionalProperties) == 0 || json.Unmarshal(s.AdditionalProperties, &v) != nil {
		return nil
	}
	return &v
}

// ServiceSchema is the schema of one entry of catalog/services.yaml,
// read from that file's JSON Schema.
func ServiceSchema(data []byte) (*Schema, error) {
	var root Schema
	if err := json.Unmarshal(data, &root); err != nil {
		return nil, err
	}
	list := root.Properties["services"]
	if list == nil || list.Items == nil || list.Items.Properties == nil {
		return nil, fmt.Errorf("%s: no services[] item schema", catalog.SchemaFiles[catalog.ServicesFile])
	}
	return list.Items, nil
}

// header is the first lines of each generated file.
const header = "# Generated by `go test ./backstage -update` (backstage/generate.go) from the\n" +
	"# catalog files, the stack files and catalog/schema/services.schema.json:\n" +
	"# edit those, not this file. Checked with Backstage's own packages by\n" +
	"# backstage/check (backstage/README.md).\n"

func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(header)
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// kv and m are an ordered YAML mapping; literal a block scalar.
type kv struct {
	k string
	v any
}

type m []kv

func (o m) MarshalYAML() (any, error) {
	n := &yaml.Node{Kind: yaml.MappingNode}
	for _, e := range o {
		var k, v yaml.Node
		if err := k.Encode(e.k); err != nil {
			return nil, err
		}
		if err := v.Encode(e.v); err != nil {
			return nil, err
		}
		n.Content = append(n.Content, &k, &v)
	}
	return n, nil
}

type literal string

func (l literal) MarshalYAML() (any, error) {
	return &yaml.Node{Kind: yaml.ScalarNode, Style: yaml.LiteralStyle, Value: string(l)}, nil
}

func option(value any, title string) m { return m{{"const", value}, {"title", title}} }

// onboardTemplate is the onboarding template: the form, then the entry
// appended to catalog/services.yaml in a pull request.
func onboardTemplate(c *catalog.Catalog, svc *Schema) m {
	f := form{c: c}
	var params []any
	for _, p := range pages {
		props := m{}
		var required []string
		for _, k := range p.keys {
			props = append(props, kv{k, f.field([]string{k}, svc.Properties[k])})
			if slices.Contains(svc.Required, k) {
				required = append(required, k)
			}
		}
		pg := m{{"title", p.title}}
		if p.description != "" {
			pg = append(pg, kv{"description", p.description})
		}
		if required != nil {
			pg = append(pg, kv{"required", required})
		}
		params = append(params, append(pg, kv{"properties", props}))
	}
	repo := c.Root().Foundation.Repository
	owner, name, _ := strings.Cut(repo, "/")
	steps := []any{
		m{{"id", "fetchCatalog"}, {"name", "Fetch " + catalog.ServicesFile},
			// fetch:plain:file, built into the scaffolder backend: the one
			// file, read through the instance's GitHub integration.
			{"action", "fetch:plain:file"},
			{"input", m{
				{"url", "https://github.com/" + repo + "/blob/" + plan.MainBranch + "/" + catalog.ServicesFile},
				{"targetPath", catalog.ServicesFile},
			}}},
		m{{"id", "addEntry"}, {"name", "Add the service's entry"},
			// roadiehq:utils:fs:append (@roadiehq/scaffolder-backend-module-utils)
			// appends the entry as text, so the pull request's diff is the
			// entry alone: the file's comments and layout are kept.
			{"action", "roadiehq:utils:fs:append"},
			{"input", m{
				{"path", catalog.ServicesFile},
				{"content", literal(EntryTemplate(svc))},
			}}},
		m{{"id", "openPullRequest"}, {"name", "Open the pull request"},
			{"action", "publish:github:pull-request"},
			{"input", m{
				{"repoUrl", "github.com?owner=" + owner + "&repo=" + name},
				{"branchName", "onboard-${{ parameters.name }}"},
				{"targetBranchName", plan.MainBranch},
				{"title", "Onboard ${{ parameters.name }}"},
				{"commitMessage", "catalog: onboard ${{ parameters.name }} (from Backstage)"},
				{"description", literal(prDescription(c))},
				{"teamReviewers", []string{c.PlatformTeam}},
				// A second run for the same name updates its pull request.
				{"update", true},
			}}},
	}
	return m{
		{"apiVersion", "scaffolder.backstage.io/v1beta3"},
		{"kind", "Template"},
		{"metadata", m{
			{"name", OnboardName},
			{"title", "Onboard a service to Harness CD"},
			{"description", "Adds the service to the platform's catalog (" + repo + ", " + catalog.ServicesFile + ") in a pull request: once merged, the platform declares its Harness service, pipelines, triggers and monitored services in every environment it runs in."},
			{"tags", []string{"harness", "onboarding"}},
		}},
		{"spec", m{
			{"owner", c.PlatformTeam},
			{"type", "service"},
			{"parameters", params},
			{"steps", steps},
			{"output", m{{"links", []any{
				m{{"title", "Pull request"}, {"url", "${{ steps.openPullRequest.output.remoteUrl }}"}, {"icon", "github"}},
			}}}},
		}},
	}
}

func prDescription(c *catalog.Catalog) string {
	root := c.Root().Environment.Name
	return "Onboards `${{ parameters.name }}` (team `${{ parameters.team }}`, archetype `${{ parameters.archetype }}`): " +
		"requested from Backstage by ${{ user.ref }} with the template " + OnboardName + ".\n\n" +
		"The `" + plan.PreviewCheck + "` check runs `platformctl validate` on the catalog with this entry, then previews " +
		"every stack it touches. Once a platform engineer approves and merges, the merge applies " + root +
		" first and the entry is promoted from there (docs/onboarding.md).\n"
}

// form builds the form's fields from the entry's schema and the catalog.
type form struct{ c *catalog.Catalog }

func (f form) field(path []string, s *Schema) m {
	key := strings.Join(path, ".")
	title := titles[key]
	if title == "" {
		r := []rune(path[len(path)-1])
		title = string(unicode.ToUpper(r[0])) + string(r[1:])
	}
	out := m{{"title", title}, {"type", s.Type}}
	if s.Description != "" {
		out = append(out, kv{"description", s.Description})
	}
	switch key {
	case "name":
		out = append(out, kv{"pattern", serviceName}, kv{"maxLength", MaxNameLength(f.c)}, kv{"not", m{{"enum", reservedNames()}}},
			kv{"ui:autofocus", true}, kv{"ui:help", fmt.Sprintf("Lower-case letters, digits and '-', starting with a letter, at most %d characters, e.g. payment-service.", MaxNameLength(f.c))})
	case "team":
		var opts []any
		for _, t := range f.c.Teams {
			opts = append(opts, option(t.Name, label(t.Name, t.Description)))
		}
		out = append(out, kv{"oneOf", opts})
	case "archetype":
		var opts []any
		for _, a := range f.c.Archetypes {
			opts = append(opts, option(a.Name, label(a.Name, a.Description)))
		}
		out = append(out, kv{"oneOf", opts})
	case "repo":
		owner := "owner"
		if fd := f.c.Root().Foundation; fd != nil && fd.Repository != "" {
			owner, _, _ = strings.Cut(fd.Repository, "/")
		}
		out = append(out, kv{"pattern", repoPattern}, kv{"ui:help", "owner/name on GitHub, e.g. " + owner + "/payment-service."})
	case "image":
		host := f.c.Root().Foundation.Registry.Host
		out = append(out, kv{"pattern", ImagePattern(host)},
			kv{"ui:help", "The repository without a tag in " + host + ", e.g. " + host + "/payments/payment-service: each run of the pipeline names its tag."})
	case "environments":
		var opts []any
		for _, name := range f.c.Chain {
			e := f.c.Stacks[name].Environment
			opts = append(opts, option(name, label(name, e.Name+" ("+e.Type+")")))
		}
		out = append(out, kv{"items", m{{"type", "string"}, {"oneOf", opts}}}, kv{"uniqueItems", true},
			kv{"ui:widget", "checkboxes"})
		if rules := promotionRules(f.c); rules != nil {
			out = append(out, kv{"allOf", rules})
		}
	case "regions":
		var opts []any
		for _, r := range f.c.Regions {
			opts = append(opts, option(r.Name, label(r.Name, r.Description+" ("+r.AWSRegion+")")))
		}
		out = append(out, kv{"items", m{{"type", "string"}, {"oneOf", opts}}}, kv{"uniqueItems", true},
			kv{"ui:widget", "checkboxes"})
	case "overrides.replicas":
		out = append(out, kv{"minimum", 1})
	case "overrides.verification":
		// Unset, on or off: a select, where a checkbox has no "unset".
		out = append(out, kv{"ui:widget", "select"})
	case "backstage":
		out = append(out, kv{"default", true})
	default:
		if s.Enum != nil {
			out = append(out, kv{"enum", s.Enum})
		}
		if s.MinLength != nil {
			out = append(out, kv{"minLength", *s.MinLength})
		}
		if s.Pattern != "" {
			out = append(out, kv{"pattern", s.Pattern})
		}
	}
	if s.Type == "object" && s.Properties != nil {
		props := m{}
		for _, k := range sortedKeys(s.Properties) {
			props = append(props, kv{k, f.field(append(slices.Clone(path), k), s.Properties[k])})
		}
		out = append(out, kv{"properties", props})
	}
	if v := s.mapOf(); v != nil {
		out = append(out, kv{"additionalProperties", m{{"type", v.Type}}})
	}
	return out
}

// reservedNames are the words Harness refuses as identifiers that are
// service names too (ident.go's reserved list, lower case); a word ident
// no longer refuses drops out here.
func reservedNames() []string {
	var out []string
	for _, w := range strings.Fields("or and eq ne lt gt le ge div mod not null true false new var return step parallel org account status") {
		if ident.Check(w) != nil {
			out = append(out, w)
		}
	}
	return out
}

func label(name, description string) string {
	if description == "" {
		return name
	}
	return name + ": " + description
}

// promotionRules refuse environments without their upstream: a service
// enabled in an environment is enabled in its upstream too (the catalog's
// rule). errorMessage is ajv-errors' keyword, which the scaffolder's form
// validator enables.
func promotionRules(c *catalog.Catalog) []any {
	var rules []any
	for _, name := range c.Chain {
		up := c.Stacks[name].Upstream
		if up == "" {
			continue
		}
		rules = append(rules, m{
			{"if", m{{"contains", m{{"const", name}}}}},
			{"then", m{{"contains", m{{"const", up}}}}},
			{"errorMessage", fmt.Sprintf("%s needs %s too: services are promoted through the chain", name, up)},
		})
	}
	return rules
}

// ImagePattern is the form's rule for an image: a repository of the
// foundation's registry, without a tag or a digest.
func ImagePattern(host string) string {
	return "^" + regexp.QuoteMeta(host) + "/" + pathComponent + "(?:/" + pathComponent + ")*$"
}

// MaxNameLength is the longest service name every name derived from it
// allows: its namespace <environment>-<service>-<region> in every
// environment and region is a Kubernetes name (63 characters), and its
// triggers' identifiers are Harness identifiers.
func MaxNameLength(c *catalog.Catalog) int {
	n := 63
	for _, name := range c.Chain {
		st := c.Stacks[name]
		for _, r := range st.Regions {
			n = min(n, 63-len(ident.Namespace(st.Environment.Name, "", r.Name)))
		}
		n = min(n, ident.MaxLen-len(ident.Trigger("", st.Environment.Identifier)))
	}
	return n
}

// EntryTemplate is the entry the onboarding template appends to
// catalog/services.yaml, in the scaffolder's template language: one line
// per field of the schema the form asks, written only when answered, each
// value written as JSON (the dump filter), which YAML reads as the same
// value whatever it holds.
func EntryTemplate(svc *Schema) string {
	var b strings.Builder
	first := true
	for _, p := range pages {
		for _, k := range p.keys {
			entryField(&b, []string{k}, svc.Properties[k], slices.Contains(svc.Required, k), &first)
		}
	}
	return b.String()
}

func entryField(b *strings.Builder, path []string, s *Schema, required bool, first *bool) {
	indent := "    " + strings.Repeat("  ", len(path)-1)
	if *first {
		indent = "  - "
		*first = false
	}
	key := path[len(path)-1]
	if s.Type == "object" && s.Properties != nil {
		guards := leafGuards(path, s)
		fmt.Fprintf(b, "{%%- if %s %%}\n%s%s:\n{%%- endif %%}\n", strings.Join(guards, " or "), indent, key)
		for _, k := range sortedKeys(s.Properties) {
			entryField(b, append(slices.Clone(path), k), s.Properties[k], false, first)
		}
		return
	}
	line := fmt.Sprintf("%s%s: ${{ %s | dump }}", indent, key, expr(path))
	if required {
		b.WriteString(line + "\n")
		return
	}
	fmt.Fprintf(b, "{%%- if %s %%}\n%s\n{%%- endif %%}\n", guard(path, s), line)
}

func expr(path []string) string { return "parameters." + strings.Join(path, ".") }

// guard is when a field is written: a string or a list when not empty, a
// number when given; a boolean of the entry when true (false is every
// boolean's default there), an override's whenever given.
func guard(path []string, s *Schema) string {
	e := expr(path)
	switch {
	case s.Type == "string":
		return e
	case s.Type == "array" || s.mapOf() != nil:
		return e + " and (" + e + " | length)"
	case s.Type == "boolean" && path[0] != "overrides":
		return e
	default:
		return e + " is defined"
	}
}

func leafGuards(path []string, s *Schema) []string {
	var out []string
	for _, k := range sortedKeys(s.Properties) {
		p, c := append(slices.Clone(path), k), s.Properties[k]
		if c.Type == "object" && c.Properties != nil {
			out = append(out, leafGuards(p, c)...)
		} else {
			out = append(out, guard(p, c))
		}
	}
	return out
}

func sortedKeys[V any](mp map[string]V) []string {
	keys := make([]string, 0, len(mp))
	for k := range mp {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// deployTemplate is the service page's "Deploy to an environment": it
// runs the service's pipeline of an environment with its runtime inputs.
func deployTemplate(c *catalog.Catalog) m {
	root := c.Root().Foundation
	scope := plan.Scope{OrgID: root.Org.Identifier, ProjectID: root.Project.Identifier}
	var envs, regions []any
	for _, name := range c.Chain {
		e := c.Stacks[name].Environment
		envs = append(envs, option(e.Identifier, label(e.Name, e.Description)))
	}
	for _, r := range c.Regions {
		regions = append(regions, option(r.Name, label(r.Name, r.Description+" ("+r.AWSRegion+")")))
	}
	account := "${{ environment.parameters." + AccountParameter + " }}"
	// ident.Pipeline(service, environment): the service's name with '-'
	// as '_' (a service name is a Kubernetes name: '-' is the one
	// character ident.From replaces), '_', the environment's identifier.
	service := "parameters." + plan.DeployServiceField
	pipeline := `${{ ` + service + ` | parseEntityRef | pick("name") | replace("-", "_") }}_${{ parameters.environment }}`
	params := []any{m{
		{"title", "What to deploy"},
		{"description", "Runs the service's pipeline of the environment in Harness with these runtime inputs; Production runs ask for the approvals and the change window as every run does."},
		{"required", []string{plan.DeployServiceField, "environment", "region", "imageTag"}},
		{"properties", m{
			// The field a service page's link fills in (its catalog-info.yaml,
			// plan.DeployTemplateURL): the service's entity ref, as the
			// EntityPicker holds it.
			{plan.DeployServiceField, m{{"title", "Service"}, {"type", "string"},
				{"description", "A service of the catalog with a Backstage catalog-info.yaml (backstage: true)."},
				{"ui:field", "EntityPicker"},
				{"ui:options", m{
					{"allowArbitraryValues", false},
					{"defaultKind", "Component"},
					{"catalogFilter", []any{m{{"kind", "Component"}, {"metadata.annotations.harness.io/pipelines", m{{"exists", true}}}}}},
				}}}},
			{"environment", m{{"title", "Environment"}, {"type", "string"}, {"oneOf", envs}}},
			{"region", m{{"title", "Region"}, {"type", "string"}, {"oneOf", regions},
				{"description", "One of the service's regions in that environment: Harness refuses any other (the pipeline's " + plan.TargetRegionInput + " input allows only those)."}}},
			{"imageTag", m{{"title", "Image tag"}, {"type", "string"}, {"pattern", imageTag},
				{"description", "The tag of the service's image to deploy, e.g. v2.3.1."}}},
		}},
	}}
	body := "pipeline:\n" +
		"  identifier: " + pipeline + "\n" +
		"  variables:\n" +
		"    - name: " + plan.ImageTagInput + "\n" +
		"      type: String\n" +
		"      value: ${{ parameters.imageTag | dump }}\n" +
		"    - name: " + plan.TargetRegionInput + "\n" +
		"      type: String\n" +
		"      value: ${{ parameters.region | dump }}\n"
	steps := []any{
		m{{"id", "runPipeline"}, {"name", "Run the pipeline in Harness"},
			// http:backstage:request (@roadiehq/scaffolder-backend-module-http-request)
			// calls the instance's proxy as the user who runs the template;
			// the proxy adds the Harness API key. Harness's "execute a
			// pipeline with runtime input YAML" endpoint takes the inputs
			// as YAML, as the Harness plugin's re-run does.
			{"action", "http:backstage:request"},
			{"input", m{
				{"method", "POST"},
				{"path", HarnessProxy + "/gateway/pipeline/api/pipeline/execute/" + pipeline},
				{"params", m{
					{"accountIdentifier", account},
					{"orgIdentifier", scope.OrgID},
					{"projectIdentifier", scope.ProjectID},
					{"moduleType", "cd"},
				}},
				{"headers", m{{"content-type", "application/yaml"}}},
				{"body", literal(body)},
			}}},
	}
	run := plan.PipelineURL(account, scope, pipeline) + "/${{ steps.runPipeline.output.body.data.planExecution.uuid }}/pipeline"
	return m{
		{"apiVersion", "scaffolder.backstage.io/v1beta3"},
		{"kind", "Template"},
		{"metadata", m{
			{"name", DeployName},
			{"title", "Deploy to an environment"},
			{"description", "Runs a service's Harness pipeline of one environment with an image tag and a region, then links to the run."},
			{"tags", []string{"harness", "deploy"}},
		}},
		{"spec", m{
			{"owner", c.PlatformTeam},
			{"type", "service"},
			{"parameters", params},
			{"steps", steps},
			{"output", m{{"links", []any{
				m{{"title", "The run in Harness"}, {"url", run}, {"icon", "dashboard"}},
				m{{"title", "The service"}, {"entityRef", "${{ " + service + " }}"}},
			}}}},
		}},
	}
}
