// Package createid is the id each provider the program uses gives an
// object it creates, told from what the engine records before it asks the
// provider: a pending create's type and checked inputs (the provider's
// Check has set its auto-names and defaults by then), and the inputs of
// the provider resource it is created with. `platformctl recover` needs
// it to take into the state an object an interrupted up created but never
// recorded (engine.Session.Recover).
//
// Each type has one rule (ID), of four outcomes (Kind):
//
//   - Known: the provider's Create sets the id from the inputs (a name,
//     or names joined); recover moves the pending create into the state
//     with it and the refresh keeps the object or drops it.
//   - Retaken: the id needs what only the service knows (a team's number,
//     a repository's default branch), but the provider's Create writes
//     with a PUT that takes an existing object over: recover drops the
//     pending create and the next up creates the object in place.
//   - Generated: the service makes the id up (a VPC's vpc-…, a KMS key's
//     UUID): nothing can tell whether the interrupted create made an
//     object, nor find it by its id. Recover drops the pending create and
//     reports the object (Note: its tags and inputs, and how to find and
//     delete it), or the next up makes a second one.
//   - Unknown: no rule for the type; recover refuses.
//
// The rules are read from the providers' sources at the versions the
// program pins (components.AWSVersion, KubernetesVersion, the GitHub and
// Harness plugins): each rule's comment says where.
package createid

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"

	"github.com/company/harness-platform/harness/importid"
)

// Kind is how a pending create of a type is settled.
type Kind int

const (
	// Unknown: no rule for the type.
	Unknown Kind = iota
	// Known: ID is the id the provider gives the object.
	Known
	// Retaken: the next create takes an object that exists over; the
	// pending create is dropped.
	Retaken
	// Generated: the service makes the id up; the pending create is
	// dropped and the object, if it exists, reported (Note).
	Generated
)

func (k Kind) String() string {
	return [...]string{"unknown", "known", "retaken", "generated"}[k]
}

// Result is a rule's answer.
type Result struct {
	Kind Kind
	// ID is the id (Known).
	ID string
	// Note says why (Retaken, Unknown) or, for Generated, how to find the
	// object that may exist and remove it.
	Note string
}

// A rule answers for one type, given the pending create's inputs and its
// provider's.
type rule func(in, provider resource.PropertyMap) Result

// ID is the id the provider gives a new object of typ with these inputs,
// created with a provider resource of these inputs (nil: none known).
func ID(typ string, inputs, provider resource.PropertyMap) Result {
	if importid.Known(typ) {
		// Harness: the identifier (a delegate token: its name), as
		// terraform-provider-harness's Create sets it (package importid).
		strs := map[string]string{}
		for k, v := range inputs {
			if v.IsString() {
				strs[string(k)] = v.StringValue()
			}
		}
		return known(importid.ResourceID(typ, strs))
	}
	if r, ok := rules[typ]; ok {
		return r(inputs, provider)
	}
	if strings.HasPrefix(typ, "kubernetes:") && typ != helmRelease {
		return kubernetesObject(typ, inputs)
	}
	return Result{Kind: Unknown, Note: "no rule for " + typ}
}

// Types are the types with a rule of their own (Harness types: package
// importid; Kubernetes objects: any), sorted.
func Types() []string {
	out := make([]string, 0, len(rules))
	for t := range rules {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

const helmRelease = "kubernetes:helm.sh/v3:Release"

var rules = map[string]rule{
	// --- AWS: terraform-provider-aws v5, as pulumi-aws v6.83.2 bridges it.
	// pulumi-aws auto-names (provider/resources.go: tfbridge.AutoName)
	// the name of an IAM role and a node group's nodeGroupName; Check
	// writes the name into the inputs.

	// internal/service/iam/role.go, resourceRoleCreate: d.SetId(roleName).
	"aws:iam/role:Role": byName("name"),
	// internal/service/iam/role_policy_attachment.go (v5): the id is
	// id.PrefixedUniqueId("<role>-"), made up, and never read back: Read
	// and Delete use role and policy_arn. Any id serves; recover's is
	// "<role>-<policy name>".
	"aws:iam/rolePolicyAttachment:RolePolicyAttachment": func(in, _ resource.PropertyMap) Result {
		role, arn := str(in, "role"), str(in, "policyArn")
		if role == "" || arn == "" {
			return missing("role", "policyArn")
		}
		return known(role + "-" + arn[strings.LastIndex(arn, "/")+1:])
	},
	// internal/service/iam/openid_connect_provider.go: d.SetId of the
	// ARN CreateOpenIDConnectProvider answers,
	// arn:<partition>:iam::<account>:oidc-provider/<url without https://>.
	// The account is the provider's (allowedAccountIds, one).
	"aws:iam/openIdConnectProvider:OpenIdConnectProvider": func(in, provider resource.PropertyMap) Result {
		url := strings.TrimPrefix(str(in, "url"), "https://")
		accounts := strs(provider, "allowedAccountIds")
		if url == "" || len(accounts) != 1 {
			return Result{Kind: Unknown, Note: "its id is an ARN naming the AWS account: the provider allows " +
				strconv.Itoa(len(accounts)) + " accounts (allowedAccountIds), not one"}
		}
		return known(fmt.Sprintf("arn:%s:iam::%s:oidc-provider/%s", partition(str(provider, "region")), accounts[0], url))
	},
	// internal/service/iam/role_policy.go, resourceRolePolicyPut:
	// d.SetId("<role>:<name>") on a new resource (the program names the
	// policy).
	"aws:iam/rolePolicy:RolePolicy": joined(":", "role", "name"),
	// internal/service/secretsmanager/secret.go, resourceSecretCreate:
	// d.SetId of the ARN CreateSecret answers, which ends in six random
	// characters; the name is unique in the region, so a second create
	// is refused rather than made.
	"aws:secretsmanager/secret:Secret": generated("a Secrets Manager secret", "aws secretsmanager delete-secret --secret-id <name> (or describe-secret to keep it, then import it)", "name"),
	// internal/service/secretsmanager/secret_version.go: the id is
	// secretVersionCreateResourceID(secret id, the VersionId
	// PutSecretValue answers), joined by "|".
	"aws:secretsmanager/secretVersion:SecretVersion": generated("a secret version", "aws secretsmanager list-secret-version-ids --secret-id <secretId> (a later version supersedes it)", "secretId"),
	// internal/service/logs/group.go, resourceGroupCreate: d.SetId(name).
	"aws:cloudwatch/logGroup:LogGroup": byName("name"),
	// internal/service/eks/cluster.go, resourceClusterCreate: d.SetId(name).
	"aws:eks/cluster:Cluster": byName("name"),
	// internal/service/eks/node_group.go: NodeGroupCreateResourceID
	// (id.go), cluster_name:node_group_name.
	"aws:eks/nodeGroup:NodeGroup": joined(":", "clusterName", "nodeGroupName"),
	// internal/service/eks/addon.go: AddonCreateResourceID (id.go),
	// cluster_name:addon_name.
	"aws:eks/addon:Addon": joined(":", "clusterName", "addonName"),
	// internal/service/eks/access_entry.go: accessEntryCreateResourceID,
	// cluster_name:principal_arn.
	"aws:eks/accessEntry:AccessEntry": joined(":", "clusterName", "principalArn"),
	// internal/service/eks/access_policy_association.go:
	// accessPolicyAssociationCreateResourceID, joined by "#".
	"aws:eks/accessPolicyAssociation:AccessPolicyAssociation": joined("#", "clusterName", "principalArn", "policyArn"),
	// The ids EC2 and KMS make up: vpc-…, subnet-…, igw-…, rtb-…,
	// rtbassoc-…, eipalloc-…, nat-…, a key's UUID (each resource's
	// Create: d.SetId of the service's answer).
	"aws:ec2/vpc:Vpc":                                     generated("a VPC", "aws ec2 delete-vpc --vpc-id ID", "cidrBlock"),
	"aws:ec2/subnet:Subnet":                               generated("a subnet", "aws ec2 delete-subnet --subnet-id ID", "vpcId", "cidrBlock", "availabilityZone"),
	"aws:ec2/internetGateway:InternetGateway":             generated("an internet gateway", "aws ec2 detach-internet-gateway and delete-internet-gateway --internet-gateway-id ID", "vpcId"),
	"aws:ec2/routeTable:RouteTable":                       generated("a route table", "aws ec2 delete-route-table --route-table-id ID", "vpcId"),
	"aws:ec2/routeTableAssociation:RouteTableAssociation": generated("a route table association", "aws ec2 disassociate-route-table --association-id ID (describe-route-tables --route-table-ids <routeTableId> lists it by its subnet)", "routeTableId", "subnetId"),
	"aws:ec2/eip:Eip":                                     generated("an Elastic IP", "aws ec2 release-address --allocation-id ID", "domain"),
	"aws:ec2/natGateway:NatGateway":                       generated("a NAT gateway", "aws ec2 delete-nat-gateway --nat-gateway-id ID (then release its Elastic IP)", "subnetId", "allocationId"),
	"aws:kms/key:Key":                                     generated("a KMS key", "aws kms schedule-key-deletion --key-id ID", "description"),
	// sg-… and vpce-… (vpc_security_group.go, vpc_endpoint.go: d.SetId
	// of CreateSecurityGroup's GroupId and CreateVpcEndpoint's
	// VpcEndpointId).
	"aws:ec2/securityGroup:SecurityGroup": generated("a security group", "aws ec2 delete-security-group --group-id ID", "vpcId", "description"),
	"aws:ec2/vpcEndpoint:VpcEndpoint":     generated("a VPC endpoint", "aws ec2 delete-vpc-endpoints --vpc-endpoint-ids ID", "vpcId", "serviceName"),

	// --- Kubernetes: pulumi-kubernetes v4.33.0 (provider/pkg/provider).
	// helm_release.go, Create: id = fqName(namespace, name); Check has
	// set both (setDefaults: the provider's default namespace; the name
	// auto-named from the resource's).
	helmRelease: func(in, _ resource.PropertyMap) Result {
		ns, name := str(in, "namespace"), str(in, "name")
		if ns == "" || name == "" {
			return missing("namespace", "name")
		}
		return known(ns + "/" + name)
	},

	// --- GitHub: terraform-provider-github v6.12.1 (github/, at
	// add2157906ef, what pulumi-github v6.14.1 bridges). buildID and
	// buildTwoPartID join with ":" (util.go); escapeIDPart writes a ':' of
	// a part as "??".

	// resource_github_repository_environment.go:
	// buildID(repository, escapeIDPart(environment)).
	"github:index/repositoryEnvironment:RepositoryEnvironment": func(in, _ resource.PropertyMap) Result {
		repo, env := str(in, "repository"), str(in, "environment")
		if repo == "" || env == "" {
			return missing("repository", "environment")
		}
		return known(repo + ":" + strings.ReplaceAll(env, ":", "??"))
	},
	// resource_github_branch_protection_v3.go:
	// buildTwoPartID(repository, branch).
	"github:index/branchProtectionV3:BranchProtectionV3": joined(":", "repository", "branch"),
	// resource_github_actions_organization_variable.go and
	// _secret.go: d.SetId(name).
	importid.GitHubOrgVariable: byName("variableName"),
	importid.GitHubOrgSecret:   byName("secretName"),
	// resource_github_team_repository.go: buildTwoPartID(<the team's
	// number>, repository), the number looked up when team_id is a slug
	// (getTeamID). AddTeamRepoByID is a PUT.
	"github:index/teamRepository:TeamRepository": func(in, _ resource.PropertyMap) Result {
		team, repo := str(in, "teamId"), str(in, "repository")
		if _, err := strconv.ParseInt(team, 10, 64); err == nil && repo != "" {
			return known(team + ":" + repo)
		}
		return Result{Kind: Retaken, Note: "its id holds the team's number, which GitHub knows (teamId is the slug " + strconv.Quote(team) +
			"); granting a team a repository is a PUT, which the next up repeats"}
	},
	// resource_github_actions_runner_group.go:
	// d.SetId(strconv.FormatInt(runnerGroup.GetID(), 10)), a number
	// GitHub makes up; a second group of the name is refused.
	"github:index/actionsRunnerGroup:ActionsRunnerGroup": func(in, _ resource.PropertyMap) Result {
		name := str(in, "name")
		return Result{Kind: Generated, Note: "GitHub made up its id, so the runner group " + strconv.Quote(name) +
			" the interrupted create made cannot be found by it: find it with `gh api /orgs/{org}/actions/runner-groups` and, if it is there, " +
			"delete it (`gh api -X DELETE /orgs/{org}/actions/runner-groups/<id>`) before the next up, which creates it again (GitHub refuses a second group of the name)"}
	},
	// resource_github_repository_file.go: buildID(repository, file,
	// branch), the branch the repository's default when unset.
	// overwrite_on_create writes over a file that exists.
	"github:index/repositoryFile:RepositoryFile": func(in, _ resource.PropertyMap) Result {
		repo, file, branch := str(in, "repository"), str(in, "file"), str(in, "branch")
		switch {
		case repo == "" || file == "":
			return missing("repository", "file")
		case branch != "":
			return known(repo + ":" + file + ":" + branch)
		case boolean(in, "overwriteOnCreate"):
			return Result{Kind: Retaken, Note: "its id holds the repository's default branch, which GitHub knows; " +
				"with overwriteOnCreate the next up writes the file over"}
		}
		return Result{Kind: Unknown, Note: "its id holds the repository's default branch, which GitHub knows, and without overwriteOnCreate " +
			"the next up refuses a file that exists"}
	},
}

// kubernetesObject is a Kubernetes object's id: provider.go, Create:
// fqObjName(the object the API server answers), "namespace/name", or
// "name" for a cluster-scoped kind (util.go, fqName). Check set the
// namespace of a namespaced kind to the provider's default namespace,
// when one is configured; the API server puts an object it is not given
// one for in "default". Which kinds are cluster-scoped:
// provider/pkg/kinds/kinds.go, Kind.Namespaced.
func kubernetesObject(typ string, in resource.PropertyMap) Result {
	kind := typ[strings.LastIndex(typ, ":")+1:]
	var meta resource.PropertyMap
	if m, ok := in["metadata"]; ok && m.IsObject() {
		meta = m.ObjectValue()
	}
	name, ns := str(meta, "name"), str(meta, "namespace")
	if name == "" {
		return missing("metadata.name")
	}
	namespaced, known := namespacedKinds[kind]
	switch {
	case known && !namespaced:
		return Result{Kind: Known, ID: name}
	case ns != "":
		return Result{Kind: Known, ID: ns + "/" + name}
	case known:
		return Result{Kind: Known, ID: "default/" + name}
	}
	return Result{Kind: Unknown, Note: kind + " is no kind the provider knows the scope of (a custom resource?), and the object names no namespace"}
}

// namespacedKinds are the kinds pulumi-kubernetes knows the scope of
// (kinds.go, Kind.Namespaced): true namespaced, false cluster-scoped.
var namespacedKinds = func() map[string]bool {
	m := map[string]bool{}
	for _, k := range strings.Fields(`Binding ConfigMap ControllerRevision CronJob CSIStorageCapacity DaemonSet Deployment
		Endpoints EndpointSlice Event HorizontalPodAutoscaler Ingress Job Lease LimitRange NetworkPolicy
		PersistentVolumeClaim Pod PodDisruptionBudget PodTemplate ReplicaSet ReplicationController ResourceQuota
		Role RoleBinding Secret Service ServiceAccount StatefulSet`) {
		m[k] = true
	}
	for _, k := range strings.Fields(`APIService CertificateSigningRequest ClusterRole ClusterRoleBinding CSIDriver CSINode
		CustomResourceDefinition FlowSchema IngressClass MutatingWebhookConfiguration Namespace Node PersistentVolume
		PodSecurityPolicy PriorityClass PriorityLevelConfiguration RuntimeClass StorageClass
		ValidatingWebhookConfiguration VolumeAttachment`) {
		m[k] = false
	}
	return m
}()

func known(id string) Result {
	if id == "" {
		return Result{Kind: Unknown, Note: "the inputs the id is made of are not set"}
	}
	return Result{Kind: Known, ID: id}
}

func missing(keys ...string) Result {
	return Result{Kind: Unknown, Note: "its id is made of " + strings.Join(keys, ", ") + ", not all of which the inputs set"}
}

func byName(key string) rule {
	return func(in, _ resource.PropertyMap) Result {
		if str(in, key) == "" {
			return missing(key)
		}
		return known(str(in, key))
	}
}

func joined(sep string, keys ...string) rule {
	return func(in, _ resource.PropertyMap) Result {
		parts := make([]string, len(keys))
		for i, k := range keys {
			if parts[i] = str(in, k); parts[i] == "" {
				return missing(keys...)
			}
		}
		return known(strings.Join(parts, sep))
	}
}

// generated is the rule of a type whose id the service makes up: Note
// names the object by its tags (the resource's and the provider's
// default tags, which AWS applies to it) and by the inputs listed, with
// how to find it (the Resource Groups Tagging API, or by the inputs) and
// delete it.
func generated(what, remove string, keys ...string) rule {
	return func(in, provider resource.PropertyMap) Result {
		region := str(provider, "region")
		tags := map[string]string{}
		if dt := object(provider, "defaultTags"); dt != nil {
			for k, v := range stringMap(object(dt, "tags")) {
				tags[k] = v
			}
		}
		for k, v := range stringMap(object(in, "tags")) {
			tags[k] = v
		}
		var b strings.Builder
		fmt.Fprintf(&b, "AWS made up its id, so %s the interrupted create made cannot be found by it", what)
		if region != "" {
			fmt.Fprintf(&b, "; in %s", region)
		}
		var inputs []string
		for _, k := range keys {
			if v := str(in, k); v != "" {
				inputs = append(inputs, k+"="+v)
			}
		}
		if len(inputs) > 0 {
			fmt.Fprintf(&b, ", with %s", strings.Join(inputs, ", "))
		}
		if len(tags) > 0 {
			names := make([]string, 0, len(tags))
			for k := range tags {
				names = append(names, k)
			}
			sort.Strings(names)
			var filters, shown []string
			for _, k := range names {
				shown = append(shown, k+"="+tags[k])
				filters = append(filters, "Key="+k+",Values="+tags[k])
			}
			fmt.Fprintf(&b, ", tagged %s: find it with `aws resourcegroupstaggingapi get-resources", strings.Join(shown, ", "))
			if region != "" {
				fmt.Fprintf(&b, " --region %s", region)
			}
			fmt.Fprintf(&b, " --tag-filters %s`", strings.Join(filters, " "))
		}
		fmt.Fprintf(&b, "; if it exists, delete it (%s) before the next up, which creates another", remove)
		return Result{Kind: Generated, Note: b.String()}
	}
}

// partition is the AWS partition of a region.
func partition(region string) string {
	switch {
	case strings.HasPrefix(region, "cn-"):
		return "aws-cn"
	case strings.HasPrefix(region, "us-gov-"):
		return "aws-us-gov"
	}
	return "aws"
}

func str(m resource.PropertyMap, key string) string {
	if v, ok := m[resource.PropertyKey(key)]; ok && v.IsString() {
		return v.StringValue()
	}
	return ""
}

func boolean(m resource.PropertyMap, key string) bool {
	v, ok := m[resource.PropertyKey(key)]
	return ok && v.IsBool() && v.BoolValue()
}

// decoded is v, or, if v is a string holding JSON (how a provider
// resource's state keeps an input that is not a string), what it holds.
func decoded(v resource.PropertyValue) resource.PropertyValue {
	if !v.IsString() {
		return v
	}
	var x any
	if json.Unmarshal([]byte(v.StringValue()), &x) != nil {
		return v
	}
	return resource.NewPropertyValue(x)
}

func object(m resource.PropertyMap, key string) resource.PropertyMap {
	if v, ok := m[resource.PropertyKey(key)]; ok {
		if v = decoded(v); v.IsObject() {
			return v.ObjectValue()
		}
	}
	return nil
}

func stringMap(m resource.PropertyMap) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		if v.IsString() {
			out[string(k)] = v.StringValue()
		}
	}
	return out
}

func strs(m resource.PropertyMap, key string) []string {
	v, ok := m[resource.PropertyKey(key)]
	if !ok {
		return nil
	}
	if v = decoded(v); !v.IsArray() {
		return nil
	}
	var out []string
	for _, e := range v.ArrayValue() {
		if e.IsString() {
			out = append(out, e.StringValue())
		}
	}
	return out
}
