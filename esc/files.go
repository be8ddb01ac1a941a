// Package esc holds the project's Pulumi ESC environments and the
// identities around them, as files a platform team applies: the ESC
// environments (harness-platform-*.yaml), each AWS account's roles and
// secrets as a CloudFormation template (aws/<account>.json), the GitHub
// Apps' manifests (github/<app id>.json) and the Pulumi Cloud teams and
// OIDC issuer policies (pulumi/access.yaml). Package trust reads them.
package esc

import "embed"

// Files are the files of this directory.
//
//go:embed *.yaml aws/*.json github/*.json pulumi/*.yaml
var Files embed.FS
