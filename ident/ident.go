// Package ident maps catalog names to Harness identifiers and checks them
// against Harness's rules, so that every identifier is computed, never
// looked up.
package ident

import (
	"fmt"
	"regexp"
	"strings"
)

// MaxLen is the longest identifier Harness accepts.
const MaxLen = 128

var pattern = regexp.MustCompile(`^[a-zA-Z_][0-9a-zA-Z_$]*$`)

// reserved are the words Harness refuses as identifiers.
var reserved = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`or and eq ne lt gt le ge div mod not null true false new var return step parallel stepGroup org account status liteEngineTask`) {
		reserved[w] = true
	}
}

// From maps a catalog name such as "payment-service" to its Harness
// identifier "payment_service": every character that Harness does not allow
// becomes an underscore. The result is not checked; use Check.
func From(name string) string {
	if isIdentifier(name) {
		return name // most names need no change: no copy
	}
	var b strings.Builder
	b.Grow(len(name))
	for _, r := range name {
		if identRune(r) {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// identRune reports whether From keeps r as it is.
func identRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_'
}

func isIdentifier(name string) bool {
	for i := 0; i < len(name); i++ {
		if !identRune(rune(name[i])) {
			return false
		}
	}
	return true
}

// Join builds a compound identifier such as "prod_euw1_k8s".
func Join(parts ...string) string {
	for i, p := range parts {
		parts[i] = From(p)
	}
	return strings.Join(parts, "_")
}

// Check reports why id is not a valid Harness identifier, or nil.
func Check(id string) error {
	switch {
	case id == "":
		return fmt.Errorf("identifier is empty")
	case len(id) > MaxLen:
		return fmt.Errorf("identifier %q is %d characters long; Harness allows at most %d", id, len(id), MaxLen)
	case !pattern.MatchString(id):
		return fmt.Errorf("identifier %q must start with a letter or '_' and contain only letters, digits, '_' or '$'", id)
	case reserved[id]:
		return fmt.Errorf("identifier %q is a word Harness reserves", id)
	}
	return nil
}

var dnsLabel = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)

// CheckDNSLabel reports why s is not a Kubernetes name (RFC 1123 label):
// namespaces, release names and delegate names must be.
func CheckDNSLabel(s string) error {
	switch {
	case len(s) > 63:
		return fmt.Errorf("%q is %d characters long; Kubernetes names allow at most 63", s, len(s))
	case !dnsLabel.MatchString(s):
		return fmt.Errorf("%q must be lower-case letters, digits and '-', starting and ending with a letter or digit", s)
	}
	return nil
}
