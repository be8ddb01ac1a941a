package plan

import (
	"net/netip"
	"slices"
	"strings"
	"testing"

	"github.com/company/harness-platform/catalog"

	"github.com/company/harness-platform/ident"
)

// A region's network is cut into four equal subnets that cover it exactly,
// private and public in two zones.
func TestCarve(t *testing.T) {
	vpc, err := carve("10.3.128.0/17", "eu-west-2", "prod-euw2")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"10.3.128.0/19", "10.3.160.0/19", "10.3.192.0/19", "10.3.224.0/19"}
	var got []string
	for _, s := range vpc.Subnets {
		got = append(got, s.CIDR)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("subnets %v, want %v", got, want)
	}
	if len(vpc.Private()) != 2 || len(vpc.Public()) != 2 {
		t.Fatalf("private %v public %v", vpc.Private(), vpc.Public())
	}
	zones := map[string]bool{}
	for _, s := range vpc.Private() {
		zones[s.Zone] = true
		if s.Tags["kubernetes.io/role/internal-elb"] != "1" || s.Tags["kubernetes.io/cluster/prod-euw2"] != "shared" {
			t.Errorf("private subnet %s tags %v", s.Name, s.Tags)
		}
	}
	if !zones["eu-west-2a"] || !zones["eu-west-2b"] {
		t.Errorf("private subnets in zones %v, want two", zones)
	}
	if _, err := carve("10.0.0.0/27", "eu-west-1", "x"); err == nil {
		t.Error("a /27 was cut into four subnets")
	}
}

// Every stack plans, per region, an EKS cluster in the region's network
// with the stack's settings, and a delegate that may write exactly where
// the stack's deployments go.
func TestClusters(t *testing.T) {
	c := example(t)
	for _, stack := range c.Chain {
		st := c.Stacks[stack]
		// Namespaces are the service stacks', the rest the platform's.
		p := mustBuild(t, c, catalog.ServiceStackName(stack, "services"))
		if len(p.Clusters) != len(st.Regions) {
			t.Fatalf("%s: %d clusters for %d regions", stack, len(p.Clusters), len(st.Regions))
		}
		deployed := map[string]bool{}
		for _, d := range p.Deployments {
			deployed[d.Service] = true
		}
		for i, cl := range p.Clusters {
			r := st.Regions[i]
			e := cl.EKS
			if e == nil || e.VPC.CIDR != r.NetworkCIDR || e.AWSRegion != r.AWSRegion || e.RoleArn != st.AWS.RoleArn ||
				e.KubernetesVersion != st.Cluster.KubernetesVersion || e.PublicEndpoint != st.Cluster.PublicEndpoint ||
				!slices.Equal(e.PublicAccessCidrs, st.Cluster.PublicAccessCidrs) || len(e.LogTypes) != 5 {
				t.Errorf("%s/%s: cluster %+v", stack, r.Name, e)
			}
			prefix, _ := netip.ParsePrefix(r.NetworkCIDR)
			for _, s := range e.VPC.Subnets {
				if sub := netip.MustParsePrefix(s.CIDR); !prefix.Overlaps(sub) || sub.Bits() <= prefix.Bits() {
					t.Errorf("%s: subnet %s outside %s", stack, s.CIDR, r.NetworkCIDR)
				}
			}
			d := cl.Delegate
			if d.Name != ident.DelegateName(st.Environment.Name, r.Name) || d.Image != st.Delegate.Image || d.ChartVersion != st.Delegate.ChartVersion ||
				d.Permissions != "CLUSTER_VIEWER" || strings.Join(d.Tags, ",") != st.Environment.Name+","+r.Name+",network-"+r.NetworkCIDR {
				t.Errorf("%s/%s: delegate %+v", stack, r.Name, d)
			}
			var want []string
			for _, s := range c.Services {
				if deployed[s.Name] && slices.Contains(s.In[st.Name].Regions, r.Name) {
					want = append(want, ident.Namespace(st.Environment.Name, s.Name, r.Name))
				}
			}
			if !slices.Equal(d.Namespaces, want) || len(want) == 0 {
				t.Errorf("%s/%s: delegate namespaces %v, want %v", stack, r.Name, d.Namespaces, want)
			}
			if ns := mustBuild(t, c, stack).Clusters[i].Delegate.Namespaces; len(ns) != 0 {
				t.Errorf("%s/%s: the platform stack declares namespaces %v", stack, r.Name, ns)
			}
			if d.IRSA == nil || d.IRSA.ServiceAccount != DelegateNamespace+":"+d.Name || !slices.Equal(d.IRSA.Policies, []string{ECRReadOnlyPolicy}) {
				t.Errorf("%s/%s: IRSA %+v", stack, r.Name, d.IRSA)
			}
			if a := cl.AWSConnector; a == nil || !slices.Equal(a.DelegateSelectors, []string{d.Name}) {
				t.Errorf("%s/%s: AWS connector %+v", stack, r.Name, a)
			}
			// The Kubernetes connector waits for the delegate it selects.
			if !slices.Contains(cl.Connector.Needs, Ref{KindDelegate, d.Name}) {
				t.Errorf("%s/%s: connector needs %v, not its delegate", stack, r.Name, cl.Connector.Needs)
			}
		}
	}
}

// A cluster's add-ons are those whose table has its Kubernetes version,
// at that version, and the VPC CNI at every version, with its network
// policy agent on; the VPC CNI and kube-proxy before the nodes, CoreDNS
// after them; every stack's clusters get them.
func TestEKSAddonsFor(t *testing.T) {
	render := func(as []EKSAddon) string {
		var out []string
		for _, a := range as {
			s := a.Name + "@" + a.Version
			if a.Configuration != "" {
				s += " " + a.Configuration
			}
			if a.BeforeNodes {
				s += " (before nodes)"
			}
			out = append(out, s)
		}
		return strings.Join(out, ", ")
	}
	for k8s, want := range map[string]string{
		"1.34": `vpc-cni@v1.20.4-eksbuild.1 {"enableNetworkPolicy":"true"} (before nodes), kube-proxy@v1.34.6-eksbuild.13 (before nodes), coredns@v1.13.2-eksbuild.11`,
		// No row for the VPC CNI: EKS's default build, the agent on.
		"1.35": `vpc-cni@ {"enableNetworkPolicy":"true"} (before nodes), kube-proxy@v1.35.3-eksbuild.13 (before nodes), coredns@v1.14.3-eksbuild.3`,
		"1.40": `vpc-cni@ {"enableNetworkPolicy":"true"} (before nodes)`,
	} {
		if got := render(EKSAddonsFor(k8s)); got != want {
			t.Errorf("%s: %s, want %s", k8s, got, want)
		}
	}
	c := example(t)
	for _, stack := range c.Chain {
		p := mustBuild(t, c, stack)
		for _, cl := range p.Clusters {
			if cl.EKS != nil && render(cl.EKS.Addons) != render(EKSAddonsFor(cl.EKS.KubernetesVersion)) {
				t.Errorf("%s %s: add-ons %v", stack, cl.Region, cl.EKS.Addons)
			}
		}
	}
}

// Managed nodes run Amazon Linux 2023 for their instance type's
// architecture: Graviton types (a family, its generation, then g; a1)
// on ARM, the rest on x86.
func TestNodeAMIType(t *testing.T) {
	for typ, want := range map[string]string{
		"m6i.large": "AL2023_x86_64_STANDARD", "c5.xlarge": "AL2023_x86_64_STANDARD", "m7i-flex.large": "AL2023_x86_64_STANDARD",
		"g5.xlarge": "AL2023_x86_64_STANDARD", // NVIDIA, x86: its own AMI type is not chosen here
		"m7g.large": "AL2023_ARM_64_STANDARD", "c6gn.2xlarge": "AL2023_ARM_64_STANDARD", "r6gd.large": "AL2023_ARM_64_STANDARD",
		"t4g.medium": "AL2023_ARM_64_STANDARD", "im4gn.large": "AL2023_ARM_64_STANDARD", "a1.large": "AL2023_ARM_64_STANDARD",
	} {
		if got := NodeAMIType(typ); got != want {
			t.Errorf("%s: %s, want %s", typ, got, want)
		}
	}
}
