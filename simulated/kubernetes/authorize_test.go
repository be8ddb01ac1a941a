package kubernetes

import (
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"

	"github.com/company/harness-platform/plan"
	"github.com/company/harness-platform/simulated/core"
)

// access is a core.Clusters whose access entries are given.
type access map[string]core.Access

func (access) Endpoint(string) (core.Endpoint, bool, error) { return core.Endpoint{}, false, nil }
func (a access) Access(p string) (core.Access, bool, error) {
	v, ok := a[p]
	return v, ok, nil
}

const (
	previewRole  = "arn:aws:iam::111111111111:role/harness-platform-preview"
	deployerRole = "arn:aws:iam::111111111111:role/harness-platform-deployer"
)

// previewCloud holds the ClusterRole and binding the platform stack
// declares for the preview group (plan.PreviewRules).
func previewCloud(t *testing.T) *core.Cloud {
	t.Helper()
	cloud, err := core.OpenCloud(t.TempDir(), "kubernetes")
	if err != nil {
		t.Fatal(err)
	}
	var rules []any
	for _, r := range plan.PreviewRules {
		rules = append(rules, map[string]any{"apiGroups": strs(r.APIGroups), "resources": strs(r.Resources), "verbs": strs(r.Verbs)})
	}
	put := func(key, typ string, props map[string]any) {
		if err := cloud.Put(key, core.Record{Type: typ, Name: key, Properties: props}); err != nil {
			t.Fatal(err)
		}
	}
	put("role", ClusterRoleType, map[string]any{"metadata": map[string]any{"name": plan.PreviewGroup}, "rules": rules})
	put("binding", ClusterRoleBindingType, map[string]any{
		"metadata": map[string]any{"name": plan.PreviewGroup},
		"roleRef":  map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": plan.PreviewGroup},
		"subjects": []any{map[string]any{"kind": "Group", "name": plan.PreviewGroup, "apiGroup": "rbac.authorization.k8s.io"}},
	})
	return cloud
}

func strs(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

func object(name, namespace string) resource.PropertyMap {
	return resource.NewPropertyMapFromMap(map[string]any{"metadata": map[string]any{"name": name, "namespace": namespace}})
}

func release(name, namespace string) resource.PropertyMap {
	return resource.NewPropertyMapFromMap(map[string]any{"name": name, "namespace": namespace, "status": map[string]any{"revision": 2}})
}

// The preview role reads, through its group's ClusterRole, what the
// stacks declare and Helm's releases kept in ConfigMaps, and no Secret:
// refused in the API server's words. With AmazonEKSAdminViewPolicy (the
// old access) it reads Secrets; with Helm's default driver (Secrets) its
// refresh of a release is refused.
func TestPreviewRoleReadsNoSecret(t *testing.T) {
	b := New(access{
		previewRole:  {Groups: []string{plan.PreviewGroup}},
		deployerRole: {Policies: []string{"arn:aws:eks::aws:cluster-access-policy/AmazonEKSClusterAdminPolicy"}},
	}, previewCloud(t))
	preview := core.Reach{Identities: []string{previewRole}}
	b.configureHelm(resource.NewPropertyMapFromMap(map[string]any{"helmReleaseSettings": `{"driver":"configmap"}`}))
	for typ, state := range map[string]resource.PropertyMap{
		"kubernetes:core/v1:Namespace":                        object("harness-delegate-ng", ""),
		"kubernetes:networking.k8s.io/v1:NetworkPolicy":       object("guardrails", "dev-payments-euw1"),
		"kubernetes:rbac.authorization.k8s.io/v1:RoleBinding": object("harness-delegate", "dev-payments-euw1"),
		ExternalSecretType:                                    object("t", "harness-delegate-ng"),
		releaseType:                                           release("harness-delegate-int-stable-euw1", "harness-delegate-ng"),
	} {
		if err := b.CheckRead(typ, state, preview); err != nil {
			t.Errorf("the preview role cannot read %s: %v", typ, err)
		}
	}
	err := b.CheckRead("kubernetes:core/v1:Secret", object("token", "harness-delegate-ng"), preview)
	if err == nil || err.Error() != `secrets "token" is forbidden: User "`+previewRole+`" cannot get resource "secrets" in API group "" in the namespace "harness-delegate-ng"` {
		t.Errorf("the preview role reads a Secret: %v", err)
	}
	if err := b.CheckRead("kubernetes:core/v1:Secret", object("token", "harness-delegate-ng"), core.Reach{Identities: []string{deployerRole}}); err != nil {
		t.Errorf("the deployer cannot read a Secret: %v", err)
	}

	// Helm's default driver keeps releases in Secrets.
	b.configureHelm(resource.PropertyMap{})
	if err := b.CheckRead(releaseType, release("harness-delegate-int-stable-euw1", "harness-delegate-ng"), preview); err == nil ||
		!strings.HasPrefix(err.Error(), `secrets "sh.helm.release.v1.harness-delegate-int-stable-euw1.v2" is forbidden`) {
		t.Errorf("a release kept in Secrets, read by the preview role: %v", err)
	}

	// The old access: AmazonEKSAdminViewPolicy reads Secrets.
	old := New(access{previewRole: {Policies: []string{"arn:aws:eks::aws:cluster-access-policy/AmazonEKSAdminViewPolicy"}}}, previewCloud(t))
	if err := old.CheckRead("kubernetes:core/v1:Secret", object("token", "harness-delegate-ng"), preview); err != nil {
		t.Errorf("AmazonEKSAdminViewPolicy does not read Secrets here, as AWS documents it does: %v", err)
	}
}
