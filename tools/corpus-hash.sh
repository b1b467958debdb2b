#!/usr/bin/env bash
# Hashes every output autocollide makes from the shared corpora, so that a
# behaviour-preserving change (a refactor) can show it changed no byte:
#
#   tools/corpus-hash.sh > before.txt      # on the parent commit
#   tools/corpus-hash.sh > after.txt       # on the change
#   diff before.txt after.txt              # must print nothing
#
# It covers generate (default profile in OMI, KHR with both geometry forms,
# every preset and every method on a sample, G4MF in and out, authored
# physics kept), convert (every corpus-physics file to both families and to
# G4MF), validate's and inspect's output, and the JSON report without
# timings. The last line is one hash over all the others. Needs ../shared
# (found by walking up from the repository); takes about 3 minutes on 2
# quiet cores (-j 2).
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
shared=""
d=$repo
while [ "$d" != / ]; do
  if [ -d "$d/shared/corpus" ]; then shared=$d/shared; break; fi
  d=$(dirname "$d")
done
if [ -z "$shared" ]; then echo "corpus-hash: no shared/corpus above $repo" >&2; exit 2; fi

work=$(mktemp -d)
if [ -z "${CORPUS_HASH_KEEP:-}" ]; then trap 'rm -rf "$work"' EXIT; else echo "corpus-hash: outputs kept in $work" >&2; fi
ac=$work/autocollide
(cd "$repo" && go build -o "$ac" ./cmd/autocollide) || exit 2
out=$work/out
mkdir -p "$out" "$out/convert" "$out/reconv"
corpus=$shared/corpus
phys=$shared/corpus-physics
# A sample for the per-method and per-preset runs: small, instanced,
# skinned, multi-part, quantized and Draco files.
sample=(Box Duck BoomBox CesiumMan SimpleInstancing ToyCar Duck_glTF-Quantized
  Box_glTF-Draco MultipleScenes NegativeScaleTest)
ins=()
for s in "${sample[@]}"; do
  f=$(find "$corpus/$s" -name '*.gltf' -o -name '*.glb' | LC_ALL=C sort | head -1)
  if [ -z "$f" ]; then echo "corpus-hash: no glTF in $corpus/$s" >&2; exit 2; fi
  ins+=("$f")
done

run() { # name, then the command; its stdout and exit code are hashed too
  local name=$1; shift
  # Paths and timings differ between runs: they are not output.
  { "$@" 2>&1; echo "exit $?"; } | sed -E "s|$work|WORK|g; s|$shared|SHARED|g; s/ in [0-9.]+ (s|ms|µs|m[0-9.]+s)\$//" >"$out/$name.log"
}

run gen-omi $ac generate "$corpus" --out-dir "$out/omi" -j 2 --report "$out/omi.json" --no-timings
run gen-khr $ac generate "$corpus" --out-dir "$out/khr" --format khr -j 2 --report "$out/khr.json" --no-timings
run gen-khr-node $ac generate "${ins[@]}" --out-dir "$out/khr-node" --format khr --khr-geometry node -j 2
for m in aabb box sphere capsule cylinder hull decompose trimesh none; do
  run "method-$m" $ac generate "${ins[@]}" --out-dir "$out/method-$m" --method "$m" -j 2 --report "$out/method-$m.json" --no-timings
done
for p in $($ac profiles list | awk '{print $1}'); do
  run "preset-$p" $ac generate "${ins[@]}" --out-dir "$out/preset-$p" --profile "$p" -j 2
done
run gen-phys-omi $ac generate "$phys" --out-dir "$out/phys-omi" -j 2
run gen-phys-khr $ac generate "$phys" --out-dir "$out/phys-khr" --format khr -j 2
i=0
while IFS= read -r f; do
  i=$((i + 1))
  base=$(basename "$f" | sed 's/\.[^.]*$//')
  for to in omi khr; do
    run "convert-$i-$base-$to" $ac convert "$f" -o "$out/convert/$i-$base.$to.gltf" --to "$to"
  done
  run "convert-$i-$base-g4mf" $ac convert "$f" -o "$out/convert/$i-$base.g4tf"
  run "validate-$i-$base" $ac validate "$f" --strict
  run "inspect-$i-$base" $ac inspect --json "$f"
done < <(find "$phys" -name '*.gltf' -o -name '*.glb' | LC_ALL=C sort)
run g4mf-gen $ac generate "$out"/convert/*.g4tf --out-dir "$out/g4mf-gen" -j 2
for f in "$out"/omi/Box/glTF/Box.gltf "$out"/khr/ToyCar/glTF-Binary/ToyCar.glb "$out"/omi/CesiumMan/glTF-Binary/CesiumMan.glb; do
  n=$(echo "$f" | sed "s|$out/||; s|/|_|g")
  run "validate-out-$n" $ac validate "$f" --strict
  run "inspect-out-$n" $ac inspect --json "$f"
  run "convert-out-$n" $ac convert "$f" -o "$out/reconv/$n.gltf" --to khr
done
# Reports name the absolute paths of this run's folder.
for r in "$out"/*.json; do sed -i "s|$work|WORK|g; s|$shared|SHARED|g" "$r"; done
# Cache records name absolute paths and tool versions: not output.
(cd "$out" && find . -type f ! -name '.autocollide-cache.json' -print0 | LC_ALL=C sort -z | xargs -0 sha256sum) >"$work/sums"
cat "$work/sums"
echo "all $(sha256sum <"$work/sums" | cut -c1-64)"
