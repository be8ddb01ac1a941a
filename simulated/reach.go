package simulated

import (
	"context"
	"encoding/json"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/calendar"
	"github.com/company/harness-platform/preflight"
)

// Reach is who calls the simulated services, and from where: what the
// real services check before they answer. The simulated providers refuse
// as the real ones do when a credential is missing or an endpoint is out
// of reach, and the Servers answer preflight's checks (preflight.Services)
// from the same model, so a preflight that passes offline means the
// operation's calls are accepted.
type Reach struct {
	// Runner is the address the operations run from (a runner's NAT
	// address); the zero Addr reaches every cluster.
	Runner netip.Addr
	// NoGitHubCredential: the GitHub provider has no token (GITHUB_TOKEN
	// unset), so GitHub answers 401.
	NoGitHubCredential bool
	// InvalidHarnessKey: Harness refuses the API key.
	InvalidHarnessKey bool
	// Roles are the AWS roles the operation's identity may assume; nil
	// means any.
	Roles []string
}

// SetReach sets who calls the simulated services, and from where.
func (s *Servers) SetReach(r Reach) { s.reach.Store(&r) }

// loadReach is the Reach p holds (none: everything reaches).
func loadReach(p *atomic.Pointer[Reach]) Reach {
	if p == nil {
		return Reach{}
	}
	if r := p.Load(); r != nil {
		return *r
	}
	return Reach{}
}

// What the services answer, given who calls them, worded as the real
// services and providers word their refusals. The simulated providers
// and the Servers' preflight answers both ask these.

// harness is Harness's answer to a call with the key.
func (r Reach) harness() error {
	if r.InvalidHarnessKey {
		return harnessUnauthorized()
	}
	return nil
}

func harnessUnauthorized() error {
	return fmt.Errorf(`401 Unauthorized: {"status":"ERROR","code":"INVALID_TOKEN","message":"Token is not valid."}`)
}

// github is GitHub's answer to the request what.
func (r Reach) github(what string) error {
	if r.NoGitHubCredential {
		return fmt.Errorf("%s: 401 Requires authentication []", what)
	}
	return nil
}

// assumeRole is STS's answer to an AssumeRole of role.
func (r Reach) assumeRole(role string) error {
	if r.Roles != nil && !slices.Contains(r.Roles, role) {
		return fmt.Errorf("operation error STS: AssumeRole, https response error StatusCode: 403, api error AccessDenied: "+
			"User: arn:aws:sts::%s:assumed-role/harness-platform-ci/runner is not authorized to perform: sts:AssumeRole on resource: %s", awsAccount, role)
	}
	return nil
}

// refusal is the simulated service's refusal of any call of provider.
func refusal(provider string, r Reach) error {
	switch provider {
	case "github":
		return r.github("GET https://api.github.com/user")
	case "harness":
		return r.harness()
	}
	return nil
}

// configureRefusal is what a provider's configuration meets before any
// call: the AWS provider assumes its role; the Kubernetes provider's
// cluster must answer from the runner.
func (p *Provider) configureRefusal(req *pulumirpc.ConfigureRequest) error {
	r := loadReach(p.reach)
	args, err := plugin.UnmarshalProperties(req.GetArgs(), plugin.MarshalOptions{KeepUnknowns: true, SkipNulls: true})
	if err != nil {
		return err
	}
	switch p.name {
	case "aws":
		role := ""
		if v, ok := args["assumeRole"]; ok && v.IsObject() {
			if arn, ok := v.ObjectValue()["roleArn"]; ok && arn.IsString() {
				role = arn.StringValue()
			}
		} else if v, ok := req.GetVariables()["aws:config:assumeRole"]; ok {
			var ar struct {
				RoleArn string `json:"roleArn"`
			}
			_ = json.Unmarshal([]byte(v), &ar)
			role = ar.RoleArn
		}
		if role != "" {
			return r.assumeRole(role)
		}
	case "kubernetes":
		v, ok := args["kubeconfig"]
		if !ok || !v.IsString() {
			return nil // unknown in a preview: the cluster is not created yet
		}
		return r.cluster(p.aws, v.StringValue())
	}
	return nil
}

// cluster is the answer of the kubeconfig's API server to a call from
// the runner, as the simulated AWS (aws) made its cluster: nil when it
// answers. An EKS endpoint answers from
// inside the cluster's VPC when its private endpoint is on, and from the
// addresses of publicAccessCidrs (EKS's default: 0.0.0.0/0) when its
// public one is on; a server the simulated AWS did not make (a kind
// existing cluster) is not modelled, and answers.
func (r Reach) cluster(aws *Cloud, kubeconfig string) error {
	if !r.Runner.IsValid() || aws == nil {
		return nil
	}
	server := kubeconfigServer(kubeconfig)
	if server == "" {
		return nil
	}
	if err := aws.Reload(); err != nil {
		return err
	}
	for _, c := range aws.OfType("aws:eks/cluster:Cluster") {
		if c.Properties["endpoint"] != server {
			continue
		}
		vpc, _ := c.Properties["vpcConfig"].(map[string]any)
		private, _ := vpc["endpointPrivateAccess"].(bool)
		public := true
		if v, ok := vpc["endpointPublicAccess"].(bool); ok {
			public = v
		}
		if private && inVPC(aws, vpc, r.Runner) {
			return nil
		}
		if public {
			cidrs := []string{"0.0.0.0/0"}
			if list, ok := vpc["publicAccessCidrs"].([]any); ok && len(list) > 0 {
				cidrs = nil
				for _, e := range list {
					cidrs = append(cidrs, fmt.Sprint(e))
				}
			}
			for _, cidr := range cidrs {
				if pfx, err := netip.ParsePrefix(cidr); err == nil && pfx.Contains(r.Runner) {
					return nil
				}
			}
		}
		return fmt.Errorf("Get %q: dial tcp %s:443: i/o timeout (the cluster's API does not answer from %s: private endpoint %v, public endpoint %v)",
			strings.TrimSuffix(server, "/")+"/version", strings.TrimPrefix(server, "https://"), r.Runner, private, public)
	}
	return nil
}

// inVPC reports whether addr is inside the VPC of the cluster's subnets.
func inVPC(aws *Cloud, vpcConfig map[string]any, addr netip.Addr) bool {
	subnets, _ := vpcConfig["subnetIds"].([]any)
	for _, id := range subnets {
		subnet, ok := aws.Get(fmt.Sprint(id))
		if !ok {
			continue
		}
		vpc, ok := aws.Get(fmt.Sprint(subnet.Properties["vpcId"]))
		if !ok {
			continue
		}
		if pfx, err := netip.ParsePrefix(fmt.Sprint(vpc.Properties["cidrBlock"])); err == nil && pfx.Contains(addr) {
			return true
		}
	}
	return false
}

// kubeconfigServer is the server of a kubeconfig's (first) cluster.
func kubeconfigServer(kubeconfig string) string {
	var cfg struct {
		Clusters []struct {
			Cluster struct{ Server string }
		}
	}
	if yaml.Unmarshal([]byte(kubeconfig), &cfg) != nil || len(cfg.Clusters) == 0 {
		return ""
	}
	return cfg.Clusters[0].Cluster.Server
}

// The Servers answer preflight's checks (preflight.Services) as the
// simulated services would answer the operation's calls.

// Harness: the key, and the simulated account.
func (s *Servers) Harness(_ context.Context, account, _ string) error {
	if account != Account {
		return harnessUnauthorized()
	}
	return loadReach(&s.reach).harness()
}

// GitHub: a credential.
func (s *Servers) GitHub(_ context.Context, owner string, repos []string) error {
	return loadReach(&s.reach).github(fmt.Sprintf("GET https://api.github.com/repos/%s/%s", owner, repos[0]))
}

// AssumeRole: a role the identity may assume.
func (s *Servers) AssumeRole(_ context.Context, role, _ string) error {
	return loadReach(&s.reach).assumeRole(role)
}

// Cluster: the API server answers from the runner.
func (s *Servers) Cluster(_ context.Context, _ string, kubeconfig string) error {
	return loadReach(&s.reach).cluster(s.clouds["aws"], kubeconfig)
}

// EKS: the version's status on EKS's calendar today, and the version
// the simulated cluster of that name runs.
func (s *Servers) EKS(_ context.Context, role, _, name, version string) (preflight.EKSAnswer, error) {
	if err := loadReach(&s.reach).assumeRole(role); err != nil {
		return preflight.EKSAnswer{}, err
	}
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
	if aws := s.clouds["aws"]; aws != nil {
		if err := aws.Reload(); err != nil {
			return preflight.EKSAnswer{}, err
		}
		for _, c := range aws.OfType(eksClusterType) {
			if c.Properties["name"] == name {
				a.Deployed, _ = c.Properties["version"].(string)
			}
		}
	}
	return a, nil
}

// RunnerAddress: the runner's address.
func (s *Servers) RunnerAddress(context.Context) (netip.Addr, error) {
	return loadReach(&s.reach).Runner, nil
}
