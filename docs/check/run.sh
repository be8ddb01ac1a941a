#!/usr/bin/env bash
# Parses the Mermaid blocks of the Markdown files it is given with
# Mermaid's own parser (mermaid.mjs), with the packages package-lock.json
# pins, installed once with `npm ci` into a cache outside the clone keyed
# by the lockfile (and Node's major version), then reused: later runs need
# no network. go test ./internal/doccheck runs it; by hand:
#   docs/check/run.sh README.md docs/*.md
# --cache-dir and --cache-key print where the packages are cached and the
# cache's key, for a CI cache.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
key=docs-check-$(cat "$here/package.json" "$here/package-lock.json" | sha256sum | cut -c1-16)-node$(node -p 'process.versions.node.split(".")[0]')
cache=${DOCS_CHECK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/harness-platform/$key}

case "${1:-}" in
--cache-dir)
  echo "$cache"
  exit 0
  ;;
--cache-key)
  echo "$key"
  exit 0
  ;;
esac

if [ ! -f "$cache/.installed" ]; then
  echo "installing the docs check's packages into $cache (first time only)..." >&2
  start=$(date +%s)
  mkdir -p "$(dirname "$cache")"
  tmp=$(mktemp -d "$cache.tmp.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  cp "$here/package.json" "$here/package-lock.json" "$tmp/"
  # --ignore-scripts: no package runs code at install; --prefer-offline:
  # npm's own cache answers what it holds.
  (cd "$tmp" && npm ci --ignore-scripts --prefer-offline --no-audit --no-fund --loglevel=error >&2)
  touch "$tmp/.installed"
  # Another run may have installed it meanwhile: keep the first.
  mv -T "$tmp" "$cache" 2>/dev/null || rm -rf "$tmp"
  trap - EXIT
  echo "installed in $(($(date +%s) - start))s" >&2
fi
# An ES module resolves its imports from its own directory, not NODE_PATH:
# the script runs from beside the packages.
cp "$here/mermaid.mjs" "$cache/mermaid.mjs"
exec node "$cache/mermaid.mjs" "$@"
