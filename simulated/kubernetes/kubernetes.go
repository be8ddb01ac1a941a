package kubernetes

import (
	"encoding/base64"
	"fmt"
	"slices"
	"sort"
	"sync/atomic"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/company/harness-platform/simulated/core"
)

// Version is the version of the Kubernetes provider this room stands in
// for.
const Version = "4.33.0"

// Behavior simulates the Kubernetes provider for the types the program
// declares: the required inputs below are the ones the provider's Go SDK
// requires (pulumi-kubernetes v4.33.0), and a type not listed here is
// refused: a new type is simulated on purpose, not by accident.
type Behavior struct {
	core.KeyIsID
	// Clusters are where the clusters' API servers are (the simulated
	// AWS's EKS clusters: aws.Clusters); nil: every API server answers
	// everyone.
	Clusters core.Clusters
	// Cloud is this room's store, where the clusters' RBAC objects are
	// (CheckRead); nil: every read is allowed.
	Cloud *core.Cloud
	// helm is Helm's storage driver, as a provider was last configured.
	helm *atomic.Pointer[string]
}

// New is the simulated Kubernetes of the clusters clusters runs, its
// objects in cloud.
func New(clusters core.Clusters, cloud *core.Cloud) Behavior {
	return Behavior{Clusters: clusters, Cloud: cloud, helm: &atomic.Pointer[string]{}}
}

var (
	_ core.Behavior    = Behavior{}
	_ core.Addressed   = Behavior{}
	_ core.Configurer  = Behavior{}
	_ core.InputReader = Behavior{}
	_ core.Live        = Behavior{}
	_ core.Invoker     = Behavior{}
	_ core.ReadGuard   = Behavior{}
)

const releaseType = "kubernetes:helm.sh/v3:Release"

// required lists each type's required inputs; a dotted path is required
// whenever its enclosing object is given.
var required = map[string][]string{
	"kubernetes:core/v1:Namespace": {},
	"kubernetes:core/v1:Secret":    {},
	releaseType:                    {"chart"},
	"kubernetes:rbac.authorization.k8s.io/v1:RoleBinding": {"roleRef", "roleRef.apiGroup", "roleRef.kind", "roleRef.name"},
	// A service namespace's guardrails (plan.Guardrail).
	"kubernetes:networking.k8s.io/v1:NetworkPolicy": {"spec"},
	"kubernetes:core/v1:ResourceQuota":              {},
	"kubernetes:core/v1:LimitRange":                 {},
	// What the preview role may read (plan.PreviewRules).
	ClusterRoleType:        {},
	ClusterRoleBindingType: {"roleRef", "roleRef.apiGroup", "roleRef.kind", "roleRef.name"},
	// How a delegate's token reaches its namespace (External Secrets
	// Operator's custom resources, external-secrets.io/v1).
	ExternalSecretType: {"spec"},
	SecretStoreType:    {"spec"},
}

// External Secrets Operator's types.
const (
	ExternalSecretType = "kubernetes:external-secrets.io/v1:ExternalSecret"
	SecretStoreType    = "kubernetes:external-secrets.io/v1:SecretStore"
)

// Check refuses missing required inputs, and returns a Helm release's
// inputs as the real provider's Check does (releaseWithDefaults). The
// engine asks no Check of a provider whose configuration is unknown (a
// preview before its cluster exists): such a release is planned with its
// inputs as given, and an up from that plan is refused when Check then
// writes the defaults ("violates plan: properties changed: +-compat,
// =+atomic, ...", found with the real plugin; docs/operating.md).
func (Behavior) Check(typ, _ string, news resource.PropertyMap) (resource.PropertyMap, []*pulumirpc.CheckFailure) {
	req, ok := required[typ]
	if !ok {
		return news, core.UnknownType("kubernetes", typ)
	}
	out := news
	if typ == releaseType {
		out = releaseWithDefaults(news)
	}
	return out, core.MissingRequired(news, req)
}

// releaseWithDefaults is a Helm release's inputs as the real Kubernetes
// provider's Check returns them: every option it defaults written out
// (false, ""), the repository options completed, and the SDK's internal
// compat flag dropped (pulumi-kubernetes 4.33.0 provider/pkg/provider
// helm_release.go, Check; check-plugins found each as a change when the
// simulation stored the inputs as given).
func releaseWithDefaults(in resource.PropertyMap) resource.PropertyMap {
	out := in.Copy()
	delete(out, "compat")
	for _, k := range []string{"allowNullValues", "atomic", "cleanupOnFail", "createNamespace", "dependencyUpdate", "devel",
		"disableCRDHooks", "disableOpenapiValidation", "disableWebhooks", "forceUpdate", "lint", "recreatePods",
		"renderSubchartNotes", "replace", "resetValues", "reuseValues", "skipAwait", "skipCrds", "verify", "waitForJobs"} {
		if _, ok := out[resource.PropertyKey(k)]; !ok {
			out[resource.PropertyKey(k)] = resource.NewBoolProperty(false)
		}
	}
	for _, k := range []string{"description", "keyring", "postrender"} {
		if _, ok := out[resource.PropertyKey(k)]; !ok {
			out[resource.PropertyKey(k)] = resource.NewStringProperty("")
		}
	}
	if r, ok := out["repositoryOpts"]; ok && r.IsObject() {
		opts := r.ObjectValue().Copy()
		for _, k := range []string{"caFile", "certFile", "keyFile", "password", "username"} {
			if _, ok := opts[resource.PropertyKey(k)]; !ok {
				opts[resource.PropertyKey(k)] = resource.NewStringProperty("")
			}
		}
		out["repositoryOpts"] = resource.NewObjectProperty(opts)
	}
	return out
}

// ID is where the store keeps an object, which is also its id: a
// generated one.
func (Behavior) ID(typ, name string, _ resource.PropertyMap) string {
	return core.GeneratedID(typ, name)
}

// ImportedInputs are an imported object's state without what the
// provider computes.
func (b Behavior) ImportedInputs(typ string, state resource.PropertyMap) resource.PropertyMap {
	return core.WithoutComputed(state, b.Computed(typ, "", state))
}

// Computed are what the provider records beside an object, and a Helm
// release's status.
func (Behavior) Computed(typ, id string, news resource.PropertyMap) resource.PropertyMap {
	if typ == releaseType {
		return resource.PropertyMap{"status": resource.NewObjectProperty(resource.PropertyMap{
			"name":      resource.NewStringProperty(core.Str(news, "name")),
			"namespace": resource.NewStringProperty(core.Str(news, "namespace")),
			"chart":     resource.NewStringProperty(core.Str(news, "chart")),
			"version":   resource.NewStringProperty(core.Str(news, "version")),
			"status":    resource.NewStringProperty("deployed"),
			"revision":  resource.NewNumberProperty(1),
		})}
	}
	// The real provider's state of an object is the live object and,
	// beside it, the inputs it applied (its Diff prunes the live object
	// to them: without them every field is new, and an immutable one,
	// such as a RoleBinding's roleRef, replaces the object), the API
	// version it was created with and its server-side-apply field
	// manager.
	return resource.PropertyMap{
		"__inputs":            resource.NewObjectProperty(news.Copy()),
		"__initialApiVersion": resource.NewStringProperty(core.Str(news, "apiVersion")),
		"__fieldManager":      resource.NewStringProperty("pulumi-kubernetes-" + core.ShortHash(id)[:8]),
	}
}

// ReadInputs: the real provider reads its inputs back from the ones it
// recorded beside the live object (which, for a Secret, has data where
// the inputs had stringData).
func (Behavior) ReadInputs(_ string, state, oldInputs resource.PropertyMap) (resource.PropertyMap, bool) {
	if in, ok := state["__inputs"]; ok && in.IsObject() && len(oldInputs) > 0 {
		return in.ObjectValue().Copy(), true
	}
	return nil, false
}

// Live is an object as the API server stores it: it turns a Secret's
// stringData into base64 data (and the real provider's state holds the
// live object, its Diff comparing the inputs with it).
func (Behavior) Live(typ string, out resource.PropertyMap) resource.PropertyMap {
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

// Replaces: an object's name and namespace are immutable (the real
// provider replaces an object whose metadata.name or metadata.namespace
// changes, and updates its labels and annotations in place); a
// RoleBinding's roleRef is too (the API server refuses to change it).
func (Behavior) Replaces(typ string, olds, news resource.PropertyMap, changed []string) []string {
	var out []string
	for _, c := range changed {
		switch {
		case c == "metadata":
			om, nm := objectAt(olds, "metadata"), objectAt(news, "metadata")
			for _, k := range []resource.PropertyKey{"name", "namespace"} {
				if !om[k].DeepEquals(nm[k]) {
					out = append(out, "metadata."+string(k))
				}
			}
		case c == "roleRef" && (typ == "kubernetes:rbac.authorization.k8s.io/v1:RoleBinding" || typ == ClusterRoleBindingType):
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return out
}

func objectAt(m resource.PropertyMap, key resource.PropertyKey) resource.PropertyMap {
	if v, ok := m[key]; ok && v.IsObject() {
		return v.ObjectValue()
	}
	return resource.PropertyMap{}
}

// Invoke: the simulated Kubernetes answers no lookup.
func (Behavior) Invoke(token string, _ resource.PropertyMap) (resource.PropertyMap, error) {
	return nil, fmt.Errorf("the simulated kubernetes provider does not answer %s", token)
}

// Delegate is a delegate release and the token Secret its pods read.
type Delegate struct {
	Name     string // the chart's delegateName
	Replicas int
	// Token is the Secrets Manager secret its token Secret is made from
	// (the ExternalSecret's remoteRef key); "" when none is.
	TokenSecret string
}

// Delegates are the delegate releases (chart harness-delegate-ng) and,
// for each, the Secrets Manager secret the Secret its existingDelegateToken
// names is made from, by the ExternalSecret of that name in its
// namespace. A simulated release is ready when it is stored, and a
// simulated External Secrets Operator has synced as soon as the
// ExternalSecret is stored, so the delegates have started with that
// secret's value.
func Delegates(cloud *core.Cloud) []Delegate {
	type ref struct{ namespace, name string }
	from := map[ref]string{}
	for _, rec := range cloud.OfType(ExternalSecretType) {
		meta, _ := rec.Properties["metadata"].(map[string]any)
		spec, _ := rec.Properties["spec"].(map[string]any)
		target, _ := spec["target"].(map[string]any)
		name, _ := target["name"].(string)
		if name == "" {
			name, _ = meta["name"].(string)
		}
		data, _ := spec["data"].([]any)
		for _, d := range data {
			item, _ := d.(map[string]any)
			remote, _ := item["remoteRef"].(map[string]any)
			if key, ok := remote["key"].(string); ok {
				from[ref{fmt.Sprint(meta["namespace"]), name}] = key
			}
		}
	}
	var out []Delegate
	for _, rec := range cloud.OfType(releaseType) {
		values, _ := rec.Properties["values"].(map[string]any)
		secret, ok := values["existingDelegateToken"].(string)
		if !ok {
			continue
		}
		replicas, _ := values["replicas"].(float64)
		out = append(out, Delegate{
			Name:        fmt.Sprint(values["delegateName"]),
			Replicas:    int(replicas),
			TokenSecret: from[ref{fmt.Sprint(rec.Properties["namespace"]), secret}],
		})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
