#!/usr/bin/env bash
# benchcompare.sh BASE HEAD: builds the served binary of two commits and
# load-tests them interleaved (base, head, base, head, ...) with the
# routes of scripts/bench.sh, so that a change's cost is measured in one
# run on the same machine. BASE and HEAD are commits (anything git
# rev-parse reads) or paths to binaries already built. Prints each run's
# rows, then per stack and route: each binary's mean req/s, its mean ratio
# to healthz of the same server run, head's req/s over base's, and each
# binary's mean server CPU per request (microseconds, from /proc).
# Timings are reported, never asserted.
#
# BENCH_ROUNDS (default 2) is how many times each binary runs;
# BENCH_STACKS (default "memory") picks "memory" and/or "postgres"
# (PostgreSQL + MongoDB-wire containers, one set per binary, ingested by
# that binary); BENCH_ROUTES keeps only the routes it names (see
# scripts/benchroutes.sh); BENCH_DURATION and BENCH_CONNS as in bench.sh.
# BENCH_PROFILE=1 also writes a CPU profile of each route's load to
# bin/compare-<binary>-<stack>-<route>-<round>.pprof.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $# -ne 2 ]]; then
  echo "usage: $0 BASE HEAD" >&2
  exit 2
fi
DURATION=${BENCH_DURATION:-6s}
CONNS=${BENCH_CONNS:-32}
ROUNDS=${BENCH_ROUNDS:-2}
STACKS=${BENCH_STACKS:-memory}
PROFILE=${BENCH_PROFILE:-}
PG_IMAGE=${QUARRY_TEST_POSTGRES_IMAGE:-quarry-test/postgres:15}
MONGO_IMAGE=${QUARRY_TEST_MONGO_IMAGE:-quarry-test/ferretdb:1.24.2}
ADDR=127.0.0.1:18490
PPROF_ADDR=127.0.0.1:18491
METRICS_ADDR=127.0.0.1:18492
containers=()
server_pid=""
trees=()

cleanup() {
  [[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true
  for c in "${containers[@]}"; do docker rm -f "$c" >/dev/null 2>&1 || true; done
  for t in "${trees[@]}"; do git worktree remove --force "$t" >/dev/null 2>&1 || true; done
  return 0
}
trap cleanup EXIT

# shellcheck source=scripts/benchroutes.sh
source scripts/benchroutes.sh
# shellcheck source=scripts/containers.sh
source scripts/containers.sh

mkdir -p bin
go build -o bin/loadgen ./cmd/loadgen

# binary REV: the path of REV's served binary, built into bin/ from a
# detached worktree of REV unless REV is an executable file.
binary() {
  if [[ -f $1 && -x $1 ]]; then
    echo "$1"
    return
  fi
  local sha tree out
  sha=$(git rev-parse --short=12 "$1^{commit}")
  out=bin/compare-$sha
  if [[ ! -x $out ]]; then
    tree=$(mktemp -d "${TMPDIR:-/tmp}/benchcompare.XXXXXX")
    trees+=("$tree")
    git worktree add --detach "$tree" "$sha" >/dev/null 2>&1
    (cd "$tree" && go build -o "$OLDPWD/$out" ./cmd/quarry)
    git worktree remove --force "$tree"
  fi
  echo "$out"
}
base_bin=$(binary "$1")
head_bin=$(binary "$2")
echo "base $1: $base_bin"
echo "head $2: $head_bin"

export QUARRY_HTTP_ADDR=$ADDR QUARRY_METRICS_ADDR=$METRICS_ADDR QUARRY_INITIAL_CREDITS=1000000000 \
  QUARRY_RATE_LIMIT_RPS=1000000 QUARRY_RATE_LIMIT_BURST=1000000 QUARRY_LOG_LEVEL=error
[[ -n $PROFILE ]] && export QUARRY_PPROF_ADDR=$PPROF_ADDR

wait_for() {
  for _ in $(seq 300); do "$@" >/dev/null 2>&1 && return 0; sleep 0.2; done
  echo "timed out waiting for: $*" >&2
  exit 1
}

# database ENVFILE BINARY: PostgreSQL + MongoDB-wire containers for one
# binary, migrated and ingested by it; their settings go to ENVFILE.
database() {
  local pg mg
  pg=$(docker run -d --tmpfs /var/lib/postgresql/data -p 127.0.0.1::5432 -e POSTGRES_USER=quarry \
    -e POSTGRES_PASSWORD=bench -e POSTGRES_DB=quarry "$PG_IMAGE")
  containers+=("$pg")
  mg=$(docker run -d --tmpfs /state -p 127.0.0.1::27017 "$MONGO_IMAGE")
  containers+=("$mg")
  {
    echo "export QUARRY_POSTGRES_URL='postgres://quarry:bench@$(address "$pg" 5432)/quarry?sslmode=disable'"
    echo "export QUARRY_MONGO_URI='mongodb://$(address "$mg" 27017)' QUARRY_MONGO_DB=bench"
  } >"$1"
  (source "$1" && wait_for "$2" migrate && wait_for "$2" ingest all)
}

for stack in $STACKS; do
  if [[ $stack == postgres ]]; then
    database bin/compare-base.env "$base_bin"
    database bin/compare-head.env "$head_bin"
  fi
done

# one_route STACK LABEL ARGS...: one row, labelled with the binary and
# round (set by run), appended to bin/compare.tsv.
one_route() {
  local stack=$1 label=$2 profiler=""
  shift 2
  if [[ -n $PROFILE ]]; then
    (exec curl -sf -o "bin/compare-$name-$stack-${label// /-}-$round.pprof" \
      "http://$PPROF_ADDR/debug/pprof/profile?seconds=$(( ${DURATION%s} - 2 ))") &
    profiler=$!
  fi
  local ticks0 row
  ticks0=$(server_ticks)
  row=$(./bin/loadgen -label "$name $stack $label $round" -c "$CONNS" -d "$DURATION" "$@")
  # The server's CPU per request over the load, in microseconds: steadier
  # than req/s on a shared machine.
  printf '%s\t%s\n' "$row" "$(awk -v n="$(cut -f2 <<<"$row")" -v d="${DURATION%s}" -v hz="$(getconf CLK_TCK)" \
    -v t=$(( $(server_ticks) - ticks0 )) 'BEGIN { printf "%.0f", (n > 0 ? t * 1e6 / hz / (n * d) : 0) }')" | tee -a bin/compare.tsv
  [[ -n $profiler ]] && wait "$profiler"
  return 0
}

# server_ticks: the CPU time (user + system, in clock ticks) the server
# has used so far.
server_ticks() { awk '{ print $14 + $15 }' "/proc/$server_pid/stat"; }

# run NAME BINARY STACK ROUND: one server run of every route.
run() {
  local bin=$2 stack=$3 token key
  name=$1 round=$4
  (
    unset QUARRY_POSTGRES_URL QUARRY_MONGO_URI QUARRY_MONGO_DB
    [[ $stack == postgres ]] && source "bin/compare-$name.env"
    exec "$bin" serve >"bin/compare-$name-$stack.log" 2>&1
  ) &
  server_pid=$!
  wait_for curl -sf "http://$ADDR/healthz"
  token=$(curl -sf -X POST "http://$ADDR/account/login" \
    -d '{"email":"bench@example.com","password":"benchmark passphrase"}' | sed 's/.*"session_token":"\([^"]*\)".*/\1/')
  key=$(curl -sf -X POST "http://$ADDR/account/keys?name=bench" -H "Authorization: Bearer $token" |
    sed 's/.*"api_key":"\([^"]*\)".*/\1/')
  bench_routes one_route "$stack" "$ADDR" "$key"
  kill "$server_pid"
  wait "$server_pid" 2>/dev/null || true
  server_pid=""
}

: >bin/compare.tsv
echo "binary stack route round	req/s	p50 ms	p99 ms	statuses	bytes	server us/req"
for stack in $STACKS; do
  for round in $(seq "$ROUNDS"); do
    run base "$base_bin" "$stack" "$round"
    run head "$head_bin" "$stack" "$round"
  done
done

# Per stack and route: each binary's mean req/s and mean ratio to the
# healthz of its own server run, and head over base.
awk -F'\t' '
  {
    n = split($1, w, " "); bin = w[1]; stack = w[2]; round = w[n]
    route = w[3]; for (i = 4; i < n; i++) route = route " " w[i]
    run = bin SUBSEP stack SUBSEP round
    if (route == "healthz") healthz[run] = $2
    key = stack SUBSEP route
    if (!(key in seen)) { seen[key] = 1; order[++routes] = key }
    rps[key, bin] += $2; cpu[key, bin] += $7; count[key, bin]++
    rowsrun[NR] = run; rowkey[NR] = key; rowbin[NR] = bin; rowrps[NR] = $2
  }
  END {
    for (i = 1; i <= NR; i++) if (healthz[rowsrun[i]] > 0) {
      ratio[rowkey[i], rowbin[i]] += rowrps[i] / healthz[rowsrun[i]]; rcount[rowkey[i], rowbin[i]]++
    }
    printf "%-9s %-14s %10s %10s %8s %8s %9s %9s %9s\n", "stack", "route", "base r/s", "head r/s", "base/hz", "head/hz", "head/base", "base us", "head us"
    for (j = 1; j <= routes; j++) {
      k = order[j]; split(k, f, SUBSEP)
      b = rps[k, "base"] / count[k, "base"]; h = rps[k, "head"] / count[k, "head"]
      printf "%-9s %-14s %10.0f %10.0f %8.3f %8.3f %9.2f %9.0f %9.0f\n", f[1], f[2], b, h,
        ratio[k, "base"] / rcount[k, "base"], ratio[k, "head"] / rcount[k, "head"], (b > 0 ? h / b : 0),
        cpu[k, "base"] / count[k, "base"], cpu[k, "head"] / count[k, "head"]
    }
  }' bin/compare.tsv
