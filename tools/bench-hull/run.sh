#!/usr/bin/env bash
# Compare hull.Build with qhull's qconvex on the same uniform and on-sphere
# point sets (1e5 and 1e6 points by default) and print time ratios.
# Needs qconvex: apt-get install -y qhull-bin.
# Usage: tools/bench-hull/run.sh [-runs N] [-sizes 100000,1000000]
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v qconvex >/dev/null; then
	echo "qconvex not found: apt-get install -y qhull-bin" >&2
	exit 1
fi
go run ./tools/bench-hull "$@"
