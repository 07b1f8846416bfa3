#!/usr/bin/env bash
# Builds the Quarry image (default quarry:dev, or $QUARRY_IMAGE): a static
# binary FROM scratch that serves memory storage with the bundled sample
# data on 0.0.0.0:8080, or PostgreSQL and MongoDB when given their URLs
# (QUARRY_POSTGRES_URL, QUARRY_MONGO_URI; see the README). Readiness is
# GET /readyz. Unlike the test images it is rebuilt every time, so it never
# lags the code: Go's build cache and Docker's layer cache make a rebuild of
# unchanged code take seconds.
set -euo pipefail

IMAGE=${QUARRY_IMAGE:-quarry:dev}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
log() { printf '[quarry-image] %s\n' "$*" >&2; }

command -v go >/dev/null || { log "go toolchain not found"; exit 1; }
start=$SECONDS
ctx=$(mktemp -d "${TMPDIR:-/tmp}/quarry-image.XXXXXX")
trap 'rm -rf "$ctx"' EXIT

version=$(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo dev)
log "building static quarry binary ($version)"
# CGO off => fully static, runnable FROM scratch. The service reads no
# time zone, certificate or user database from the filesystem.
mkdir "$ctx/rootfs"
(cd "$ROOT" && CGO_ENABLED=0 GOOS=linux go build -mod=readonly -trimpath \
  -ldflags="-s -w -X github.com/quarrydata/quarry/internal/buildinfo.Version=$version" -o "$ctx/rootfs/quarry" ./cmd/quarry)

# scratch has no filesystem: give it a world-writable /tmp (1777) in case a
# library wants os.TempDir. COPY would reset the mode, so ADD a tarball.
mkdir -m 1777 "$ctx/rootfs/tmp"
tar -C "$ctx/rootfs" --owner=0 --group=0 -cf "$ctx/rootfs.tar" .
rm -rf "$ctx/rootfs"
cat >"$ctx/Dockerfile" <<'DOCKERFILE'
FROM scratch
ADD rootfs.tar /
# Inside a container the listener must face the network; the binary's own
# default is loopback.
ENV QUARRY_HTTP_ADDR=0.0.0.0:8080
EXPOSE 8080
# The metrics listener faces the container's network too; publish 9464 only
# where Prometheus scrapes from, never to the public (docs/operations.md).
ENV QUARRY_METRICS_ADDR=0.0.0.0:9464
EXPOSE 9464
# Any unprivileged user: the service writes nothing to disk.
USER 65534:65534
ENTRYPOINT ["/quarry"]
CMD ["serve"]
DOCKERFILE

# Legacy builder: the docker CLI here has no buildx plugin, and FROM scratch
# needs no registry either way.
DOCKER_BUILDKIT=0 docker build -q --label "org.opencontainers.image.version=$version" \
  -t "$IMAGE" "$ctx" >/dev/null 2>"$ctx/build.log" ||
  { cat "$ctx/build.log" >&2; exit 1; }

log "built $IMAGE in $((SECONDS - start))s ($(docker image inspect -f '{{.Size}}' "$IMAGE" | awk '{ printf "%.1f MB", $1 / 1e6 }'))"
