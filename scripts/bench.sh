#!/usr/bin/env bash
# Load-tests the served binary: GET /healthz (unmetered) against
# GET /china/securities/SSE.600519 (authenticated + metered), and the US
# rows GET /us/financials?ticker=AAPL, POST /us/search and
# GET /us/security-fund-holders?identifier=AAPL and
# GET /china/prices?code=000001.SZ&limit=1000, POST /ask (a figure and a
# text question), and the India rows GET /india/judgments/{id}, its PDF,
# POST /india/search, GET /india/prices, its CSV and POST /india/exports, first on
# memory storage, then on PostgreSQL + MongoDB-wire containers (the routes
# are listed in scripts/benchroutes.sh). Each route is followed by a row
# of a static body of its answer's mean size, served by Go's net/http
# (cmd/staticbody) on this machine with the same load generator: the
# limit of an answer that size. Prints req/s, p50, p99 and bytes, every
# route's ratio to healthz and to its static body measured in this run,
# and Ask's evaluation figures. Timings are reported, never asserted.
#
# BENCH_STACKS picks the stacks, by default "memory postgres durable
# embedded": memory storage; PostgreSQL + MongoDB with PostgreSQL's data on
# tmpfs; the same with PostgreSQL's data on the host's disk (fsync on); the
# durable embedded backend (QUARRY_DATA_DIR on the host's disk: SQLite,
# FerretDB over SQLite, bleve on disk), whose file sizes it prints.
# BENCH_PROFILE=1 also takes a CPU profile of the served binary during
# every route's load, through QUARRY_PPROF_ADDR, into
# bin/cpu-<stack>-<route>.pprof, and prints under each row the heaviest
# Quarry functions, the garbage collector's share, and the CPU per request
# of the server, the database containers and the whole machine; the
# profiler costs a little CPU, so compare ratios of runs taken the same way.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${BENCH_DURATION:-10s}
CONNS=${BENCH_CONNS:-32}
PG_IMAGE=${QUARRY_TEST_POSTGRES_IMAGE:-quarry-test/postgres:15}
MONGO_IMAGE=${QUARRY_TEST_MONGO_IMAGE:-quarry-test/ferretdb:1.24.2}
ADDR=127.0.0.1:18480
STACKS=${BENCH_STACKS:-memory postgres durable embedded}
PROFILE=${BENCH_PROFILE:-}
PPROF_ADDR=127.0.0.1:18481
# The served node keeps its metrics listener, on a port beside the bench's.
METRICS_ADDR=127.0.0.1:18482
STATIC_ADDR=127.0.0.1:18483
containers=()
stack_containers=()
server_pid=""
static_pid=""
pgdata=""
datadir=""

cleanup() {
  [[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true
  [[ -n $static_pid ]] && kill "$static_pid" 2>/dev/null && wait "$static_pid" 2>/dev/null || true
  for c in "${containers[@]}"; do docker rm -f "$c" >/dev/null 2>&1 || true; done
  [[ -n $pgdata ]] && rm -rf "$pgdata"
  [[ -n $datadir ]] && rm -rf "$datadir"
  return 0
}
trap cleanup EXIT

# Metering is measured, not the limiter or the balance: both are raised.
export QUARRY_HTTP_ADDR=$ADDR QUARRY_METRICS_ADDR=$METRICS_ADDR QUARRY_INITIAL_CREDITS=1000000000 \
  QUARRY_RATE_LIMIT_RPS=1000000 QUARRY_RATE_LIMIT_BURST=1000000 QUARRY_LOG_LEVEL=error
[[ -n $PROFILE ]] && export QUARRY_PPROF_ADDR=$PPROF_ADDR

start_server() {
  (exec ./bin/quarry serve >"bin/bench-$1.log" 2>&1) &
  server_pid=$!
  for _ in $(seq 100); do
    curl -sf "http://$ADDR/healthz" >/dev/null && return 0
    sleep 0.1
  done
  echo "server did not start; see bin/bench-$1.log" >&2
  exit 1
}

stop_server() {
  kill "$server_pid"
  wait "$server_pid" 2>/dev/null || true
  server_pid=""
}

mint_key() {
  local token
  token=$(curl -sf -X POST "http://$ADDR/account/login" \
    -d '{"email":"bench@example.com","password":"benchmark passphrase"}' | sed 's/.*"session_token":"\([^"]*\)".*/\1/')
  curl -sf -X POST "http://$ADDR/account/keys?name=bench" -H "Authorization: Bearer $token" |
    sed 's/.*"api_key":"\([^"]*\)".*/\1/'
}

# cpu_ticks PID...: the CPU time (user + system, in clock ticks) the
# processes have used so far.
cpu_ticks() {
  local t=0 p
  for p in "$@"; do
    t=$((t + $(awk '{ print $14 + $15 }' "/proc/$p/stat" 2>/dev/null || echo 0)))
  done
  echo "$t"
}

# database_pids: the host pids of the processes in this stack's containers.
database_pids() {
  local c
  for c in "${stack_containers[@]}"; do docker top "$c" -eo pid | tail -n +2; done
}

# route STACK LABEL LOADGEN-ARGS...: one row of the table. Under
# BENCH_PROFILE it also profiles the server during the load and prints
# where the row's CPU goes: the heaviest Quarry functions (cumulative), the
# garbage collector, and the CPU per request of the server, the database
# containers and the whole machine (from /proc), whose sum against
# healthz's says what the ratio can be.
# The row is kept in last_row.
route() {
  local stack=$1 label=$2 row
  shift 2
  if [[ -z $PROFILE ]]; then
    last_row=$(./bin/loadgen -label "$stack $label" -c "$CONNS" -d "$DURATION" "$@")
    tee -a bin/bench.tsv <<<"$last_row"
    return
  fi
  local file="bin/cpu-$stack-${label// /-}.pprof" profiler server0 db0 busy0
  (exec curl -sf -o "$file" "http://$PPROF_ADDR/debug/pprof/profile?seconds=$(( ${DURATION%s} - 2 ))") &
  profiler=$!
  server0=$(cpu_ticks "$server_pid"); db0=$(cpu_ticks $(database_pids)); busy0=$(awk '/^cpu /{ print $2+$3+$4+$7+$8+$9 }' /proc/stat)
  row=$(./bin/loadgen -label "$stack $label" -c "$CONNS" -d "$DURATION" "$@" | tee -a bin/bench.tsv)
  last_row=$row
  echo "$row"
  awk -v n="$(cut -f2 <<<"$row")" -v d="${DURATION%s}" -v hz="$(getconf CLK_TCK)" \
    -v s=$(( $(cpu_ticks "$server_pid") - server0 )) -v b=$(( $(cpu_ticks $(database_pids)) - db0 )) \
    -v m=$(( $(awk '/^cpu /{ print $2+$3+$4+$7+$8+$9 }' /proc/stat) - busy0 )) \
    'BEGIN { r = n * d; printf "    CPU per request: server %.0f us, databases %.0f us, machine %.0f us\n", s * 1e6 / hz / r, b * 1e6 / hz / r, m * 1e6 / hz / r }'
  wait "$profiler"
  go tool pprof -top -cum -nodecount=400 bin/quarry "$file" 2>/dev/null |
    awk '/Total samples/ { print "    profile: " $0; next }
      $6 ~ /quarrydata\/quarry\/(app|domain|adapters\/(memory|mongo|postgres|sqlite|bleve|exportfile|judgmentpdf))\./ && shown < 5 { print "    " $5 "\t" $6; shown++ }
      $6 == "runtime.gcBgMarkWorker" { print "    " $5 "\tGC (background mark)" }' | sed 's/github.com\/quarrydata\/quarry\///'
  if [[ $label == metered ]]; then
    echo "    top of the profile, flat:"
    go tool pprof -top -nodecount=12 bin/quarry "$file" 2>/dev/null | sed -n '/flat%/,$p' | sed 's/^/    /'
  fi
}

# bench_route STACK LABEL LOADGEN-ARGS...: a route's row, then (but for
# healthz) the row of a static body of its answer's mean size, and for the
# metered route its row at half the req/s just measured: its p50 and p99
# at a load the stack keeps up with.
bench_route() {
  local stack=$1 label=$2
  route "$@"
  [[ $label == healthz ]] && return 0
  local row=$last_row
  ./bin/loadgen -label "$stack $label@static" -url "http://$STATIC_ADDR/$(cut -f6 <<<"$row")" \
    -c "$CONNS" -d "$DURATION" | tee -a bin/bench.tsv
  if [[ $label == metered ]]; then
    ./bin/loadgen -label "$stack metered@half" -c "$CONNS" -d "$DURATION" \
      -rate "$(cut -f2 <<<"$row" | awk '{ print int($1 / 2) }')" "${@:3}" | tee -a bin/bench.tsv
  fi
}

measure() {
  bench_routes bench_route "$1" "$ADDR" "$(mint_key)"
}

# shellcheck source=scripts/benchroutes.sh
source scripts/benchroutes.sh
# shellcheck source=scripts/containers.sh
source scripts/containers.sh

wait_for() {
  for _ in $(seq 300); do "$@" >/dev/null 2>&1 && return 0; sleep 0.2; done
  echo "timed out waiting for: $*" >&2
  exit 1
}

# Ask's answer quality, measured by the evaluation tests themselves: the
# exact-answer set (app/ask/testdata/ask_eval.json), then right / refused /
# wrong on the dev part and the held-out test part (ask_eval_dev.json,
# ask_eval_test.json; docs/ask.md). A failing score is printed, not fatal.
{ go test ./app/ask -run '^(TestAskEvaluation|TestAskEval)$' -count=1 -v || true; } |
  sed -n -e 's/.*\(evaluation: .*\)/ask \1/p' -e 's/.*\(ask eval .*\)/\1/p'

: >bin/bench.tsv
(exec ./bin/staticbody -addr "$STATIC_ADDR" >bin/bench-static.log 2>&1) &
static_pid=$!
wait_for curl -sf "http://$STATIC_ADDR/0"
echo "stack route	req/s	p50 ms	p99 ms	statuses	bytes"

if [[ " $STACKS " == *" memory "* ]]; then
  unset QUARRY_POSTGRES_URL QUARRY_MONGO_URI
  start_server memory
  measure memory
  stop_server
fi
# databases LABEL PGDATA-MOUNT: PostgreSQL + MongoDB-wire containers, the
# sample ingested, the routes measured, the ledger verified.
databases() {
  local label=$1 mount=$2 pg mg
  pg=$(docker run -d $mount -p 127.0.0.1::5432 -e POSTGRES_USER=quarry -e POSTGRES_PASSWORD=bench -e POSTGRES_DB=quarry "$PG_IMAGE")
  containers+=("$pg")
  mg=$(docker run -d --tmpfs /state -p 127.0.0.1::27017 "$MONGO_IMAGE")
  containers+=("$mg")
  stack_containers=("$pg" "$mg")
  export QUARRY_POSTGRES_URL="postgres://quarry:bench@$(address "$pg" 5432)/quarry?sslmode=disable"
  export QUARRY_MONGO_URI="mongodb://$(address "$mg" 27017)" QUARRY_MONGO_DB=bench
  wait_for ./bin/quarry migrate
  wait_for ./bin/quarry ingest all
  start_server "$label"
  measure "$label"
  stop_server
  stack_containers=()
  ./bin/quarry ledger verify
}
if [[ " $STACKS " == *" postgres "* ]]; then
  # tmpfs: this sandbox stores container layers on fuse-overlayfs, which would
  # measure FUSE rather than the service.
  databases postgres+mongo "--tmpfs /var/lib/postgresql/data"
fi
if [[ " $STACKS " == *" durable "* ]]; then
  # PostgreSQL's data on the host's disk (ext4, bind-mounted past the
  # container layer), fsync and synchronous_commit on: what an operator runs.
  pgdata=$(mktemp -d "$PWD/bin/pgdata.XXXXXX")
  databases durable "-v $pgdata:/var/lib/postgresql/data"
fi

if [[ " $STACKS " == *" embedded "* ]]; then
  # The data directory on the host's disk; the sample loads at its first
  # start. Sizes are printed after the load (the ledger has grown by it).
  unset QUARRY_POSTGRES_URL QUARRY_MONGO_URI QUARRY_MONGO_DB
  datadir=$(mktemp -d "$PWD/bin/datadir.XXXXXX")
  export QUARRY_DATA_DIR=$datadir/data
  start_server embedded
  echo "embedded data directory after the sample loaded:"
  du -sh "$QUARRY_DATA_DIR"/platform.db "$QUARRY_DATA_DIR"/documents "$QUARRY_DATA_DIR"/indexes | sed 's|'"$QUARRY_DATA_DIR"'/||; s/^/  /'
  measure embedded
  stop_server
  echo "embedded data directory after the load:"
  du -sh "$QUARRY_DATA_DIR"/platform.db* "$QUARRY_DATA_DIR"/documents "$QUARRY_DATA_DIR"/indexes | sed 's|'"$QUARRY_DATA_DIR"'/||; s/^/  /'
  ./bin/quarry ledger verify
  unset QUARRY_DATA_DIR
fi

# Every route's req/s as a ratio to its stack's healthz and to the static
# body of its answer's size, measured in this run.
awk -F'\t' '
  { stack = $1; sub(/ .*/, "", stack); route = $1; sub(/^[^ ]+ /, "", route) }
  route == "healthz" { healthz[stack] = $2 }
  route ~ /@static$/ { r = route; sub(/@static$/, "", r); static[stack, r] = $2; next }
  route !~ /@half$/ && route != "healthz" { rows[++n] = stack "\t" route "\t" $2 "\t" $6 }
  END {
    printf "ratio to healthz and to a static body of the answer'"'"'s size:\n  %-15s %-14s %8s %8s %8s\n", "stack", "route", "bytes", "healthz", "static"
    for (i = 1; i <= n; i++) {
      split(rows[i], f, "\t")
      if (f[1] in healthz) printf "  %-15s %-14s %8d %8.3f %8.3f\n", f[1], f[2], f[4], f[3] / healthz[f[1]],
        (static[f[1], f[2]] > 0 ? f[3] / static[f[1], f[2]] : 0)
    }
  }' bin/bench.tsv
