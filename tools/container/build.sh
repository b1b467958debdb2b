#!/usr/bin/env bash
# Builds the autocollide image from the repository's Dockerfile with
# buildah (daemon-less; Debian: apt-get install buildah) and runs it, as
# the image's non-root user, on testdata/examples.
#
#   tools/container/build.sh            IMAGE=registry.example.com/autocollide:1.0 tools/container/build.sh
#
# When the Dockerfile's build stage cannot get its Go image (no registry
# reachable, as on the project's build machine, which reaches only the Go
# module proxy, Debian and npm), it says so and does the Dockerfile's steps
# by hand: the same `go build` on this machine, then buildah puts the binary
# on an empty base with the same user, working folder and entry point.
# Environment: IMAGE (default localhost/autocollide:latest), GO_IMAGE,
# STORAGE_DRIVER (default vfs, which works without kernel overlay support),
# PREBUILT=1 to skip the Dockerfile build and go straight to the steps.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v buildah >/dev/null || { echo "buildah is not installed (Debian: apt-get install buildah)" >&2; exit 1; }

image=${IMAGE:-localhost/autocollide:latest}
go_image=${GO_IMAGE:-docker.io/library/golang:1.26-bookworm}
version=${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo devel)}
bah=(buildah --storage-driver "${STORAGE_DRIVER:-vfs}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

built=""
if [ "${PREBUILT:-}" != 1 ]; then
  echo "== buildah bud -f Dockerfile -t $image (GO_IMAGE=$go_image)"
  if timeout 600 "${bah[@]}" bud --isolation chroot --build-arg GO_IMAGE="$go_image" \
       --build-arg VERSION="$version" -f Dockerfile -t "$image" . ; then
    built=dockerfile
  else
    echo "== the Dockerfile's build stage failed (is $go_image reachable?);"
    echo "   doing its steps by hand instead"
  fi
fi
if [ -z "$built" ]; then
  echo "== CGO_ENABLED=0 go build -trimpath -ldflags '-s -w -X main.version=$version'"
  CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=$version" -o "$tmp/autocollide" ./cmd/autocollide
  echo "== FROM scratch, COPY, USER 65532:65532, WORKDIR /work, ENTRYPOINT [/autocollide]"
  ctr=$("${bah[@]}" from scratch)
  "${bah[@]}" copy --chmod 0755 "$ctr" "$tmp/autocollide" /autocollide >/dev/null
  "${bah[@]}" config --user 65532:65532 --workingdir /work --entrypoint '["/autocollide"]' --cmd '' \
    --label org.opencontainers.image.version="$version" "$ctr"
  "${bah[@]}" commit --rm "$ctr" "$image" >/dev/null
  built="steps by hand"
fi
echo "== built $image ($built)"
"${bah[@]}" inspect --type image --format '   user {{.OCIv1.Config.User}}, entrypoint {{.OCIv1.Config.Entrypoint}}, {{len .OCIv1.RootFS.DiffIDs}} layer(s){{println}}' "$image"

echo "== run: generate /assets --out-dir /build (testdata/examples), as uid 65532"
out="$tmp/build"
mkdir -p "$out" && chmod 0777 "$out"
ctr=$("${bah[@]}" from "$image")
run=("${bah[@]}" run --isolation chroot --user 65532:65532
     -v "$PWD/testdata/examples:/assets:ro" -v "$out:/build" "$ctr" --)
"${run[@]}" /autocollide version
"${run[@]}" /autocollide generate /assets --out-dir /build --report /build/report.json
"${run[@]}" /autocollide inspect /build/furniture.glb
"${run[@]}" /autocollide generate /assets --out-dir /build   # again: served from the cache
"${bah[@]}" rm "$ctr" >/dev/null
owner=$(stat -c %u "$out/furniture.glb")
if [ "$owner" != 65532 ]; then
  echo "the output is owned by uid $owner, not the image's user 65532" >&2
  exit 1
fi
echo "== ok: $image wrote $(find "$out" -name '*.glb' | wc -l) output(s) as uid $owner"
