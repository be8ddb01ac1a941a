package crossguard

import (
	"fmt"
	"slices"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/policyx"
)

// The labels and names of a service namespace's guardrails
// (plan.ServiceLabel, plan.GuardrailsName; the pack does not import the
// program's packages).
const (
	serviceLabel    = "harness-platform/service"
	guardrailsName  = "harness-platform-guardrails"
	enforceLabel    = "pod-security.kubernetes.io/enforce"
	namespaceType   = "kubernetes:core/v1:Namespace"
	netpolType      = "kubernetes:networking.k8s.io/v1:NetworkPolicy"
	quotaType       = "kubernetes:core/v1:ResourceQuota"
	limitRangeType  = "kubernetes:core/v1:LimitRange"
	podSecurityDocs = "kubernetes.io/docs/concepts/security/pod-security-admission"
)

// namespaceGuardrails refuses a service namespace that enforces no Pod
// Security Standard, a guardrail NetworkPolicy that is not default-deny
// both ways, and a guardrail quota or LimitRange without its limits (seed
// 004, sec. 10). Each service namespace's set of guardrails is held by
// the program's tests: the SDK runs no stack policy.
var namespaceGuardrails = resourcePolicy("namespace-guardrails",
	"A service namespace enforces a Pod Security Standard; its guardrails are a default-deny NetworkPolicy, a ResourceQuota with CPU, memory and pod limits, and a LimitRange with container defaults.",
	policyx.EnforcementLevelMandatory, nil,
	func(r policyx.AnalyzerResource, _ config) []string {
		name, _ := stringAt(r.Properties, "metadata", "name")
		switch r.Type {
		case namespaceType:
			if _, service := stringAt(r.Properties, "metadata", "labels", serviceLabel); !service {
				return nil
			}
			level, ok := stringAt(r.Properties, "metadata", "labels", enforceLabel)
			if _, known := at(r.Properties, "metadata", "labels"); !known {
				return nil
			}
			if !ok || !slices.Contains([]string{"restricted", "baseline", "privileged"}, level) {
				return []string{fmt.Sprintf("service namespace %s enforces no Pod Security Standard (label %s: restricted, baseline or privileged; %s)", name, enforceLabel, podSecurityDocs)}
			}
		case netpolType:
			if name != guardrailsName {
				return nil
			}
			types, known := stringsAt(r.Properties, "spec", "policyTypes")
			if known && (!slices.Contains(types, "Ingress") || !slices.Contains(types, "Egress")) {
				return []string{fmt.Sprintf("NetworkPolicy %s applies to %v: a guardrail denies by default both ways (policyTypes Ingress and Egress)", name, types)}
			}
			if selector, ok := at(r.Properties, "spec", "podSelector"); ok && selector.IsMap() && selector.AsMap().Len() > 0 {
				return []string{fmt.Sprintf("NetworkPolicy %s selects some pods: a guardrail selects every pod of the namespace (podSelector: {})", name)}
			}
		case quotaType:
			if name != guardrailsName {
				return nil
			}
			var missing []string
			for _, k := range []string{"pods", "requests.cpu", "requests.memory", "limits.cpu", "limits.memory"} {
				if _, ok := at(r.Properties, "spec", "hard", k); !ok {
					missing = append(missing, k)
				}
			}
			if len(missing) > 0 {
				return []string{fmt.Sprintf("ResourceQuota %s sets no %v", name, missing)}
			}
		case limitRangeType:
			if name != guardrailsName {
				return nil
			}
			if _, ok := at(r.Properties, "spec", "limits"); !ok {
				return []string{fmt.Sprintf("LimitRange %s sets no container defaults", name)}
			}
		}
		return nil
	})
