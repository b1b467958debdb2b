#!/usr/bin/env bash
# Times package draco's Decode and the npm draco3dgltf decoder on the same
# streams — the shared corpus's largest Draco primitive and a generated
# 1M-triangle mesh — side by side in one run: ROUNDS rounds (default 5),
# alternating Go and node so that both see the same machine load. In each
# round each side gives its mean time per decode over at least RUNS decodes
# (default 5) and, for the small stream, about a second of them (node after
# a second of warm-up, for its WebAssembly tiers). Prints the median over
# the rounds of each side and the ratio Go / npm.
#   tools/draco/bench.sh [ROUNDS] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-5}
runs=${2:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export DRACO_BENCH_DIR=$work
go test -count=1 -run '^TestWriteBenchStreams$' -v ./draco | grep -E 'bytes,|FAIL|ok' 
go test -c -o "$work/draco.test" ./draco
files=("$work/corpus-largest.drc" "$work/generated-1M-triangles.drc")
for ((r = 1; r <= rounds; r++)); do
  # Go: ns/op over about a second (small stream) or RUNS decodes (1M).
  for b in "corpus-largest 1s" "generated-1M ${runs}x"; do
    set -- $b
    (cd draco && "$work/draco.test" -test.run '^$' -test.bench "^BenchmarkDecode\$/^$1" -test.benchtime "$2") |
      awk '/^BenchmarkDecode\// { split($1, p, "/"); sub(/-[0-9]+$/, "", p[2]); print "go", p[2], $3 }' >>"$work/times"
  done
  # npm: mean ns over at least RUNS decodes and a second.
  node tools/draco/decode.mjs --bench "$runs" "${files[@]}" | awk '{ print "npm", $1, $2 }' >>"$work/times"
done
echo "load: $(uptime)"
awk '
  { k = $1 " " $2; t[k, ++n[k]] = $3; names[$2] = 1 }
  function median(k,   m, i, j, x, a) {
    m = n[k]; for (i = 1; i <= m; i++) a[i] = t[k, i]
    for (i = 2; i <= m; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
    return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
  }
  END {
    printf "%-28s %12s %12s %8s\n", "stream", "go ms", "npm ms", "go/npm"
    for (s in names) {
      g = median("go " s); p = median("npm " s)
      printf "%-28s %12.2f %12.2f %8.2f\n", s, g / 1e6, p / 1e6, g / p
    }
  }' "$work/times"
