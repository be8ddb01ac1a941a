package createid

import (
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
)

// awsProvider is an AWS provider resource's inputs as the state keeps
// them: a real plugin's as JSON strings, the simulated one's as values.
var (
	awsProvider = resource.NewPropertyMapFromMap(map[string]any{
		"region":            "eu-west-1",
		"allowedAccountIds": `["111111111111"]`,
		"defaultTags":       `{"tags":{"environment":"int-stable","managed-by":"harness-platform"}}`,
	})
	awsProviderValues = resource.NewPropertyMapFromMap(map[string]any{
		"region":            "cn-north-1",
		"allowedAccountIds": []any{"222222222222"},
		"defaultTags":       map[string]any{"tags": map[string]any{"environment": "int-stable"}},
	})
)

// cases are the rules' table: one or more rows per type.
var cases = []struct {
	typ      string
	inputs   map[string]any
	provider resource.PropertyMap
	kind     Kind
	id       string
	note     []string // what Note must say
}{
	// Harness: the identifier (package importid).
	{typ: "harness:platform/project:Project", inputs: map[string]any{"orgId": "default", "identifier": "payments"}, kind: Known, id: "payments"},
	{typ: "harness:platform/delegatetoken:Delegatetoken", inputs: map[string]any{"name": "int-stable-euw1"}, kind: Known, id: "int-stable-euw1"},

	// AWS.
	{typ: "aws:iam/role:Role", inputs: map[string]any{"name": "int-stable-euw1-nodes-bc4282b"}, kind: Known, id: "int-stable-euw1-nodes-bc4282b"},
	{typ: "aws:iam/role:Role", inputs: map[string]any{}, kind: Unknown, note: []string{"name"}},
	{typ: "aws:iam/rolePolicyAttachment:RolePolicyAttachment", inputs: map[string]any{"role": "r-1", "policyArn": "arn:aws:iam::aws:policy/AmazonEKS_CNI_Policy"},
		kind: Known, id: "r-1-AmazonEKS_CNI_Policy"},
	{typ: "aws:iam/openIdConnectProvider:OpenIdConnectProvider", inputs: map[string]any{"url": "https://oidc.eks.eu-west-1.amazonaws.com/id/C908"},
		provider: awsProvider, kind: Known, id: "arn:aws:iam::111111111111:oidc-provider/oidc.eks.eu-west-1.amazonaws.com/id/C908"},
	{typ: "aws:iam/openIdConnectProvider:OpenIdConnectProvider", inputs: map[string]any{"url": "https://oidc.eks.cn-north-1.amazonaws.com.cn/id/C908"},
		provider: awsProviderValues, kind: Known, id: "arn:aws-cn:iam::222222222222:oidc-provider/oidc.eks.cn-north-1.amazonaws.com.cn/id/C908"},
	{typ: "aws:iam/openIdConnectProvider:OpenIdConnectProvider", inputs: map[string]any{"url": "https://oidc"}, kind: Unknown, note: []string{"allowedAccountIds"}},
	{typ: "aws:iam/rolePolicy:RolePolicy", inputs: map[string]any{"role": "harness-delegate-int-stable-euw1-eso", "name": "read-delegate-tokens"},
		kind: Known, id: "harness-delegate-int-stable-euw1-eso:read-delegate-tokens"},
	{typ: "aws:secretsmanager/secret:Secret", inputs: map[string]any{"name": "harness-platform/delegate-tokens/int-stable/t"}, provider: awsProvider,
		kind: Generated, note: []string{"a Secrets Manager secret", "in eu-west-1", "name=harness-platform/delegate-tokens/int-stable/t", "aws secretsmanager delete-secret"}},
	{typ: "aws:secretsmanager/secretVersion:SecretVersion", inputs: map[string]any{"secretId": "arn:aws:secretsmanager:eu-west-1:111111111111:secret:s-AbCdEf"}, provider: awsProvider,
		kind: Generated, note: []string{"a secret version", "secretId=arn:aws:secretsmanager:eu-west-1:111111111111:secret:s-AbCdEf"}},
	{typ: "aws:cloudwatch/logGroup:LogGroup", inputs: map[string]any{"name": "/aws/eks/int-stable-euw1/cluster"}, kind: Known, id: "/aws/eks/int-stable-euw1/cluster"},
	{typ: "aws:eks/cluster:Cluster", inputs: map[string]any{"name": "int-stable-euw1"}, kind: Known, id: "int-stable-euw1"},
	{typ: "aws:eks/nodeGroup:NodeGroup", inputs: map[string]any{"clusterName": "int-stable-euw1", "nodeGroupName": "int-stable-euw1-c8005b1"},
		kind: Known, id: "int-stable-euw1:int-stable-euw1-c8005b1"},
	{typ: "aws:eks/addon:Addon", inputs: map[string]any{"clusterName": "c", "addonName": "vpc-cni"}, kind: Known, id: "c:vpc-cni"},
	{typ: "aws:eks/addon:Addon", inputs: map[string]any{"clusterName": "c"}, kind: Unknown, note: []string{"clusterName, addonName"}},
	{typ: "aws:eks/accessEntry:AccessEntry", inputs: map[string]any{"clusterName": "c", "principalArn": "arn:aws:iam::111111111111:role/deployer"},
		kind: Known, id: "c:arn:aws:iam::111111111111:role/deployer"},
	{typ: "aws:eks/accessPolicyAssociation:AccessPolicyAssociation", inputs: map[string]any{"clusterName": "c",
		"principalArn": "arn:aws:iam::111111111111:role/deployer", "policyArn": "arn:aws:eks::aws:cluster-access-policy/AmazonEKSClusterAdminPolicy"},
		kind: Known, id: "c#arn:aws:iam::111111111111:role/deployer#arn:aws:eks::aws:cluster-access-policy/AmazonEKSClusterAdminPolicy"},
	{typ: "aws:ec2/vpc:Vpc", inputs: map[string]any{"cidrBlock": "10.1.0.0/17", "tags": map[string]any{"Name": "int-stable-euw1"}}, provider: awsProvider,
		kind: Generated, note: []string{"a VPC", "in eu-west-1", "cidrBlock=10.1.0.0/17", "tagged Name=int-stable-euw1, environment=int-stable, managed-by=harness-platform",
			"aws resourcegroupstaggingapi get-resources --region eu-west-1 --tag-filters Key=Name,Values=int-stable-euw1 Key=environment,Values=int-stable Key=managed-by,Values=harness-platform",
			"aws ec2 delete-vpc"}},
	{typ: "aws:ec2/subnet:Subnet", inputs: map[string]any{"vpcId": "vpc-1", "cidrBlock": "10.1.0.0/20", "availabilityZone": "eu-west-1a"}, provider: awsProviderValues,
		kind: Generated, note: []string{"a subnet", "vpcId=vpc-1", "availabilityZone=eu-west-1a", "Key=environment,Values=int-stable", "delete-subnet"}},
	{typ: "github:index/actionsRunnerGroup:ActionsRunnerGroup", inputs: map[string]any{"name": "harness-platform-deployers", "visibility": "selected"},
		kind: Generated, note: []string{`runner group "harness-platform-deployers"`, "gh api /orgs/{org}/actions/runner-groups", "DELETE"}},
	{typ: "aws:ec2/internetGateway:InternetGateway", inputs: map[string]any{"vpcId": "vpc-1"}, kind: Generated, note: []string{"an internet gateway", "vpcId=vpc-1"}},
	{typ: "aws:ec2/routeTable:RouteTable", inputs: map[string]any{"vpcId": "vpc-1"}, kind: Generated, note: []string{"a route table", "delete-route-table"}},
	{typ: "aws:ec2/routeTableAssociation:RouteTableAssociation", inputs: map[string]any{"routeTableId": "rtb-1", "subnetId": "subnet-1"},
		kind: Generated, note: []string{"routeTableId=rtb-1, subnetId=subnet-1", "disassociate-route-table"}},
	{typ: "aws:ec2/eip:Eip", inputs: map[string]any{"domain": "vpc"}, kind: Generated, note: []string{"an Elastic IP", "release-address"}},
	{typ: "aws:ec2/natGateway:NatGateway", inputs: map[string]any{"subnetId": "subnet-1", "allocationId": "eipalloc-1"}, kind: Generated, note: []string{"a NAT gateway", "allocationId=eipalloc-1"}},
	{typ: "aws:ec2/securityGroup:SecurityGroup", inputs: map[string]any{"vpcId": "vpc-1", "description": "HTTPS"}, kind: Generated, note: []string{"a security group", "vpcId=vpc-1", "delete-security-group"}},
	{typ: "aws:ec2/vpcEndpoint:VpcEndpoint", inputs: map[string]any{"vpcId": "vpc-1", "serviceName": "com.amazonaws.eu-west-1.sts"}, kind: Generated, note: []string{"a VPC endpoint", "serviceName=com.amazonaws.eu-west-1.sts", "delete-vpc-endpoints"}},
	{typ: "aws:kms/key:Key", inputs: map[string]any{"description": "Kubernetes secrets of EKS cluster c"}, provider: awsProvider,
		kind: Generated, note: []string{"a KMS key", "description=Kubernetes secrets of EKS cluster c", "schedule-key-deletion"}},

	// Kubernetes.
	{typ: "kubernetes:core/v1:Namespace", inputs: map[string]any{"metadata": map[string]any{"name": "payments-dev"}}, kind: Known, id: "payments-dev"},
	{typ: "kubernetes:core/v1:Namespace", inputs: map[string]any{"metadata": map[string]any{"name": "n", "namespace": "ignored"}}, kind: Known, id: "n"},
	{typ: "kubernetes:core/v1:Secret", inputs: map[string]any{"metadata": map[string]any{"name": "token", "namespace": "harness-delegate-ng"}},
		kind: Known, id: "harness-delegate-ng/token"},
	{typ: "kubernetes:core/v1:ResourceQuota", inputs: map[string]any{"metadata": map[string]any{"name": "q"}}, kind: Known, id: "default/q"},
	{typ: "kubernetes:rbac.authorization.k8s.io/v1:RoleBinding", inputs: map[string]any{"metadata": map[string]any{"name": "rb", "namespace": "ns"}}, kind: Known, id: "ns/rb"},
	{typ: "kubernetes:networking.k8s.io/v1:NetworkPolicy", inputs: map[string]any{"metadata": map[string]any{"name": "np", "namespace": "ns"}}, kind: Known, id: "ns/np"},
	{typ: "kubernetes:core/v1:LimitRange", inputs: map[string]any{"metadata": map[string]any{"name": "lr", "namespace": "ns"}}, kind: Known, id: "ns/lr"},
	{typ: "kubernetes:example.com/v1:Widget", inputs: map[string]any{"metadata": map[string]any{"name": "w", "namespace": "ns"}}, kind: Known, id: "ns/w"},
	{typ: "kubernetes:example.com/v1:Widget", inputs: map[string]any{"metadata": map[string]any{"name": "w"}}, kind: Unknown, note: []string{"scope"}},
	{typ: "kubernetes:core/v1:Namespace", inputs: map[string]any{}, kind: Unknown, note: []string{"metadata.name"}},
	{typ: "kubernetes:helm.sh/v3:Release", inputs: map[string]any{"name": "harness-delegate-int-stable-euw1", "namespace": "harness-delegate-ng"},
		kind: Known, id: "harness-delegate-ng/harness-delegate-int-stable-euw1"},

	// GitHub.
	{typ: "github:index/repositoryEnvironment:RepositoryEnvironment", inputs: map[string]any{"repository": "payments", "environment": "int-stable"},
		kind: Known, id: "payments:int-stable"},
	{typ: "github:index/repositoryEnvironment:RepositoryEnvironment", inputs: map[string]any{"repository": "payments", "environment": "a:b"},
		kind: Known, id: "payments:a??b"},
	{typ: "github:index/branchProtectionV3:BranchProtectionV3", inputs: map[string]any{"repository": "payments", "branch": "main"}, kind: Known, id: "payments:main"},
	{typ: "github:index/actionsOrganizationVariable:ActionsOrganizationVariable", inputs: map[string]any{"variableName": "HARNESS_ACCOUNT"}, kind: Known, id: "HARNESS_ACCOUNT"},
	{typ: "github:index/actionsOrganizationSecret:ActionsOrganizationSecret", inputs: map[string]any{"secretName": "HARNESS_API_KEY"}, kind: Known, id: "HARNESS_API_KEY"},
	{typ: "github:index/teamRepository:TeamRepository", inputs: map[string]any{"teamId": "4211", "repository": "payments"}, kind: Known, id: "4211:payments"},
	{typ: "github:index/teamRepository:TeamRepository", inputs: map[string]any{"teamId": "platform", "repository": "payments"}, kind: Retaken, note: []string{`"platform"`, "PUT"}},
	{typ: "github:index/repositoryFile:RepositoryFile", inputs: map[string]any{"repository": "payments", "file": "catalog-info.yaml", "branch": "main"},
		kind: Known, id: "payments:catalog-info.yaml:main"},
	{typ: "github:index/repositoryFile:RepositoryFile", inputs: map[string]any{"repository": "payments", "file": "catalog-info.yaml", "overwriteOnCreate": true},
		kind: Retaken, note: []string{"default branch"}},
	{typ: "github:index/repositoryFile:RepositoryFile", inputs: map[string]any{"repository": "payments", "file": "catalog-info.yaml"},
		kind: Unknown, note: []string{"overwriteOnCreate"}},

	// No rule.
	{typ: "aws:s3/bucket:Bucket", inputs: map[string]any{"bucket": "b"}, kind: Unknown, note: []string{"no rule"}},
}

func TestRules(t *testing.T) {
	for _, c := range cases {
		got := ID(c.typ, resource.NewPropertyMapFromMap(c.inputs), c.provider)
		if got.Kind != c.kind || got.ID != c.id {
			t.Errorf("%s %v: %s %q (%s), want %s %q", c.typ, c.inputs, got.Kind, got.ID, got.Note, c.kind, c.id)
		}
		for _, n := range c.note {
			if !strings.Contains(got.Note, n) {
				t.Errorf("%s %v: note %q does not say %q", c.typ, c.inputs, got.Note, n)
			}
		}
	}
}

// Every rule is in the table, and none makes an id of nothing.
func TestEveryRuleIsTested(t *testing.T) {
	tested := map[string]bool{}
	for _, c := range cases {
		tested[c.typ] = true
	}
	for _, typ := range Types() {
		if !tested[typ] {
			t.Errorf("%s: no row in the table", typ)
		}
		if got := ID(typ, resource.PropertyMap{}, nil); got.Kind == Known {
			t.Errorf("%s: an id from no inputs, %q", typ, got.ID)
		}
	}
}
