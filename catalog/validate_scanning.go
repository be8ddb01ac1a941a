package catalog

import "fmt"

// checkScanning checks each archetype's image scan: Production deploys a
// service's image only after a scan of that image passes, failing on the
// archetype's severity (docs/delivery.md, The image scan gate). A bad
// value is refused where it is written, with the values Harness accepts;
// none, which Harness accepts, is refused too: that scan never fails, so
// the gate would pass every image.
func (v *validator) checkScanning() {
	for _, a := range v.files.archetypes {
		s := a.ImageScan
		if s == nil || s.FailOnSeverity != "none" {
			continue // the decoder refuses a value outside the enum
		}
		v.at(s.At.Field("failOnSeverity"),
			fmt.Sprintf("write the least severity that must stop a deployment: %s (%s fails only on critical issues), or remove imageScan for the default, %s",
				joinOr(FailOnSeverities), FailOnSeverities[0], DefaultFailOnSeverity),
			"archetype %q: imageScan failOnSeverity none would pass every image: Production's image scan (Harness STO fail_on_severity: none) never fails the deployment", a.Name)
	}
}

// joinOr lists values as "a, b, c or d".
func joinOr(values []string) string {
	switch len(values) {
	case 0:
		return ""
	case 1:
		return values[0]
	}
	out := values[0]
	for _, s := range values[1 : len(values)-1] {
		out += ", " + s
	}
	return out + " or " + values[len(values)-1]
}
