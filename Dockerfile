# The autocollide image: one static binary (CGO_ENABLED=0, the presets and
# the default profile embedded in it) on an empty base, run as a non-root
# user. Build and try it with tools/container/build.sh (buildah, no daemon):
#
#   tools/container/build.sh                      # → localhost/autocollide:latest
#   podman run --rm -v "$PWD/assets:/assets:ro" -v "$PWD/build:/build" \
#     localhost/autocollide:latest generate /assets --out-dir /build
#
# The output folder must be writable by uid 65532.

# Build stage: the binary, from the Go module proxy.
ARG GO_IMAGE=docker.io/library/golang:1.26-bookworm
FROM ${GO_IMAGE} AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=devel
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" \
      -o /out/autocollide ./cmd/autocollide

# The image: nothing but the binary. No shell, no libc, no certificates:
# autocollide reads and writes local files only.
FROM scratch
COPY --from=build /out/autocollide /autocollide
USER 65532:65532
WORKDIR /work
ENTRYPOINT ["/autocollide"]
