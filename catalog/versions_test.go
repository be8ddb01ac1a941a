package catalog

import (
	"errors"
	"github.com/company/harness-platform/calendar"
	"strings"
	"testing"
	"time"

	"github.com/company/harness-platform/diag"
)

// validateOn validates the example with production's cluster edited, on
// a given day, and returns its problems and warnings.
func validateOn(t *testing.T, day string, edits ...edit) (problems, warnings []string) {
	t.Helper()
	d, err := time.Parse(time.DateOnly, day)
	if err != nil {
		t.Fatal(err)
	}
	defer func(f func() time.Time) { now = f }(now)
	now = func() time.Time { return d.Add(9 * time.Hour) }
	files := exampleFiles(t)
	for _, e := range edits {
		if !strings.Contains(string(files[e.file]), e.old) {
			t.Fatalf("%s does not contain %q", e.file, e.old)
		}
		files[e.file] = []byte(strings.Replace(string(files[e.file]), e.old, e.new, 1))
	}
	c, err := Parse(files)
	var derr *diag.Error
	if errors.As(err, &derr) {
		for _, p := range derr.List {
			problems = append(problems, p.String())
		}
	} else if err != nil {
		t.Fatal(err)
	}
	if c != nil {
		for _, w := range c.Warnings {
			if strings.Contains(w.Message, "kubernetesVersion") {
				warnings = append(warnings, w.String())
			}
		}
	}
	return problems, warnings
}

// Every stack's version is judged against EKS's calendar on the day
// validation runs (calendar.EKS).
func TestEKSVersionsOnTheCalendar(t *testing.T) {
	version := func(v string) edit {
		return edit{"Pulumi.production.yaml", `kubernetesVersion: "1.35"`, `kubernetesVersion: "` + v + `"`}
	}
	extended := edit{"Pulumi.production.yaml", `kubernetesVersion: "1.35"`, "kubernetesVersion: \"1.33\"\n    upgradePolicy: EXTENDED"}
	for _, tc := range []struct {
		name, day          string
		edits              []edit
		problems, warnings []string
	}{
		{"in standard support", "2026-11-26", nil, nil, nil},
		{"past extended support, on its last day", "2026-11-26", []edit{version("1.31")},
			[]string{`Pulumi.production.yaml:45:24: kubernetesVersion "1.31" left EKS extended support on 2026-11-26: EKS creates no cluster of it and upgrades those that remain; upgrade one minor version per up (1.32 first) to a version in standard support: 1.35, 1.34`}, nil},
		{"past standard support, upgraded by EKS", "2026-11-26", []edit{version("1.33")},
			[]string{`Pulumi.production.yaml:45:24: kubernetesVersion "1.33" left EKS standard support on 2026-07-29: with upgradePolicy STANDARD, EKS upgrades the cluster itself; upgrade one minor version per up (1.34 first) to a version in standard support (1.35, 1.34), or set upgradePolicy: EXTENDED to pay for extended support until 2027-07-29`}, nil},
		{"past standard support, extended on purpose", "2026-11-26", []edit{extended}, nil,
			[]string{`Pulumi.production.yaml:45:24: kubernetesVersion "1.33" is in EKS extended support (billed per cluster hour) since 2026-07-29, until 2027-07-29; upgrade to 1.34 before 2027-07-29`}},
		{"within 60 days of the end", "2026-11-26", []edit{version("1.34")}, nil,
			[]string{`Pulumi.production.yaml:45:24: kubernetesVersion "1.34" leaves EKS standard support on 2026-12-02, in 6 days; upgrade to 1.35 before then (one minor version per up)`}},
		{"61 days before the end", "2026-10-02", []edit{version("1.34")}, nil, nil},
		// Newer than EKS's calendar is a warning, but a version the
		// autoscaler table lacks is refused: its minor must be the cluster's.
		{"newer than the calendar", "2026-11-26", []edit{version("1.36")},
			[]string{`Pulumi.production.yaml:45:24: kubernetesVersion "1.36" has no Cluster Autoscaler release in the project's table (read 2026-11-29): the autoscaler must run its cluster's minor version; add the newest cluster-autoscaler 1.36.x release to calendar.ClusterAutoscalerImages (` + calendar.ClusterAutoscalerSource + `)`}, nil},
		{"older than the calendar", "2026-11-26", []edit{version("1.20")},
			[]string{`Pulumi.production.yaml:45:24: kubernetesVersion "1.20" is no longer offered by EKS; use a version in EKS standard support: 1.35, 1.34`}, nil},
		{"unknown upgrade policy", "2026-11-26", []edit{{"Pulumi.production.yaml", `kubernetesVersion: "1.35"`, "kubernetesVersion: \"1.35\"\n    upgradePolicy: LATEST"}},
			[]string{`Pulumi.production.yaml:46:20: "LATEST" is not a valid upgradePolicy; use one of: STANDARD, EXTENDED`}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			problems, warnings := validateOn(t, tc.day, tc.edits...)
			if strings.Join(problems, "\n") != strings.Join(tc.problems, "\n") {
				t.Errorf("problems:\n got: %s\nwant: %s", strings.Join(problems, "\n      "), strings.Join(tc.problems, "\n      "))
			}
			if strings.Join(warnings, "\n") != strings.Join(tc.warnings, "\n") {
				t.Errorf("warnings:\n got: %s\nwant: %s", strings.Join(warnings, "\n      "), strings.Join(tc.warnings, "\n      "))
			}
		})
	}
}

// The example's runner networks are documentation ranges (RFC 5737):
// validation names each, as a warning (the example previews offline), and
// a real network is not named.
func TestPlaceholderNetworksAreNamed(t *testing.T) {
	c, err := Parse(exampleFiles(t))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range c.Warnings {
		if strings.Contains(w.Message, "RFC 5737") {
			got = append(got, w.String())
		}
	}
	if len(got) != 6 || got[0] != "Pulumi.dev.yaml:79:25: publicAccessCidrs 198.51.100.0/28 is in a documentation range, TEST-NET-2 (RFC 5737): no runner reaches the clusters' public endpoint from it; write the public (NAT) network of the runners that run this stack (docs/delivery.md, Where the jobs run)" {
		t.Errorf("warnings:\n%s", strings.Join(got, "\n"))
	}
	for network, want := range map[string]string{
		"198.51.100.0/28": "is in a documentation range, TEST-NET-2 (RFC 5737)",
		"10.20.0.0/16":    "is in a private range (RFC 1918)",
		"198.0.0.0/8":     "overlaps 198.18.0.0/15, the benchmarking range (RFC 2544)",
		"52.94.76.0/28":   "",
	} {
		if got, _ := ReservedRange(network); got != want {
			t.Errorf("ReservedRange(%s) = %q, want %q", network, got, want)
		}
	}
}

// A kubernetesVersion must have a version of each add-on built per minor
// (kube-proxy, CoreDNS) in the add-on tables the program versions them
// from (calendar/eks-addons.json): refused otherwise, at the version's
// line, with where to read the missing one. The VPC CNI without one is
// warned of.
func TestEKSAddonTables(t *testing.T) {
	addonMessages := func(day string, version string) (problems, warnings []string) {
		t.Helper()
		d, _ := time.Parse(time.DateOnly, day)
		defer func(f func() time.Time) { now = f }(now)
		now = func() time.Time { return d.Add(9 * time.Hour) }
		files := exampleFiles(t)
		files["Pulumi.production.yaml"] = []byte(strings.Replace(string(files["Pulumi.production.yaml"]), `kubernetesVersion: "1.35"`, `kubernetesVersion: "`+version+`"`, 1))
		c, err := Parse(files)
		var derr *diag.Error
		if errors.As(err, &derr) {
			for _, p := range derr.List {
				if strings.Contains(p.Message, "EKS add-on") {
					problems = append(problems, p.String())
				}
			}
		} else if err != nil {
			t.Fatal(err)
		}
		if c != nil {
			for _, w := range c.Warnings {
				if strings.Contains(w.Message, "EKS add-on") && w.File == "Pulumi.production.yaml" {
					warnings = append(warnings, w.String())
				}
			}
		}
		return problems, warnings
	}
	problems, _ := addonMessages("2026-11-26", "1.37")
	if want := []string{
		`Pulumi.production.yaml:45:24: EKS add-on kube-proxy has no version for Kubernetes 1.37 in the project's add-on tables (calendar/eks-addons.json, read 2026-11-28, lists 1.31 to 1.36): the program asks EKS for no add-on version AWS does not give; keep kubernetesVersion at a version the table has (1.31 to 1.36), or add kube-proxy's version for 1.37 to calendar/eks-addons.json (aws eks describe-addon-versions --addon-name kube-proxy --kubernetes-version 1.37, or https://docs.aws.amazon.com/eks/latest/userguide/managing-kube-proxy.html#kube-proxy-versions)`,
		`Pulumi.production.yaml:45:24: EKS add-on coredns has no version for Kubernetes 1.37 in the project's add-on tables (calendar/eks-addons.json, read 2026-11-28, lists 1.30 to 1.36): the program asks EKS for no add-on version AWS does not give; keep kubernetesVersion at a version the table has (1.30 to 1.36), or add coredns's version for 1.37 to calendar/eks-addons.json (aws eks describe-addon-versions --addon-name coredns --kubernetes-version 1.37, or https://docs.aws.amazon.com/eks/latest/userguide/managing-coredns.html#coredns-versions)`,
	}; strings.Join(problems, "\n") != strings.Join(want, "\n") {
		t.Errorf("1.37, problems:\n got: %s\nwant: %s", strings.Join(problems, "\n      "), strings.Join(want, "\n      "))
	}
	// The VPC CNI needs no row: the program asks EKS for its default
	// build, and validation warns of nothing (preflight names the build).
	for _, k8s := range []string{"1.35", "1.36"} {
		if problems, warnings := addonMessages("2026-11-26", k8s); len(problems) != 0 || len(warnings) != 0 {
			t.Errorf("%s: problems %q, warnings %q; want none", k8s, problems, warnings)
		}
	}
	if problems, warnings := addonMessages("2026-11-26", "1.34"); len(problems)+len(warnings) != 0 {
		t.Errorf("1.34, every table has it: problems %q, warnings %q", problems, warnings)
	}
	// A version refused by EKS's calendar is not judged again here.
	if problems, _ := addonMessages("2026-11-26", "1.20"); len(problems) != 0 {
		t.Errorf("1.20: %q", problems)
	}
}
