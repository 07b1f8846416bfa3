#!/usr/bin/env bash
# Builds the local image quarry-test/postgres:15 used by the end-to-end tests.
#
# No image registry is reachable from our machines, so we cannot pull
# postgres:15. Instead we debootstrap a minimal Debian bookworm rootfs with
# postgresql-15 from the Debian mirror apt already uses, add an entrypoint that
# behaves like the official image's (POSTGRES_USER / POSTGRES_PASSWORD /
# POSTGRES_DB), and `docker import` it. Does nothing if the image exists.
#
# Env: QUARRY_DEBIAN_MIRROR overrides the mirror read from apt's sources.
set -euo pipefail

IMAGE=quarry-test/postgres:15
log() { printf '[postgres-image] %s\n' "$*" >&2; }

if docker image inspect "$IMAGE" >/dev/null 2>&1; then
  log "$IMAGE already present, nothing to do"
  exit 0
fi

# The mirror URL must never be hard-coded in the repo: read it from apt's own
# configuration (deb822 first stanza, else the one-line format).
mirror=${QUARRY_DEBIAN_MIRROR:-}
if [[ -z $mirror && -r /etc/apt/sources.list.d/debian.sources ]]; then
  mirror=$(awk '/^[[:space:]]*$/ { if (seen) exit; next }
                { seen = 1 }
                tolower($1) == "uris:" { print $2; exit }' /etc/apt/sources.list.d/debian.sources)
fi
if [[ -z $mirror && -r /etc/apt/sources.list ]]; then
  mirror=$(sed -E 's/\[[^]]*\]//' /etc/apt/sources.list | awk '$1 == "deb" && $2 !~ /security/ { print $2; exit }')
fi
[[ -n $mirror ]] || { log "cannot find a Debian mirror; set QUARRY_DEBIAN_MIRROR"; exit 1; }

if ! command -v debootstrap >/dev/null; then
  log "installing debootstrap"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
fi

start=$SECONDS
work=$(mktemp -d "${TMPDIR:-/var/tmp}/quarry-pg-image.XXXXXX")
rootfs=$work/rootfs
cleanup() {
  # An interrupted debootstrap can leave /proc, /sys ... mounted inside the
  # rootfs: unmount them first so rm can never recurse into the host's.
  grep -o " $rootfs/[^ ]*" /proc/mounts | sort -r | xargs -r -n1 umount -l 2>/dev/null || true
  rm -rf --one-file-system "$work"
  docker image rm "$IMAGE-rootfs" >/dev/null 2>&1 || true
}
trap cleanup EXIT

log "debootstrap bookworm + postgresql-15 into $rootfs (a few minutes)"
debootstrap --variant=minbase --include=postgresql-15 bookworm "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 ||
  { tail -n 30 "$work/debootstrap.log" >&2; log "debootstrap failed"; exit 1; }

# Slim down: docs, man pages, translations, locale sources, apt lists/caches,
# the "main" cluster postgresql-common's postinst created (we initdb at first
# start), and the LLVM JIT (~140 MB: libLLVM + libz3; jit=off below, tests run
# short queries where JIT only adds latency).
rm -rf "$rootfs"/usr/share/{doc,man,info,locale,lintian,i18n}/* \
  "$rootfs"/usr/lib/*-linux-gnu/lib{LLVM,z3}[-.]*so* "$rootfs"/usr/lib/postgresql/15/lib/{llvmjit*,bitcode} \
  "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/* "$rootfs"/var/cache/debconf/*-old \
  "$rootfs"/var/log/*.log "$rootfs"/var/lib/postgresql/15 "$rootfs"/etc/postgresql/15 \
  "$rootfs"/etc/apt/sources.list

cat >"$rootfs/usr/local/bin/docker-entrypoint.sh" <<'EOF'
#!/bin/bash
# Minimal equivalent of the official postgres image's entrypoint.
# POSTGRES_USER (default postgres), POSTGRES_PASSWORD (required unless
# POSTGRES_HOST_AUTH_METHOD=trust), POSTGRES_DB (default $POSTGRES_USER),
# POSTGRES_INITDB_ARGS, POSTGRES_MAX_CONNECTIONS (default 200),
# POSTGRES_FSYNC_OFF=1 (opt-in: fsync/synchronous_commit/full_page_writes off,
# faster tests, unsafe on crash). Extra args go to postgres (e.g. -c foo=bar).
set -euo pipefail
export PGDATA=${PGDATA:-/var/lib/postgresql/data}
POSTGRES_USER=${POSTGRES_USER:-postgres}
POSTGRES_DB=${POSTGRES_DB:-$POSTGRES_USER}
AUTH=${POSTGRES_HOST_AUTH_METHOD:-scram-sha-256}
if [[ ${1:-} == postgres ]]; then shift; fi

if [[ $(id -u) == 0 ]]; then
  # Root only prepares directories (PGDATA may be a fresh volume or tmpfs),
  # then re-runs this script as the postgres OS user: initdb refuses root.
  mkdir -p "$PGDATA" /var/run/postgresql
  chown -R postgres:postgres "$PGDATA" /var/run/postgresql
  chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi

if [[ ! -s $PGDATA/PG_VERSION ]]; then
  if [[ -z ${POSTGRES_PASSWORD:-} && $AUTH != trust ]]; then
    echo "error: POSTGRES_PASSWORD is empty (or set POSTGRES_HOST_AUTH_METHOD=trust)" >&2
    exit 1
  fi
  pwfile=$(mktemp)
  printf '%s\n' "${POSTGRES_PASSWORD:-}" >"$pwfile"
  # The bootstrap superuser is named $POSTGRES_USER and gets the password.
  # shellcheck disable=SC2086
  initdb --username="$POSTGRES_USER" --pwfile="$pwfile" --auth-local=trust \
    --auth-host="$AUTH" --encoding=UTF8 --locale=C.UTF-8 ${POSTGRES_INITDB_ARGS:-} >/dev/null
  rm -f "$pwfile"
  echo "host all all all $AUTH" >>"$PGDATA/pg_hba.conf"
  printf "listen_addresses = '*'\nmax_connections = %s\njit = off\n" \
    "${POSTGRES_MAX_CONNECTIONS:-200}" >>"$PGDATA/postgresql.conf"

  # Temporary socket-only server to create the database and run init scripts;
  # its log goes to a file so "ready to accept connections" is printed only
  # once, by the real server (tests wait for that line).
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -l "$PGDATA/init.log" -w start >/dev/null ||
    { cat "$PGDATA/init.log" >&2; exit 1; }
  psql=(psql -X -q -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres)
  if [[ $POSTGRES_DB != postgres ]]; then
    "${psql[@]}" -v db="$POSTGRES_DB" <<<'CREATE DATABASE :"db";'
  fi
  for f in /docker-entrypoint-initdb.d/*; do
    case $f in
      *.sh) echo "running $f"; . "$f" ;;
      *.sql) echo "running $f"; "${psql[@]}" --dbname "$POSTGRES_DB" -f "$f" ;;
    esac
  done
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  rm -f "$PGDATA/init.log"
  echo "PostgreSQL init process complete; ready for start up."
fi

fast=()
if [[ ${POSTGRES_FSYNC_OFF:-} == 1 ]]; then
  fast=(-c fsync=off -c synchronous_commit=off -c full_page_writes=off)
fi
exec postgres "${fast[@]}" "$@"
EOF
chmod 755 "$rootfs/usr/local/bin/docker-entrypoint.sh"

log "importing rootfs into docker"
# --numeric-owner: the postgres uid/gid inside the rootfs must not be remapped
# through the host's passwd. /dev, /proc, /sys are provided by the runtime.
tar -C "$rootfs" --numeric-owner --exclude='./dev/*' --exclude='./proc/*' --exclude='./sys/*' -c . |
  docker import \
    --change 'ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]' \
    --change 'ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV PGDATA=/var/lib/postgresql/data' \
    --change 'EXPOSE 5432' \
    --change 'USER root' \
    - "$IMAGE-rootfs" >/dev/null

# Docker 20.10's import rejects STOPSIGNAL, so add it with a one-line build
# (FROM a local image: no registry needed). SIGINT = postgres "fast shutdown";
# the default SIGTERM is "smart shutdown", which waits for clients to leave.
# Own context dir so the rootfs is not sent as build context.
mkdir "$work/ctx"
printf 'FROM %s\nSTOPSIGNAL SIGINT\n' "$IMAGE-rootfs" >"$work/ctx/Dockerfile"
DOCKER_BUILDKIT=0 docker build -q -t "$IMAGE" "$work/ctx" >/dev/null 2>"$work/build.log" ||
  { cat "$work/build.log" >&2; exit 1; }

log "built $IMAGE in $((SECONDS - start))s ($(docker image inspect -f '{{.Size}}' "$IMAGE" | awk '{ printf "%d MB", $1 / 1e6 }'))"
