package simulated

import (
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
)

// The simulated AWS and Kubernetes providers refuse what the real ones
// refuse for missing inputs, and types they were not taught.
func TestInfraCheck(t *testing.T) {
	aws := infra{provider: "aws"}
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
	if _, failures := (infra{provider: "kubernetes"}).Check("kubernetes:helm.sh/v3:Release", "r", resource.PropertyMap{}); len(failures) != 1 || failures[0].Property != "chart" {
		t.Errorf("a release without a chart: %v", failures)
	}
	// Auto-naming happens in Check, so the name is known in a preview.
	checked, _ := aws.Check("aws:iam/role:Role", "nodes", resource.NewPropertyMapFromMap(map[string]any{"assumeRolePolicy": "{}"}))
	if n := checked["name"]; !n.IsString() || !strings.HasPrefix(n.StringValue(), "nodes-") {
		t.Errorf("role not auto-named: %v", n)
	}
}
