package catalog

import (
	"fmt"
	"slices"

	"github.com/company/harness-platform/internal/ident"
)

// The names below are how every Harness identifier and Kubernetes name is
// derived from the catalog, so that no stack ever needs a lookup to name a
// thing and `pulumi import` of existing resources is a mechanical mapping.

// ServiceIdentifier is the Harness service identifier of s.
func ServiceIdentifier(s *Service) string { return ident.From(s.Name) }

// PipelineIdentifier is the identifier of s's pipeline in st's environment.
func PipelineIdentifier(s *Service, st *Stack) string {
	return ident.Join(s.Name, st.Environment.Identifier)
}

// TriggerIdentifier is the identifier of s's webhook trigger in st.
func TriggerIdentifier(s *Service, st *Stack) string {
	return PipelineIdentifier(s, st) + "_webhook"
}

// InfrastructureIdentifier is the infrastructure definition of one cluster.
func InfrastructureIdentifier(st *Stack, region string) string {
	return ident.Join(st.Environment.Identifier, region, "k8s")
}

// ConnectorIdentifier is the Kubernetes connector of one cluster.
func ConnectorIdentifier(st *Stack, region string) string {
	return ident.Join("k8s", st.Environment.Identifier, region)
}

// DelegateName is the delegate of one cluster; it is also its selector.
func DelegateName(st *Stack, region string) string {
	return fmt.Sprintf("harness-delegate-%s-%s", st.Environment.Name, region)
}

// KubernetesNamespace is the Kubernetes namespace of s in one cluster.
func KubernetesNamespace(st *Stack, s *Service, region string) string {
	return fmt.Sprintf("%s-%s-%s", st.Environment.Name, s.Name, region)
}

// ChangeWindowPolicySet is the policy set the Production policy step uses.
func ChangeWindowPolicySet(st *Stack) string {
	return ident.Join(st.Environment.Identifier, "change_window")
}

// ChangeWindowPolicy is the policy in that set.
func ChangeWindowPolicy(st *Stack) string {
	return ident.Join("change_window", st.Environment.Identifier)
}

// regionsOf is where s runs in st: its regions, or all of st's.
func (c *Catalog) regionsOf(s *Service, st *Stack) []string {
	if len(s.Regions) == 0 {
		return st.RegionNames()
	}
	var out []string
	for _, r := range st.RegionNames() {
		if slices.Contains(s.Regions, r) {
			out = append(out, r)
		}
	}
	return out
}
