package program

import (
	"encoding/json"
	"fmt"
	"maps"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/components"
	"github.com/company/harness-platform/ident"
	"github.com/company/harness-platform/plan"
)

// declared are what the clusters give the rest of a platform stack.
type declared struct {
	// selectors are the delegates' selectors by name, for the connectors
	// that use them.
	selectors map[string]pulumi.StringOutput
	// kubeconfigs are the clusters' kubeconfigs by region, which the
	// service stacks reach the clusters with (exported as a secret).
	kubeconfigs pulumi.StringMap
}

// declareClusters declares each region's cluster and delegate.
// kubeconfigs is the config secret of the existing clusters, if any.
func declareClusters(ctx *pulumi.Context, p *plan.Plan, account string, kubeconfigs pulumi.StringOutput, resources components.Resources) (declared, error) {
	out := declared{selectors: map[string]pulumi.StringOutput{}, kubeconfigs: pulumi.StringMap{}}
	for _, c := range p.Clusters {
		args := &components.ClusterArgs{EKS: c.EKS}
		if c.Existing != nil {
			args.Kubeconfig = kubeconfigOf(kubeconfigs, c.Existing.ConfigKey, c.Region)
		}
		cluster, err := components.NewCluster(ctx, ident.ClusterName(p.Environment.Name, c.Region), args)
		if err != nil {
			return out, err
		}
		out.kubeconfigs[c.Region] = cluster.Kubeconfig
		// The delegate comes after the cluster's provider, which waits for
		// the nodes and the admin access. Not after the Cluster component:
		// the SDK expands a component into the children it has registered
		// so far, asynchronously, so that set differed between a preview
		// and its up, and `up --plan` refused the update.
		d, err := components.NewDelegate(ctx, c.Delegate.Name, &components.DelegateArgs{
			Plan:         c.Delegate,
			AWSConnector: c.AWSConnector,
			Scope:        p.Scope,
			AccountID:    account,
			Cluster:      cluster,
		}, pulumi.DependsOn([]pulumi.Resource{cluster.Provider}))
		if err != nil {
			return out, err
		}
		out.selectors[c.Delegate.Name] = d.Selector
		maps.Copy(resources, d.Resources)
	}
	return out, nil
}

// kubeconfigOf is one region's kubeconfig from the config secret holding a
// JSON object of kubeconfigs by region; it stays a secret.
func kubeconfigOf(all pulumi.StringOutput, key, region string) pulumi.StringOutput {
	return pulumi.ToSecret(all.ApplyT(func(raw string) (string, error) {
		var byRegion map[string]string
		if err := json.Unmarshal([]byte(raw), &byRegion); err != nil {
			return "", fmt.Errorf("%s must be a JSON object of kubeconfigs by region name: %w", key, err)
		}
		k, ok := byRegion[region]
		if !ok || k == "" {
			return "", fmt.Errorf("%s has no kubeconfig for region %q; add it with pulumi config set --secret %s", key, region, key)
		}
		return k, nil
	})).(pulumi.StringOutput)
}
