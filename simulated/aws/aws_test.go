package aws

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"

	"github.com/company/harness-platform/calendar"
	"github.com/company/harness-platform/preflight"
	"github.com/company/harness-platform/simulated/core"
)

// The simulated AWS provider refuses what the real one refuses for
// missing inputs, and types it was not taught. (The Kubernetes provider's
// part: package kubernetes's test of the same name.)
func TestInfraCheck(t *testing.T) {
	aws := Behavior{}
	eks := resource.NewPropertyMapFromMap(map[string]any{
		"roleArn":          "arn:aws:iam::1:role/x",
		"vpcConfig":        map[string]any{"endpointPrivateAccess": true},
		"encryptionConfig": map[string]any{"resources": []any{"secrets"}},
	})
	_, failures := aws.Check("aws:eks/cluster:Cluster", "c", eks)
	var got []string
	for _, f := range failures {
		got = append(got, f.Property)
	}
	if strings.Join(got, ",") != "vpcConfig.subnetIds,encryptionConfig.provider" {
		t.Errorf("failures %v, want vpcConfig.subnetIds and encryptionConfig.provider", got)
	}
	ok := resource.NewPropertyMapFromMap(map[string]any{
		"roleArn":          "arn:aws:iam::1:role/x",
		"vpcConfig":        map[string]any{"subnetIds": []any{"a", "b"}},
		"encryptionConfig": map[string]any{"resources": []any{"secrets"}, "provider": map[string]any{"keyArn": "k"}},
	})
	if _, failures := aws.Check("aws:eks/cluster:Cluster", "c", ok); len(failures) != 0 {
		t.Errorf("a complete cluster refused: %v", failures)
	}
	if _, failures := aws.Check("aws:s3/bucket:Bucket", "b", resource.PropertyMap{}); len(failures) != 1 {
		t.Error("an unknown type was accepted")
	}
	// Auto-naming happens in Check, so the name is known in a preview.
	checked, _ := aws.Check("aws:iam/role:Role", "nodes", resource.NewPropertyMapFromMap(map[string]any{"assumeRolePolicy": "{}"}))
	if n := checked["name"]; !n.IsString() || !strings.HasPrefix(n.StringValue(), "nodes-") {
		t.Errorf("role not auto-named: %v", n)
	}
}

// The simulated EKS refuses, with EKS's own words, a version it no
// longer offers and an update of more than one minor version.
func TestEKSRefusesVersions(t *testing.T) {
	defer func(f func() time.Time) { eksNow = f }(eksNow)
	eksNow = func() time.Time { return time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC) }
	aws := Behavior{}
	cluster := func(v string) resource.PropertyMap {
		return resource.NewPropertyMapFromMap(map[string]any{"name": "prod-euw1", "version": v})
	}
	if err := aws.CheckWrite(eksClusterType, "c", nil, cluster("1.31"), core.Reach{}); err == nil ||
		!strings.Contains(err.Error(), "creating EKS Cluster (prod-euw1): operation error EKS: CreateCluster, https response error StatusCode: 400") ||
		!strings.HasSuffix(err.Error(), "InvalidParameterException: unsupported Kubernetes version 1.31") {
		t.Errorf("create 1.31 on 2026-11-26: %v", err)
	}
	for _, v := range []string{"1.32", "1.35", "1.36"} {
		if err := aws.CheckWrite(eksClusterType, "c", nil, cluster(v), core.Reach{}); err != nil {
			t.Errorf("create %s: %v", v, err)
		}
	}
	if err := aws.CheckWrite(eksClusterType, "c", cluster("1.33"), cluster("1.35"), core.Reach{}); err == nil ||
		!strings.HasSuffix(err.Error(), "InvalidParameterException: Unsupported Kubernetes minor version update from 1.33 to 1.35") {
		t.Errorf("update 1.33 -> 1.35: %v", err)
	}
	if err := aws.CheckWrite(eksClusterType, "c", cluster("1.34"), cluster("1.35"), core.Reach{}); err != nil {
		t.Errorf("update 1.34 -> 1.35: %v", err)
	}
}

// The simulated AWS enforces the Terraform schema's constraints extracted
// into aws-constraints.json: the required inputs it lists by hand are the
// extraction's, and a conflict, a value outside an enum, a broken
// exactly-one-of and a force-new change are each refused or replace as
// the real provider would.
func TestAWSConstraints(t *testing.T) {
	for typ, req := range required {
		if !strings.HasPrefix(typ, "aws:") {
			continue
		}
		props, ok := constraints[typ]
		if !ok {
			t.Errorf("%s: not in aws-constraints.json", typ)
			continue
		}
		for _, path := range req {
			if !props[path].Required {
				t.Errorf("%s: %s is required here but not in the Terraform schema", typ, path)
			}
		}
	}
	aws := Behavior{}
	ng := func(extra map[string]any) resource.PropertyMap {
		m := map[string]any{"clusterName": "c", "nodeRoleArn": "arn:aws:iam::1:role/n", "subnetIds": []any{"a"},
			"scalingConfig": map[string]any{"desiredSize": 1, "maxSize": 1, "minSize": 1}}
		for k, v := range extra {
			m[k] = v
		}
		return resource.NewPropertyMapFromMap(m)
	}
	reasons := func(m resource.PropertyMap) string {
		_, failures := aws.Check("aws:eks/nodeGroup:NodeGroup", "n", m)
		var out []string
		for _, f := range failures {
			out = append(out, f.Reason)
		}
		return strings.Join(out, "; ")
	}
	if r := reasons(ng(nil)); r != "" {
		t.Errorf("a valid node group refused: %s", r)
	}
	for name, c := range map[string]struct {
		extra map[string]any
		want  string
	}{
		"conflict": {map[string]any{"nodeGroupName": "a", "nodeGroupNamePrefix": "b"}, `"nodeGroupName": conflicts with nodeGroupNamePrefix`},
		"enum":     {map[string]any{"capacityType": "RESERVED"}, `expected capacityType to be one of`},
		"exactly one of": {map[string]any{"updateConfig": map[string]any{"maxUnavailable": 1, "maxUnavailablePercentage": 10}},
			"only one of `updateConfig.maxUnavailable,updateConfig.maxUnavailablePercentage` can be specified"},
		"list size": {map[string]any{"subnetIds": []any{}}, "subnetIds: attribute requires 1 item minimum"},
	} {
		if r := reasons(ng(c.extra)); !strings.Contains(r, c.want) {
			t.Errorf("%s: got %q, want %q", name, r, c.want)
		}
	}
	_, failures := aws.Check("aws:eks/cluster:Cluster", "c", resource.NewPropertyMapFromMap(map[string]any{
		"roleArn": "r", "vpcConfig": map[string]any{"subnetIds": []any{"a"}}, "upgradePolicy": map[string]any{"supportType": "FOREVER"}}))
	if len(failures) != 1 || !strings.Contains(failures[0].Reason, `one of ["STANDARD" "EXTENDED"], got FOREVER`) {
		t.Errorf("cluster with supportType FOREVER: %v", failures)
	}
	olds, news := ng(map[string]any{"amiType": "AL2023_x86_64_STANDARD"}), ng(map[string]any{"amiType": "BOTTLEROCKET_x86_64"})
	if got := aws.Replaces("aws:eks/nodeGroup:NodeGroup", olds, news, []string{"amiType"}); len(got) != 1 {
		t.Errorf("amiType change replaces %v, want amiType (force-new)", got)
	}
	olds, news = ng(map[string]any{"version": "1.34"}), ng(map[string]any{"version": "1.35"})
	if got := aws.Replaces("aws:eks/nodeGroup:NodeGroup", olds, news, []string{"version"}); len(got) != 0 {
		t.Errorf("version change replaces %v, want an update", got)
	}
}

// The simulated EKS refuses, given the cluster as it stands, what EKS
// refuses of its parts: an add-on version the cluster's Kubernetes
// version has none of, CoreDNS before there are nodes to run it, a node
// group newer than the control plane, and a control-plane update while a
// node group lags; each in the provider's words.
func TestEKSRefusesPartsOfACluster(t *testing.T) {
	cloud, err := core.OpenCloud(t.TempDir(), "aws")
	if err != nil {
		t.Fatal(err)
	}
	aws := Behavior{}
	put := func(id, typ string, props map[string]any) {
		if err := cloud.Put(id, core.Record{Type: typ, Name: id, Properties: props}); err != nil {
			t.Fatal(err)
		}
	}
	props := func(m map[string]any) resource.PropertyMap { return resource.NewPropertyMapFromMap(m) }
	addon := func(name, version string) resource.PropertyMap {
		return props(map[string]any{"clusterName": "dev-euw1", "addonName": name, "addonVersion": version})
	}
	nodeGroup := func(version string) resource.PropertyMap {
		return props(map[string]any{"clusterName": "dev-euw1", "nodeGroupName": "dev-euw1-abc", "version": version,
			"scalingConfig": map[string]any{"desiredSize": 2, "minSize": 2, "maxSize": 4}})
	}
	put("cluster", eksClusterType, map[string]any{"name": "dev-euw1", "version": "1.34"})

	// An add-on at a version EKS has for another Kubernetes version.
	err = aws.CheckSave(eksAddonType, addon("kube-proxy", "v1.35.3-eksbuild.13"), cloud)
	if err == nil || !strings.HasPrefix(err.Error(), "creating EKS Add-On (dev-euw1:kube-proxy): operation error EKS: CreateAddon, https response error StatusCode: 400, RequestID: ") ||
		!strings.HasSuffix(err.Error(), "InvalidParameterException: Addon version specified is not supported") {
		t.Errorf("kube-proxy 1.35's build on a 1.34 cluster: %v", err)
	}
	if err := aws.CheckSave(eksAddonType, addon("kube-proxy", "v1.34.6-eksbuild.13"), cloud); err != nil {
		t.Errorf("kube-proxy 1.34's build on a 1.34 cluster: %v", err)
	}
	// CoreDNS before any node: DEGRADED until the provider gives up.
	if err := aws.CheckSave(eksAddonType, addon("coredns", "v1.13.2-eksbuild.11"), cloud); err == nil ||
		err.Error() != "waiting for EKS Add-On (dev-euw1:coredns) create: timeout while waiting for state to become 'ACTIVE' (last state: 'DEGRADED', timeout: 20m0s)" {
		t.Errorf("CoreDNS on a cluster without nodes: %v", err)
	}
	// A node group newer than the control plane; at its version, it is
	// created.
	err = aws.CheckSave(eksNodeGroupType, nodeGroup("1.35"), cloud)
	if err == nil || !strings.Contains(err.Error(), "creating EKS Node Group (dev-euw1:dev-euw1-abc): operation error EKS: CreateNodegroup") ||
		!strings.HasSuffix(err.Error(), "InvalidParameterException: Requested version 1.35 is not valid for kubernetes version 1.34.") {
		t.Errorf("a 1.35 node group on a 1.34 control plane: %v", err)
	}
	if err := aws.CheckSave(eksNodeGroupType, nodeGroup("1.34"), cloud); err != nil {
		t.Errorf("a 1.34 node group on a 1.34 control plane: %v", err)
	}
	put("nodes", eksNodeGroupType, nodeGroup("1.34").Mappable())
	if err := aws.CheckSave(eksAddonType, addon("coredns", "v1.13.2-eksbuild.11"), cloud); err != nil {
		t.Errorf("CoreDNS once the cluster has nodes: %v", err)
	}
	put("coredns", eksAddonType, addon("coredns", "v1.13.2-eksbuild.11").Mappable())
	// An update to a version the cluster's has none of is refused; one
	// that leaves the version alone is not checked (the provider sends no
	// version then).
	if err := aws.CheckSave(eksAddonType, addon("coredns", "v1.14.3-eksbuild.3"), cloud); err == nil ||
		!strings.HasPrefix(err.Error(), "updating EKS Add-On (dev-euw1:coredns): operation error EKS: UpdateAddon") {
		t.Errorf("CoreDNS updated to 1.35's build on a 1.34 cluster: %v", err)
	}
	if err := aws.CheckSave(eksAddonType, addon("coredns", "v1.13.2-eksbuild.11"), cloud); err != nil {
		t.Errorf("CoreDNS left at its version: %v", err)
	}
	err = aws.CheckSave(eksNodeGroupType, nodeGroup("1.35"), cloud)
	if err == nil || !strings.Contains(err.Error(), "updating EKS Node Group (dev-euw1:dev-euw1-abc) version: operation error EKS: UpdateNodegroupVersion") {
		t.Errorf("the node group updated past its control plane: %v", err)
	}

	// The control plane goes one minor up while its nodes match it; then
	// it waits for them.
	cluster := func(v string) resource.PropertyMap { return props(map[string]any{"name": "dev-euw1", "version": v}) }
	if err := aws.CheckSave(eksClusterType, cluster("1.35"), cloud); err != nil {
		t.Errorf("1.34 -> 1.35 with the nodes at 1.34: %v", err)
	}
	put("cluster", eksClusterType, map[string]any{"name": "dev-euw1", "version": "1.35"})
	if err := aws.CheckSave(eksAddonType, addon("coredns", "v1.14.3-eksbuild.3"), cloud); err != nil {
		t.Errorf("CoreDNS updated to 1.35's build on the 1.35 cluster: %v", err)
	}
	if err := aws.CheckSave(eksClusterType, cluster("1.36"), cloud); err == nil ||
		!strings.HasPrefix(err.Error(), "updating EKS Cluster (dev-euw1) version: operation error EKS: UpdateClusterVersion, https response error StatusCode: 400") ||
		!strings.HasSuffix(err.Error(), "InvalidRequestException: Nodegroups dev-euw1-abc must be updated to match cluster version 1.35 before updating cluster version") {
		t.Errorf("1.35 -> 1.36 with the nodes at 1.34: %v", err)
	}
	if err := aws.CheckSave(eksNodeGroupType, nodeGroup("1.35"), cloud); err != nil {
		t.Errorf("the node group updated to its control plane's version: %v", err)
	}
}

// An add-on is checked like the real provider's: addonName and
// clusterName required, the conflict-resolution values the schema allows.
func TestAddonCheck(t *testing.T) {
	aws := Behavior{}
	_, failures := aws.Check(eksAddonType, "a", resource.NewPropertyMapFromMap(map[string]any{"addonName": "coredns"}))
	if len(failures) != 1 || failures[0].Property != "clusterName" {
		t.Errorf("an add-on without its cluster: %v", failures)
	}
	_, failures = aws.Check(eksAddonType, "a", resource.NewPropertyMapFromMap(map[string]any{
		"addonName": "coredns", "clusterName": "c", "resolveConflictsOnCreate": "PRESERVE", "resolveConflictsOnUpdate": "PRESERVE"}))
	if len(failures) != 1 || !strings.Contains(failures[0].Reason, `expected resolveConflictsOnCreate to be one of ["NONE" "OVERWRITE"], got PRESERVE`) {
		t.Errorf("PRESERVE on create: %v", failures)
	}
	if got := aws.Replaces(eksAddonType, nil, nil, []string{"addonName", "addonVersion"}); strings.Join(got, ",") != "addonName" {
		t.Errorf("a change of name and version replaces %v, want addonName", got)
	}
}

// The simulated EKS's answer to preflight's DescribeAddonVersions lists,
// for every add-on and Kubernetes version, exactly the versions its
// CreateAddon takes on a cluster of that version, the table's row as its
// default; none where the table has no row (the VPC CNI at 1.35 today),
// or for an add-on it has no table of.
func TestEKSAddonVersionsAgreeWithCreateAddon(t *testing.T) {
	cloud, err := core.OpenCloud(t.TempDir(), "aws")
	if err != nil {
		t.Fatal(err)
	}
	put := func(id, typ string, props map[string]any) {
		if err := cloud.Put(id, core.Record{Type: typ, Name: id, Properties: props}); err != nil {
			t.Fatal(err)
		}
	}
	put("nodes", eksNodeGroupType, map[string]any{"clusterName": "c", "scalingConfig": map[string]any{"desiredSize": 2.0}})
	for _, table := range calendar.EKSAddons() {
		var builds []string
		for _, k := range table.Minors() {
			if v := table.Version(k); !slices.Contains(builds, v) {
				builds = append(builds, v)
			}
		}
		for minor := 27; minor <= 37; minor++ {
			k8s := fmt.Sprintf("1.%d", minor)
			put("cluster", eksClusterType, map[string]any{"name": "c", "version": k8s})
			listed := EKSAddonVersions(table.Name, k8s)
			for _, v := range builds {
				taken := Behavior{}.CheckSave(eksAddonType, resource.NewPropertyMapFromMap(map[string]any{"clusterName": "c", "addonName": table.Name, "addonVersion": v}), cloud) == nil
				i := slices.IndexFunc(listed, func(l preflight.EKSAddonVersion) bool { return l.Version == v })
				if taken != (i >= 0) {
					t.Errorf("%s %s on %s: CreateAddon takes it %v, DescribeAddonVersions lists it %v", table.Name, v, k8s, taken, i >= 0)
				}
				if i >= 0 && listed[i].Default != (v == table.Version(k8s)) {
					t.Errorf("%s %s on %s: default %v, the table's row is %q", table.Name, v, k8s, listed[i].Default, table.Version(k8s))
				}
			}
			if row := table.Version(k8s); row == "" && len(listed) > 0 || row != "" && !slices.Equal(listed, []preflight.EKSAddonVersion{{Version: row, Default: true}}) {
				t.Errorf("%s for %s: %+v, the table's row is %q", table.Name, k8s, listed, row)
			}
		}
	}
	if got := EKSAddonVersions("eks-pod-identity-agent", "1.35"); got != nil {
		t.Errorf("an add-on without a table: %+v", got)
	}
}
