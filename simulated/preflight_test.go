package simulated

import (
	"context"
	"strings"
	"testing"

	"github.com/company/harness-platform/calendar"
	"github.com/company/harness-platform/internal/catalogtest"
	"github.com/company/harness-platform/preflight"
)

// Preflight's add-on check through the simulated EKS: every environment's
// clusters (at 1.35 today) pass, their kube-proxy and CoreDNS rows being what the
// simulated EKS takes and the VPC CNI, without a row, one it lists no
// version of either; a version the simulated EKS does not take for the
// cluster's version is reported with the one it lists, its default.
func TestPreflightAsksEKSForAddonVersions(t *testing.T) {
	c := catalogtest.Example(t, "..")
	s := &Servers{}
	ctx := context.Background()
	addonProblems := func(r preflight.Requirements) []preflight.Problem {
		var out []preflight.Problem
		for _, p := range preflight.Run(ctx, s, preflight.Requirements{EKS: r.EKS}) {
			if strings.HasPrefix(p.Check, "EKS add-on ") {
				out = append(out, p)
			}
		}
		return out
	}
	var dev preflight.Requirements
	for _, env := range []string{"dev", "staging", "production"} {
		r, err := preflight.Require(c, Account, env, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.EKS) == 0 {
			t.Fatalf("%s declares no EKS cluster", env)
		}
		if problems := addonProblems(r); len(problems) > 0 {
			t.Errorf("%s: %v", env, problems)
		}
		if env == "dev" {
			dev = r
		}
	}
	// CoreDNS at the build the table gives for another version.
	e := &dev.EKS[0]
	coredns, _ := calendar.LookupEKSAddon("coredns")
	stale := coredns.Version("1.33")
	for i, a := range e.Addons {
		if a.Name == "coredns" {
			e.Addons[i].Version = stale
		}
	}
	problems := addonProblems(dev)
	want := "EKS add-on coredns of cluster " + e.Name + " in " + e.Region + " (Kubernetes " + e.Version + "): EKS does not list " + stale +
		", the version calendar/eks-addons.json gives for Kubernetes " + e.Version + ", as compatible with it (DescribeAddonVersions lists " + coredns.Version(e.Version) + " (default))"
	if len(problems) != 1 || !strings.HasPrefix(problems[0].Error(), want) {
		t.Errorf("CoreDNS %s on %s: %v, want %q", stale, e.Version, problems, want)
	}
}
