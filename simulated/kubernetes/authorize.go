package kubernetes

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/component-helpers/auth/rbac/validation"

	"github.com/company/harness-platform/simulated/core"
)

// Who may read what. An EKS cluster authorizes a principal by its access
// entry: the access policies associated with it and, through the
// cluster's RBAC bindings, its Kubernetes groups (Amazon EKS User Guide,
// "Review access policy permissions": access policies "only include allow
// rules", like ClusterRoles). A refresh reads every object; a principal
// whose rules do not cover the read is refused as the API server refuses
// it. The rules are matched by Kubernetes' own comparator
// (k8s.io/component-helpers auth/rbac/validation.Covers, the one the API
// server's escalation check uses).
//
// Modelled: the access policies AmazonEKSClusterAdminPolicy (everything)
// and AmazonEKSAdminViewPolicy (get, list and watch on everything,
// Secrets included: "list/view all resources in a cluster"), any other
// policy granting nothing; ClusterRoleBindings of groups to ClusterRoles
// the clusters hold (every cluster's, one store). Not modelled: Roles and
// RoleBindings of groups, resource names, users.

// accessPolicyRules are the rules of the EKS access policies modelled.
var accessPolicyRules = map[string][]rbacv1.PolicyRule{
	"arn:aws:eks::aws:cluster-access-policy/AmazonEKSClusterAdminPolicy": {{APIGroups: []string{"*"}, Resources: []string{"*"}, Verbs: []string{"*"}}},
	"arn:aws:eks::aws:cluster-access-policy/AmazonEKSAdminViewPolicy":    {{APIGroups: []string{"*"}, Resources: []string{"*"}, Verbs: []string{"get", "list", "watch"}}},
}

// resources are the API group and resource of each type served, and
// whether its objects live in a namespace.
var resources = map[string]struct {
	group, resource string
	namespaced      bool
}{
	"kubernetes:core/v1:Namespace":                        {"", "namespaces", false},
	"kubernetes:core/v1:Secret":                           {"", "secrets", true},
	"kubernetes:core/v1:ResourceQuota":                    {"", "resourcequotas", true},
	"kubernetes:core/v1:LimitRange":                       {"", "limitranges", true},
	"kubernetes:networking.k8s.io/v1:NetworkPolicy":       {"networking.k8s.io", "networkpolicies", true},
	"kubernetes:rbac.authorization.k8s.io/v1:RoleBinding": {"rbac.authorization.k8s.io", "rolebindings", true},
	ClusterRoleType:                                       {"rbac.authorization.k8s.io", "clusterroles", false},
	ClusterRoleBindingType:                                {"rbac.authorization.k8s.io", "clusterrolebindings", false},
	ExternalSecretType:                                    {"external-secrets.io", "externalsecrets", true},
	SecretStoreType:                                       {"external-secrets.io", "secretstores", true},
}

// RBAC's cluster-wide types.
const (
	ClusterRoleType        = "kubernetes:rbac.authorization.k8s.io/v1:ClusterRole"
	ClusterRoleBindingType = "kubernetes:rbac.authorization.k8s.io/v1:ClusterRoleBinding"
)

// CheckRead refuses a refresh's read the run's principals may not make.
// A Helm release is read from Helm's storage: Secrets in its namespace
// (Helm's default driver) or ConfigMaps (helmReleaseSettings.driver
// configmap), as the provider was last configured.
func (b Behavior) CheckRead(typ string, state resource.PropertyMap, r core.Reach) error {
	if b.Clusters == nil || b.Cloud == nil || r.Identities == nil {
		return nil
	}
	want, ok := resources[typ]
	name, namespace := objectName(state)
	if typ == releaseType {
		ok, want.group, want.resource, want.namespaced = true, "", "secrets", true
		if b.driver() == "configmap" {
			want.resource = "configmaps"
		}
		rev := 1.0
		if st := state["status"]; st.IsObject() && st.ObjectValue()["revision"].IsNumber() {
			rev = st.ObjectValue()["revision"].NumberValue()
		}
		name, namespace = fmt.Sprintf("sh.helm.release.v1.%s.v%d", core.Str(state, "name"), int(rev)), core.Str(state, "namespace")
	}
	if !ok {
		return nil
	}
	var owner []rbacv1.PolicyRule
	user, known := "", false
	for _, id := range r.Identities {
		a, found, err := b.Clusters.Access(id)
		if err != nil {
			return err
		}
		if !found {
			continue
		}
		user, known = id, true
		for _, p := range a.Policies {
			owner = append(owner, accessPolicyRules[p]...)
		}
		owner = append(owner, b.groupRules(a.Groups)...)
	}
	if !known {
		return nil // refused when the provider was configured (authenticated)
	}
	if ok, _ := validation.Covers(owner, []rbacv1.PolicyRule{{APIGroups: []string{want.group}, Resources: []string{want.resource}, Verbs: []string{"get"}}}); ok {
		return nil
	}
	return forbidden(user, "get", want.group, want.resource, name, namespace, want.namespaced)
}

// forbidden is the API server's refusal, in its words
// (k8s.io/apiserver endpoints/handlers/responsewriters, forbiddenMessage).
func forbidden(user, verb, group, res, name, namespace string, namespaced bool) error {
	where := "at the cluster scope"
	if namespaced {
		where = fmt.Sprintf("in the namespace %q", namespace)
	}
	return fmt.Errorf("%s %q is forbidden: User %q cannot %s resource %q in API group %q %s", res, name, user, verb, res, group, where)
}

// groupRules are the rules of the ClusterRoles the clusters' bindings
// give groups.
func (b Behavior) groupRules(groups []string) []rbacv1.PolicyRule {
	if len(groups) == 0 {
		return nil
	}
	var roles []string
	for _, rec := range b.Cloud.OfType(ClusterRoleBindingType) {
		var binding rbacv1.ClusterRoleBinding
		if decode(rec.Properties, &binding) != nil || binding.RoleRef.Kind != "ClusterRole" {
			continue
		}
		for _, s := range binding.Subjects {
			if s.Kind == rbacv1.GroupKind && slices.Contains(groups, s.Name) {
				roles = append(roles, binding.RoleRef.Name)
			}
		}
	}
	var out []rbacv1.PolicyRule
	for _, rec := range b.Cloud.OfType(ClusterRoleType) {
		var role rbacv1.ClusterRole
		if decode(rec.Properties, &role) == nil && slices.Contains(roles, role.Name) {
			out = append(out, role.Rules...)
		}
	}
	return out
}

// decode reads a stored object (the provider's camelCase inputs, which
// are the API's field names) into its API type.
func decode(props map[string]any, into any) error {
	raw, err := json.Marshal(props)
	if err != nil {
		return err
	}
	return json.Unmarshal(raw, into)
}

// objectName is an object's name and namespace.
func objectName(state resource.PropertyMap) (name, namespace string) {
	if m := state["metadata"]; m.IsObject() {
		return core.Str(m.ObjectValue(), "name"), core.Str(m.ObjectValue(), "namespace")
	}
	return "", ""
}

// driver is Helm's storage driver as the provider was last configured.
func (b Behavior) driver() string {
	if b.helm == nil {
		return ""
	}
	if d := b.helm.Load(); d != nil {
		return *d
	}
	return ""
}

// configureHelm records the provider's helmReleaseSettings.driver.
func (b Behavior) configureHelm(args resource.PropertyMap) {
	if b.helm == nil {
		return
	}
	driver := "secret"
	v := args["helmReleaseSettings"]
	if v.IsString() {
		var settings struct{ Driver string }
		if json.Unmarshal([]byte(v.StringValue()), &settings) == nil && settings.Driver != "" {
			driver = settings.Driver
		}
	} else if v.IsObject() {
		if d := core.Str(v.ObjectValue(), "driver"); d != "" {
			driver = d
		}
	}
	b.helm.Store(&driver)
}
