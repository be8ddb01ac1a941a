// Package delivery holds the tests of the files that run this program
// from CI: the GitHub Actions workflows (.github/workflows), the Harness
// pipeline (.harness), the Argo CD and Pulumi Kubernetes Operator
// manifests (deploy/argocd) and the ESC environments (esc/).
package delivery
