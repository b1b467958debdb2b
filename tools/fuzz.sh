#!/usr/bin/env bash
# Runs every fuzz target briefly, one target per go test invocation (Go
# fuzzes one target at a time). Usage:
#   tools/fuzz.sh [FUZZTIME] [PKG:TARGET...]
# Without FUZZTIME each target runs its own number of executions (about
# 5 s each on the project's 2-core machine, from the rates of 10-minute
# runs). Counts rather than durations: with a duration, Go 1.26's fuzzing
# coordinator can fail a target with a bare "context deadline exceeded"
# when time runs out mid-execution (golang/go#75804, fixed in Go 1.27);
# a count has no deadline to race. FUZZTIME (e.g. 10m, or 5000x) applies
# to every target, as for the long runs. FUZZ_PARALLEL sets -parallel
# (default 1). A crash fails the script; Go writes the failing input
# under the package's testdata/fuzz/TARGET/, ready to become a seed.
set -euo pipefail
cd "$(dirname "$0")/.."
budget=${1:-}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(
    ./gltfio:FuzzLoad:25000x
    ./gltfio:FuzzParseJSON:35000x
    ./mesh:FuzzExtract:45000x
    ./mesh:FuzzAccessor:70000x
    ./meshopt:FuzzDecode:20000x
    ./meshopt:FuzzStreamHeader:20000x
    ./draco:FuzzDecode:70000x
    ./hull:FuzzBuild:30000x
    ./fit:FuzzFit:1000x
    ./decompose:FuzzDecompose:500x
    ./profiles:FuzzParse:10000x
    ./profiles:FuzzAliases:10000x
    ./batch:FuzzCacheFile:3000x
    ./physics/omi:FuzzDecode:5000x
    ./physics/khr:FuzzDecode:20000x
    ./physics/validate:FuzzValidate:25000x
    ./batch:FuzzMatch:15000x
    ./safetext:FuzzTerm:20000x
  )
fi
for t in "${targets[@]}"; do
  IFS=: read -r pkg name count <<<"$t"
  time=${budget:-${count:-5000x}}
  echo "== fuzz $pkg $name $time"
  go test -run '^$' -fuzz "^${name}\$" -fuzztime "$time" -parallel "${FUZZ_PARALLEL:-1}" "$pkg"
done
