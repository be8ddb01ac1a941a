package crossguard

import (
	"context"
	"encoding/json"
	"fmt"
	"net/netip"
	"regexp"
	"slices"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/property"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/policyx"

	"github.com/company/harness-platform/ident"
)

// credentialBlocks are the connector inputs that carry credentials inline
// instead of inheriting them from a delegate. The AWS Secrets Manager
// connector may also log in by Harness's OIDC (oidcAuthentication: a
// token Harness mints per call, exchanged for a role; nothing stored),
// never with stored keys (manual).
var credentialBlocks = map[string][]string{
	"harness:platform/kubernetesConnector:KubernetesConnector":             {"serviceAccount", "usernamePassword", "clientKeyCert", "openidConnect"},
	"harness:platform/awsConnector:AwsConnector":                           {"manual", "oidcAuthentication", "crossAccountAccess"},
	"harness:platform/awsSecretManagerConnector:AwsSecretManagerConnector": {"manual"},
}

// credentialName is an input name that holds a credential; its value must
// be a reference to a Harness secret (…Ref) or a Pulumi secret.
var credentialName = regexp.MustCompile(`(?i)(password|secretkey|accesskey|privatekey|apikey|token|passphrase)$`)

var delegateCredentials = resourcePolicy("delegate-credentials-only",
	"Kubernetes connectors inherit their credentials from a delegate, AWS connectors take its IRSA role, the AWS Secrets Manager connector stores no key; no Harness resource carries a key, token or password inline.",
	policyx.EnforcementLevelMandatory, nil,
	func(r policyx.AnalyzerResource, _ config) []string {
		if !strings.HasPrefix(r.Type, "harness:") {
			return nil
		}
		var out []string
		for _, block := range credentialBlocks[r.Type] {
			if _, set := at(r.Properties, block); set {
				out = append(out, fmt.Sprintf("%s sets %s: inline credentials; use inheritFromDelegate (the delegate's service account or IRSA role)", r.Name, block))
			}
		}
		switch r.Type {
		case "harness:platform/kubernetesConnector:KubernetesConnector":
			if _, ok := at(r.Properties, "inheritFromDelegate"); !ok {
				out = append(out, r.Name+" does not inherit its credentials from a delegate; set inheritFromDelegate.delegateSelectors")
			}
		case "harness:platform/awsConnector:AwsConnector":
			// The delegates run in Kubernetes with an IRSA role; Harness's
			// inherit_from_delegate takes the EC2 instance's credentials
			// (the node's role), and "if the Harness Delegate is in an EKS
			// cluster that uses IRSA, you must select Use IRSA"
			// (developer.harness.io, AWS connector settings reference).
			if _, irsa := at(r.Properties, "irsa"); !irsa {
				out = append(out, r.Name+" does not take the delegate's IRSA role; set irsa.delegateSelectors (inheritFromDelegate is the node's EC2 role)")
			}
		}
		walk(property.New(r.Properties), "", func(path string, v property.Value) {
			key := path[strings.LastIndex(path, ".")+1:]
			if v.IsString() && !v.Secret() && v.AsString() != "" && credentialName.MatchString(key) {
				out = append(out, fmt.Sprintf("%s: %s holds a plaintext credential; reference a Harness secret (%sRef) or pass a Pulumi secret", r.Name, path, key))
			}
		})
		return out
	})

// walk calls f on every value under v, with its dotted path.
func walk(v property.Value, path string, f func(string, property.Value)) {
	switch {
	case v.IsMap():
		for k, e := range v.AsMap().AllStable {
			p := k
			if path != "" {
				p = path + "." + k
			}
			walk(e, p, f)
		}
	case v.IsArray():
		for _, e := range v.AsArray().All {
			walk(e, path, f)
		}
	default:
		if path != "" {
			f(path, v)
		}
	}
}

// secretInputs are the inputs that hold secret values, by type.
var secretInputs = map[string][]string{
	"harness:platform/secretText:SecretText":       {"value"},
	"harness:platform/delegatetoken:Delegatetoken": {"value"},
	"kubernetes:core/v1:Secret":                    {"data", "stringData"},
	// A delegate token's copy in Secrets Manager (the credentials stack).
	"aws:secretsmanager/secretVersion:SecretVersion": {"secretString", "secretBinary"},
}

var secretsAreSecret = resourcePolicy("secrets-are-pulumi-secrets",
	"Harness secrets, delegate tokens and Kubernetes Secrets hold Pulumi secrets, never plaintext: nothing readable lands in the state or the logs.",
	policyx.EnforcementLevelMandatory, nil,
	func(r policyx.AnalyzerResource, _ config) []string {
		var out []string
		for _, key := range secretInputs[r.Type] {
			v, ok := r.Properties.GetOk(key)
			if !ok || v.IsNull() || v.Secret() {
				continue
			}
			plain := false
			walk(v, key, func(_ string, e property.Value) {
				if !e.Secret() && !e.IsComputed() && !e.IsNull() {
					plain = true
				}
			})
			if plain {
				out = append(out, fmt.Sprintf("%s: %s is not a Pulumi secret; read it with config.RequireSecret (or pulumi.ToSecret)", r.Name, key))
			}
		}
		return out
	})

// taggedTypes are the Harness types that must carry tags, and whether
// the service tag applies.
var taggedTypes = map[string]bool{
	"harness:platform/service:Service":         true,
	"harness:platform/pipeline:Pipeline":       true,
	"harness:platform/triggers:Triggers":       true,
	"harness:platform/environment:Environment": false,
}

func tagKeys(r policyx.AnalyzerResource) (map[string]bool, bool) {
	tags, ok := stringsAt(r.Properties, "tags")
	if !ok {
		if _, present := r.Properties.GetOk("tags"); present {
			return nil, false // not known yet
		}
	}
	keys := map[string]bool{}
	for _, t := range tags {
		k, _, _ := strings.Cut(t, ":")
		keys[k] = true
	}
	return keys, true
}

var requiredTags = resourcePolicy("required-tags",
	"Every Harness service, pipeline, trigger and environment carries the tags team, service (where it applies) and managed-by.",
	policyx.EnforcementLevelMandatory, nil,
	func(r policyx.AnalyzerResource, _ config) []string {
		service, ok := taggedTypes[r.Type]
		if !ok {
			return nil
		}
		keys, known := tagKeys(r)
		if !known {
			return nil
		}
		want := []string{"team", "managed-by"}
		if service {
			want = []string{"team", "service", "managed-by"}
		}
		var missing []string
		for _, k := range want {
			if !keys[k] {
				missing = append(missing, k)
			}
		}
		if len(missing) == 0 {
			return nil
		}
		return []string{fmt.Sprintf("%s lacks the tag(s) %s; add them as key:value (the plan tags everything it generates)", r.Name, strings.Join(missing, ", "))}
	})

var addManagedBy = policyx.NewResourceRemediationPolicy("add-managed-by-tag", policyx.ResourceRemediationPolicyArgs{
	Description: "Adds managed-by:" + ManagedBy + " to the tags of Harness services, pipelines, triggers and environments that lack it.",
	RemediateResource: func(_ context.Context, args policyx.ResourceRemediationArgs) (*property.Map, error) {
		r := args.Resource
		if _, ok := taggedTypes[r.Type]; !ok {
			return nil, nil
		}
		keys, known := tagKeys(r)
		if !known || keys["managed-by"] {
			return nil, nil
		}
		var tags []property.Value
		if v, ok := at(r.Properties, "tags"); ok && v.IsArray() {
			tags = v.AsArray().AsSlice()
		}
		tags = append(slices.Clone(tags), property.New("managed-by:"+ManagedBy))
		m := r.Properties.Set("tags", property.New(property.NewArray(tags)))
		return &m, nil
	},
})

var eksHardened = resourcePolicy("eks-cluster-hardened",
	"EKS clusters encrypt Kubernetes secrets, keep the public API endpoint off unless it is open only to allowed networks, log the control plane, and say what happens at the end of standard support.",
	policyx.EnforcementLevelMandatory,
	&policyx.ConfigSchema{Properties: map[string]map[string]any{
		"allowedPublicCidrs": {"type": "array", "items": map[string]any{"type": "string"}, "default": []any{},
			"description": "Networks a public endpoint may be opened to (none by default)."},
		"requiredLogTypes": {"type": "array", "items": map[string]any{"type": "string"}, "default": []any{"api", "audit", "authenticator"},
			"description": "Control-plane log types every cluster enables."},
	}},
	func(r policyx.AnalyzerResource, cfg config) []string {
		if r.Type != "aws:eks/cluster:Cluster" {
			return nil
		}
		var out []string
		if res, _ := stringsAt(r.Properties, "encryptionConfig", "resources"); !slices.Contains(res, "secrets") {
			out = append(out, r.Name+" does not encrypt Kubernetes secrets; set encryptionConfig with a KMS key and resources [secrets]")
		}
		// EKS opens the public endpoint unless told otherwise.
		public := true
		if v, ok := at(r.Properties, "vpcConfig", "endpointPublicAccess"); ok && v.IsBool() {
			public = v.AsBool()
		}
		if public {
			cidrs, _ := stringsAt(r.Properties, "vpcConfig", "publicAccessCidrs")
			if len(cidrs) == 0 {
				cidrs = []string{"0.0.0.0/0"} // EKS's default
			}
			for _, c := range cidrs {
				if !within(c, cfg.strings("allowedPublicCidrs")) {
					out = append(out, fmt.Sprintf("%s exposes its API endpoint to %s; set vpcConfig.endpointPublicAccess: false, or open it only to networks in allowedPublicCidrs", r.Name, c))
				}
			}
		}
		logs, _ := stringsAt(r.Properties, "enabledClusterLogTypes")
		for _, l := range cfg.strings("requiredLogTypes") {
			if !slices.Contains(logs, l) {
				out = append(out, fmt.Sprintf("%s does not log %s; add it to enabledClusterLogTypes", r.Name, l))
			}
		}
		// EKS's default support type is EXTENDED: a cluster left unset is
		// billed extended support when its version leaves standard support.
		if v, ok := at(r.Properties, "upgradePolicy", "supportType"); !ok || !v.IsString() || v.AsString() == "" {
			out = append(out, r.Name+" sets no upgradePolicy.supportType: EKS would keep it in extended support, billed per cluster hour; set STANDARD (or EXTENDED on purpose)")
		}
		return out
	})

// vpcCNINetworkPolicy refuses a VPC CNI add-on whose configuration does
// not turn its network policy agent on: the agent is off by default, and
// then every NetworkPolicy is stored and none enforced
// (docs.aws.amazon.com/eks/latest/userguide/cni-network-policy-configure.html:
// configuration values {"enableNetworkPolicy": "true"}). The namespaces'
// guardrails (namespace-guardrails) are only as real as this. Stack
// policies never run (package comment), so a cluster without a VPC CNI
// add-on at all is the program's tests' to catch (plan.EKSAddonsFor).
var vpcCNINetworkPolicy = resourcePolicy("vpc-cni-network-policy",
	"The VPC CNI add-on runs its network policy agent (configurationValues enableNetworkPolicy \"true\"), so the namespaces' NetworkPolicies are enforced.",
	policyx.EnforcementLevelMandatory, nil,
	func(r policyx.AnalyzerResource, _ config) []string {
		if r.Type != "aws:eks/addon:Addon" {
			return nil
		}
		if name, _ := stringAt(r.Properties, "addonName"); name != "vpc-cni" {
			return nil
		}
		if v, set := r.Properties.GetOk("configurationValues"); set && v.IsComputed() {
			return nil // judged on the up
		}
		v, ok := at(r.Properties, "configurationValues")
		fix := `set configurationValues to {"enableNetworkPolicy":"true"} (docs.aws.amazon.com/eks/latest/userguide/cni-network-policy-configure.html)`
		if !ok || !v.IsString() || v.AsString() == "" {
			return []string{r.Name + " runs the VPC CNI without its network policy agent (no configurationValues), so no NetworkPolicy is enforced; " + fix}
		}
		var values map[string]any
		if err := json.Unmarshal([]byte(v.AsString()), &values); err != nil {
			return []string{fmt.Sprintf("%s: configurationValues is not a JSON object (%v); %s", r.Name, err, fix)}
		}
		if values["enableNetworkPolicy"] != "true" {
			return []string{fmt.Sprintf("%s runs the VPC CNI with enableNetworkPolicy %v, so no NetworkPolicy is enforced; %s", r.Name, values["enableNetworkPolicy"], fix)}
		}
		return nil
	})

// within reports whether cidr lies inside one of allowed.
func within(cidr string, allowed []string) bool {
	p, err := netip.ParsePrefix(cidr)
	if err != nil {
		return false
	}
	for _, a := range allowed {
		if ap, err := netip.ParsePrefix(a); err == nil && ap.Bits() <= p.Bits() && ap.Contains(p.Addr()) {
			return true
		}
	}
	return false
}

var pinnedReleases = resourcePolicy("helm-and-delegate-pinned",
	"Helm releases pin an exact chart version; the Harness delegate runs a pinned image with its upgrader off, so refresh sees no drift.",
	policyx.EnforcementLevelAdvisory, nil,
	func(r policyx.AnalyzerResource, _ config) []string {
		if r.Type != "kubernetes:helm.sh/v3:Release" {
			return nil
		}
		var out []string
		if v, _ := stringAt(r.Properties, "version"); !ident.ExactVersion(v) {
			out = append(out, fmt.Sprintf("%s: chart version %q is not pinned; set an exact version such as 1.0.22", r.Name, v))
		}
		if chart, _ := stringAt(r.Properties, "chart"); chart != "harness-delegate-ng" {
			return out
		}
		if v, ok := at(r.Properties, "values", "upgrader", "enabled"); !ok || !v.IsBool() || v.AsBool() {
			out = append(out, r.Name+": the delegate's upgrader is not off; set values.upgrader.enabled: false and upgrade the pinned image by a reviewed change")
		}
		if img, ok := stringAt(r.Properties, "values", "delegateDockerImage"); !ok || !ident.PinnedImage(img) {
			out = append(out, fmt.Sprintf("%s: delegate image %q is not pinned; set values.delegateDockerImage to a release tag", r.Name, img))
		}
		return out
	})

var harnessProviderPinned = resourcePolicy("harness-provider-pinned",
	"Harness resources are managed by the provider version the project supports (its facts and constraints are checked against that version).",
	policyx.EnforcementLevelAdvisory,
	&policyx.ConfigSchema{Properties: map[string]map[string]any{
		"version": {"type": "string", "default": "0.16.0", "description": "The supported Harness provider version."},
	}},
	func(r policyx.AnalyzerResource, cfg config) []string {
		// In SDK v3.256.0 the analyzer does not fill AnalyzerResource.Provider,
		// so the provider resource itself is checked.
		if r.Type != "pulumi:providers:harness" {
			return nil
		}
		if v, _ := stringAt(r.Properties, "version"); v != cfg.string("version") {
			return []string{fmt.Sprintf("%s: Harness provider version %q; pin %s (pulumi.Version on every registration)", r.Name, v, cfg.string("version"))}
		}
		return nil
	})
