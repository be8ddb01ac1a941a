#!/usr/bin/env bash
# Runs check.cjs with the Backstage packages package-lock.json pins
# (scripts/node-check.sh installs them once into a cache outside the
# clone). go test ./backstage runs it; by hand:
#   backstage/check/run.sh validate backstage/templates/*/template.yaml
#   backstage/check/run.sh render TEMPLATE ANSWERS.json
# --cache-dir and --cache-key print where the packages are cached and the
# cache's key, for a CI cache.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../../scripts/node-check.sh" backstage-check "$here" check.cjs "$@"
