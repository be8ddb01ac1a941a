package kubernetes

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/preflight"
	"github.com/company/harness-platform/simulated/core"
)

// Configure is what the Kubernetes provider's configuration meets before
// any call: its kubeconfig's credential plugin must be installed where
// the run is, and the cluster's API server must answer from the runner
// and know the run.
func (b Behavior) Configure(args resource.PropertyMap, _ map[string]string, r core.Reach) error {
	b.configureHelm(args)
	v, ok := args["kubeconfig"]
	if !ok || !v.IsString() {
		return nil // unknown in a preview: the cluster is not created yet
	}
	if e := preflight.PluginOf(v.StringValue()); e != nil {
		if err := CheckCommand(r, e.Command); err != nil {
			// client-go's exec authenticator, as the Kubernetes
			// provider reports it.
			return fmt.Errorf("configured Kubernetes cluster is unreachable: unable to load schema information from the API server: %w", err)
		}
	}
	if err := reachable(r, b.Clusters, v.StringValue()); err != nil {
		return err
	}
	return authenticated(r, b.Clusters, v.StringValue())
}

// CheckCluster is the answer to preflight's check of a cluster: the
// kubeconfig's credential plugin is installed, the API server answers
// from the runner, and it knows the run (access entries).
func CheckCluster(r core.Reach, clusters core.Clusters, kubeconfig string) error {
	if e := preflight.PluginOf(kubeconfig); e != nil {
		if err := CheckCommand(r, e.Command); err != nil {
			return err
		}
	}
	if err := reachable(r, clusters, kubeconfig); err != nil {
		return err
	}
	return authenticated(r, clusters, kubeconfig)
}

// CheckCommand is the answer of where the run is to running name (a
// credential plugin): present unless the Reach says it is not installed.
func CheckCommand(r core.Reach, name string) error {
	if r.NoCredentialPlugin {
		return preflight.PluginMissing(name)
	}
	return nil
}

// authenticated is the EKS API server's answer to the run's token: it
// authenticates only a principal with an access entry on the cluster.
func authenticated(r core.Reach, clusters core.Clusters, kubeconfig string) error {
	if r.Identities == nil || clusters == nil {
		return nil
	}
	// What the cloud holds now (reachable reads it again only when it
	// judges the runner's address).
	e, ok, err := clusters.Endpoint(kubeconfigServer(kubeconfig))
	if err != nil || !ok {
		return err
	}
	for _, principal := range e.Principals {
		if r.IdentityIn(catalog.ARNAccount(principal)) == principal {
			return nil
		}
	}
	return fmt.Errorf("configured Kubernetes cluster is unreachable: unable to load schema information from the API server: "+
		"the server has asked for the client to provide credentials (%s has no access entry on EKS cluster %v)", strings.Join(r.Identities, ", "), e.Cluster)
}

// reachable is the answer of the kubeconfig's API server to a call from
// the runner, as the cloud that runs the cluster configured its endpoint:
// nil when it answers. An endpoint answers from inside the cluster's
// networks when its private endpoint is on, and from the addresses of
// its public CIDRs when its public one is on; a server the cloud did not
// make (a kind existing cluster) is not modelled, and answers.
func reachable(r core.Reach, clusters core.Clusters, kubeconfig string) error {
	if !r.Runner.IsValid() || clusters == nil {
		return nil
	}
	server := kubeconfigServer(kubeconfig)
	if server == "" {
		return nil
	}
	e, ok, err := clusters.Endpoint(server)
	if err != nil || !ok {
		return err
	}
	if e.Private {
		for _, pfx := range e.Networks {
			if pfx.Contains(r.Runner) {
				return nil
			}
		}
	}
	if e.Public {
		for _, cidr := range e.PublicCIDRs {
			if pfx, err := netip.ParsePrefix(cidr); err == nil && pfx.Contains(r.Runner) {
				return nil
			}
		}
	}
	return fmt.Errorf("Get %q: dial tcp %s:443: i/o timeout (the cluster's API does not answer from %s: private endpoint %v, public endpoint %v)",
		strings.TrimSuffix(server, "/")+"/version", strings.TrimPrefix(server, "https://"), r.Runner, e.Private, e.Public)
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
