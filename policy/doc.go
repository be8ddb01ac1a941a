// Package policy holds the project's policies: the CrossGuard pack that
// every preview and up runs (policy/crossguard, built as the analyzer
// policy/cmd/harness-platform-policy), and the change-window Rego that
// Harness itself evaluates in pipelines (policy/rego).
package policy
