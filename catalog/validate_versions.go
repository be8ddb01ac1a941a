package catalog

import (
	"fmt"
	"strings"
	"time"

	"github.com/company/harness-platform/calendar"
)

// now is the day validation judges versions on (tests set it).
var now = time.Now

// checkEKSSupport checks the cluster's version against EKS's calendar
// (package calendar) on the day validation runs: EKS creates no cluster
// of a version past extended support; past standard support a cluster is
// billed extended support, or, with upgradePolicy STANDARD, upgraded by
// EKS under the stack, so such a version needs upgradePolicy: EXTENDED,
// said on purpose; within calendar.WarnBefore of the end of standard
// support every run warns. It reports whether the version passed (false:
// refused here).
func (v *validator) checkEKSSupport(c *clusterDoc, today time.Time) bool {
	pos := c.At.Field("kubernetesVersion")
	policy := orDefault(c.UpgradePolicy, calendar.SupportStandard)
	offered := strings.Join(calendar.InStandard(today), ", ")
	date := func(t time.Time) string { return t.Format(time.DateOnly) }
	next := fmt.Sprintf("1.%d", calendar.Minor(c.KubernetesVersion)+1)
	ver, ok := calendar.LookupEKS(c.KubernetesVersion)
	if !ok {
		newest := calendar.EKS[len(calendar.EKS)-1].Version
		if calendar.Newer(c.KubernetesVersion, newest) {
			v.warnAt(pos, "check that EKS offers it ("+calendar.EKSSource+") and add it to calendar.EKS",
				"kubernetesVersion %q is newer than the project's EKS calendar (checked %s, newest %s)", c.KubernetesVersion, calendar.EKSChecked, newest)
			return true
		}
		v.at(pos, fmt.Sprintf("use a version in EKS standard support: %s", offered),
			"kubernetesVersion %q is no longer offered by EKS", c.KubernetesVersion)
		return false
	}
	switch ver.Status(today) {
	case calendar.Ended:
		v.at(pos, fmt.Sprintf("upgrade one minor version per up (%s first) to a version in standard support: %s", next, offered),
			"kubernetesVersion %q left EKS extended support on %s: EKS creates no cluster of it and upgrades those that remain", c.KubernetesVersion, date(ver.EndOfExtended))
		return false
	case calendar.Extended:
		if policy == calendar.SupportStandard {
			v.at(pos, fmt.Sprintf("upgrade one minor version per up (%s first) to a version in standard support (%s), or set upgradePolicy: EXTENDED to pay for extended support until %s", next, offered, date(ver.EndOfExtended)),
				"kubernetesVersion %q left EKS standard support on %s: with upgradePolicy STANDARD, EKS upgrades the cluster itself", c.KubernetesVersion, date(ver.EndOfStandard))
			return false
		}
		v.warnAt(pos, fmt.Sprintf("upgrade to %s before %s", next, date(ver.EndOfExtended)),
			"kubernetesVersion %q is in EKS extended support (billed per cluster hour) since %s, until %s", c.KubernetesVersion, date(ver.EndOfStandard), date(ver.EndOfExtended))
	case calendar.EndingSoon:
		days := int(ver.EndOfStandard.Sub(today.UTC().Truncate(24*time.Hour)).Hours() / 24)
		v.warnAt(pos, fmt.Sprintf("upgrade to %s before then (one minor version per up)", next),
			"kubernetesVersion %q leaves EKS standard support on %s, in %d days", c.KubernetesVersion, date(ver.EndOfStandard), days)
	}
	return true
}

// checkEKSAddons checks that AWS's add-on tables the program versions the
// cluster's EKS add-ons from (calendar.EKSAddons) have a row for the
// cluster's Kubernetes version: the program never asks EKS for an add-on
// version AWS does not give for it. An add-on whose builds are per minor
// (kube-proxy, CoreDNS) without one is refused. The VPC CNI, whose table
// gives one build to every version it lists, needs none: the program asks
// EKS for its default build (plan.EKSAddonsFor), and preflight, which
// reads EKS's list, says which build that is and how to pin it; the
// example's own table warns of nothing here. (Whether the version is one
// minor above the deployed one is checked before the program registers
// anything, from the stack's last outputs: plan.Guard.)
func (v *validator) checkEKSAddons(c *clusterDoc) {
	pos := c.At.Field("kubernetesVersion")
	k8s := c.KubernetesVersion
	for _, a := range calendar.EKSAddons() {
		if a.Version(k8s) != "" || !a.Required {
			continue
		}
		minors := a.Minors()
		listed := "no version"
		if len(minors) > 0 {
			listed = minors[0] + " to " + minors[len(minors)-1]
		}
		read := fmt.Sprintf("aws eks describe-addon-versions --addon-name %s --kubernetes-version %s, or %s", a.Name, k8s, a.Page)
		v.at(pos, fmt.Sprintf("keep kubernetesVersion at a version the table has (%s), or add %s's version for %s to %s (%s)", listed, a.Name, k8s, calendar.EKSAddonsFile, read),
			"EKS add-on %s has no version for Kubernetes %s in the project's add-on tables (%s, read %s, lists %s): the program asks EKS for no add-on version AWS does not give", a.Name, k8s, calendar.EKSAddonsFile, calendar.EKSAddonsRead, listed)
	}
}
