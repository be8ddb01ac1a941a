package aws

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
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

const eksClusterType = "aws:eks/cluster:Cluster"

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

// requestID is a stable request id for a refusal's message.
func requestID(name string) string {
	sum := sha256.Sum256([]byte("request " + name))
	h := hex.EncodeToString(sum[:])
	return h[:8] + "-" + h[8:12] + "-4" + h[13:16] + "-a" + h[17:20] + "-" + h[20:32]
}
