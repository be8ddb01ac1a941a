// Package calendar holds the vendors' support calendars for what the
// project pins, with the source and the day the data was read, so that a
// pinned version is checked against the day it runs, not the day it was
// written.
package calendar

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// EKSSource is where the EKS table comes from, and EKSChecked the day it
// was last compared with that source. The table must be renewed before
// the newest version it lists leaves standard support (TestEKSCalendar
// says by when).
const (
	EKSSource  = "https://docs.aws.amazon.com/eks/latest/userguide/kubernetes-versions.html (Amazon EKS Kubernetes release calendar)"
	EKSChecked = "2026-11-26"
)

// EKSVersion is one Kubernetes minor version on Amazon EKS: released, then
// in standard support for 14 months, then in extended support (paid per
// cluster hour) for 12 more; after that EKS creates no cluster of it and
// upgrades the remaining ones itself.
type EKSVersion struct {
	Version       string
	Released      time.Time
	EndOfStandard time.Time
	EndOfExtended time.Time
}

func day(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return t
}

// EKS is the calendar, oldest first (the dates are EKS's, which differ
// from upstream Kubernetes's).
var EKS = []EKSVersion{
	{"1.29", day("2024-01-23"), day("2025-03-23"), day("2026-03-23")},
	{"1.30", day("2024-05-23"), day("2025-07-23"), day("2026-07-23")},
	{"1.31", day("2024-09-26"), day("2025-11-26"), day("2026-11-26")},
	{"1.32", day("2025-01-23"), day("2026-03-23"), day("2027-03-23")},
	{"1.33", day("2025-05-29"), day("2026-07-29"), day("2027-07-29")},
	{"1.34", day("2025-10-02"), day("2026-12-02"), day("2027-12-02")},
	{"1.35", day("2026-01-27"), day("2027-03-27"), day("2028-03-27")},
}

// WarnBefore is how long before a version leaves standard support
// validation starts to warn.
const WarnBefore = 60 * 24 * time.Hour

// Support types of an EKS cluster's upgrade policy (the EKS API's
// UpgradePolicyRequest supportType).
const (
	SupportStandard = "STANDARD"
	SupportExtended = "EXTENDED"
)

// LookupEKS finds version in the calendar.
func LookupEKS(version string) (EKSVersion, bool) {
	i := slices.IndexFunc(EKS, func(v EKSVersion) bool { return v.Version == version })
	if i < 0 {
		return EKSVersion{}, false
	}
	return EKS[i], true
}

// EKSStatus is where a version stands on a day.
type EKSStatus int

const (
	// Unknown: not in the table (too new for it, or too old).
	Unknown EKSStatus = iota
	Standard
	// EndingSoon: in standard support, leaving it within WarnBefore.
	EndingSoon
	Extended
	// Ended: past extended support; EKS creates no cluster of it.
	Ended
)

// Status is where v stands on the day of t (UTC); an end day is the
// first day out of that support.
func (v EKSVersion) Status(t time.Time) EKSStatus {
	d := t.UTC().Truncate(24 * time.Hour)
	switch {
	case !d.Before(v.EndOfExtended):
		return Ended
	case !d.Before(v.EndOfStandard):
		return Extended
	case !d.Before(v.EndOfStandard.Add(-WarnBefore)):
		return EndingSoon
	}
	return Standard
}

// Offered reports whether EKS creates a cluster of version on the day of
// t: the versions in standard or extended support. A version newer than
// the table is taken as offered (the table lags EKS's releases).
func Offered(version string, t time.Time) bool {
	if v, ok := LookupEKS(version); ok {
		return v.Status(t) != Ended
	}
	return Newer(version, EKS[len(EKS)-1].Version)
}

// InStandard lists the versions in standard support on the day of t,
// newest first.
func InStandard(t time.Time) []string {
	var out []string
	for i := len(EKS) - 1; i >= 0; i-- {
		if s := EKS[i].Status(t); s == Standard || s == EndingSoon {
			out = append(out, EKS[i].Version)
		}
	}
	return out
}

// Minor is the minor number of a "1.N" version (-1 if it is not one).
func Minor(version string) int {
	rest, ok := strings.CutPrefix(version, "1.")
	if !ok {
		return -1
	}
	n, err := strconv.Atoi(rest)
	if err != nil {
		return -1
	}
	return n
}

// Newer reports whether a is a later minor version than b.
func Newer(a, b string) bool { return Minor(a) > Minor(b) }

// UpgradeRefusal is EKS's refusal of an in-place update from one version
// to another (UpdateClusterVersion), nil when EKS allows it: one minor
// version up at a time, never down.
func UpgradeRefusal(from, to string) error {
	if from == to || Minor(to) == Minor(from)+1 {
		return nil
	}
	return fmt.Errorf("InvalidParameterException: Unsupported Kubernetes minor version update from %s to %s", from, to)
}
