package simulated

import (
	"context"
	"net/netip"
	"strings"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/company/harness-platform/simulated/aws"
	"github.com/company/harness-platform/simulated/core"
	"github.com/company/harness-platform/simulated/kubernetes"
)

// The simulated Kubernetes reaches the clusters the simulated AWS made,
// as Start wires the two rooms: a private endpoint answers from inside
// the VPC of the cluster's subnets only, a public one from its CIDRs, and
// the API server knows only a principal with an access entry. The
// provider's configuration and preflight's answer agree.
func TestKubernetesReachesTheClustersAWSMade(t *testing.T) {
	cloud, err := core.OpenCloud(t.TempDir(), "aws")
	if err != nil {
		t.Fatal(err)
	}
	const server = "https://ABC.gr7.eu-west-1.eks.amazonaws.com"
	const deployer = "arn:aws:iam::111111111111:role/deployer"
	put := func(id, typ string, props map[string]any) {
		if err := cloud.Put(id, core.Record{Type: typ, Properties: props}); err != nil {
			t.Fatal(err)
		}
	}
	put("vpc", "aws:ec2/vpc:Vpc", map[string]any{"cidrBlock": "10.1.0.0/16"})
	put("subnet", "aws:ec2/subnet:Subnet", map[string]any{"vpcId": "vpc", "cidrBlock": "10.1.0.0/20"})
	cluster := func(public bool, cidrs ...any) {
		put("cluster", "aws:eks/cluster:Cluster", map[string]any{"name": "dev-euw1", "endpoint": server,
			"vpcConfig": map[string]any{"subnetIds": []any{"subnet"}, "endpointPrivateAccess": true, "endpointPublicAccess": public, "publicAccessCidrs": cidrs}})
	}
	put("entry", "aws:eks/accessEntry:AccessEntry", map[string]any{"clusterName": "dev-euw1", "principalArn": deployer})
	if err := cloud.Flush(); err != nil {
		t.Fatal(err)
	}
	s := &Servers{clusters: aws.Clusters(cloud)}
	p := core.NewProvider(core.Config{Name: "kubernetes", Version: kubernetes.Version, Cloud: cloud, Behavior: kubernetes.New(s.clusters, cloud), Reach: &s.reach})
	kubeconfig := "apiVersion: v1\nclusters:\n- cluster:\n    server: " + server + "\n  name: dev-euw1\n"
	args, err := structpb.NewStruct(map[string]any{"kubeconfig": kubeconfig})
	if err != nil {
		t.Fatal(err)
	}
	inside, outside := netip.MustParseAddr("10.1.2.3"), netip.MustParseAddr("192.0.2.10")
	for _, c := range []struct {
		name   string
		public bool
		cidrs  []any
		reach  Reach
		want   string
	}{
		{"inside the VPC", false, nil, Reach{Runner: inside}, ""},
		{"outside, private only", false, nil, Reach{Runner: outside}, "i/o timeout (the cluster's API does not answer from 192.0.2.10: private endpoint true, public endpoint false)"},
		{"outside, public to all", true, nil, Reach{Runner: outside}, ""},
		{"outside, public to others", true, []any{"198.51.100.0/24"}, Reach{Runner: outside}, "does not answer from 192.0.2.10"},
		{"outside, public to the runner", true, []any{"192.0.2.0/24"}, Reach{Runner: outside}, ""},
		{"an identity with an entry", false, nil, Reach{Runner: inside, Identities: []string{deployer}}, ""},
		{"an identity without one", false, nil, Reach{Runner: inside, Identities: []string{"arn:aws:iam::111111111111:role/someone-else"}},
			"(arn:aws:iam::111111111111:role/someone-else has no access entry on EKS cluster dev-euw1)"},
		{"the runner anywhere", false, nil, Reach{}, ""},
	} {
		cluster(c.public, c.cidrs...)
		if err := cloud.Flush(); err != nil {
			t.Fatal(err)
		}
		s.SetReach(c.reach)
		preflightErr := s.Cluster(context.Background(), "eu-west-1", kubeconfig)
		_, configureErr := p.Configure(context.Background(), &pulumirpc.ConfigureRequest{Args: args})
		for what, err := range map[string]error{"preflight": preflightErr, "configure": configureErr} {
			if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
				t.Errorf("%s: %s: %v, want %q", c.name, what, err, c.want)
			}
		}
	}
}
