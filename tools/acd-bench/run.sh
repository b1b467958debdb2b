#!/bin/sh
# Benchmarks decompose against V-HACD (vhacd-js) on the same meshes in one run
# and prints a Markdown table. Usage, from the repository root:
#
#   tools/acd-bench/run.sh [REPEAT] [MESH.obj ...]
#
# Defaults: 3 runs per mesh (medians; VHACD_REPEAT overrides the count for
# vhacd-js, which takes minutes per mesh), every mesh of shared/bench/acd-meshes.
# Needs node and `cd tools && npm ci --no-audit --no-fund`; without
# node_modules only decompose is measured.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
repeat=${1:-3}
[ $# -gt 0 ] && shift
shared=${AUTOCOLLIDE_SHARED:-}
if [ -z "$shared" ]; then
  d=$root
  while [ "$d" != / ]; do
    if [ -d "$d/shared/corpus" ]; then shared=$d/shared; break; fi
    d=$(dirname "$d")
  done
fi
if [ $# -eq 0 ]; then
  [ -n "$shared" ] || { echo "run.sh: shared folder not found (set AUTOCOLLIDE_SHARED)" >&2; exit 1; }
  set -- "$shared"/bench/acd-meshes/*.obj
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
vh=
if [ -d "$root/tools/node_modules/vhacd-js" ]; then
  node "$root/tools/acd-bench/vhacd.mjs" "$tmp/vhacd.json" "${VHACD_REPEAT:-$repeat}" "$@"
  vh="-vhacd $tmp/vhacd.json"
else
  echo "run.sh: tools/node_modules missing, measuring decompose only" >&2
fi
cd "$root"
go build -o "$tmp/acd-bench" ./tools/acd-bench
# shellcheck disable=SC2086
"$tmp/acd-bench" -repeat "$repeat" $vh "$@"
