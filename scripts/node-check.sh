#!/usr/bin/env bash
# Runs a Node.js check of the project's with the packages its directory's
# package-lock.json pins, installed once with `npm ci` into a cache outside
# the clone keyed by the lockfile (and Node's major version), then reused:
# later runs need no network. backstage/check/run.sh and docs/check/run.sh
# call it:
#   scripts/node-check.sh NAME DIR ENTRY [ARGS...]
# NAME names the cache (NAME-<key>), DIR holds package.json,
# package-lock.json and ENTRY, the script run with ARGS. ENTRY runs from
# beside the packages, so that an ES module resolves its imports there
# (ES modules do not read NODE_PATH). With --cache-dir or --cache-key as
# ARGS it prints where the packages are cached, or the cache's key, for a
# CI cache.
set -euo pipefail
name=$1 here=$2 entry=$3
shift 3
key=$name-$(cat "$here/package.json" "$here/package-lock.json" | sha256sum | cut -c1-16)-node$(node -p 'process.versions.node.split(".")[0]')
# NAME's own override (BACKSTAGE_CHECK_CACHE, DOCS_CHECK_CACHE) wins.
override=$(echo "$name" | tr 'a-z-' 'A-Z_')_CACHE
cache=${!override:-${XDG_CACHE_HOME:-$HOME/.cache}/harness-platform/$key}

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
  echo "installing $name's packages into $cache (first time only)..." >&2
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
cp "$here/$entry" "$cache/$entry"
exec node "$cache/$entry" "$@"
