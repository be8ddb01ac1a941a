package aws

import (
	"encoding/base64"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/company/harness-platform/simulated/core"
)

// Version is the version of the AWS provider this room stands in for.
const Version = "6.83.2"

// Behavior simulates the AWS provider for the types the program
// declares. ../shared has facts for Harness only, so the required inputs
// below are the ones the provider's Go SDK requires (pulumi-aws v6.83.2:
// the `args.X == nil` checks of each New function, and the Terraform
// schema's required nested properties), with the Terraform schema's own
// (aws-constraints.json); a type not listed here is refused: a new type
// is simulated on purpose, not by accident.
type Behavior struct {
	core.KeyIsID
	// ClusterCA is the PEM certificate of the CA of the cluster with an
	// id, as EKS returns it (certificateAuthority.data; nil: none).
	ClusterCA func(id string) []byte
}

// New is the simulated AWS, whose EKS clusters have the CA ca gives them
// (kubernetes.ClusterCA).
func New(ca func(id string) []byte) Behavior { return Behavior{ClusterCA: ca} }

var (
	_ core.Behavior   = Behavior{}
	_ core.Addressed  = Behavior{}
	_ core.Configurer = Behavior{}
	_ core.WriteGuard = Behavior{}
	_ core.SaveGuard  = Behavior{}
	_ core.Invoker    = Behavior{}

	_ core.ComputedKeeper = Behavior{}
)

// required lists each type's required inputs; a dotted path is required
// whenever its enclosing object is given.
var required = map[string][]string{
	"aws:ec2/vpc:Vpc":                                     {},
	"aws:ec2/internetGateway:InternetGateway":             {},
	"aws:ec2/subnet:Subnet":                               {"vpcId"},
	"aws:ec2/routeTable:RouteTable":                       {"vpcId"},
	"aws:ec2/routeTableAssociation:RouteTableAssociation": {"routeTableId"},
	"aws:ec2/eip:Eip":                                     {},
	"aws:ec2/natGateway:NatGateway":                       {"subnetId"},
	// The VPC's endpoints and their security group.
	"aws:ec2/securityGroup:SecurityGroup":                 {"ingress.fromPort", "ingress.protocol", "ingress.toPort"},
	"aws:ec2/vpcEndpoint:VpcEndpoint":                     {"vpcId"},
	"aws:kms/key:Key":                                     {},
	"aws:cloudwatch/logGroup:LogGroup":                    {},
	"aws:iam/role:Role":                                   {"assumeRolePolicy"},
	"aws:iam/rolePolicyAttachment:RolePolicyAttachment":   {"policyArn", "role"},
	"aws:iam/openIdConnectProvider:OpenIdConnectProvider": {"clientIdLists", "url"},
	"aws:eks/cluster:Cluster": {"roleArn", "vpcConfig", "vpcConfig.subnetIds",
		"encryptionConfig.provider", "encryptionConfig.provider.keyArn", "encryptionConfig.resources"},
	"aws:eks/accessEntry:AccessEntry":                         {"clusterName", "principalArn"},
	"aws:eks/accessPolicyAssociation:AccessPolicyAssociation": {"accessScope", "accessScope.type", "clusterName", "policyArn", "principalArn"},
	"aws:eks/nodeGroup:NodeGroup": {"clusterName", "nodeRoleArn", "scalingConfig", "subnetIds",
		"scalingConfig.desiredSize", "scalingConfig.maxSize", "scalingConfig.minSize"},
	eksAddonType: {"addonName", "clusterName"},
	// A delegate token's copy (the credentials stack) and the External
	// Secrets Operator's role policy (the platform stack).
	"aws:iam/rolePolicy:RolePolicy": {"policy", "role"},
	SecretType:                      {},
	SecretVersionType:               {"secretId"},
}

// Secrets Manager's types.
const (
	SecretType        = "aws:secretsmanager/secret:Secret"
	SecretVersionType = "aws:secretsmanager/secretVersion:SecretVersion"
)

// autoNamed are the inputs the AWS provider names in Check when the
// program leaves them unset: the resource name and a random suffix (here
// a stable one), known from the preview on.
var autoNamed = map[string]string{
	"aws:iam/role:Role":           "name",
	"aws:eks/nodeGroup:NodeGroup": "nodeGroupName",
}

// Check refuses missing required inputs (the list above and, beside it,
// the Terraform schema's, which names the same for the inputs the
// program sets: TestAWSConstraints) and what the schema's constraints
// refuse, and auto-names.
func (Behavior) Check(typ, name string, news resource.PropertyMap) (resource.PropertyMap, []*pulumirpc.CheckFailure) {
	req, ok := required[typ]
	if !ok {
		return news, core.UnknownType("aws", typ)
	}
	var more []string
	for path, c := range constraints[typ] {
		if c.Required && !slices.Contains(req, path) {
			more = append(more, path)
		}
	}
	sort.Strings(more)
	req = append(append([]string(nil), req...), more...)
	failures := core.MissingRequired(news, req)
	failures = append(failures, checkConstraints(typ, news)...)
	out := news
	if key, ok := autoNamed[typ]; ok {
		if _, set := news[resource.PropertyKey(key)]; !set {
			out = news.Copy()
			out[resource.PropertyKey(key)] = resource.NewStringProperty(name + "-" + core.ShortHash(typ + name)[:7])
		}
	}
	return out, failures
}

// ID is where the store keeps an object, which is also its id: a
// generated one.
func (Behavior) ID(typ, name string, _ resource.PropertyMap) string {
	return core.GeneratedID(typ, name)
}

// ImportedInputs are an imported object's state without what the
// provider computes.
func (b Behavior) ImportedInputs(typ string, state resource.PropertyMap) resource.PropertyMap {
	return core.WithoutComputed(state, b.Computed(typ, "", state))
}

// KeepsComputed: an in-place update's plan keeps every computed output
// (ARNs, a cluster's endpoint, CA and OIDC issuer): terraform-provider-aws
// is written with terraform-plugin-sdk v2, whose diff of an update marks
// a computed attribute unknown only where the resource's CustomizeDiff
// sets it new-computed, which the types the program declares do only for
// tags_all when tags change (verify.SetTagsDiff), and the provider's
// default tags do not. So an EKS version update's preview shows the
// issuer, and the OIDC provider and the roles that trust it stay.
func (Behavior) KeepsComputed(string) bool { return true }

// account is the simulated AWS account.
const account = "000000000000"

// Computed are the outputs the provider computes: ARNs, the cluster's
// endpoint, CA and OIDC issuer, key ids.
func (b Behavior) Computed(typ, id string, news resource.PropertyMap) resource.PropertyMap {
	service := strings.SplitN(strings.TrimPrefix(typ, "aws:"), "/", 2)[0]
	out := resource.PropertyMap{"arn": resource.NewStringProperty(fmt.Sprintf("arn:aws:%s:eu-west-1:%s:%s", service, account, id))}
	switch typ {
	case eksClusterType:
		h := strings.ToUpper(core.ShortHash(id) + core.ShortHash(id+"oidc"))
		out["endpoint"] = resource.NewStringProperty("https://" + h + ".gr7.eu-west-1.eks.amazonaws.com")
		if b.ClusterCA != nil {
			out["certificateAuthority"] = resource.NewObjectProperty(resource.PropertyMap{
				"data": resource.NewStringProperty(base64.StdEncoding.EncodeToString(b.ClusterCA(id)))})
		}
		out["identities"] = resource.NewArrayProperty([]resource.PropertyValue{resource.NewObjectProperty(resource.PropertyMap{
			"oidcs": resource.NewArrayProperty([]resource.PropertyValue{resource.NewObjectProperty(resource.PropertyMap{
				"issuer": resource.NewStringProperty("https://oidc.eks.eu-west-1.amazonaws.com/id/" + h)})})})})
		out["status"] = resource.NewStringProperty("ACTIVE")
	case eksAddonType:
		// EKS's add-on ARN: addon/<cluster>/<addon>/<uuid>.
		out["arn"] = resource.NewStringProperty(fmt.Sprintf("arn:aws:eks:eu-west-1:%s:addon/%s/%s/%s",
			account, core.Str(news, "clusterName"), core.Str(news, "addonName"), core.ShortHash(id)))
		out["keyId"] = resource.NewStringProperty(id)
	case "aws:iam/openIdConnectProvider:OpenIdConnectProvider":
		url := strings.TrimPrefix(core.Str(news, "url"), "https://")
		out["arn"] = resource.NewStringProperty("arn:aws:iam::" + account + ":oidc-provider/" + url)
	case "aws:iam/role:Role":
		out["arn"] = resource.NewStringProperty("arn:aws:iam::" + account + ":role/" + core.Str(news, "name"))
	case SecretType:
		// Secrets Manager appends six random characters to the name
		// (Secrets Manager User Guide, "Find secrets": "-a1b2c3").
		out["arn"] = resource.NewStringProperty("arn:aws:secretsmanager:eu-west-1:" + account + ":secret:" + core.Str(news, "name") + "-" + core.ShortHash(id)[:6])
	case SecretVersionType:
		delete(out, "arn")
		out["versionId"] = resource.NewStringProperty(core.ShortHash(id + "version"))
	}
	return out
}

// immutable are the inputs whose change replaces the object beside the
// Terraform schema's force-new ones: names and placement.
var immutable = map[string][]string{
	"aws:ec2/vpc:Vpc":               {"cidrBlock"},
	"aws:ec2/subnet:Subnet":         {"cidrBlock", "availabilityZone", "vpcId"},
	"aws:eks/cluster:Cluster":       {"name", "encryptionConfig", "roleArn"},
	"aws:eks/nodeGroup:NodeGroup":   {"clusterName", "nodeGroupName", "subnetIds", "instanceTypes", "nodeRoleArn"},
	"aws:iam/role:Role":             {"name"},
	"aws:iam/rolePolicy:RolePolicy": {"name", "role"},
	SecretType:                      {"name"},
	SecretVersionType:               {"secretId"},
}

// Replaces: names and placement are immutable, and every force-new
// property of the Terraform schema.
func (Behavior) Replaces(typ string, olds, news resource.PropertyMap, changed []string) []string {
	var out []string
	for _, c := range changed {
		if slices.Contains(immutable[typ], c) {
			out = append(out, c)
		}
	}
	for _, c := range forceNewReplaces(typ, olds, news, changed) {
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return out
}

// Invoke: the simulated AWS answers no lookup.
func (Behavior) Invoke(token string, _ resource.PropertyMap) (resource.PropertyMap, error) {
	return nil, fmt.Errorf("the simulated aws provider does not answer %s", token)
}

// SecretDigests are the Secrets Manager secrets by name, each with the
// digest (core.SecretDigest) of its current value: its version's
// secretString.
func SecretDigests(cloud *core.Cloud) map[string]string {
	names := map[string]string{} // store key: name
	for key, rec := range cloud.OfType(SecretType) {
		names[key] = fmt.Sprint(rec.Properties["name"])
	}
	out := map[string]string{}
	for _, rec := range cloud.OfType(SecretVersionType) {
		name, ok := names[fmt.Sprint(rec.Properties["secretId"])]
		if d, secret := core.StoredDigest(rec.Properties["secretString"]); ok && secret {
			out[name] = d
		}
	}
	return out
}
