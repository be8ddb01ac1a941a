package ident

import (
	"regexp"
	"strings"
)

var (
	exactVersion = regexp.MustCompile(`^v?[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$`)
	imageRef     = regexp.MustCompile(`^([a-z0-9.-]+(:[0-9]+)?/)?[a-z0-9._/-]+(:[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}|@sha256:[a-f0-9]{64})$`)
)

// ExactVersion reports whether v names one release (1.0.22), not a range
// or a moving target (~1.0, 1.x, latest). The stack settings and the
// policy pack both mean this by "pinned".
func ExactVersion(v string) bool { return exactVersion.MatchString(v) }

// PinnedImage reports whether image names a tag or digest other than
// latest.
func PinnedImage(image string) bool {
	return imageRef.MatchString(image) && !strings.HasSuffix(image, ":latest")
}
