// Package policy will hold the CrossGuard policy pack (run with
// `pulumi preview --policy-pack ./policy`). Until then it holds only the
// Rego that Harness itself evaluates, in policy/rego.
package policy
