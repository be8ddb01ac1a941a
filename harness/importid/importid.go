// Package importid holds how the Harness provider addresses an object
// that already exists: the import ID `pulumi import` (and the `import`
// resource option) give it, and the resource ID it keeps in the state.
//
// The Harness Pulumi provider is bridged from terraform-provider-harness;
// its importers (helpers/schema.go) split the import ID on "/":
//
//   - MultiLevelResourceImporter (connectors, environments, services,
//     secrets, user groups, role assignments, resource groups, monitored
//     services, policies, policy sets, file store files, delegate tokens):
//     <identifier> at account level, <org_id>/<identifier> at org level,
//     <org_id>/<project_id>/<identifier> at project level;
//   - OrgResourceImporter (projects): <org_id>/<identifier>;
//   - ProjectResourceImporter (pipelines): <org_id>/<project_id>/<identifier>;
//   - EnvRelatedResourceImporter (infrastructures):
//     [<org_id>/[<project_id>/]]<env_id>/<identifier>;
//   - TriggerResourceImporter (triggers):
//     <org_id>/<project_id>/<target_id>/<identifier>;
//   - PipelineResourceImporter (input sets):
//     <org_id>/<project_id>/<pipeline_id>/<identifier>;
//   - organizations pass the ID through: <identifier>;
//   - templates: as MultiLevelResourceImporter, then /versions/<version>
//     for one version (without it, the stable version).
//
// Every importer then sets the resource ID to the bare identifier
// (d.SetId(parts[len-1])), as Create does (d.SetId(resp.Data.Identifier));
// a delegate token's ID is its name. The formats are also the ones the
// provider's documentation gives (examples/resources/*/import.sh).
package importid

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// scheme is one importer's format: optional leading scope keys (present
// from the first, as the object's level requires), required scope keys,
// then the key of the object's own identifier.
type scheme struct {
	importer string
	optional []string
	required []string
	id       string
	// versioned: the ID may end in /versions/<version> (templates; without
	// it, the stable version).
	versioned bool
}

var (
	multiLevel   = scheme{importer: "MultiLevelResourceImporter", optional: []string{"orgId", "projectId"}, id: "identifier"}
	orgLevel     = scheme{importer: "OrgResourceImporter", required: []string{"orgId"}, id: "identifier"}
	projectLevel = scheme{importer: "ProjectResourceImporter", required: []string{"orgId", "projectId"}, id: "identifier"}
)

// schemes are the importers of every Harness resource type the program
// registers.
var schemes = map[string]scheme{
	"harness:platform/organization:Organization":                           {importer: "ImportStatePassthrough", id: "identifier"},
	"harness:platform/project:Project":                                     orgLevel,
	"harness:platform/pipeline:Pipeline":                                   projectLevel,
	"harness:platform/triggers:Triggers":                                   {importer: "TriggerResourceImporter", required: []string{"orgId", "projectId", "targetId"}, id: "identifier"},
	"harness:platform/inputSet:InputSet":                                   {importer: "PipelineResourceImporter", required: []string{"orgId", "projectId", "pipelineId"}, id: "identifier"},
	"harness:platform/infrastructure:Infrastructure":                       {importer: "EnvRelatedResourceImporter", optional: []string{"orgId", "projectId"}, required: []string{"envId"}, id: "identifier"},
	"harness:platform/environment:Environment":                             multiLevel,
	"harness:platform/service:Service":                                     multiLevel,
	"harness:platform/githubConnector:GithubConnector":                     multiLevel,
	"harness:platform/kubernetesConnector:KubernetesConnector":             multiLevel,
	"harness:platform/awsConnector:AwsConnector":                           multiLevel,
	"harness:platform/awsSecretManagerConnector:AwsSecretManagerConnector": multiLevel,
	"harness:platform/dockerConnector:DockerConnector":                     multiLevel,
	"harness:platform/prometheusConnector:PrometheusConnector":             multiLevel,
	"harness:platform/secretText:SecretText":                               multiLevel,
	"harness:platform/usergroup:Usergroup":                                 multiLevel,
	"harness:platform/roleAssignments:RoleAssignments":                     multiLevel,
	"harness:platform/resourceGroup:ResourceGroup":                         multiLevel,
	"harness:platform/monitoredService:MonitoredService":                   multiLevel,
	"harness:platform/policy:Policy":                                       multiLevel,
	"harness:platform/policySet:PolicySet":                                 multiLevel,
	"harness:platform/fileStoreFile:FileStoreFile":                         multiLevel,
	"harness:platform/template:Template":                                   {importer: "the template importer", optional: []string{"orgId", "projectId"}, id: "identifier", versioned: true},
	// The importer sets "identifier", which a token does not have; its
	// read then looks the token up by an empty name: not importable
	// (Adoptable), but addressed the same way (the engine adopts it
	// through the state, which a read by name works from).
	"harness:platform/delegatetoken:Delegatetoken": {importer: "MultiLevelResourceImporter", optional: []string{"orgId", "projectId"}, id: "name"},
}

// Types lists the resource types with a known import ID format, sorted.
func Types() []string {
	out := make([]string, 0, len(schemes))
	for t := range schemes {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// Known reports whether token is a Harness type with a known format.
func Known(token string) bool { _, ok := schemes[token]; return ok }

// Adoptable reports whether the provider's import of token reads back the
// object the ID names. A delegate token's does not (see schemes); a
// refresh of its state does.
func Adoptable(token string) bool {
	s, ok := schemes[token]
	return ok && s.id == "identifier"
}

// Lookup is the provider's lookup (data source) of a resource type, named
// get<Type> in the same module: harness:platform/pipeline:Pipeline is
// looked up by harness:platform/getPipeline:getPipeline. Its arguments
// are what Parse returns for the object's import ID.
func Lookup(token string) string {
	parts := strings.Split(token, ":")
	if len(parts) != 3 {
		return ""
	}
	mod := parts[1][:strings.LastIndex(parts[1], "/")+1]
	fn := "get" + parts[2]
	return parts[0] + ":" + mod + fn + ":" + fn
}

// LookedUp is the resource type a lookup token (Lookup) reads, if it is
// one of a type with a known format.
func LookedUp(lookup string) (string, bool) {
	parts := strings.Split(lookup, ":")
	if len(parts) != 3 || len(parts[2]) <= len("get") || !strings.HasPrefix(parts[2], "get") {
		return "", false
	}
	name := parts[2][len("get"):]
	mod := parts[1][:strings.LastIndex(parts[1], "/")+1]
	token := parts[0] + ":" + mod + strings.ToLower(name[:1]) + name[1:] + ":" + name
	return token, Known(token)
}

// Importer names the provider's importer for token (for messages).
func Importer(token string) string { return schemes[token].importer }

// Format is the import ID of the object of type token with these inputs
// (orgId, projectId, envId, targetId, pipelineId, identifier or name).
func Format(token string, inputs map[string]string) (string, error) {
	s, ok := schemes[token]
	if !ok {
		return "", fmt.Errorf("%s: no known import ID format", token)
	}
	var parts []string
	for i, k := range s.optional {
		if inputs[k] == "" {
			if i+1 < len(s.optional) && inputs[s.optional[i+1]] != "" {
				return "", fmt.Errorf("%s: %s is set without %s", token, s.optional[i+1], k)
			}
			break
		}
		parts = append(parts, inputs[k])
	}
	for _, k := range append(append([]string{}, s.required...), s.id) {
		if inputs[k] == "" {
			return "", fmt.Errorf("%s: the import ID (%s) needs %s", token, s.importer, k)
		}
		parts = append(parts, inputs[k])
	}
	if s.versioned && inputs["version"] != "" {
		parts = append(parts, "versions", inputs["version"])
	}
	for _, p := range parts {
		if strings.Contains(p, "/") {
			return "", fmt.Errorf("%s: %q holds a '/', which the importer splits on", token, p)
		}
	}
	return strings.Join(parts, "/"), nil
}

// Parse returns the inputs an import ID names, as the importer sets them.
func Parse(token, id string) (map[string]string, error) {
	s, ok := schemes[token]
	if !ok {
		return nil, fmt.Errorf("%s: no known import ID format", token)
	}
	parts := strings.Split(id, "/")
	version := ""
	if n := len(parts); s.versioned && n >= 3 && parts[n-2] == "versions" {
		version, parts = parts[n-1], parts[:n-2]
	}
	fixed := len(s.required) + 1
	extra := len(parts) - fixed
	if extra < 0 || extra > len(s.optional) || slices.Contains(parts, "") {
		return nil, fmt.Errorf("%s: import ID %q does not have the form %s", token, id, s.form())
	}
	out := map[string]string{}
	for i := range extra {
		out[s.optional[i]] = parts[i]
	}
	for i, k := range s.required {
		out[k] = parts[extra+i]
	}
	out[s.id] = parts[len(parts)-1]
	if version != "" {
		out["version"] = version
	}
	return out, nil
}

// ResourceID is the ID the provider keeps in the state for the object:
// its identifier (a delegate token: its name).
func ResourceID(token string, inputs map[string]string) string {
	if s, ok := schemes[token]; ok {
		return inputs[s.id]
	}
	return inputs["identifier"]
}

func (s scheme) form() string {
	var b strings.Builder
	for _, k := range s.optional {
		b.WriteString("[" + k + "/")
	}
	b.WriteString(strings.Repeat("]", len(s.optional)))
	for _, k := range s.required {
		b.WriteString(k + "/")
	}
	b.WriteString(s.id)
	if s.versioned {
		b.WriteString("[/versions/version]")
	}
	return b.String()
}
