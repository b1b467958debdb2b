#!/bin/sh
# build.sh regenerates viewer.min.js, the 3D viewer the HTML report and
# `autocollide review` embed, from src/ and the npm packages pinned in
# tools/package.json (three, esbuild), as installed in tools/node_modules
# (npm ci --prefix tools). An optional argument writes elsewhere (the
# test compares that with the committed file).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tools=${AUTOCOLLIDE_TOOLS:-$here/../tools}
out=${1:-$here/viewer.min.js}
cd "$here"
NODE_PATH="$tools/node_modules" "$tools/node_modules/.bin/esbuild" src/viewer.js \
	--bundle --minify --format=iife --global-name=AutocollideViewer --target=es2020 \
	--define:import.meta.url='"https://autocollide.invalid/viewer/"' \
	--loader:.wasm=binary --legal-comments=eof --charset=utf8 --log-level=warning \
	--banner:js="/* autocollide viewer: three.js (MIT), its GLTFLoader, DRACOLoader and OrbitControls, the Draco decoder (Apache-2.0) and meshoptimizer's decoder (MIT); licences in viewer/LICENSES.md */" \
	--outfile="$out"
