package catalog

import (
	"errors"
	"strings"
	"testing"

	"github.com/company/harness-platform/diag"
)

// An archetype's image scan threshold resolves onto its services, the
// default critical where it sets none; a bad value is refused where it is
// written, with its fix, and so is none, which Harness accepts but which
// would pass every image.
func TestImageScanSeverity(t *testing.T) {
	c, err := Parse(exampleFiles(t))
	if err != nil {
		t.Fatal(err)
	}
	for service, want := range map[string]string{"payment-service": "critical", "ledger-writer": "critical", "settlement-batch": "high"} {
		if s, _ := c.Service(service); s.FailOnSeverity != want {
			t.Errorf("%s (%s): fails on %q, want %q", service, s.Archetype, s.FailOnSeverity, want)
		}
	}
	const at = "    imageScan: {failOnSeverity: high}\n"
	for _, tc := range []struct {
		name, value, want string
	}{
		{"upper case", "CRITICAL", `catalog/archetypes.yaml:38:33: "CRITICAL" is not a valid failOnSeverity; did you mean "critical"?`},
		{"not a Harness severity", "info", `catalog/archetypes.yaml:38:33: "info" is not a valid failOnSeverity; use one of: critical, high, medium, low, none`},
		{"none", "none", `catalog/archetypes.yaml:38:33: archetype "cron": imageScan failOnSeverity none would pass every image: Production's image scan (Harness STO fail_on_severity: none) never fails the deployment; ` +
			`write the least severity that must stop a deployment: critical, high, medium or low (critical fails only on critical issues), or remove imageScan for the default, critical`},
		{"blank", `""`, `catalog/archetypes.yaml:38:33: "failOnSeverity" is empty; write a value: The least severity that fails the scan, and the deployment: critical, high, medium or low (an issue of that severity or higher fails it; Harness STO's fail_on_severity). none is refused: it would pass every image`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := exampleFiles(t)
			s := string(files[ArchetypesFile])
			if !strings.Contains(s, at) {
				t.Fatalf("%q not in %s", at, ArchetypesFile)
			}
			files[ArchetypesFile] = []byte(strings.Replace(s, at, "    imageScan: {failOnSeverity: "+tc.value+"}\n", 1))
			_, err := Parse(files)
			var derr *diag.Error
			if !errors.As(err, &derr) {
				t.Fatalf("want *diag.Error, got %v", err)
			}
			var got []string
			for _, d := range derr.List {
				got = append(got, d.String())
			}
			if strings.Join(got, "\n") != tc.want {
				t.Errorf("diagnostics:\n got: %s\nwant: %s", strings.Join(got, "\n      "), tc.want)
			}
		})
	}
}
