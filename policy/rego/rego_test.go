package rego

import (
	"strings"
	"testing"
	"time"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/internal/regotest"
)

// deny evaluates the rendered change-window policy as Harness's policy
// engine would at the given time, for the given payload.
func deny(t *testing.T, policy string, now time.Time, input any) []string {
	t.Helper()
	return regotest.Deny(t, "change_window", policy, input, now)
}

func TestChangeWindowPolicy(t *testing.T) {
	policy := ChangeWindow(&catalog.ChangeWindow{
		Days: []string{"Mon", "Tue", "Wed", "Thu"}, Start: "10:00", End: "16:00",
		Freeze: []string{"2026-12-24"},
	})
	prod := map[string]any{"environment": "prod", "environmentType": "Production", "service": "payment-service", "pipeline": "payment_service_prod"}
	at := func(s string) time.Time {
		tm, err := time.Parse("2006-01-02 15:04", s)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	for _, tc := range []struct {
		name  string
		now   string
		input any
		want  string // "" allowed; otherwise a part of the denial
	}{
		{"inside", "2026-11-26 12:30", prod, ""},                                 // Thursday
		{"first minute", "2026-11-23 10:00", prod, ""},                           // Monday
		{"minute before start", "2026-11-23 09:59", prod, "now (Mon 09:59 UTC)"}, //
		{"last minute", "2026-11-23 15:59", prod, ""},
		{"end is exclusive", "2026-11-23 16:00", prod, "now (Mon 16:00 UTC)"},
		{"Friday", "2026-11-27 12:00", prod, "deployments are allowed on [\"Mon\", \"Tue\", \"Wed\", \"Thu\"] from 10:00 to 16:00 UTC"},
		{"weekend", "2026-11-28 12:00", prod, "now (Sat 12:00 UTC)"},
		{"freeze date inside the hours", "2026-12-24 12:00", prod, "on 2026-12-24: it is a freeze date"},
		{"non-production payload", "2026-11-28 03:00", map[string]any{"environment": "pre-stable", "environmentType": "PreProduction", "service": "payment-service", "pipeline": "p"}, ""},
		{"malformed payload", "2026-11-26 12:30", map[string]any{"environment": "prod", "service": "payment-service"}, "payload needs environment, environmentType"},
		{"unknown environment type", "2026-11-26 12:30", map[string]any{"environment": "prod", "environmentType": "prod", "service": "s", "pipeline": "p"}, "payload needs"},
		{"not an object", "2026-11-26 12:30", "prod", "payload needs"},
	} {
		got := deny(t, policy, at(tc.now), tc.input)
		switch {
		case tc.want == "" && len(got) > 0:
			t.Errorf("%s (%s): denied: %q", tc.name, tc.now, got)
		case tc.want != "" && (len(got) != 1 || !strings.Contains(got[0], tc.want)):
			t.Errorf("%s (%s): got %q, want one denial containing %q", tc.name, tc.now, got, tc.want)
		}
	}
}
