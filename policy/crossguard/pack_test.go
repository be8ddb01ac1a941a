package crossguard

import (
	"context"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/property"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/policyx"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/internal/catalogtest"
	"github.com/company/harness-platform/plan"
)

type recorder struct{ messages []string }

func (r *recorder) ReportViolation(message, _ string) { r.messages = append(r.messages, message) }

// validate runs one policy of the pack on a resource, with config.
func validate(t *testing.T, name string, r policyx.AnalyzerResource, cfg map[string]any) []string {
	t.Helper()
	for _, p := range Policies() {
		if p.Name() != name {
			continue
		}
		v, ok := p.(policyx.ResourceValidationPolicy)
		if !ok {
			t.Fatalf("%s is not a validation policy", name)
		}
		rec := &recorder{}
		if err := v.Validate(context.Background(), policyx.ResourceValidationArgs{Manager: rec, Resource: r, Config: cfg}); err != nil {
			t.Fatal(err)
		}
		return rec.messages
	}
	t.Fatalf("no policy %s", name)
	return nil
}

func res(t *testing.T, typ string, props map[string]any) policyx.AnalyzerResource {
	t.Helper()
	return policyx.AnalyzerResource{Type: typ, Name: "r", URN: "urn:pulumi:s::p::" + typ + "::r", Properties: toValue(t, props).AsMap()}
}

// toValue converts plain Go data (and property values, for secrets).
func toValue(t *testing.T, v any) property.Value {
	switch v := v.(type) {
	case property.Value:
		return v
	case map[string]any:
		m := map[string]property.Value{}
		for k, e := range v {
			m[k] = toValue(t, e)
		}
		return property.New(property.NewMap(m))
	case []any:
		a := make([]property.Value, len(v))
		for i, e := range v {
			a[i] = toValue(t, e)
		}
		return property.New(property.NewArray(a))
	case string:
		return property.New(v)
	case bool:
		return property.New(v)
	case float64:
		return property.New(v)
	}
	t.Fatalf("toValue: %T", v)
	return property.Value{}
}

func secret(s string) property.Value { return property.New(s).WithSecret(true) }

// productionPipeline is a real Production pipeline of the example catalog:
// as saved (on its deploy-stage template), resolved (what a hand-made copy
// of it would be), and its template.
func productionPipeline(t *testing.T) (saved, resolved, template string) {
	t.Helper()
	c := catalogtest.Example(t, "../..")
	svc, ok := c.Service("payment-service")
	if !ok {
		t.Fatal("no payment-service in the catalog")
	}
	// Its pipeline is in production's service stack of its shard.
	p, err := plan.Build(c, catalog.ServiceStackName("production", svc.Stack))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range p.Deployments {
		if d.Service == "payment-service" {
			for _, tmpl := range p.Templates {
				if tmpl.Identifier == d.Pipeline.Template {
					resolved, err := d.Pipeline.Resolved()
					if err != nil {
						t.Fatal(err)
					}
					return d.Pipeline.YAML, resolved, tmpl.YAML
				}
			}
		}
	}
	t.Fatal("no payment-service in production")
	return "", "", ""
}

func expect(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if len(want) == 0 {
		if len(got) > 0 {
			t.Errorf("%s: unexpected violations %q", what, got)
		}
		return
	}
	all := strings.Join(got, "\n")
	for _, w := range want {
		if !strings.Contains(all, w) {
			t.Errorf("%s: no violation %q in %q", what, w, got)
		}
	}
}

func TestProductionGates(t *testing.T) {
	y, full, tmpl := productionPipeline(t)
	pipeline := func(yaml string) policyx.AnalyzerResource {
		return res(t, pipelineType, map[string]any{"yaml": yaml})
	}
	template := func(yaml string) policyx.AnalyzerResource {
		return res(t, templateType, map[string]any{"templateYaml": yaml})
	}
	gates := func(r policyx.AnalyzerResource, cfg map[string]any) []string {
		return validate(t, "production-pipeline-gates", r, cfg)
	}
	edit := func(s, old, new string) string {
		t.Helper()
		out := strings.Replace(s, old, new, 1)
		if out == s {
			t.Fatalf("edit target %q not found", old)
		}
		return out
	}
	// The saved pipeline: what it gives its template, and its stages.
	expect(t, "generated pipeline", gates(pipeline(y), nil))
	expect(t, "team group missing", gates(pipeline(edit(y, "- payments_team", "- platform_team")), nil),
		"without an approval step of the owning team's group")
	untested := "without deploying the same image tag to pre_stable first"
	expect(t, "no upstream stage", gates(pipeline(edit(y, "type: Pipeline\n", "type: Custom\n")), nil), untested)
	expect(t, "another tag upstream", gates(pipeline(edit(y, "value: <+pipeline.variables.imageTag>\n", "value: latest\n")), nil), untested)
	expect(t, "other upstream from config", gates(pipeline(y), map[string]any{"upstreamEnvironments": map[string]any{"prod": "int_stable"}}),
		"without deploying the same image tag to int_stable first")
	expect(t, "stages selectable", gates(pipeline(edit(y, "allowStageExecutions: false", "allowStageExecutions: true")), nil),
		"must set allowStageExecutions: false")
	expect(t, "another template", gates(pipeline(edit(y, "templateRef: deploy_api_prod_canary_verified", "templateRef: my_deploy")), nil),
		"is built from template my_deploy, which is not one of the platform's deploy templates")
	// A hand-made copy keeps every gate inline, and is refused for
	// leaving its template; edited, for what it drops, too.
	expect(t, "a hand-made copy", gates(pipeline(full), nil),
		"stage deploy deploys to Production (prod) but is not built from the platform's deploy template")
	expect(t, "a copy without the change window", gates(pipeline(edit(full, "type: Policy", "type: Wait")), nil),
		"not built from the platform's deploy template", "without the change-window Policy step")
	expect(t, "a copy whose executor approves", gates(pipeline(edit(full, "disallowPipelineExecutor: true", "disallowPipelineExecutor: false")), nil),
		"approval step team_approval lets the pipeline's executor approve")
	expect(t, "a copy without rollback", gates(pipeline(full[:strings.Index(full, "            rollbackSteps:")]+"            rollbackSteps: []\n"), nil),
		"without rollback steps")
	expect(t, "a copy that runs whatever upstream did", gates(pipeline(edit(full, "pipelineStatus: Success", "pipelineStatus: All")), nil), untested)
	// The template: the gates every pipeline built from it runs.
	expect(t, "generated template", gates(template(tmpl), nil))
	expect(t, "template: executor allowed", gates(template(edit(tmpl, "disallowPipelineExecutor: true", "disallowPipelineExecutor: false")), nil),
		"template deploy_api_prod_canary_verified: approval step team_approval lets the pipeline's executor approve")
	expect(t, "template: no change window", gates(template(edit(tmpl, "type: Policy", "type: Wait")), nil), "without the change-window Policy step")
	expect(t, "template: threshold from config", gates(template(tmpl), map[string]any{"minApprovers": 2.0}),
		"template deploy_api_prod_canary_verified: approval step team_approval: approvers.minimumCount is 1; require at least 2")
	expect(t, "template: platform group missing", gates(template(edit(tmpl, "- platform_team", "- payments_team")), nil),
		"without an approval step of the platform group platform_team")
	expect(t, "template: one approval", gates(template(edit(tmpl, "type: HarnessApproval", "type: Wait")), nil), "with 1 approval steps")
	expect(t, "template: no rollback", gates(template(tmpl[:strings.Index(tmpl, "      rollbackSteps:")]+"      rollbackSteps: []\n"+tmpl[strings.Index(tmpl, "      steps:"):]), nil),
		"without rollback steps")
	expect(t, "template: runs whatever upstream did", gates(template(edit(tmpl, "pipelineStatus: Success", "pipelineStatus: All")), nil), "without when: pipelineStatus: Success")
	// A non-production pipeline or template needs none of it.
	expect(t, "staging copy", gates(pipeline(strings.ReplaceAll(edit(full, "type: Policy", "type: Wait"), "environmentRef: prod", "environmentRef: pre_stable")), nil))
	expect(t, "staging template", gates(template(strings.ReplaceAll(edit(tmpl, "type: Policy", "type: Wait"), "environmentRef: prod", "environmentRef: pre_stable")), nil))
}

func TestNoScriptSteps(t *testing.T) {
	y, _, tmpl := productionPipeline(t)
	expect(t, "generated pipeline", validate(t, "no-script-steps", res(t, pipelineType, map[string]any{"yaml": y}), nil))
	expect(t, "generated template", validate(t, "no-script-steps", res(t, templateType, map[string]any{"templateYaml": tmpl}), nil))
	script := strings.Replace(tmpl, "type: K8sCanaryDelete", "type: ShellScript", 1)
	if script == tmpl {
		t.Fatal("edit target not found")
	}
	expect(t, "shell script", validate(t, "no-script-steps", res(t, templateType, map[string]any{"templateYaml": script}), nil),
		"is a ShellScript step")
	// The pipeline that runs this program: its Run steps are in CI
	// stages, which deploy nothing; the same step in any other stage is
	// refused.
	c := catalogtest.Example(t, "../..")
	p, err := plan.Build(c, c.Chain[0])
	if err != nil || p.Foundation.CI == nil {
		t.Fatalf("the foundation's CI pipeline: %v", err)
	}
	ci := p.Foundation.CI.Pipeline.YAML
	expect(t, "CI stages", validate(t, "no-script-steps", res(t, pipelineType, map[string]any{"yaml": ci}), nil))
	custom := strings.Replace(ci, "type: CI", "type: Custom", 1)
	if custom == ci {
		t.Fatal("edit target not found")
	}
	expect(t, "a Run step outside a CI stage", validate(t, "no-script-steps", res(t, pipelineType, map[string]any{"yaml": custom}), nil),
		"stage preview: step preview is a Run step")
}

func TestDelegateCredentials(t *testing.T) {
	k8s := "harness:platform/kubernetesConnector:KubernetesConnector"
	aws := "harness:platform/awsConnector:AwsConnector"
	inherit := map[string]any{"delegateSelectors": []any{"d"}}
	expect(t, "inherits", validate(t, "delegate-credentials-only", res(t, k8s, map[string]any{"inheritFromDelegate": inherit}), nil))
	expect(t, "inline", validate(t, "delegate-credentials-only", res(t, k8s, map[string]any{
		"usernamePassword": map[string]any{"username": "u", "password": "p"}}), nil),
		"sets usernamePassword", "does not inherit", "usernamePassword.password holds a plaintext credential")
	expect(t, "aws irsa", validate(t, "delegate-credentials-only", res(t, aws, map[string]any{"irsa": inherit}), nil))
	expect(t, "aws on the node's role", validate(t, "delegate-credentials-only", res(t, aws, map[string]any{"inheritFromDelegate": inherit}), nil),
		"does not take the delegate's IRSA role")
	expect(t, "aws keys", validate(t, "delegate-credentials-only", res(t, aws, map[string]any{
		"manual": map[string]any{"accessKey": "AKIA", "secretKeyRef": "account.aws"}}), nil), "sets manual", "manual.accessKey holds a plaintext credential")
	sm := "harness:platform/awsSecretManagerConnector:AwsSecretManagerConnector"
	expect(t, "secrets manager by OIDC", validate(t, "delegate-credentials-only", res(t, sm, map[string]any{
		"credentials": map[string]any{"oidcAuthentication": map[string]any{"iamRoleArn": "arn:aws:iam::111111111111:role/r"}}}), nil))
	expect(t, "secrets manager with keys", validate(t, "delegate-credentials-only", res(t, sm, map[string]any{
		"manual": map[string]any{"accessKeyPlainText": "AKIA", "secretKeyRef": "account.aws"}}), nil), "sets manual")
	expect(t, "a token ref is fine", validate(t, "delegate-credentials-only", res(t, "harness:platform/githubConnector:GithubConnector", map[string]any{
		"credentials": map[string]any{"http": map[string]any{"username": "bot", "tokenRef": "github_token"}}}), nil))
}

func TestSecretsAreSecret(t *testing.T) {
	st := "harness:platform/secretText:SecretText"
	expect(t, "secret", validate(t, "secrets-are-pulumi-secrets", res(t, st, map[string]any{"value": secret("s")}), nil))
	expect(t, "plaintext", validate(t, "secrets-are-pulumi-secrets", res(t, st, map[string]any{"value": "s"}), nil), "value is not a Pulumi secret")
	ks := "kubernetes:core/v1:Secret"
	expect(t, "k8s secret", validate(t, "secrets-are-pulumi-secrets", res(t, ks, map[string]any{"stringData": map[string]any{"DELEGATE_TOKEN": secret("t")}}), nil))
	expect(t, "k8s plaintext", validate(t, "secrets-are-pulumi-secrets", res(t, ks, map[string]any{"stringData": map[string]any{"DELEGATE_TOKEN": "t"}}), nil),
		"stringData is not a Pulumi secret")
	sv := "aws:secretsmanager/secretVersion:SecretVersion"
	expect(t, "secret version", validate(t, "secrets-are-pulumi-secrets", res(t, sv, map[string]any{"secretId": "s", "secretString": secret("t")}), nil))
	expect(t, "secret version plaintext", validate(t, "secrets-are-pulumi-secrets", res(t, sv, map[string]any{"secretId": "s", "secretString": "t"}), nil),
		"secretString is not a Pulumi secret")
}

func TestRequiredTagsAndRemediation(t *testing.T) {
	svc := "harness:platform/service:Service"
	full := []any{"managed-by:harness-platform", "service:a", "team:t"}
	expect(t, "tagged", validate(t, "required-tags", res(t, svc, map[string]any{"tags": full}), nil))
	expect(t, "untagged", validate(t, "required-tags", res(t, svc, map[string]any{"tags": []any{"team:t"}}), nil), "lacks the tag(s) service, managed-by")
	expect(t, "environment", validate(t, "required-tags", res(t, "harness:platform/environment:Environment", map[string]any{"tags": []any{"managed-by:harness-platform"}}), nil),
		"lacks the tag(s) team")
	var remediation policyx.ResourceRemediationPolicy
	for _, p := range Policies() {
		if r, ok := p.(policyx.ResourceRemediationPolicy); ok && p.Name() == "add-managed-by-tag" {
			remediation = r
		}
	}
	if remediation == nil {
		t.Fatal("no add-managed-by-tag remediation")
	}
	out, err := remediation.Remediate(context.Background(), policyx.ResourceRemediationArgs{Resource: res(t, svc, map[string]any{"tags": []any{"team:t"}})})
	if err != nil || out == nil {
		t.Fatalf("remediation: %v %v", out, err)
	}
	tags, _ := stringsAt(*out, "tags")
	if strings.Join(tags, ",") != "team:t,managed-by:harness-platform" {
		t.Errorf("remediated tags %v", tags)
	}
	for _, r := range []policyx.AnalyzerResource{res(t, svc, map[string]any{"tags": full}), res(t, "harness:platform/project:Project", map[string]any{"tags": []any{}})} {
		if out, _ := remediation.Remediate(context.Background(), policyx.ResourceRemediationArgs{Resource: r}); out != nil {
			t.Errorf("remediated %s, which needs nothing", r.Type)
		}
	}
}

func TestEKSHardened(t *testing.T) {
	eks := "aws:eks/cluster:Cluster"
	good := func() map[string]any {
		return map[string]any{
			"encryptionConfig":       map[string]any{"resources": []any{"secrets"}},
			"vpcConfig":              map[string]any{"endpointPrivateAccess": true, "endpointPublicAccess": false},
			"enabledClusterLogTypes": []any{"api", "audit", "authenticator", "controllerManager", "scheduler"},
			"upgradePolicy":          map[string]any{"supportType": "STANDARD"},
		}
	}
	expect(t, "hardened", validate(t, "eks-cluster-hardened", res(t, eks, good()), nil))
	unset := good()
	unset["vpcConfig"] = map[string]any{"endpointPrivateAccess": true}
	expect(t, "public by default", validate(t, "eks-cluster-hardened", res(t, eks, unset), nil), "exposes its API endpoint to 0.0.0.0/0")
	open := good()
	open["vpcConfig"] = map[string]any{"endpointPublicAccess": true, "publicAccessCidrs": []any{"203.0.113.0/24"}}
	expect(t, "outside allowed", validate(t, "eks-cluster-hardened", res(t, eks, open), nil), "exposes its API endpoint to 203.0.113.0/24")
	expect(t, "allowed", validate(t, "eks-cluster-hardened", res(t, eks, open), map[string]any{"allowedPublicCidrs": []any{"203.0.112.0/23"}}))
	bare := map[string]any{"vpcConfig": map[string]any{"endpointPublicAccess": false}}
	expect(t, "no encryption, logs or upgrade policy", validate(t, "eks-cluster-hardened", res(t, eks, bare), nil), "does not encrypt Kubernetes secrets", "does not log audit",
		"sets no upgradePolicy.supportType: EKS would keep it in extended support")
}

// The VPC CNI add-on must turn its network policy agent on; other
// add-ons are not its business.
func TestVPCCNINetworkPolicy(t *testing.T) {
	addon := "aws:eks/addon:Addon"
	with := func(config any) map[string]any {
		m := map[string]any{"addonName": "vpc-cni", "clusterName": "c"}
		if config != nil {
			m["configurationValues"] = config
		}
		return m
	}
	expect(t, "agent on", validate(t, "vpc-cni-network-policy", res(t, addon, with(`{"enableNetworkPolicy":"true"}`)), nil))
	expect(t, "no configuration", validate(t, "vpc-cni-network-policy", res(t, addon, with(nil)), nil), "without its network policy agent")
	expect(t, "agent off", validate(t, "vpc-cni-network-policy", res(t, addon, with(`{"enableNetworkPolicy":"false"}`)), nil), "enableNetworkPolicy false")
	expect(t, "a boolean, not the string EKS's schema takes", validate(t, "vpc-cni-network-policy", res(t, addon, with(`{"enableNetworkPolicy":true}`)), nil), "enableNetworkPolicy true")
	expect(t, "not JSON", validate(t, "vpc-cni-network-policy", res(t, addon, with(`enableNetworkPolicy: "true"`)), nil), "is not a JSON object")
	expect(t, "unknown in a preview", validate(t, "vpc-cni-network-policy", res(t, addon, with(property.New(property.Computed))), nil))
	expect(t, "CoreDNS", validate(t, "vpc-cni-network-policy", res(t, addon, map[string]any{"addonName": "coredns"}), nil))
}

func TestPinnedReleasesAndProvider(t *testing.T) {
	rel := "kubernetes:helm.sh/v3:Release"
	values := func(upgrader bool, image string) map[string]any {
		return map[string]any{"chart": "harness-delegate-ng", "version": "1.0.22",
			"values": map[string]any{"upgrader": map[string]any{"enabled": upgrader}, "delegateDockerImage": image}}
	}
	expect(t, "pinned", validate(t, "helm-and-delegate-pinned", res(t, rel, values(false, "harness/delegate:25.10.87101")), nil))
	expect(t, "upgrader on, latest", validate(t, "helm-and-delegate-pinned", res(t, rel, values(true, "harness/delegate:latest")), nil),
		"upgrader is not off", `delegate image "harness/delegate:latest" is not pinned`)
	unpinned := values(false, "harness/delegate:25.10.87101")
	unpinned["version"] = "~1.0"
	expect(t, "chart range", validate(t, "helm-and-delegate-pinned", res(t, rel, unpinned), nil), `chart version "~1.0" is not pinned`)
	p := "pulumi:providers:harness"
	expect(t, "provider pinned", validate(t, "harness-provider-pinned", res(t, p, map[string]any{"version": "0.16.0"}), nil))
	expect(t, "provider floating", validate(t, "harness-provider-pinned", res(t, p, map[string]any{}), nil), `Harness provider version ""; pin 0.16.0`)
}

// Every policy is described and levelled.
func TestPackDescribesEveryPolicy(t *testing.T) {
	if _, err := New(); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, p := range Policies() {
		if p.Name() == "" || seen[p.Name()] || p.Description() == "" {
			t.Errorf("policy %q: a unique name and a description are required", p.Name())
		}
		seen[p.Name()] = true
	}
	if len(seen) != 12 {
		t.Errorf("%d policies", len(seen))
	}
}

// A service namespace without a Pod Security Standard, and guardrails that
// leave a way through, are refused; other namespaces are not judged.
func TestNamespaceGuardrails(t *testing.T) {
	ns := func(labels map[string]any) map[string]any {
		return map[string]any{"metadata": map[string]any{"name": "int-stable-payments-euw1", "labels": labels}}
	}
	expect(t, "enforced", validate(t, "namespace-guardrails", res(t, namespaceType, ns(map[string]any{serviceLabel: "payments", enforceLabel: "restricted"})), nil))
	expect(t, "not enforced", validate(t, "namespace-guardrails", res(t, namespaceType, ns(map[string]any{serviceLabel: "payments"})), nil),
		"service namespace int-stable-payments-euw1 enforces no Pod Security Standard")
	expect(t, "a level Kubernetes does not know", validate(t, "namespace-guardrails", res(t, namespaceType, ns(map[string]any{serviceLabel: "payments", enforceLabel: "strict"})), nil),
		"enforces no Pod Security Standard")
	expect(t, "the delegate's namespace", validate(t, "namespace-guardrails", res(t, namespaceType, ns(map[string]any{})), nil))
	policy := func(types []any, selector map[string]any) map[string]any {
		return map[string]any{"metadata": map[string]any{"name": guardrailsName}, "spec": map[string]any{"policyTypes": types, "podSelector": selector}}
	}
	expect(t, "default deny", validate(t, "namespace-guardrails", res(t, netpolType, policy([]any{"Ingress", "Egress"}, map[string]any{})), nil))
	expect(t, "ingress only", validate(t, "namespace-guardrails", res(t, netpolType, policy([]any{"Ingress"}, map[string]any{})), nil),
		"a guardrail denies by default both ways")
	expect(t, "some pods", validate(t, "namespace-guardrails", res(t, netpolType, policy([]any{"Ingress", "Egress"}, map[string]any{"matchLabels": map[string]any{"app": "x"}})), nil),
		"selects some pods")
	quota := map[string]any{"metadata": map[string]any{"name": guardrailsName}, "spec": map[string]any{"hard": map[string]any{"pods": "7", "limits.cpu": "7"}}}
	expect(t, "a partial quota", validate(t, "namespace-guardrails", res(t, quotaType, quota), nil), "sets no [requests.cpu requests.memory limits.memory]")
}
