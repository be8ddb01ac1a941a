#!/usr/bin/env bash
# Parses the Mermaid blocks of the Markdown files it is given with
# Mermaid's own parser (mermaid.mjs), with the packages package-lock.json
# pins (scripts/node-check.sh installs them once into a cache outside the
# clone). go test ./internal/doccheck runs it; by hand:
#   docs/check/run.sh README.md docs/*.md
# --cache-dir and --cache-key print where the packages are cached and the
# cache's key, for a CI cache.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../../scripts/node-check.sh" docs-check "$here" mermaid.mjs "$@"
