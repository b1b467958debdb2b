#!/usr/bin/env bash
# cost.sh runs issue #36's cost criterion on its whole population: the
# corpus props (RESULTS.md, "The population of #36's cost criterion", says
# which corpus assets and why) and the bench meshes
# (../shared/bench/acd-meshes/*.obj, real-meshes/*.obj), with the sets base
# (BASELINE's default profile), default (AC's), vhacd-default (V-HACD -h 32)
# and box (AC --method box, the floor), in Jolt and Rapier, 64 copies; the
# summary has the ratios to base and to vhacd-default over the whole
# population and per subset (corpus, acd, real).
#
#   tools/sim-bench/cost.sh AC BASELINE [SIM-BENCH FLAGS...] > cost.md
#   e.g. tools/sim-bench/cost.sh /tmp/ac /tmp/ac-main -repeat 3 -j 2 -json cost.json
#
# Extra flags go to sim-bench after the script's own (a later flag wins, e.g.
# -n, -max-steps; add sets with -variant NAME="FLAGS").
# Environment:
#   SHARED   the shared folder (default: ../shared from the repository root)
#   WORK     sim-bench's work folder (default /tmp/sim-bench-cost); V-HACD's
#            hulls (WORK/ASSET/vhacd-h32.obj) are reused when present, made
#            by VHACD otherwise
#   VHACD    TestVHACD (default /tmp/peers/bin/TestVHACD)
#   SIMBENCH a built sim-bench (default: built from this checkout into WORK)
#   ONLY     space-separated asset names (file names without extension) to
#            run only those, e.g. ONLY="Duck cup" for an estimate
#   LIST=1   print the population's files and exit
set -euo pipefail
if [ $# -lt 2 ]; then
	echo "usage: $0 AC BASELINE [sim-bench flags...]" >&2
	exit 2
fi
ac=$1 baseline=$2
shift 2
root=$(cd "$(dirname "$0")/../.." && pwd)
shared=${SHARED:-$root/../shared}
work=${WORK:-/tmp/sim-bench-cost}
vhacd=${VHACD:-/tmp/peers/bin/TestVHACD}
c=$shared/corpus

# The corpus props: one file per asset a game would pile.
population=(
	"$c/Avocado/glTF/Avocado.gltf"
	"$c/BoomBox/glTF-pbrSpecularGlossiness/BoomBox.gltf"
	"$c/Box/glTF-Binary/Box.glb"
	"$c/CesiumMan/glTF-Embedded/CesiumMan.gltf"
	"$c/CesiumMilkTruck/glTF-Draco/CesiumMilkTruck.gltf"
	"$c/Duck/glTF-Binary/Duck.glb"
	"$c/Fox/glTF-Binary/Fox.glb"
	"$c/Pirate/pirate.glb"
	"$c/RiggedFigure/glTF-Binary/RiggedFigure.glb"
	"$c/ToyCar/glTF/ToyCar.gltf"
	"$c/WaterBottle/glTF/WaterBottle.gltf"
	"$shared"/bench/acd-meshes/*.obj
	"$shared"/bench/real-meshes/*.obj
)
files=()
for f in "${population[@]}"; do
	if [ ! -f "$f" ]; then
		echo "$0: $f: no such file (SHARED=$shared)" >&2
		exit 1
	fi
	n=$(basename "$f")
	n=${n%.*}
	if [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $n "* ]]; then
		continue
	fi
	files+=("$f")
done
if [ "${LIST:-}" = 1 ]; then
	printf '%s\n' "${files[@]}"
	exit 0
fi
if [ ${#files[@]} -eq 0 ]; then
	echo "$0: no asset selected (ONLY=${ONLY:-})" >&2
	exit 1
fi
mkdir -p "$work"
sb=${SIMBENCH:-}
if [ -z "$sb" ]; then
	sb=$work/sim-bench
	(cd "$root" && go build -o "$sb" ./tools/sim-bench)
fi
exec "$sb" -ac "$ac" -baseline "$baseline" -vhacd "$vhacd" -work "$work" \
	-n 64 -max-steps 300 -k "" -variant box="--method box" -also-ratio-to vhacd-default \
	-subset corpus=/corpus/ -subset acd=/acd-meshes/ -subset real=/real-meshes/ \
	"$@" "${files[@]}"
