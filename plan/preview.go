package plan

// What previews and the drift check read in a cluster, and nothing more.
// They run as the environment's preview role, which must not read
// Secrets: a Secret may hold a credential (the delegate's token Secret
// does), and AmazonEKSAdminViewPolicy, the read-everything access policy,
// includes them (Amazon EKS User Guide, "Review access policy
// permissions"). "If the permissions in the access policies don't meet
// your needs, create Kubernetes RBAC objects. Then specify Kubernetes
// group names for your access entries" (same page): the preview role's
// access entry names PreviewGroup, which a ClusterRole binds to exactly
// the reads below.

// PreviewGroup is the Kubernetes group of the preview role's access
// entry, and the name of its ClusterRole and ClusterRoleBinding.
const PreviewGroup = "harness-platform-preview"

// HelmDriver is where Helm keeps its releases in the clusters: ConfigMaps,
// not Secrets (Helm's default), so that reading a release (a refresh of
// a helm.sh/v3 Release: Helm's storage driver, the Kubernetes provider's
// helmReleaseSettings.driver) needs no Secret. Their values hold no
// credential: the delegate's token reaches it by name
// (existingDelegateToken, TokenSecret).
const HelmDriver = "configmap"

// Rule is a Kubernetes RBAC policy rule.
type Rule struct {
	APIGroups, Resources, Verbs []string
}

// PreviewRules are what PreviewGroup may do: read the kinds the stacks
// declare, and the ConfigMaps Helm keeps its releases in; never Secrets.
var PreviewRules = []Rule{
	{APIGroups: []string{""}, Resources: []string{"namespaces", "resourcequotas", "limitranges", "configmaps"}, Verbs: readVerbs},
	{APIGroups: []string{"networking.k8s.io"}, Resources: []string{"networkpolicies"}, Verbs: readVerbs},
	{APIGroups: []string{"rbac.authorization.k8s.io"}, Resources: []string{"rolebindings", "clusterroles", "clusterrolebindings"}, Verbs: readVerbs},
	{APIGroups: []string{"external-secrets.io"}, Resources: []string{"secretstores", "externalsecrets"}, Verbs: readVerbs},
}

var readVerbs = []string{"get", "list", "watch"}

// DeployerRole is the ClusterRole the delegate is bound to in each
// namespace it deploys to (a RoleBinding per namespace), in place of
// Kubernetes' admin: admin writes NetworkPolicies, so a deployed
// manifest could open its own namespace. It writes the workloads a
// manifest holds and the ConfigMap or Secret Harness keeps a release's
// history in (developer.harness.io, "Kubernetes releases and
// versioning"), and no NetworkPolicy, ResourceQuota, LimitRange, Role,
// RoleBinding or Namespace: the guardrails stay the platform's.
const DeployerRole = "harness-delegate-deployer"

// DeployerRules are DeployerRole's rules.
var DeployerRules = []Rule{
	{APIGroups: []string{""}, Resources: []string{"pods", "pods/log", "pods/exec", "services", "configmaps", "secrets", "serviceaccounts", "persistentvolumeclaims"}, Verbs: []string{"*"}},
	{APIGroups: []string{""}, Resources: []string{"events", "endpoints"}, Verbs: readVerbs},
	{APIGroups: []string{"apps"}, Resources: []string{"deployments", "deployments/scale", "replicasets", "statefulsets", "statefulsets/scale", "daemonsets"}, Verbs: []string{"*"}},
	{APIGroups: []string{"batch"}, Resources: []string{"jobs", "cronjobs"}, Verbs: []string{"*"}},
	{APIGroups: []string{"autoscaling"}, Resources: []string{"horizontalpodautoscalers"}, Verbs: []string{"*"}},
	{APIGroups: []string{"policy"}, Resources: []string{"poddisruptionbudgets"}, Verbs: []string{"*"}},
	{APIGroups: []string{"networking.k8s.io"}, Resources: []string{"ingresses"}, Verbs: []string{"*"}},
}
