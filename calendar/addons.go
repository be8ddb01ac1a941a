package calendar

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
)

// EKS add-ons: the version of each for each Kubernetes minor version, from
// AWS's tables of "the latest version of the Amazon EKS add-on type for
// each Kubernetes version" (eks-addons.json: each table's page, the copy
// it was read from, what dates it, and the day it was read):
//
//   - vpc-cni: https://docs.aws.amazon.com/eks/latest/userguide/managing-vpc-cni.html#vpc-cni-versions
//   - kube-proxy: https://docs.aws.amazon.com/eks/latest/userguide/managing-kube-proxy.html#kube-proxy-versions
//   - coredns: https://docs.aws.amazon.com/eks/latest/userguide/managing-coredns.html#coredns-versions
//
// The EKS Pod Identity Agent (eks-pod-identity-agent) is not among them:
// the program gives pods AWS credentials by IRSA (the cluster's OIDC
// provider, components.Cluster.OIDCProviderArn; the delegate's role), not
// by EKS Pod Identity, so nothing needs the agent.
//
//go:embed eks-addons.json
var eksAddonsJSON []byte

// EKSAddon is one add-on's table.
type EKSAddon struct {
	// Name is EKS's name of the add-on (CreateAddon's addonName).
	Name string `json:"name"`
	// Page is AWS's page of the table; Source the copy it was read from;
	// Stated what dates that copy.
	Page   string `json:"page"`
	Source string `json:"source"`
	Stated string `json:"stated"`
	// Required: validation refuses a Kubernetes version the table has no
	// row for (the add-on's builds are per Kubernetes minor). Otherwise it
	// warns, and the program asks EKS for its default build of the add-on
	// (plan.EKSAddonsFor).
	Required bool   `json:"required"`
	Why      string `json:"why"`
	// Versions are the add-on's version by Kubernetes minor version.
	Versions map[string]string `json:"versions"`
}

var eksAddons = func() (out struct {
	Read   string     `json:"read"`
	How    string     `json:"how"`
	Addons []EKSAddon `json:"addons"`
}) {
	if err := json.Unmarshal(eksAddonsJSON, &out); err != nil {
		panic(fmt.Sprintf("calendar/eks-addons.json: %v", err))
	}
	return out
}()

// EKSAddonsFile is the data's file, and EKSAddonsRead the day its tables
// were read (compared with AWS's pages: TestEKSAddons says by when they
// must be again).
const EKSAddonsFile = "calendar/eks-addons.json"

// EKSAddonsRead is the day the add-on tables were read.
var EKSAddonsRead = eksAddons.Read

// EKSAddons are the add-ons' tables, in the order they are declared:
// vpc-cni, kube-proxy, coredns.
func EKSAddons() []EKSAddon { return slices.Clone(eksAddons.Addons) }

// LookupEKSAddon finds an add-on's table by name.
func LookupEKSAddon(name string) (EKSAddon, bool) {
	i := slices.IndexFunc(eksAddons.Addons, func(a EKSAddon) bool { return a.Name == name })
	if i < 0 {
		return EKSAddon{}, false
	}
	return eksAddons.Addons[i], true
}

// Version is the add-on's version for Kubernetes version k8s ("" when the
// table has no row for it).
func (a EKSAddon) Version(k8s string) string { return a.Versions[k8s] }

// Minors are the Kubernetes versions the table has a row for, oldest
// first.
func (a EKSAddon) Minors() []string {
	out := make([]string, 0, len(a.Versions))
	for k := range a.Versions {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return Minor(out[i]) < Minor(out[j]) })
	return out
}

// EKSAddonCompatible reports whether the add-on's table gives version for
// Kubernetes version k8s: what the simulated EKS takes for the add-on
// version's compatibility with a cluster (DescribeAddonVersions'
// compatibilities), in its CreateAddon and UpdateAddon and in its answer
// to preflight. The real EKS knows more builds than the tables' latest
// ones; the program asks only for those, and preflight asks the real EKS
// whether it lists them.
func EKSAddonCompatible(name, version, k8s string) bool {
	a, ok := LookupEKSAddon(name)
	return ok && version != "" && a.Versions[k8s] == version
}

// EKSAddonMinors are the Kubernetes versions the add-on's table gives
// version for, oldest first (none: a version EKS does not know).
func EKSAddonMinors(name, version string) []string {
	a, ok := LookupEKSAddon(name)
	if !ok {
		return nil
	}
	var out []string
	for _, k := range a.Minors() {
		if a.Versions[k] == version {
			out = append(out, k)
		}
	}
	return out
}
