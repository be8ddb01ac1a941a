#!/usr/bin/env bash
# plans-digest.sh DIR: one SHA-256 of the saved update plans in DIR (each
# file's path and content, in path order). plan-stack.yml passes it as a
# job output, which GitHub keeps apart from the artifact; up-stack.yml
# recomputes it over the plans it downloaded and applies them only if
# the two agree (docs/delivery.md, Who runs what).
set -euo pipefail
dir=${1:?usage: plans-digest.sh DIR}
cd "$dir"
find . -type f -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum | sha256sum | cut -d' ' -f1
