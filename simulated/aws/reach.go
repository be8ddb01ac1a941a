package aws

import (
	"encoding/json"
	"fmt"
	"net/netip"
	"slices"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"

	"github.com/company/harness-platform/calendar"
	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/preflight"
	"github.com/company/harness-platform/simulated/core"
)

// Configure is what the AWS provider's configuration meets before any
// call: its allowedAccountIds, then the AssumeRole of its role (the
// provider's assumeRole, or the aws:config:assumeRole variable).
func (Behavior) Configure(args resource.PropertyMap, variables map[string]string, r core.Reach) error {
	var allowed []string
	if v, ok := args["allowedAccountIds"]; ok && v.IsArray() {
		for _, a := range v.ArrayValue() {
			if a.IsString() {
				allowed = append(allowed, a.StringValue())
			}
		}
	}
	if err := allowedAccount(r, allowed); err != nil {
		return err
	}
	role := ""
	if v, ok := args["assumeRole"]; ok && v.IsObject() {
		if arn, ok := v.ObjectValue()["roleArn"]; ok && arn.IsString() {
			role = arn.StringValue()
		}
	} else if v, ok := variables["aws:config:assumeRole"]; ok {
		var ar struct {
			RoleArn string `json:"roleArn"`
		}
		_ = json.Unmarshal([]byte(v), &ar)
		role = ar.RoleArn
	}
	if role != "" {
		return assumeRole(r, role)
	}
	return nil
}

// caller is an identity as STS names the session of the run's role.
func caller(role string) string {
	return fmt.Sprintf("arn:aws:sts::%s:assumed-role/%s/harness-platform", catalog.ARNAccount(role), role[strings.LastIndex(role, "/")+1:])
}

// assumeRole is STS's answer to an AssumeRole of role: refused when the
// role's trust policy does not name the run, which is always so for a
// role assuming itself unless its trust policy names it (AWS stopped
// trusting a role's own sessions implicitly in 2023: "Announcing an
// update to IAM role trust policy behavior", AWS Security Blog).
func assumeRole(r core.Reach, role string) error {
	who := r.IdentityIn(catalog.ARNAccount(role))
	if who == "" && len(r.Identities) > 0 {
		who = r.Identities[0]
	}
	self := who != "" && preflight.IsRole(caller(who), role)
	if !slices.Contains(r.Roles, role) && (r.Roles != nil || self) {
		name := fmt.Sprintf("arn:aws:sts::%s:assumed-role/harness-platform-ci/runner", account)
		if who != "" {
			name = caller(who)
		}
		return fmt.Errorf("operation error STS: AssumeRole, https response error StatusCode: 403, api error AccessDenied: "+
			"User: %s is not authorized to perform: sts:AssumeRole on resource: %s", name, role)
	}
	return nil
}

// allowedAccount is the AWS provider's refusal of credentials of an
// account its allowedAccountIds do not list (terraform-provider-aws:
// "AWS account ID not allowed").
func allowedAccount(r core.Reach, allowed []string) error {
	if r.Identities == nil || len(allowed) == 0 {
		return nil
	}
	for _, a := range allowed {
		if r.IdentityIn(a) != "" {
			return nil
		}
	}
	return fmt.Errorf("AWS account ID not allowed: %s", catalog.ARNAccount(r.Identities[0]))
}

// CallerIdentity is STS's answer to preflight's GetCallerIdentity with
// the credentials for account: the run's role there, as an STS session
// (another account's when it has none there); "" when the Reach models
// none.
func CallerIdentity(r core.Reach, account string) string {
	if len(r.Identities) == 0 {
		return ""
	}
	who := r.IdentityIn(account)
	if who == "" {
		who = r.Identities[0] // credentials of another account
	}
	return caller(who)
}

const accessEntryType = "aws:eks/accessEntry:AccessEntry"

// Clusters are the EKS clusters the simulated AWS holds in cloud, as the
// simulated Kubernetes provider reaches them (core.Clusters).
func Clusters(cloud *core.Cloud) core.Clusters { return clusters{cloud} }

type clusters struct{ cloud *core.Cloud }

// Endpoint is the EKS cluster whose endpoint is server: its endpoint
// access (EKS's default: public, from 0.0.0.0/0), the networks of its
// subnets' VPCs, and the principals of its access entries.
func (c clusters) Endpoint(server string) (core.Endpoint, bool, error) {
	if err := c.cloud.Reload(); err != nil {
		return core.Endpoint{}, false, err
	}
	for _, rec := range c.cloud.OfType(eksClusterType) {
		if rec.Properties["endpoint"] != server {
			continue
		}
		vpc, _ := rec.Properties["vpcConfig"].(map[string]any)
		e := core.Endpoint{Cluster: fmt.Sprint(rec.Properties["name"]), Public: true, PublicCIDRs: []string{"0.0.0.0/0"}}
		e.Private, _ = vpc["endpointPrivateAccess"].(bool)
		if v, ok := vpc["endpointPublicAccess"].(bool); ok {
			e.Public = v
		}
		if list, ok := vpc["publicAccessCidrs"].([]any); ok && len(list) > 0 {
			e.PublicCIDRs = nil
			for _, cidr := range list {
				e.PublicCIDRs = append(e.PublicCIDRs, fmt.Sprint(cidr))
			}
		}
		e.Networks = c.networks(vpc)
		for _, entry := range c.cloud.OfType(accessEntryType) {
			if entry.Properties["clusterName"] == rec.Properties["name"] {
				principal, _ := entry.Properties["principalArn"].(string)
				e.Principals = append(e.Principals, principal)
			}
		}
		return e, true, nil
	}
	return core.Endpoint{}, false, nil
}

// Access is what the clusters' access entries give principal: their
// Kubernetes groups, and the access policies associated with it. Read
// from the store as it stands, not reloaded: the Kubernetes provider's
// Configure reloaded it (Endpoint), and Access is asked on every read of
// a refresh.
func (c clusters) Access(principal string) (core.Access, bool, error) {
	var out core.Access
	found := false
	for _, entry := range c.cloud.OfType(accessEntryType) {
		if entry.Properties["principalArn"] != principal {
			continue
		}
		found = true
		groups, _ := entry.Properties["kubernetesGroups"].([]any)
		for _, g := range groups {
			if s := fmt.Sprint(g); !slices.Contains(out.Groups, s) {
				out.Groups = append(out.Groups, s)
			}
		}
	}
	for _, a := range c.cloud.OfType("aws:eks/accessPolicyAssociation:AccessPolicyAssociation") {
		if a.Properties["principalArn"] == principal {
			if s := fmt.Sprint(a.Properties["policyArn"]); !slices.Contains(out.Policies, s) {
				out.Policies = append(out.Policies, s)
			}
		}
	}
	return out, found, nil
}

// networks are the CIDR blocks of the VPCs of a cluster's subnets.
func (c clusters) networks(vpcConfig map[string]any) []netip.Prefix {
	var out []netip.Prefix
	subnets, _ := vpcConfig["subnetIds"].([]any)
	for _, id := range subnets {
		subnet, ok := c.cloud.Get(fmt.Sprint(id))
		if !ok {
			continue
		}
		vpc, ok := c.cloud.Get(fmt.Sprint(subnet.Properties["vpcId"]))
		if !ok {
			continue
		}
		if pfx, err := netip.ParsePrefix(fmt.Sprint(vpc.Properties["cidrBlock"])); err == nil {
			out = append(out, pfx)
		}
	}
	return out
}

// EKS is EKS's answer to preflight's questions of a version and a
// cluster: the version's status on EKS's calendar today, and the version
// the cluster of that name in cloud runs.
func EKS(cloud *core.Cloud, name, version string) (preflight.EKSAnswer, error) {
	var a preflight.EKSAnswer
	today := eksNow()
	if v, ok := calendar.LookupEKS(version); ok {
		switch v.Status(today) {
		case calendar.Standard, calendar.EndingSoon:
			a.Status = preflight.EKSStandardSupport
		case calendar.Extended:
			a.Status = preflight.EKSExtendedSupport
		}
	}
	a.Standard = calendar.InStandard(today)
	if cloud != nil {
		if err := cloud.Reload(); err != nil {
			return preflight.EKSAnswer{}, err
		}
		for _, c := range cloud.OfType(eksClusterType) {
			if c.Properties["name"] == name {
				a.Deployed, _ = c.Properties["version"].(string)
			}
		}
	}
	return a, nil
}

// EKSAddonVersions is EKS's answer to preflight's DescribeAddonVersions of
// an add-on for Kubernetes version k8s: the versions of the add-on's table
// (calendar/eks-addons.json) that the simulated EKS takes on a cluster of
// that version (calendar.EKSAddonCompatible, what CheckSave refuses
// CreateAddon and UpdateAddon by), the table's row for k8s as its
// default. None for a version the table has no row for, or an add-on it
// has no table of. The real EKS lists older builds too, and its default
// is often older than the table's latest build; the simulated one knows
// only the tables.
func EKSAddonVersions(addon, k8s string) []preflight.EKSAddonVersion {
	table, ok := calendar.LookupEKSAddon(addon)
	if !ok {
		return nil
	}
	var out []preflight.EKSAddonVersion
	for _, minor := range slices.Backward(table.Minors()) {
		v := table.Version(minor)
		if !calendar.EKSAddonCompatible(addon, v, k8s) || slices.ContainsFunc(out, func(o preflight.EKSAddonVersion) bool { return o.Version == v }) {
			continue
		}
		out = append(out, preflight.EKSAddonVersion{Version: v, Default: v == table.Version(k8s)})
	}
	return out
}
