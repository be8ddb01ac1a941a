// Package aws is the simulated AWS: a stand-in for the AWS Pulumi
// provider v6.83.2 (pulumi-aws, bridging terraform-provider-aws) and the
// AWS APIs behind it (EC2, IAM, KMS, CloudWatch Logs, EKS, STS), for
// offline runs and tests only.
//
// It serves the types the program declares and refuses any other:
// aws:ec2 Vpc, InternetGateway, Subnet, RouteTable, RouteTableAssociation,
// Eip, NatGateway, SecurityGroup, VpcEndpoint; aws:kms Key; aws:cloudwatch LogGroup; aws:iam Role,
// RolePolicy, RolePolicyAttachment, OpenIdConnectProvider; aws:eks
// Cluster, AccessEntry, AccessPolicyAssociation, NodeGroup, Addon;
// aws:secretsmanager Secret, SecretVersion (a version's secretString
// stored as its digest, which SecretDigests gives the simulated
// External Secrets Operator). It does what the
// real provider and AWS do to them that the program relies on:
//
//   - Check: the required inputs of the provider's Go SDK and of the
//     Terraform schema, and the schema's constraints extracted by
//     tools/tfconstraints into aws-constraints.json (allowed values,
//     conflicts, exactly-one-of, required-with, list sizes), in
//     Terraform's words; auto-naming (a role's name, a node group's) in
//     Check, so names are known in a preview.
//   - Replacement on a force-new property (the schema's, and names and
//     placement).
//   - Computed ARNs, a cluster's endpoint, CA (the simulated Kubernetes'
//     ClusterCA) and OIDC issuer, key ids.
//   - EKS's refusals of versions (CheckWrite): a version past extended
//     support on today's calendar (package calendar), an update of more
//     than one minor version, or down. EKS's answers to preflight (EKS;
//     EKSAddonVersions: the add-on versions its CreateAddon takes for a
//     Kubernetes version, the table's row as EKS's default).
//   - EKS's refusals of a cluster's parts given the cluster as it stands
//     (CheckSave), with EKS's words where they were found: an add-on
//     version not compatible with the cluster's Kubernetes version
//     (compatible: what AWS's add-on tables in calendar/eks-addons.json
//     give for that version; the real EKS knows older builds too), a
//     node group newer than the control plane (wording modelled, see
//     CheckSave), a control-plane update while a node group runs another
//     version, and CoreDNS created before the cluster has a node group
//     with nodes (EKS leaves it DEGRADED; the provider times out, here at
//     once).
//   - Who may call, from where: the provider's allowedAccountIds, and
//     STS's AssumeRole of its role, refused unless the role trusts the
//     run (core.Reach's Identities and Roles; a role never trusts itself
//     implicitly). The run's session as STS names it (CallerIdentity).
//   - A cluster's endpoint access (private, public and its CIDRs, the
//     VPCs of its subnets) and access entries, as the simulated
//     Kubernetes reaches the cluster (Clusters).
//
// It does NOT:
//
//   - hold more than one account (000000000000) or region: ARNs and
//     endpoints say eu-west-1 whatever the provider's region;
//   - model eventual consistency (IAM's propagation) or asynchronous
//     work: a cluster is ACTIVE as it is created, node groups have no
//     nodes (a node group's desiredSize stands for them, for CoreDNS
//     only), add-ons are ACTIVE at once, and nothing ever fails later;
//   - check what EKS's upgrade insights check (add-ons or deprecated APIs
//     that block a control-plane update): an installed add-on the new
//     version has no build of does not stop the update; nor give an
//     add-on a default version when none is asked for (EKS picks one);
//   - check an add-on's configurationValues against its configuration
//     schema (DescribeAddonConfiguration), which is not held offline: the
//     values are stored, and the VPC CNI's enableNetworkPolicy is what
//     the connectivity matrix reads to decide whether a cluster enforces
//     its NetworkPolicies (engine tests);
//   - model networks: CIDRs are not checked for overlap or containment,
//     no address is allocated, routes and NAT gateways route nothing
//     (only a cluster endpoint's reachability from the runner is
//     judged);
//   - evaluate IAM policies: policies and attachments are stored; only
//     a role's trust (who may assume it) is modelled, by the Reach;
//   - answer lookups (invokes), enforce quotas or API rate limits, or
//     change an object by itself (drift is an edit of its file).
package aws
