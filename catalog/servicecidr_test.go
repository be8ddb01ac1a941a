package catalog

import "testing"

// EKS's own pick when no Service network is given: 172.20.0.0/16 for a
// VPC in 10.0.0.0/8, 10.100.0.0/16 otherwise (DefaultServiceCIDR's
// citations).
func TestDefaultServiceCIDR(t *testing.T) {
	for vpc, want := range map[string]string{
		"10.1.0.0/17":    "172.20.0.0/16",
		"10.100.0.0/16":  "172.20.0.0/16",
		"172.31.0.0/16":  "10.100.0.0/16",
		"192.168.0.0/20": "10.100.0.0/16",
	} {
		if got := DefaultServiceCIDR(vpc); got != want {
			t.Errorf("VPC %s: %s, want %s", vpc, got, want)
		}
	}
}
