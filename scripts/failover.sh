#!/usr/bin/env bash
# The failover check of docs/operations.md ("A database failover"), on
# separate processes as an operator runs them:
#
#   scripts/failover.sh [RUNS] [NODES] [PROMOTE_AFTER]
#
# Each run starts a PostgreSQL 15 primary with a synchronous streaming
# standby (Debian's postgresql-15 binaries), NODES `quarry serve` processes
# (default 2) on both hosts in one URL with target_session_attrs=read-write,
# and eight clients on the metered GET /china/securities/SSE.600519. At a
# random moment between 3 and 7 s the primary is killed with SIGKILL and
# the standby promoted PROMOTE_AFTER seconds later (default 2); the load
# goes on 10 s more. Then it compares the credits the clients were told
# (X-Credits-Cost) with what the ledger kept, runs `quarry ledger verify`,
# and prints the status counts, the slowest request and the longest time
# without a success. A run fails on told != kept, a 500, a request left
# unanswered, or a ledger that does not verify; the times are reported,
# not judged, since they depend on the machine.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-3}
NODES=${2:-2}
PROMOTE_AFTER=${3:-2}
PG_BIN=/usr/lib/postgresql/15/bin
PRIMARY_PORT=5621 STANDBY_PORT=5622
[[ -x $PG_BIN/initdb ]] || { echo "no PostgreSQL 15 in $PG_BIN (apt-get install postgresql-15)" >&2; exit 1; }

pids=()
dir=""
# stop ends what was started, newest first (the nodes before the databases
# they hold connections to), with SIGINT: postgres's fast shutdown.
stop() {
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill -INT "${pids[i]}" 2>/dev/null && wait "${pids[i]}" 2>/dev/null || true; done
  pids=()
}
cleanup() {
  stop
  if [[ -n $dir ]]; then rm -rf "$dir"; fi
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
# as_pg runs a PostgreSQL binary as the postgres user when run as root,
# which initdb and postgres refuse; setpriv execs it in place, so the PID
# recorded is postgres's own.
as_pg=()
[[ $EUID == 0 ]] && as_pg=(setpriv --reuid=postgres --regid=postgres --init-groups)
as_pg() { "${as_pg[@]}" "$@"; }
wait_for() {
  for _ in $(seq 1200); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done
  fail "timed out waiting for: $*"
}
node_addr() { echo "127.0.0.1:$((18590 + $1))"; }

# start_pg NAME PORT starts postgres on $dir/NAME and records its PID.
start_pg() {
  (exec "${as_pg[@]}" "$PG_BIN/postgres" -D "$dir/$1" >"$dir/$1.log" 2>&1) &
  pids+=($!)
  eval "${1}_pid=$!"
  wait_for as_pg "$PG_BIN/pg_isready" -h 127.0.0.1 -p "$2"
}

cluster() {
  dir=$(mktemp -d /tmp/quarry-failover-XXXX)
  chown postgres "$dir" 2>/dev/null || true
  as_pg "$PG_BIN/initdb" -D "$dir/primary" -U quarry --auth=trust -E UTF8 >/dev/null
  printf "port = %d\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '%s'\nwal_level = replica\nmax_wal_senders = 4\nsynchronous_commit = on\nfsync = off\n" \
    "$PRIMARY_PORT" "$dir" >>"$dir/primary/postgresql.auto.conf"
  start_pg primary "$PRIMARY_PORT"
  as_pg "$PG_BIN/createdb" -h 127.0.0.1 -p "$PRIMARY_PORT" -U quarry quarry
  as_pg "$PG_BIN/pg_basebackup" -h 127.0.0.1 -p "$PRIMARY_PORT" -U quarry -D "$dir/standby" -R -X stream -c fast
  # The runbook's step 1, done ahead: a promoted standby with no standby of
  # its own must not wait for one on every commit.
  printf "port = %d\nsynchronous_standby_names = ''\n" "$STANDBY_PORT" >>"$dir/standby/postgresql.auto.conf"
  start_pg standby "$STANDBY_PORT"
  echo "synchronous_standby_names = '*'" >>"$dir/primary/postgresql.auto.conf"
  as_pg "$PG_BIN/pg_ctl" reload -D "$dir/primary" >/dev/null
}

# client N loops on the metered route until $dir/stop exists, one line a
# request: status, X-Credits-Cost, seconds taken, seconds since the start.
client() {
  local base="http://$(node_addr $(( $1 % NODES + 1 )))"
  while [[ ! -e $dir/stop ]]; do
    curl -s -o /dev/null -m 10 -D - -w 'STATUS %{http_code} %{time_total}\n' \
      "$base/china/securities/SSE.600519" -H "X-API-KEY: $key" |
      awk -v t0="$start" '
        tolower($1) == "x-credits-cost:" { cost = $2 + 0; seen = 1 }
        $1 == "STATUS" { "date +%s.%N" | getline now; printf "%s %s %s %.3f\n", $2, (seen ? cost : "none"), $3, now - t0 }'
  done >"$dir/client-$1.log"
}

one_run() {
  cluster
  local url="postgres://quarry@127.0.0.1:$PRIMARY_PORT,127.0.0.1:$STANDBY_PORT/quarry?sslmode=disable&target_session_attrs=read-write"
  export QUARRY_POSTGRES_URL=$url QUARRY_METRICS_ADDR=off QUARRY_RATE_LIMIT_RPS=1000000 QUARRY_RATE_LIMIT_BURST=1000000 QUARRY_LOG_LEVEL=warn
  ./bin/quarry migrate >/dev/null
  for i in $(seq "$NODES"); do
    (QUARRY_HTTP_ADDR=$(node_addr "$i") exec ./bin/quarry serve >"$dir/node-$i.log" 2>&1) &
    pids+=($!)
  done
  for i in $(seq "$NODES"); do wait_for curl -sf "http://$(node_addr "$i")/readyz"; done
  local session
  session=$(curl -sf -X POST "http://$(node_addr 1)/account/login" \
    -d '{"email":"failover@example.com","password":"a long passphrase"}' | sed 's/.*"session_token":"\([^"]*\)".*/\1/')
  key=$(curl -sf -X POST "http://$(node_addr 1)/account/keys?name=failover" -H "Authorization: Bearer $session" |
    sed 's/.*"api_key":"\([^"]*\)".*/\1/')
  local opening
  opening=$(balance "$session")
  start=$(date +%s.%N)
  local loaders=()
  for c in $(seq 8); do client "$c" & loaders+=($!); done
  local kill_at=$(( 3 + RANDOM % 5 ))
  sleep "$kill_at"
  kill -9 "$primary_pid"
  wait "$primary_pid" 2>/dev/null || true # reaped here, so bash reports no "Killed"
  local killed
  killed=$(awk -v t0="$start" -v now="$(date +%s.%N)" 'BEGIN { printf "%.3f", now - t0 }')
  sleep "$PROMOTE_AFTER"
  as_pg "$PG_BIN/pg_ctl" promote -D "$dir/standby" >/dev/null
  sleep 10
  touch "$dir/stop"
  wait "${loaders[@]}"
  report "$session" "$opening" "$killed"
  stop
  rm -rf "$dir"
  dir=""
}

balance() {
  curl -sf "http://$(node_addr 1)/account/credits?limit=1" -H "Authorization: Bearer $1" | sed 's/.*"balance":\([-0-9]*\).*/\1/'
}

# report waits for the nodes to settle what the clients were told, then
# compares and prints.
report() {
  local session=$1 opening=$2 killed=$3
  cat "$dir"/client-*.log >"$dir/all.log"
  local told statuses unanswered nocost slowest gap
  told=$(awk '$2 != "none" { s += $2 } END { print s + 0 }' "$dir/all.log")
  statuses=$(awk '{ n[$1]++ } END { for (s in n) printf "%s:%d ", s, n[s] }' "$dir/all.log")
  unanswered=$(awk '$1 == "000" { n++ } END { print n + 0 }' "$dir/all.log")
  nocost=$(awk '$1 != "000" && $2 == "none" { n++ } END { print n + 0 }' "$dir/all.log")
  slowest=$(awk '$3 > m { m = $3 } END { print m + 0 }' "$dir/all.log")
  gap=$(awk '$1 == 200 { print $4 }' "$dir/all.log" | sort -n | awk 'NR > 1 && $1 - last > g { g = $1 - last } { last = $1 } END { printf "%.3f", g }')
  local kept=-1
  for _ in $(seq 30); do
    kept=$(( opening - $(balance "$session") ))
    [[ $kept == "$told" ]] && break
    sleep 1
  done
  echo "run: killed at ${killed}s, promoted ${PROMOTE_AFTER}s later; statuses ${statuses}; told ${told}, kept ${kept}; slowest ${slowest}s; longest without a success ${gap}s"
  ./bin/quarry ledger verify >/dev/null || fail "the ledger does not verify"
  [[ $kept == "$told" ]] || fail "clients were told $told credits, the ledger kept $kept"
  [[ $statuses != *"500:"* ]] || fail "a request answered 500"
  [[ $unanswered == 0 && $nocost == 0 ]] || fail "$unanswered requests unanswered, $nocost without X-Credits-Cost"
}

go build -o bin/quarry ./cmd/quarry
for r in $(seq "$RUNS"); do
  echo "failover run $r of $RUNS"
  one_run
done
echo "ok: $RUNS failovers, told = kept in each, the ledger verified, no 500, every request answered"
