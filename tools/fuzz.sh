#!/usr/bin/env bash
# Runs every fuzz target for a short while, one target per go test
# invocation (Go fuzzes one target at a time). Usage:
#   tools/fuzz.sh [SECONDS] [PKG:TARGET...]
# SECONDS defaults to 5. FUZZ_PARALLEL sets -parallel (default 1).
# A crash fails the script; the failing input is written by Go under the
# package's testdata/fuzz/TARGET/, ready to become a regression seed.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-5}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(
    ./gltfio:FuzzLoad
    ./gltfio:FuzzParseJSON
    ./mesh:FuzzExtract
    ./mesh:FuzzAccessor
    ./meshopt:FuzzDecode
    ./hull:FuzzBuild
    ./fit:FuzzFit
    ./decompose:FuzzDecompose
    ./profiles:FuzzParse
    ./physics/omi:FuzzDecode
    ./physics/khr:FuzzDecode
    ./physics/validate:FuzzValidate
  )
fi
for t in "${targets[@]}"; do
  pkg=${t%%:*} name=${t#*:}
  echo "== fuzz $pkg $name ${secs}s"
  go test -run '^$' -fuzz "^${name}\$" -fuzztime "${secs}s" -parallel "${FUZZ_PARALLEL:-1}" "$pkg"
done
