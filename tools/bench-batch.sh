#!/usr/bin/env bash
# bench-batch.sh — throughput of `autocollide generate` on a whole folder.
#
# Runs the shared corpus (or the folder given as $1) with -j 1 and -j 2,
# --force (so nothing is served from the cache), for --method aabb and
# hull, RUNS times each (default 3), and prints the median wall time,
# the median user+sys CPU time, files per second and the -j 2 / -j 1
# speed-up. Usage, from the repository root:
#
#   tools/bench-batch.sh [CORPUS_DIR]       # RUNS=5 METHODS="aabb" to change
#   ARGS="--exclude MetalRoughSpheresNoTextures/**" tools/bench-batch.sh
#
# ARGS is added to every generate command. On the shared corpus one file
# (MetalRoughSpheresNoTextures) takes most of the single-worker time, which
# caps any speed-up; excluding it shows how the pool scales.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
shared=${AUTOCOLLIDE_SHARED:-}
if [ -z "$shared" ]; then
  # Like the tests: the first shared/ folder holding a corpus, walking up.
  d=$repo
  while [ "$d" != / ] && [ ! -d "$d/shared/corpus" ]; do d=$(dirname "$d"); done
  shared=$d/shared
fi
corpus=${1:-$shared/corpus}
runs=${RUNS:-3}
methods=${METHODS:-"aabb hull"}
jobs_list=${JOBS:-"1 2"}
[ -d "$corpus" ] || { echo "no corpus folder at $corpus" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=$work/autocollide
(cd "$repo" && go build -o "$bin" ./cmd/autocollide)
files=$(find "$corpus" -type f \( -name '*.gltf' -o -name '*.glb' \) | wc -l)
echo "corpus: $corpus ($files files${ARGS:+, with $ARGS}), $(nproc) CPUs, $runs runs each, median shown"
printf '%-6s %3s %10s %14s %10s\n' method -j "wall s" "user+sys s" "files/s"

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

declare -A wall
for m in $methods; do
  for j in $jobs_list; do
    : >"$work/wall" ; : >"$work/cpu"
    for _ in $(seq "$runs"); do
      TIMEFORMAT='%R %U %S'
      # The exit code is 1 when some corpus files fail (Draco); that is
      # part of the run, not a benchmark failure.
      t=$( { time "$bin" generate "$corpus" --out-dir "$work/out" --force -q \
               --method "$m" -j "$j" ${ARGS:-} >/dev/null 2>&1 || true; } 2>&1 )
      read -r r u s <<<"$t"
      echo "$r" >>"$work/wall"
      awk -v u="$u" -v s="$s" 'BEGIN {print u + s}' >>"$work/cpu"
    done
    w=$(median <"$work/wall")
    c=$(median <"$work/cpu")
    wall[$m.$j]=$w
    printf '%-6s %3s %10.2f %14.2f %10.2f\n' "$m" "$j" "$w" "$c" "$(awk -v n="$files" -v w="$w" 'BEGIN {print n / w}')"
  done
done
for m in $methods; do
  if [ -n "${wall[$m.1]:-}" ] && [ -n "${wall[$m.2]:-}" ]; then
    awk -v m="$m" -v a="${wall[$m.1]}" -v b="${wall[$m.2]}" 'BEGIN {printf "%s: -j 2 is %.2fx the speed of -j 1 (wall)\n", m, a / b}'
  fi
done
