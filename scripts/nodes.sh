#!/usr/bin/env bash
# Runs N `quarry serve` nodes (default 3) as separate processes on one
# PostgreSQL and one MongoDB-wire server, without docker compose: the
# databases run as containers, the nodes as local processes on
# 127.0.0.1:18491.. (metrics on 127.0.0.1:19491..), each started as an
# operator would start one behind a load balancer.
#
#   scripts/nodes.sh check [N]   spread a load over the nodes and check the
#                                money and key guarantees, then stop
#   scripts/nodes.sh serve [N]   keep the nodes running until Ctrl-C
#   scripts/nodes.sh failover [RUNS] [N] [PROMOTE_AFTER]
#                                kill the PostgreSQL primary under load,
#                                promote its standby, compare told with
#                                kept (scripts/failover.sh)
#
# check signs in on node 1 and uses the session on every node, spends an
# account of 150 credits with 300 requests sent round robin over the nodes
# by 12 clients (150 answered 200 and 150 answered 402: no overdraw), runs
# `quarry ledger verify`, then revokes a key through node 2 that every node
# has cached and expects 401 from every node on the next request.
set -euo pipefail
cd "$(dirname "$0")/.."
MODE=${1:-check}
if [[ $MODE == failover ]]; then
  shift
  exec bash scripts/failover.sh "$@"
fi
N=${2:-3}
PG_IMAGE=${QUARRY_TEST_POSTGRES_IMAGE:-quarry-test/postgres:15}
MONGO_IMAGE=${QUARRY_TEST_MONGO_IMAGE:-quarry-test/ferretdb:1.24.2}
containers=()
pids=()

cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null || true; done
  for c in "${containers[@]}"; do docker rm -f "$c" >/dev/null 2>&1 || true; done
}
trap cleanup EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
published() { docker port "$1" "$2" | head -n 1; }
wait_for() {
  for _ in $(seq 300); do "$@" >/dev/null 2>&1 && return 0; sleep 0.2; done
  fail "timed out waiting for: $*"
}
addr() { echo "127.0.0.1:$((18490 + $1))"; }
# Each node's metrics listener needs a port of its own on one machine.
metrics_addr() { echo "127.0.0.1:$((19490 + $1))"; }

go build -o bin/quarry ./cmd/quarry
pg=$(docker run -d --tmpfs /var/lib/postgresql/data -p 127.0.0.1::5432 -e POSTGRES_USER=quarry -e POSTGRES_PASSWORD=nodes -e POSTGRES_DB=quarry "$PG_IMAGE")
containers+=("$pg")
mg=$(docker run -d --tmpfs /state -p 127.0.0.1::27017 "$MONGO_IMAGE")
containers+=("$mg")
export QUARRY_POSTGRES_URL="postgres://quarry:nodes@$(published "$pg" 5432)/quarry?sslmode=disable"
export QUARRY_MONGO_URI="mongodb://$(published "$mg" 27017)" QUARRY_MONGO_DB=nodes
export QUARRY_INITIAL_CREDITS=150 QUARRY_RATE_LIMIT_RPS=100000 QUARRY_RATE_LIMIT_BURST=100000 QUARRY_LOG_LEVEL=warn
wait_for ./bin/quarry migrate
./bin/quarry ingest --quiet all

for i in $(seq "$N"); do
  (QUARRY_HTTP_ADDR=$(addr "$i") QUARRY_METRICS_ADDR=$(metrics_addr "$i") exec ./bin/quarry serve >"bin/node-$i.log" 2>&1) &
  pids+=($!)
done
for i in $(seq "$N"); do wait_for curl -sf "http://$(addr "$i")/readyz"; done
echo "$N nodes ready on $(for i in $(seq "$N"); do printf '%s ' "$(addr "$i")"; done)(logs: bin/node-N.log)"

if [[ $MODE == serve ]]; then
  echo "PostgreSQL: $QUARRY_POSTGRES_URL"
  echo "MongoDB:    $QUARRY_MONGO_URI (database nodes)"
  echo "Ctrl-C stops the nodes and removes the containers."
  wait
  exit 0
fi

session=$(curl -sf -X POST "http://$(addr 1)/account/login" \
  -d '{"email":"nodes@example.com","password":"a long passphrase"}' | sed 's/.*"session_token":"\([^"]*\)".*/\1/')
for i in $(seq "$N"); do
  code=$(curl -s -o /dev/null -w '%{http_code}' "http://$(addr "$i")/account/credits" -H "Authorization: Bearer $session")
  [[ $code == 200 ]] || fail "node $i answered $code to node 1's session"
done
echo "ok: node 1's session is valid on all $N nodes"

mint() {
  curl -sf -X POST "http://$(addr "$1")/account/keys?name=node$1" -H "Authorization: Bearer $session" |
    sed 's/.*"api_key":"\([^"]*\)".*/\1/'
}
key=$(mint 1)
statuses=$(for r in $(seq 300); do echo "$(addr $(( r % N + 1 )))"; done |
  xargs -P 12 -I{} curl -s -o /dev/null -w '%{http_code}\n' "http://{}/china/securities/SSE.600519" -H "X-API-KEY: $key" |
  sort | uniq -c | awk '{printf "%s:%s ", $2, $1}')
echo "300 requests over $N nodes: $statuses"
[[ $statuses == "200:150 402:150 " ]] || fail "want 150 answered 200 and 150 answered 402"
balance=$(curl -sf "http://$(addr "$N")/account/credits?limit=1" -H "Authorization: Bearer $session" | sed 's/.*"balance":\([-0-9]*\).*/\1/')
[[ $balance == 0 ]] || fail "balance $balance after the load, want 0"
./bin/quarry ledger verify
echo "ok: no overdraw, balance 0, ledger verified"
debited=$(for i in $(seq "$N"); do curl -sf "http://$(metrics_addr "$i")/metrics"; done |
  awk '$1 == "quarry_credits_debited_total" {sum += $2} END {print sum + 0}')
[[ $debited == 150 ]] || fail "the nodes' metrics count $debited credits debited, want 150"
code=$(curl -s -o /dev/null -w '%{http_code}' "http://$(addr 1)/metrics")
[[ $code == 404 ]] || fail "GET /metrics on the API answered $code, want 404"
echo "ok: the nodes' metrics, on their own listeners, sum to the 150 credits debited"

./bin/quarry credits grant nodes@example.com "$N" --reason "revocation check" >/dev/null
doomed=$(mint 1)
doomed_id=$(curl -sf "http://$(addr 1)/account/keys" -H "Authorization: Bearer $session" |
  grep -o '"key_id":"[^"]*"' | tail -n 1 | cut -d'"' -f4)
for i in $(seq "$N"); do
  code=$(curl -s -o /dev/null -w '%{http_code}' "http://$(addr "$i")/china/securities/SSE.600519" -H "X-API-KEY: $doomed")
  [[ $code == 200 ]] || fail "node $i answered $code before the revocation"
done
curl -sf -o /dev/null -X DELETE "http://$(addr $(( N > 1 ? 2 : 1 )))/account/keys/$doomed_id" -H "Authorization: Bearer $session"
for i in $(seq "$N"); do
  code=$(curl -s -o /dev/null -w '%{http_code}' "http://$(addr "$i")/china/securities/SSE.600519" -H "X-API-KEY: $doomed")
  [[ $code == 401 ]] || fail "node $i answered $code to the revoked key"
done
echo "ok: the key revoked through one node is refused by all $N nodes on the next request"
