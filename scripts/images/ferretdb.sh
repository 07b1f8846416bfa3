#!/usr/bin/env bash
# Builds the local image quarry-test/ferretdb:1.24.2 used by the end-to-end
# tests: a FROM-scratch image holding a static binary that embeds FerretDB
# v1.24.2 with its pure-Go SQLite backend (module e2e/images/ferretdb).
# No image registry is reachable, hence no pulling of ferretdb/ferretdb.
# Does nothing if the image exists.
set -euo pipefail

IMAGE=quarry-test/ferretdb:1.24.2
MODULE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../e2e/images/ferretdb" && pwd)
log() { printf '[ferretdb-image] %s\n' "$*" >&2; }

if docker image inspect "$IMAGE" >/dev/null 2>&1; then
  log "$IMAGE already present, nothing to do"
  exit 0
fi
command -v go >/dev/null || { log "go toolchain not found"; exit 1; }

start=$SECONDS
ctx=$(mktemp -d "${TMPDIR:-/tmp}/quarry-ferretdb-image.XXXXXX")
trap 'rm -rf "$ctx"' EXIT

log "building static ferretdb binary"
# CGO off => fully static (modernc SQLite is pure Go), runnable FROM scratch.
# -mod=readonly + the committed go.sum keep the build reproducible.
mkdir "$ctx/rootfs"
(cd "$MODULE_DIR" && CGO_ENABLED=0 GOOS=linux go build -mod=readonly -trimpath -buildvcs=false \
  -ldflags='-s -w' -o "$ctx/rootfs/ferretdb" .)

# scratch has no filesystem at all: /state (SQLite files) and /tmp (SQLite
# temp files) must exist and be writable, also for a non-root --user. COPY
# would reset the directory modes to 0755, so ADD a tarball (modes kept).
mkdir -m 0777 "$ctx/rootfs/state"
mkdir -m 1777 "$ctx/rootfs/tmp"
tar -C "$ctx/rootfs" --owner=0 --group=0 -cf "$ctx/rootfs.tar" .
rm -rf "$ctx/rootfs"
cat >"$ctx/Dockerfile" <<'DOCKERFILE'
FROM scratch
ADD rootfs.tar /
EXPOSE 27017
ENTRYPOINT ["/ferretdb"]
DOCKERFILE

# Legacy builder: the docker CLI here has no buildx plugin, and FROM scratch
# needs no registry either way.
DOCKER_BUILDKIT=0 docker build -q -t "$IMAGE" "$ctx" >/dev/null 2>"$ctx/build.log" ||
  { cat "$ctx/build.log" >&2; exit 1; }

log "built $IMAGE in $((SECONDS - start))s ($(docker image inspect -f '{{.Size}}' "$IMAGE" | awk '{ printf "%d MB", $1 / 1e6 }'))"
