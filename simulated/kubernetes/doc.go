// Package kubernetes is the simulated Kubernetes: a stand-in for the
// Kubernetes Pulumi provider v4.33.0 (pulumi-kubernetes) and the API
// servers of the clusters it deploys to, for offline runs and tests only.
//
// It serves the types the program declares and refuses any other:
// kubernetes:core/v1 Namespace, Secret, ResourceQuota and LimitRange,
// kubernetes:rbac.authorization.k8s.io/v1 RoleBinding,
// kubernetes:networking.k8s.io/v1 NetworkPolicy, kubernetes:helm.sh/v3
// Release, and External Secrets Operator's
// kubernetes:external-secrets.io/v1 SecretStore and ExternalSecret. It
// does what the real provider and an API server do to them that the
// program relies on:
//
//   - Check: the required inputs of the provider's Go SDK (a release's
//     chart, a binding's roleRef).
//   - State as the real provider records it: the live object and, beside
//     it, the inputs it applied, its initial API version and its
//     server-side-apply field manager, and the inputs read back from
//     them; a Secret's stringData stored as base64 data, as the API
//     server stores it; a release's status (deployed, revision 1).
//   - Replacement of a namespace whose metadata (its name) changes.
//   - Who may call, from where (Configure, and preflight's CheckCluster
//     and CheckCommand): the kubeconfig's credential plugin must be
//     installed where the run is; the cluster's API server must answer
//     from the runner's address (its private endpoint from inside its
//     networks, its public one from its public CIDRs) and authenticate
//     the run (an access entry for one of its identities), as the cloud
//     that runs the cluster configured it (core.Clusters: the simulated
//     AWS's EKS clusters).
//   - The clusters' CA certificates (ClusterCA), which the simulated EKS
//     returns and the real provider parses.
//
// Beside the provider, Workloads (workloads.go) stands for what a
// cluster does with the Deployments Harness applies: Pod Security
// admission by Kubernetes' own library, the ReplicaSet's pods, placement
// by requests as kube-scheduler's NodeResourcesFit does, and the Cluster
// Autoscaler's scale-up to the group's maximum; a caller builds it from
// what the simulated cloud holds (the engine's TestChainRunsItsServices).
//
// It does NOT:
//
//   - run what the provider stores: objects are stored, a release's
//     pods (the delegate's) never start on their own (Workloads places
//     the pods it is told of). The one controller stood for is External
//     Secrets Operator's, and only as preflight asks of it (Delegates):
//     an ExternalSecret counts as synced when it is stored, its target
//     Secret is not made;
//   - place pods by anything but their requests (no affinity, taints,
//     topology spread or priorities), or hash a pod template as the
//     Deployment controller does (the hash's value differs);
//   - refuse a custom resource whose definition the cluster lacks (the
//     API server's "no matches for kind"): an ExternalSecret is stored
//     whether or not the operator's chart installed its CRDs;
//   - fetch, render or validate Helm charts or their values (a release
//     is its status only), or validate manifests against the API's
//     OpenAPI schema, admission or server-side-apply conflicts;
//   - cascade: deleting a namespace leaves the objects in it;
//   - evaluate RBAC (role bindings are stored), or await readiness;
//   - model a cluster the simulated AWS did not make (a kind cluster):
//     its API server answers everyone;
//   - keep clusters apart: the objects of every cluster are in one
//     store, keyed by their Pulumi names;
//   - answer lookups (invokes), or change an object by itself.
package kubernetes
