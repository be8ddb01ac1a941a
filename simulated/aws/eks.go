package aws

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"

	"github.com/company/harness-platform/calendar"
	"github.com/company/harness-platform/simulated/core"
)

// What the simulated EKS refuses of a cluster, worded as the AWS provider
// reports EKS's answer (terraform-provider-aws wraps the SDK's error:
// "operation error EKS: CreateCluster, https response error StatusCode:
// 400, ..., InvalidParameterException: unsupported Kubernetes version
// 1.31", as in hashicorp/terraform-provider-aws#21410 and
// terraform-aws-modules/terraform-aws-eks#3164).

// eksNow is the day the simulated EKS judges versions on: today, as the
// real one does.
var eksNow = time.Now

const (
	eksClusterType   = "aws:eks/cluster:Cluster"
	eksNodeGroupType = "aws:eks/nodeGroup:NodeGroup"
	eksAddonType     = "aws:eks/addon:Addon"
)

// CheckWrite refuses what EKS refuses of a cluster's create or update
// (olds nil for a create): a version it no longer offers (past extended
// support, calendar.EKS), and an update of more than one minor version
// up, or down (UpdateClusterVersion).
func (Behavior) CheckWrite(typ, name string, olds, news resource.PropertyMap, _ core.Reach) error {
	if typ != eksClusterType {
		return nil
	}
	to := core.Str(news, "version")
	if olds == nil {
		if to != "" && !calendar.Offered(to, eksNow()) {
			return fmt.Errorf("creating EKS Cluster (%s): operation error EKS: CreateCluster, https response error StatusCode: 400, RequestID: %s, InvalidParameterException: unsupported Kubernetes version %s",
				core.Str(news, "name"), requestID(name), to)
		}
		return nil
	}
	from := core.Str(olds, "version")
	if from == "" || to == "" || from == to {
		return nil
	}
	if err := calendar.UpgradeRefusal(from, to); err != nil {
		return fmt.Errorf("updating EKS Cluster (%s) version: operation error EKS: UpdateClusterVersion, https response error StatusCode: 400, RequestID: %s, %v",
			core.Str(olds, "name"), requestID(name), err)
	}
	return nil
}

// CheckSave refuses what EKS refuses of a cluster's parts given the
// cluster as it stands (cloud), in the words the AWS provider reports:
//
//   - an add-on created or updated to a version not compatible with the
//     cluster's Kubernetes version (CreateAddon, UpdateAddon:
//     "InvalidParameterException: Addon version specified is not
//     supported", hashicorp/terraform-provider-aws#32238 and #33385,
//     nebari-dev/nebari#3016). Compatible is what AWS's tables give for
//     the version (calendar.EKSAddonCompatible);
//   - CoreDNS created on a cluster with no node group to run it: EKS
//     creates it DEGRADED, and the provider waits for ACTIVE until its
//     20-minute timeout (pulumi/pulumi-eks#1819); here at once;
//   - a node group created or updated to a Kubernetes version newer than
//     the control plane's (eksctl-io/eksctl#3727: EKS returns an error if
//     the node group's version is higher). EKS's words for it were not
//     found; these are modelled on its refusal of a node group release
//     for another Kubernetes version ("Requested release version
//     1.31.3-20250103 is not valid for kubernetes version 1.30.",
//     eksctl-io/eksctl#7976);
//   - a cluster's version update while a node group still runs another
//     version than the control plane ("Nodegroups X must be updated to
//     match cluster version 1.18 before updating cluster version",
//     hashicorp/terraform-provider-aws#19478, awsdocs/amazon-eks-user-guide#475;
//     the update-cluster page: nodes at the control plane's version before
//     it is updated). The exception's name was not in the reports;
//     InvalidRequestException is EKS's for "the request is invalid given
//     the state of the cluster".
func (Behavior) CheckSave(typ string, news resource.PropertyMap, cloud *core.Cloud) error {
	switch typ {
	case eksAddonType:
		return checkAddon(news, cloud)
	case eksNodeGroupType:
		return checkNodeGroup(news, cloud)
	case eksClusterType:
		return checkClusterUpdate(news, cloud)
	}
	return nil
}

// eksCluster is the stored cluster named name.
func eksCluster(cloud *core.Cloud, name string) (core.Record, bool) {
	for _, c := range cloud.OfType(eksClusterType) {
		if c.Properties["name"] == name {
			return c, true
		}
	}
	return core.Record{}, false
}

// stored finds the stored object of typ whose properties hold every one
// of match.
func stored(cloud *core.Cloud, typ string, match map[string]string) (core.Record, bool) {
	for _, r := range cloud.OfType(typ) {
		all := true
		for k, v := range match {
			all = all && fmt.Sprint(r.Properties[k]) == v
		}
		if all {
			return r, true
		}
	}
	return core.Record{}, false
}

func checkAddon(news resource.PropertyMap, cloud *core.Cloud) error {
	clusterName, addonName, version := core.Str(news, "clusterName"), core.Str(news, "addonName"), core.Str(news, "addonVersion")
	id := clusterName + ":" + addonName
	cluster, ok := eksCluster(cloud, clusterName)
	if !ok {
		return nil
	}
	k8s, _ := cluster.Properties["version"].(string)
	old, exists := stored(cloud, eksAddonType, map[string]string{"clusterName": clusterName, "addonName": addonName})
	op, verb := "CreateAddon", "creating"
	if exists {
		op, verb = "UpdateAddon", "updating"
		// The provider sends addonVersion to UpdateAddon only when it
		// changed.
		if old.Properties["addonVersion"] == version {
			return nil
		}
	}
	if version != "" && k8s != "" && !calendar.EKSAddonCompatible(addonName, version, k8s) {
		return fmt.Errorf("%s EKS Add-On (%s): operation error EKS: %s, https response error StatusCode: 400, RequestID: %s, InvalidParameterException: Addon version specified is not supported",
			verb, id, op, requestID(id))
	}
	if !exists && addonName == "coredns" && !hasNodes(cloud, clusterName) {
		return fmt.Errorf("waiting for EKS Add-On (%s) create: timeout while waiting for state to become 'ACTIVE' (last state: 'DEGRADED', timeout: 20m0s)", id)
	}
	return nil
}

// hasNodes reports whether a node group of the cluster runs a node.
func hasNodes(cloud *core.Cloud, clusterName string) bool {
	for _, ng := range cloud.OfType(eksNodeGroupType) {
		if ng.Properties["clusterName"] != clusterName {
			continue
		}
		if sc, ok := ng.Properties["scalingConfig"].(map[string]any); ok {
			if n, ok := sc["desiredSize"].(float64); ok && n > 0 {
				return true
			}
		}
	}
	return false
}

func checkNodeGroup(news resource.PropertyMap, cloud *core.Cloud) error {
	clusterName, name, version := core.Str(news, "clusterName"), core.Str(news, "nodeGroupName"), core.Str(news, "version")
	cluster, ok := eksCluster(cloud, clusterName)
	if !ok || version == "" {
		return nil
	}
	k8s, _ := cluster.Properties["version"].(string)
	if k8s == "" || !calendar.Newer(version, k8s) {
		return nil
	}
	id := clusterName + ":" + name
	msg, op := "creating EKS Node Group (%s)", "CreateNodegroup"
	if old, exists := stored(cloud, eksNodeGroupType, map[string]string{"clusterName": clusterName, "nodeGroupName": name}); exists {
		if old.Properties["version"] == version {
			return nil
		}
		msg, op = "updating EKS Node Group (%s) version", "UpdateNodegroupVersion"
	}
	return fmt.Errorf(msg+": operation error EKS: %s, https response error StatusCode: 400, RequestID: %s, InvalidParameterException: Requested version %s is not valid for kubernetes version %s.",
		id, op, requestID(id), version, k8s)
}

func checkClusterUpdate(news resource.PropertyMap, cloud *core.Cloud) error {
	name, to := core.Str(news, "name"), core.Str(news, "version")
	old, ok := eksCluster(cloud, name)
	from, _ := old.Properties["version"].(string)
	if !ok || from == "" || to == "" || from == to {
		return nil
	}
	var behind []string
	for _, ng := range cloud.OfType(eksNodeGroupType) {
		if v, _ := ng.Properties["version"].(string); ng.Properties["clusterName"] == name && v != "" && v != from {
			behind = append(behind, fmt.Sprint(ng.Properties["nodeGroupName"]))
		}
	}
	if len(behind) == 0 {
		return nil
	}
	sort.Strings(behind)
	return fmt.Errorf("updating EKS Cluster (%s) version: operation error EKS: UpdateClusterVersion, https response error StatusCode: 400, RequestID: %s, InvalidRequestException: Nodegroups %s must be updated to match cluster version %s before updating cluster version",
		name, requestID(name), strings.Join(behind, ", "), from)
}

// requestID is a stable request id for a refusal's message.
func requestID(name string) string {
	sum := sha256.Sum256([]byte("request " + name))
	h := hex.EncodeToString(sum[:])
	return h[:8] + "-" + h[8:12] + "-4" + h[13:16] + "-a" + h[17:20] + "-" + h[20:32]
}
