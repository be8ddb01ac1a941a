package calendar

import (
	"testing"
	"time"
)

// TestEKSCalendar checks the table's shape, and fails when it must be
// renewed: when its newest version is within WarnBefore of leaving
// standard support (a newer one is then surely out), or when it was last
// compared with its source more than six months ago.
func TestEKSCalendar(t *testing.T) {
	for i, v := range EKS {
		if Minor(v.Version) < 0 {
			t.Errorf("%s: not a 1.N version", v.Version)
		}
		if i > 0 && Minor(v.Version) != Minor(EKS[i-1].Version)+1 {
			t.Errorf("%s follows %s: the table must list every minor version, oldest first", v.Version, EKS[i-1].Version)
		}
		if !v.EndOfExtended.Equal(v.EndOfStandard.AddDate(1, 0, 0)) {
			t.Errorf("%s: extended support ends %s, want 12 months after standard (%s)", v.Version, v.EndOfExtended.Format(time.DateOnly), v.EndOfStandard.Format(time.DateOnly))
		}
		if months := v.EndOfStandard.Sub(v.Released).Hours() / 24 / 30.44; months < 13.5 || months > 14.5 {
			t.Errorf("%s: %.1f months of standard support, EKS gives 14", v.Version, months)
		}
	}
	newest := EKS[len(EKS)-1]
	renewBy := newest.EndOfStandard.Add(-WarnBefore)
	if checked := day(EKSChecked); checked.AddDate(0, 6, 0).Before(renewBy) {
		renewBy = checked.AddDate(0, 6, 0)
	}
	if now := time.Now(); !now.Before(renewBy) {
		t.Errorf("the EKS calendar had to be renewed by %s: compare calendar.EKS with %s, add the versions EKS released since, and set EKSChecked",
			renewBy.Format(time.DateOnly), EKSSource)
	}
	t.Logf("the EKS calendar (checked %s) must be renewed by %s", EKSChecked, renewBy.Format(time.DateOnly))
}

func TestEKSStatus(t *testing.T) {
	v, ok := LookupEKS("1.31")
	if !ok {
		t.Fatal("1.31 is not in the table")
	}
	for _, c := range []struct {
		day  string
		want EKSStatus
	}{
		{"2025-09-26", Standard},
		{"2025-09-27", EndingSoon}, // 60 days before 2025-11-26
		{"2025-11-25", EndingSoon},
		{"2025-11-26", Extended},
		{"2026-11-25", Extended},
		{"2026-11-26", Ended},
	} {
		if got := v.Status(day(c.day).Add(13 * time.Hour)); got != c.want {
			t.Errorf("1.31 on %s: status %d, want %d", c.day, got, c.want)
		}
	}
	if Offered("1.31", day("2026-11-26")) || !Offered("1.31", day("2026-11-25")) || !Offered("1.99", day("2026-11-26")) || Offered("1.20", day("2026-11-26")) {
		t.Error("Offered: 1.31 is offered up to 2026-11-25, a version newer than the table is, one older is not")
	}
	if got := InStandard(day("2026-11-26")); len(got) != 2 || got[0] != "1.35" || got[1] != "1.34" {
		t.Errorf("InStandard on 2026-11-26 = %v, want [1.35 1.34]", got)
	}
}

func TestUpgradeRefusal(t *testing.T) {
	for _, c := range []struct {
		from, to string
		ok       bool
	}{{"1.34", "1.35", true}, {"1.35", "1.35", true}, {"1.33", "1.35", false}, {"1.35", "1.34", false}} {
		err := UpgradeRefusal(c.from, c.to)
		if (err == nil) != c.ok {
			t.Errorf("%s -> %s: %v", c.from, c.to, err)
		}
	}
	if err := UpgradeRefusal("1.31", "1.33"); err == nil || err.Error() != "InvalidParameterException: Unsupported Kubernetes minor version update from 1.31 to 1.33" {
		t.Errorf("the refusal is EKS's message: %v", err)
	}
}
