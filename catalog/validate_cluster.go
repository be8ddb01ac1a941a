package catalog

import (
	"fmt"
	"net/netip"
	"regexp"
	"slices"
	"strings"

	"github.com/company/harness-platform/calendar"
	"github.com/company/harness-platform/diag"
	"github.com/company/harness-platform/ident"
)

var (
	roleArn      = regexp.MustCompile(`^arn:aws[a-z-]*:iam::[0-9]{12}:role/[A-Za-z0-9+=,.@_/-]+$`)
	k8sVersion   = regexp.MustCompile(`^1\.[0-9]{2}$`)
	instanceType = regexp.MustCompile(`^[a-z][a-z0-9-]*\.[a-z0-9]+$`)
	quantity     = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?$`)
)

// logRetentions are the retention periods CloudWatch Logs accepts
// (PutRetentionPolicy's retentionInDays).
var logRetentions = []int{1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653}

// minVPCBits is the smallest VPC an EKS region may have: it is cut into a
// private and a public subnet in each of two availability zones.
const minVPCBits = 20

// checkInfrastructure checks a stack's clusters, account and delegate.
// Networks were checked with the regions (validate.go).
func (v *validator) checkInfrastructure(st *stackDoc) {
	eks := false
	for i, r := range st.Regions {
		if r.kind() != RegionEKS {
			continue
		}
		eks = true
		if r.NetworkCIDR == "" {
			v.at(st.At.Item(Namespace+":regions", i), "give the region a networkCidr of /"+fmt.Sprint(minVPCBits)+" or larger, e.g. 10.3.0.0/17, or set kind: existing", "region %q is kind eks but has no networkCidr for its VPC", r.Name)
		} else if p, err := netip.ParsePrefix(r.NetworkCIDR); err == nil && p.Addr().Is4() && p.Bits() > minVPCBits {
			v.at(r.At.Field("networkCidr"), fmt.Sprintf("use a /%d or larger network", minVPCBits), "networkCidr %s is too small for an EKS VPC of four subnets", r.NetworkCIDR)
		}
	}
	if eks {
		if st.AWS == nil {
			v.at(st.At.Pos(), "add "+Namespace+":aws with the roleArn of the environment's account", "stack %q declares EKS clusters but has no %s:aws", st.name, Namespace)
		}
		if st.Cluster == nil {
			v.at(st.At.Pos(), "add "+Namespace+":cluster (kubernetesVersion, adminRoleArn, nodeGroup)", "stack %q declares EKS clusters but has no %s:cluster", st.name, Namespace)
		}
	}
	if a := st.AWS; a != nil {
		v.checkIdentities(st, a)
	}
	if c := st.Cluster; c != nil {
		v.checkCluster(c)
		v.checkServiceCIDR(st, c)
	}
	if eks {
		v.checkRunner(st)
	}
	if st.Delegate == nil {
		if st.At.Pos().Line > 0 {
			v.at(st.At.Pos(), "add "+Namespace+":delegate with chartVersion and image", "stack %q has no %s:delegate: every cluster needs one", st.name, Namespace)
		}
	} else {
		v.checkDelegate(st.Delegate)
	}
}

func (v *validator) checkCluster(c *clusterDoc) {
	if tag := c.At.Tag("kubernetesVersion"); tag != "" && tag != "!!str" {
		v.at(c.At.Field("kubernetesVersion"), fmt.Sprintf("quote it: kubernetesVersion: %q", c.KubernetesVersion), "kubernetesVersion %s is not a string (Pulumi config would read it as a number)", c.KubernetesVersion)
	} else if c.KubernetesVersion != "" && !k8sVersion.MatchString(c.KubernetesVersion) {
		v.at(c.At.Field("kubernetesVersion"), `pin a minor version such as "1.35"`, "kubernetesVersion %q is not an EKS version", c.KubernetesVersion)
	} else if c.KubernetesVersion != "" && v.checkEKSSupport(c, now()) {
		v.checkEKSAddons(c)
		if _, ok := calendar.ClusterAutoscalerImages[c.KubernetesVersion]; !ok {
			v.at(c.At.Field("kubernetesVersion"),
				fmt.Sprintf("add the newest cluster-autoscaler %s.x release to calendar.ClusterAutoscalerImages (%s)", c.KubernetesVersion, calendar.ClusterAutoscalerSource),
				"kubernetesVersion %q has no Cluster Autoscaler release in the project's table (read %s): the autoscaler must run its cluster's minor version", c.KubernetesVersion, calendar.ClusterAutoscalerChecked)
		}
	}
	if c.AdminRoleArn != "" && !roleArn.MatchString(c.AdminRoleArn) {
		v.at(c.At.Field("adminRoleArn"), "write an IAM role ARN such as arn:aws:iam::111122223333:role/platform-admin", "cluster adminRoleArn %q is not an IAM role ARN", c.AdminRoleArn)
	}
	switch {
	case c.PublicEndpoint && len(c.PublicAccessCidrs) == 0:
		v.at(c.At.Field("publicEndpoint"), "list the networks allowed to reach it in publicAccessCidrs, or remove publicEndpoint", "a public endpoint needs publicAccessCidrs")
	case !c.PublicEndpoint && len(c.PublicAccessCidrs) > 0:
		v.at(c.At.Field("publicAccessCidrs"), "set publicEndpoint: true, or remove publicAccessCidrs", "publicAccessCidrs has no effect while the public endpoint is off")
	}
	for i, cidr := range c.PublicAccessCidrs {
		p, err := netip.ParsePrefix(cidr)
		switch {
		case err != nil || !p.Addr().Is4():
			v.at(c.At.Item("publicAccessCidrs", i), "write an IPv4 network such as 203.0.113.0/24", "publicAccessCidrs %q is not an IPv4 CIDR", cidr)
		case p.Bits() == 0:
			v.at(c.At.Item("publicAccessCidrs", i), "list only the networks that administer the cluster", "publicAccessCidrs %s opens the API server to the whole internet", cidr)
		case p.Masked() != p:
			v.at(c.At.Item("publicAccessCidrs", i), fmt.Sprintf("write %s", p.Masked()), "publicAccessCidrs %q has host bits set", cidr)
		default:
			v.placeholder(c.At.Item("publicAccessCidrs", i), "publicAccessCidrs", cidr)
		}
	}
	if d := c.LogRetentionDays; d != nil && !slices.Contains(logRetentions, *d) {
		v.at(c.At.Field("logRetentionDays"), fmt.Sprintf("use one of CloudWatch's retention periods: %v", logRetentions),
			"logRetentionDays %d is not a CloudWatch Logs retention period", *d)
	}
	n := c.NodeGroup
	if n.InstanceType != "" && !instanceType.MatchString(n.InstanceType) {
		v.at(n.At.Field("instanceType"), "write an EC2 instance type such as m6i.large", "nodeGroup instanceType %q is not an instance type", n.InstanceType)
	}
	if n.At.Pos().Line > 0 {
		switch {
		case n.MinSize < 1:
			v.at(n.At.Field("minSize"), "keep at least 1 node for the delegate", "nodeGroup minSize %d is below 1", n.MinSize)
		case n.DesiredSize < n.MinSize || n.DesiredSize > n.MaxSize:
			v.at(n.At.Field("desiredSize"), "make minSize <= desiredSize <= maxSize", "nodeGroup desiredSize %d is outside [%d, %d]", n.DesiredSize, n.MinSize, n.MaxSize)
		}
	}
}

// serviceRanges are the private ranges a cluster's Service network must
// lie in (EKS API Reference, KubernetesNetworkConfigRequest,
// serviceIpv4Cidr: "Within one of the following private IP address
// blocks: 10.0.0.0/8, 172.16.0.0/12, or 192.168.0.0/16. Doesn't overlap
// with any CIDR block assigned to the VPC that you selected for VPC.
// Between /24 and /12.").
var serviceRanges = []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("172.16.0.0/12"), netip.MustParsePrefix("192.168.0.0/16")}

// DefaultServiceCIDR is the Service network EKS picks for a cluster in a
// VPC of network vpc when none is given: "Kubernetes assigns addresses
// from either the 10.100.0.0/16 or 172.20.0.0/16 CIDR blocks" (EKS API
// Reference, KubernetesNetworkConfigRequest), the second when the VPC is
// in 10.0.0.0/8 (Amazon EKS User Guide, "Create an Amazon EKS cluster":
// the service CIDR is chosen so it does not overlap the VPC).
func DefaultServiceCIDR(vpc string) string {
	if p, err := netip.ParsePrefix(vpc); err == nil && serviceRanges[0].Overlaps(p) {
		return "172.20.0.0/16"
	}
	return "10.100.0.0/16"
}

// checkServiceCIDR checks the clusters' Service network as EKS's
// CreateCluster would: a private /12 to /24 that overlaps none of the
// stack's VPCs.
func (v *validator) checkServiceCIDR(st *stackDoc, c *clusterDoc) {
	if c.ServiceCIDR == "" {
		return
	}
	at := c.At.Field("serviceCidr")
	p, err := netip.ParsePrefix(c.ServiceCIDR)
	switch {
	case err != nil || !p.Addr().Is4():
		v.at(at, "write an IPv4 network such as 172.20.0.0/16", "serviceCidr %q is not an IPv4 CIDR", c.ServiceCIDR)
		return
	case p.Masked() != p:
		v.at(at, fmt.Sprintf("write %s", p.Masked()), "serviceCidr %q has host bits set", c.ServiceCIDR)
		return
	case p.Bits() < 12 || p.Bits() > 24:
		v.at(at, "use a network between /12 and /24, e.g. 172.20.0.0/16", "serviceCidr %s is a /%d: EKS takes /12 to /24", c.ServiceCIDR, p.Bits())
		return
	case !slices.ContainsFunc(serviceRanges, func(r netip.Prefix) bool { return r.Contains(p.Addr()) && r.Bits() <= p.Bits() }):
		v.at(at, "use a network in 10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16", "serviceCidr %s is not a private network EKS takes", c.ServiceCIDR)
		return
	}
	for _, r := range st.Regions {
		if vpc, err := netip.ParsePrefix(r.NetworkCIDR); err == nil && r.kind() == RegionEKS && vpc.Overlaps(p) {
			v.at(at, fmt.Sprintf("use a network outside every VPC of the stack, e.g. %s", DefaultServiceCIDR(r.NetworkCIDR)),
				"serviceCidr %s overlaps region %s's VPC %s: EKS refuses a Service network that overlaps the cluster's VPC", c.ServiceCIDR, r.Name, r.NetworkCIDR)
		}
	}
}

func (v *validator) checkDelegate(d *delegateDoc) {
	if d.ChartVersion != "" && !ident.ExactVersion(d.ChartVersion) {
		v.at(d.At.Field("chartVersion"), "pin an exact version such as 1.0.22", "delegate chartVersion %q is not pinned", d.ChartVersion)
	}
	if d.Image != "" && !ident.PinnedImage(d.Image) {
		v.at(d.At.Field("image"), "pin a release tag such as harness/delegate:25.10.87101 (the upgrader is off, so this is what runs)", "delegate image %q is not pinned to a release", d.Image)
	}
	if d.Replicas != nil && *d.Replicas < 1 {
		v.at(d.At.Field("replicas"), "run at least 1 replica (2 for availability)", "delegate replicas %d is below 1", *d.Replicas)
	}
	for _, q := range []struct{ key, val string }{{"cpu", d.CPU}, {"memory", d.Memory}} {
		if q.val != "" && !quantity.MatchString(q.val) {
			v.at(d.At.Field(q.key), "write a number: cpu in cores (1), memory in MiB (2048)", "delegate %s %q is not a number", q.key, q.val)
		}
	}
	for _, u := range []struct{ key, val string }{{"chartRepository", d.ChartRepository}, {"managerEndpoint", d.ManagerEndpoint}} {
		if u.val != "" && !strings.HasPrefix(u.val, "https://") {
			v.at(d.At.Field(u.key), "use an https URL", "delegate %s %q is not an https URL", u.key, u.val)
		}
	}
}

// checkRunner checks that the stack's CI runners can reach its clusters'
// API: the Kubernetes and Helm resources (delegates, namespaces, role
// bindings) are created and read through it, from wherever the preview,
// up and drift jobs run. The stacks' regions are separate VPCs, so a
// runner inside one cannot reach another's private endpoint: the runners
// reach every cluster's public endpoint, limited to their addresses
// (publicAccessCidrs covering egressCidrs); the nodes and the delegate
// use the private endpoint.
func (v *validator) checkRunner(st *stackDoc) {
	r := st.Runner
	if r == nil {
		v.at(st.At.Pos(), "add "+Namespace+":runner with the labels and egressCidrs of the self-hosted runners that run this stack (docs/delivery.md, Where the jobs run)",
			"stack %q declares EKS clusters but no %s:runner: nothing says its CI jobs can reach their API", st.name, Namespace)
		return
	}
	var egress []netip.Prefix
	for i, cidr := range r.EgressCidrs {
		p, err := netip.ParsePrefix(cidr)
		switch {
		case err != nil || !p.Addr().Is4():
			v.at(r.At.Item("egressCidrs", i), "write an IPv4 network such as 192.0.2.0/28", "runner egressCidrs %q is not an IPv4 CIDR", cidr)
		case p.Bits() == 0 || p.Masked() != p:
			v.at(r.At.Item("egressCidrs", i), "write the runners' NAT network, masked, e.g. 192.0.2.0/28", "runner egressCidrs %q is not a network of the runners' addresses", cidr)
		default:
			v.placeholder(r.At.Item("egressCidrs", i), "runner egressCidrs", cidr)
			egress = append(egress, p)
		}
	}
	c := st.Cluster
	if c == nil || len(egress) == 0 {
		return
	}
	if !c.PublicEndpoint {
		v.at(r.At.Field("egressCidrs"), "set "+Namespace+":cluster publicEndpoint: true with publicAccessCidrs covering the runners' egressCidrs",
			"the runners cannot reach the clusters of stack %q: their API endpoint is private, and the runners run outside the regions' VPCs", st.name)
		return
	}
	for i, e := range egress {
		if !covers(c.PublicAccessCidrs, e) {
			v.at(r.At.Item("egressCidrs", i), fmt.Sprintf("add %s to %s:cluster publicAccessCidrs", e, Namespace),
				"the runners' address %s cannot reach the clusters' API: publicAccessCidrs [%s] does not cover it", e, strings.Join(c.PublicAccessCidrs, ", "))
		}
	}
	// The operator, where it delivers the stack, runs its up from its own
	// cluster's NAT: the clusters' access list admits that too.
	if st.Delivery != DeliveryOperator {
		return
	}
	if len(r.OperatorEgressCidrs) == 0 {
		v.at(st.At.Field(DeliveryKey), "add "+Namespace+":runner operatorEgressCidrs: the NAT network the operator's workspace pods reach the clusters from, and cover it in publicAccessCidrs",
			"stack %q is delivered by the operator, but nothing says the operator can reach its clusters' API", st.name)
		return
	}
	for i, cidr := range r.OperatorEgressCidrs {
		p, err := netip.ParsePrefix(cidr)
		switch {
		case err != nil || !p.Addr().Is4() || p.Bits() == 0 || p.Masked() != p:
			v.at(r.At.Item("operatorEgressCidrs", i), "write the operator's NAT network, masked, e.g. 203.0.113.0/28", "operatorEgressCidrs %q is not a network of the operator's addresses", cidr)
		case !covers(c.PublicAccessCidrs, p):
			v.at(r.At.Item("operatorEgressCidrs", i), fmt.Sprintf("add %s to %s:cluster publicAccessCidrs", p, Namespace),
				"the operator's address %s cannot reach the clusters' API: publicAccessCidrs [%s] does not cover it", p, strings.Join(c.PublicAccessCidrs, ", "))
		}
	}
}

// covers: one of cidrs contains the network e.
func covers(cidrs []string, e netip.Prefix) bool {
	for _, cidr := range cidrs {
		if p, err := netip.ParsePrefix(cidr); err == nil && p.Bits() <= e.Bits() && p.Contains(e.Addr()) {
			return true
		}
	}
	return false
}

// placeholder warns of a network no runner's public address is in (the
// examples' documentation ranges): validation passes, so that the example
// previews offline, but a real run would create the clusters and then
// time out on their API. Preflight refuses it where the run's real
// address is known.
func (v *validator) placeholder(pos diag.Pos, key, cidr string) {
	if what, ok := ReservedRange(cidr); ok {
		v.warnAt(pos, "write the public (NAT) network of the runners that run this stack (docs/delivery.md, Where the jobs run)",
			"%s %s %s: no runner reaches the clusters' public endpoint from it", key, cidr, what)
	}
}

// checkIdentities checks who the stack's runs are on AWS and in its
// clusters: the deployer (roleArn, an up) and the preview role
// (previewRoleArn, previews), both in the
// environment's account, and the platform team's admin role, each a
// distinct principal (EKS takes one access entry per principal).
func (v *validator) checkIdentities(st *stackDoc, a *awsDoc) {
	if a.RoleArn != "" && !roleArn.MatchString(a.RoleArn) {
		v.at(a.At.Field("roleArn"), "write an IAM role ARN such as arn:aws:iam::111122223333:role/harness-platform-deployer", "aws roleArn %q is not an IAM role ARN", a.RoleArn)
		return
	}
	hasEKS := slices.ContainsFunc(st.Regions, func(r stackRegionDoc) bool { return r.kind() == RegionEKS })
	switch {
	case a.PreviewRoleArn == "" && hasEKS:
		v.at(a.At.Pos(), "add previewRoleArn: the read-only role of the stack's -preview ESC environment (docs/delivery.md, Who runs what)",
			"stack %q declares EKS clusters but %s:aws has no previewRoleArn: previews would need the deployer's write access to read the clusters", st.name, Namespace)
	case a.PreviewRoleArn != "" && !roleArn.MatchString(a.PreviewRoleArn):
		v.at(a.At.Field("previewRoleArn"), "write an IAM role ARN such as arn:aws:iam::111122223333:role/harness-platform-preview", "aws previewRoleArn %q is not an IAM role ARN", a.PreviewRoleArn)
	case a.PreviewRoleArn == a.RoleArn:
		v.at(a.At.Field("previewRoleArn"), "give previews their own read-only role", "aws previewRoleArn is the deployer role: previews of pull requests would run with write access")
	case a.PreviewRoleArn != "" && ARNAccount(a.PreviewRoleArn) != ARNAccount(a.RoleArn):
		v.at(a.At.Field("previewRoleArn"), fmt.Sprintf("use a role of account %s", ARNAccount(a.RoleArn)),
			"aws previewRoleArn is in account %s, the deployer in %s: the AWS provider allows one account", ARNAccount(a.PreviewRoleArn), ARNAccount(a.RoleArn))
	}
	if c := st.Cluster; c != nil && c.AdminRoleArn != "" {
		role := ""
		switch c.AdminRoleArn {
		case a.RoleArn:
			role = "deployer"
		case a.PreviewRoleArn:
			role = "preview"
		}
		if role != "" {
			v.at(c.At.Field("adminRoleArn"), "give the platform team a role of its own",
				"cluster adminRoleArn is also the stack's %s role: EKS takes one access entry per principal", role)
		}
	}
}
