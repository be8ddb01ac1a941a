#!/usr/bin/env bash
# Builds the pinned Pulumi CLI from the Pulumi Go modules and caches it
# outside the clone (<cache>/bin/pulumi, the layout the Automation API
# expects), so later runs and CI reuse it; it is rebuilt only when the
# pinned version changes. Prints the binary's path.
# A `pulumi` already on PATH at the pinned version is used as is.
set -euo pipefail
version=v3.256.0
here=$(cd "$(dirname "$0")/.." && pwd)
cache=${PULUMI_CLI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/harness-platform/pulumi-$version}
bin=$cache/bin/pulumi

# --cache-dir and --cache-key print where the CLI is cached and the key of
# what it is built from (version, its module's go.mod and go.sum, the Go
# toolchain, the platform), for a CI cache (.github/workflows/preview.yml).
case "${1:-}" in
--cache-dir)
  echo "$cache"
  exit 0
  ;;
--cache-key)
  sum=$(cat "$here/tools/pulumi-cli/go.mod" "$here/tools/pulumi-cli/go.sum" | sha256sum | cut -c1-16)
  echo "pulumi-cli-$version-$sum-$(go env GOVERSION GOOS GOARCH | tr '\n' '-' | sed 's/-$//')"
  exit 0
  ;;
esac

if command -v pulumi >/dev/null 2>&1 && [ "$(pulumi version 2>/dev/null)" = "$version" ]; then
  command -v pulumi
  exit 0
fi
if [ -x "$bin" ] && [ "$("$bin" version 2>/dev/null)" = "$version" ]; then
  echo "$bin"
  exit 0
fi
mkdir -p "$cache/bin"
echo "building the Pulumi CLI $version (first time only, several minutes)..." >&2
start=$(date +%s)
(
  cd "$here/tools/pulumi-cli"
  GOFLAGS=-mod=mod go build -trimpath -o "$bin.tmp" \
    -ldflags "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=$version" \
    github.com/pulumi/pulumi/pkg/v3/cmd/pulumi
)
mv "$bin.tmp" "$bin"
echo "built $bin in $(( $(date +%s) - start ))s" >&2
echo "$bin"
