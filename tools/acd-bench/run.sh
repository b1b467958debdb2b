#!/bin/sh
# Benchmarks decompose against V-HACD (vhacd-js) on the same meshes in one run
# and prints a Markdown table. Usage, from the repository root:
#
#   tools/acd-bench/run.sh [REPEAT] [MESH.obj|MESH.gltf|MESH.glb ...]
#
# Defaults: 3 runs per mesh (medians), every mesh of shared/bench/acd-meshes
# and shared/bench/real-meshes plus the corpus props Duck, Avocado,
# WaterBottle, BoomBox and CesiumMilkTruck (ToyCar, 109k triangles, only when
# named). After the table, each set is compared with CoACD's figures (see
# sets.go). glTF files are
# flattened to OBJ first, one OBJ per glTF mesh (its first instance, node
# transforms applied; named FILE-MESH when the file has several), so that
# both tools read the same triangles, the parts generate decomposes.
# Environment: VHACD_REPEAT overrides the run count for vhacd-js (minutes per
# mesh); VHACD_JSON names a file that caches vhacd-js's results (reused when
# it exists, written when not); NO_VHACD=1 measures decompose only.
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
  c=$shared/corpus
  set -- "$shared"/bench/acd-meshes/*.obj "$shared"/bench/real-meshes/*.obj "$c"/Duck/glTF-Binary/Duck.glb "$c"/Avocado/glTF/Avocado.gltf \
    "$c"/WaterBottle/glTF/WaterBottle.gltf "$c"/BoomBox/glTF-pbrSpecularGlossiness/BoomBox.gltf \
    "$c"/CesiumMilkTruck/glTF-Draco/CesiumMilkTruck.gltf
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$root"
go build -o "$tmp/acd-bench" ./tools/acd-bench
mkdir "$tmp/obj"
for f in "$@"; do
  case $f in
  *.gltf | *.glb)
    "$tmp/acd-bench" -export "$tmp/obj" -parts "$f"
    ;;
  *) cp "$f" "$tmp/obj/" ;;
  esac
done
set --
for f in "$tmp"/obj/*.obj; do set -- "$@" "$f"; done
vh=
json=${VHACD_JSON:-$tmp/vhacd.json}
if [ -n "${NO_VHACD:-}" ]; then
  :
elif [ -s "$json" ]; then
  vh="-vhacd $json"
elif [ -d "$root/tools/node_modules/vhacd-js" ]; then
  node "$root/tools/acd-bench/vhacd.mjs" "$json" "${VHACD_REPEAT:-$repeat}" "$@"
  vh="-vhacd $json"
else
  echo "run.sh: tools/node_modules missing, measuring decompose only" >&2
fi
# shellcheck disable=SC2086
"$tmp/acd-bench" -repeat "$repeat" $vh "$@"
