package ident

import (
	"fmt"
	"strconv"
	"strings"
)

// Every Harness identifier and Kubernetes name this project creates is
// derived here, from catalog names, so that no stack ever needs a lookup to
// name a thing, `pulumi import` is a mechanical mapping, and the catalog's
// validation checks exactly the names the plan uses.

// Service is the Harness service identifier of a catalog service.
func Service(service string) string { return From(service) }

// Environment is the default Harness identifier of an environment name.
func Environment(name string) string { return From(name) }

// UserGroup is the default user group of a team.
func UserGroup(team string) string { return From(team) + "_team" }

// Pipeline is the identifier of a service's pipeline in an environment.
func Pipeline(service, envID string) string { return Join(service, envID) }

// Trigger is the identifier of a pipeline's webhook trigger.
func Trigger(service, envID string) string { return Pipeline(service, envID) + "_webhook" }

// Infrastructure is the infrastructure definition of one cluster.
func Infrastructure(envID, region string) string { return Join(envID, region, "k8s") }

// InfrastructureExpr is Infrastructure computed by Harness at run time from
// an expression that yields a region name (a Kubernetes name, so '-' is the
// only character From replaces). Harness evaluates Java string methods on
// expressions: https://developer.harness.io/docs/platform/variables-and-expressions/expressions-java-methods
func InfrastructureExpr(envID, regionExpr string) string {
	return Join(envID) + `_<+<+` + regionExpr + `>.replace("-", "_")>_k8s`
}

// KubernetesConnector is the Kubernetes connector of one cluster.
func KubernetesConnector(envID, region string) string { return Join("k8s", envID, region) }

// DelegateName is the delegate of one cluster; it is also its selector.
// A Kubernetes name, unique in the account.
func DelegateName(envName, region string) string {
	return "harness-delegate-" + envName + "-" + region
}

// Namespace is the Kubernetes namespace of a service in one cluster.
func Namespace(envName, service, region string) string {
	return envName + "-" + service + "-" + region
}

// NamespaceExpr is the namespace as the infrastructure definition writes
// it: the environment and service are Harness expressions, the region is
// the definition's own.
func NamespaceExpr(region string) string {
	return Namespace("<+env.name>", "<+service.name>", region)
}

// ValuesFile is the File Store identifier of a service's Values YAML in
// an environment.
func ValuesFile(service, envID string) string { return Join(service, envID, "values") }

// ValuesFileName is its file name, at the File Store's root; envID may be
// the expression of the environment being deployed.
func ValuesFileName(service, envID string) string { return service + "-" + envID + "-values.yaml" }

// PrometheusConnector is the Prometheus connector of an environment.
func PrometheusConnector(envID string) string { return Join("prometheus", envID) }

// MonitoredService is the monitored service of a service in an
// environment; Harness names the ones it creates the same way.
func MonitoredService(service, envID string) string { return Join(service, envID) }

// ChangeWindowPolicy is the change-window policy of an environment.
func ChangeWindowPolicy(envID string) string { return Join("change_window", envID) }

// ChangeWindowPolicySet is the policy set the policy step evaluates.
func ChangeWindowPolicySet(envID string) string { return Join(envID, "change_window") }

// ResourceGroup is the resource group of a team's user group.
func ResourceGroup(userGroup string) string { return userGroup + "_deployments" }

// RoleAssignment is the identifier of a user group's role assignment.
func RoleAssignment(userGroup, role string) string { return userGroup + role }

// PipelineName is the display name of a service's pipeline.
func PipelineName(service, envName string) string { return service + "-" + envName }

// ManifestPath is where the generated manifests of a service are, per
// environment and region (expressions allowed).
func ManifestPath(service, envName, region string) string {
	return strings.Join([]string{"generated", service, envName, region}, "/")
}

// ClusterName is the EKS cluster (and VPC) of one environment and region.
func ClusterName(envName, region string) string { return envName + "-" + region }

// DelegateToken is the name of generation gen of a delegate's token
// (TokenName).
func DelegateToken(envName, region string, gen int) string {
	return TokenName(DelegateName(envName, region), gen)
}

// TokenName is the name of generation gen of delegate's token:
// <delegate>-token for the first, <delegate>-g<gen>-token after it.
// Harness keeps a revoked token's name for 30 days, so each rotation
// takes a new one. No generation's name begins another's: Harness finds
// a token by the prefix of its name (harness-core DelegateNgTokenServiceImpl
// .createTokenQuery, startsWith), so <delegate>-token-2 would collide
// with <delegate>-token-20.
func TokenName(delegate string, gen int) string {
	if gen <= 1 {
		return delegate + "-token"
	}
	return fmt.Sprintf("%s-g%d-token", delegate, gen)
}

// TokenGeneration is the delegate and generation of a token name
// (TokenName's inverse).
func TokenGeneration(name string) (delegate string, gen int) {
	base := strings.TrimSuffix(name, "-token")
	if i := strings.LastIndex(base, "-g"); i > 0 {
		if n, err := strconv.Atoi(base[i+2:]); err == nil && n > 1 && strconv.Itoa(n) == base[i+2:] {
			return base[:i], n
		}
	}
	return base, 1
}

// AWSConnector is the AWS connector of one environment and region.
func AWSConnector(envID, region string) string { return Join("aws", envID, region) }

// PipelineRulesPolicy is the policy of the rules every pipeline of the
// project keeps, in Harness itself.
const PipelineRulesPolicy = "pipeline_rules"

// PipelineRulesPolicySet is the policy set that evaluates the pipeline
// rules on a pipeline event (Harness's policy set action: onsave, onrun).
func PipelineRulesPolicySet(action string) string { return Join(PipelineRulesPolicy, action) }

// TemplateRulesPolicy is the policy of the same stage rules for every
// template of the project; TemplateRulesPolicySet evaluates it on save.
const (
	TemplateRulesPolicy    = "template_rules"
	TemplateRulesPolicySet = "template_rules_onsave"
)

// DeployTemplate is the identifier of an environment's deploy-stage
// template of an archetype, strategy and verification:
// deploy_web_prod_canary_verified.
func DeployTemplate(archetype, envID, strategy string, verified bool) string {
	id := Join("deploy", archetype, envID, strings.ToLower(strategy))
	if verified {
		id += "_verified"
	}
	return id
}

// GitHubName is a stack's part of the name of an organisation Actions
// variable or secret: GitHub's names hold letters, digits and '_' and
// compare without case, so '.' and '-' become '_' and letters upper case
// (dev.payments-2: DEV_PAYMENTS_2).
func GitHubName(stack string) string {
	return strings.ToUpper(strings.NewReplacer(".", "_", "-", "_").Replace(stack))
}
