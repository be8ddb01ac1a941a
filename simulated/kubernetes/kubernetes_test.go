package kubernetes

import (
	"bytes"
	"crypto/x509"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
)

// The simulated Kubernetes provider refuses what the real one refuses
// for missing inputs. (The AWS provider's part: package aws's test of the
// same name.)
func TestInfraCheck(t *testing.T) {
	if _, failures := (Behavior{}).Check("kubernetes:helm.sh/v3:Release", "r", resource.PropertyMap{}); len(failures) != 1 || failures[0].Property != "chart" {
		t.Errorf("a release without a chart: %v", failures)
	}
}

// A simulated cluster's CA is a PEM certificate a client can load, and the
// same on every run.
func TestClusterCA(t *testing.T) {
	a, b := ClusterCA("dev-euw1"), ClusterCA("dev-euw1")
	if !bytes.Equal(a, b) {
		t.Error("the CA differs between two calls")
	}
	if !x509.NewCertPool().AppendCertsFromPEM(a) {
		t.Errorf("not a PEM certificate:\n%s", a)
	}
	if bytes.Equal(a, ClusterCA("prod-euw1")) {
		t.Error("two clusters share a CA")
	}
}
