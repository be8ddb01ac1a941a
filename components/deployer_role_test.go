package components

import (
	"testing"

	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/component-helpers/auth/rbac/validation"

	"github.com/company/harness-platform/plan"
)

// The delegate's deployer role, as Kubernetes' own rule comparator reads
// it: it writes what a manifest holds and Harness's release history, and
// none of the namespace's guardrails, RBAC or the namespace itself.
func TestDeployerRoleWritesWorkloadsNotGuardrails(t *testing.T) {
	var rules []rbacv1.PolicyRule
	for _, r := range plan.DeployerRules {
		rules = append(rules, rbacv1.PolicyRule{APIGroups: r.APIGroups, Resources: r.Resources, Verbs: r.Verbs})
	}
	may := func(verb, group, resource string) bool {
		ok, _ := validation.Covers(rules, []rbacv1.PolicyRule{{APIGroups: []string{group}, Resources: []string{resource}, Verbs: []string{verb}}})
		return ok
	}
	for _, w := range [][3]string{
		{"create", "apps", "deployments"}, {"patch", "apps", "deployments/scale"}, {"delete", "apps", "replicasets"},
		{"create", "", "configmaps"}, {"update", "", "secrets"}, {"create", "", "services"}, {"create", "batch", "jobs"},
		{"create", "autoscaling", "horizontalpodautoscalers"}, {"list", "", "events"},
	} {
		if !may(w[0], w[1], w[2]) {
			t.Errorf("the delegate may not %s %s/%s, which a deployment needs", w[0], w[1], w[2])
		}
	}
	for _, w := range [][3]string{
		{"create", "networking.k8s.io", "networkpolicies"}, {"delete", "networking.k8s.io", "networkpolicies"},
		{"update", "", "resourcequotas"}, {"delete", "", "limitranges"}, {"patch", "", "namespaces"},
		{"create", "rbac.authorization.k8s.io", "rolebindings"}, {"create", "rbac.authorization.k8s.io", "roles"},
	} {
		if may(w[0], w[1], w[2]) {
			t.Errorf("the delegate may %s %s/%s: a deployed manifest could change its namespace's guardrails", w[0], w[1], w[2])
		}
	}
}
