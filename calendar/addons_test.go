package calendar

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// The add-on tables have AWS's shape (version strings as EKS writes them,
// a kube-proxy build per Kubernetes minor), name where they come from, and
// must be read again within six months, or once a version in standard
// support has no row of a required add-on.
func TestEKSAddons(t *testing.T) {
	eksbuild := regexp.MustCompile(`^v[0-9]+\.[0-9]+\.[0-9]+-eksbuild\.[0-9]+$`)
	var names []string
	for _, a := range EKSAddons() {
		names = append(names, a.Name)
		if !strings.HasPrefix(a.Page, "https://docs.aws.amazon.com/eks/latest/userguide/") || a.Source == "" || a.Stated == "" || a.Why == "" {
			t.Errorf("%s: page %q, source %q, stated %q, why %q: each table says where it comes from and what dates it", a.Name, a.Page, a.Source, a.Stated, a.Why)
		}
		for k8s, v := range a.Versions {
			if Minor(k8s) < 0 || !eksbuild.MatchString(v) {
				t.Errorf("%s: %s -> %s is not a Kubernetes minor and an EKS add-on version", a.Name, k8s, v)
			}
			if a.Name == "kube-proxy" && !strings.HasPrefix(v, "v"+k8s+".") {
				t.Errorf("kube-proxy %s for Kubernetes %s: kube-proxy builds are per minor", v, k8s)
			}
		}
	}
	if strings.Join(names, ",") != "vpc-cni,kube-proxy,coredns" {
		t.Errorf("add-ons %v", names)
	}
	read, err := time.Parse(time.DateOnly, EKSAddonsRead)
	if err != nil {
		t.Fatal(err)
	}
	renewBy := read.AddDate(0, 6, 0)
	if time.Now().After(renewBy) {
		t.Errorf("the EKS add-on tables (%s, read %s) had to be read again by %s", EKSAddonsFile, EKSAddonsRead, renewBy.Format(time.DateOnly))
	}
	for _, k8s := range InStandard(time.Now()) {
		for _, a := range EKSAddons() {
			if a.Required && a.Version(k8s) == "" {
				t.Errorf("Kubernetes %s is in standard support and %s has no version for it: read %s again and add it to %s", k8s, a.Name, a.Page, EKSAddonsFile)
			}
		}
	}
	t.Logf("the EKS add-on tables (read %s) must be read again by %s", EKSAddonsRead, renewBy.Format(time.DateOnly))
}

func TestEKSAddonCompatible(t *testing.T) {
	for _, c := range []struct {
		name, version, k8s string
		ok                 bool
	}{
		{"coredns", "v1.14.3-eksbuild.3", "1.35", true},
		{"coredns", "v1.14.3-eksbuild.3", "1.36", true},
		{"coredns", "v1.14.3-eksbuild.3", "1.34", false},
		{"kube-proxy", "v1.34.6-eksbuild.13", "1.35", false},
		{"vpc-cni", "v1.20.4-eksbuild.1", "1.33", true},
		{"vpc-cni", "", "1.33", false},
		{"eks-pod-identity-agent", "v1.3.9-eksbuild.3", "1.35", false},
	} {
		if got := EKSAddonCompatible(c.name, c.version, c.k8s); got != c.ok {
			t.Errorf("%s %s on %s: %v, want %v", c.name, c.version, c.k8s, got, c.ok)
		}
	}
	if got := strings.Join(EKSAddonMinors("coredns", "v1.11.4-eksbuild.40"), ","); got != "1.30,1.31,1.32" {
		t.Errorf("coredns v1.11.4-eksbuild.40 is for %s", got)
	}
}
