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
// support every run warns.
func (v *validator) checkEKSSupport(c *clusterDoc, today time.Time) {
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
			return
		}
		v.at(pos, fmt.Sprintf("use a version in EKS standard support: %s", offered),
			"kubernetesVersion %q is no longer offered by EKS", c.KubernetesVersion)
		return
	}
	switch ver.Status(today) {
	case calendar.Ended:
		v.at(pos, fmt.Sprintf("upgrade one minor version per up (%s first) to a version in standard support: %s", next, offered),
			"kubernetesVersion %q left EKS extended support on %s: EKS creates no cluster of it and upgrades those that remain", c.KubernetesVersion, date(ver.EndOfExtended))
	case calendar.Extended:
		if policy == calendar.SupportStandard {
			v.at(pos, fmt.Sprintf("upgrade one minor version per up (%s first) to a version in standard support (%s), or set upgradePolicy: EXTENDED to pay for extended support until %s", next, offered, date(ver.EndOfExtended)),
				"kubernetesVersion %q left EKS standard support on %s: with upgradePolicy STANDARD, EKS upgrades the cluster itself", c.KubernetesVersion, date(ver.EndOfStandard))
			return
		}
		v.warnAt(pos, fmt.Sprintf("upgrade to %s before %s", next, date(ver.EndOfExtended)),
			"kubernetesVersion %q is in EKS extended support (billed per cluster hour) since %s, until %s", c.KubernetesVersion, date(ver.EndOfStandard), date(ver.EndOfExtended))
	case calendar.EndingSoon:
		days := int(ver.EndOfStandard.Sub(today.UTC().Truncate(24*time.Hour)).Hours() / 24)
		v.warnAt(pos, fmt.Sprintf("upgrade to %s before then (one minor version per up)", next),
			"kubernetesVersion %q leaves EKS standard support on %s, in %d days", c.KubernetesVersion, date(ver.EndOfStandard), days)
	}
}
