#!/usr/bin/env bash
# Scale benchmark (go tool task bench-scale; SCALE=0.01 by default, 0.1 or 1
# for more). It generates US filers at run time, SCALE x 18,000 of them
# (EDGAR's companyfacts universe), as copies under synthetic CIKs from
# 9000000001 of the real companyfacts documents in BENCH_FACTS_DIR (the
# SEC's CIK##########.json, a few MB each; see docs/capacity.md for where to
# get them); without it, of the trimmed bundled samples, which are not of
# real size and say so. Everything generated is labelled as generated
# (tickers BENCH1..., titles "benchmark copy of ...") and deleted at exit.
# Then, on a data directory (QUARRY_DATA_DIR) on the host's disk:
#   - ingests the bundled sample of every dataset, then the generated filers
#     through `quarry ingest us_financials`: wall time, facts/s, peak RSS;
#   - prints the data directory's bytes on disk (documents, platform.db,
#     the bleve indexes) after the sample and after the filers;
#   - serves it: time from start to /readyz, RSS at rest, RSS after a mixed
#     load;
#   - drives each data route with loadgen at BENCH_RATE requests/s (8
#     connections, BENCH_DURATION each): the US financials routes over
#     random generated filers, the other routes over their sample keys (those
#     datasets are not scaled by this script).
# Figures are printed, never asserted. Not part of `go tool task test` or CI.
set -euo pipefail
cd "$(dirname "$0")/.."
SCALE=${SCALE:-0.01}
RATE=${BENCH_RATE:-20}
DURATION=${BENCH_DURATION:-10s}
FACTS_DIR=${BENCH_FACTS_DIR:-}
ADDR=127.0.0.1:18490
filers=$(awk -v s="$SCALE" 'BEGIN { n = int(18000 * s + 0.5); print (n < 1 ? 1 : n) }')
work=$(mktemp -d "$PWD/bin/scale.XXXXXX")
server_pid=""
cleanup() {
  [[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
export QUARRY_DATA_DIR=$work/data QUARRY_HTTP_ADDR=$ADDR QUARRY_METRICS_ADDR=127.0.0.1:18491 \
  QUARRY_INITIAL_CREDITS=1000000000 QUARRY_RATE_LIMIT_RPS=1000000 QUARRY_RATE_LIMIT_BURST=1000000 QUARRY_LOG_LEVEL=error
unset QUARRY_POSTGRES_URL QUARRY_MONGO_URI QUARRY_MONGO_DB

if [[ -n $FACTS_DIR ]]; then
  echo "generated: $filers filers (SCALE=$SCALE of 18,000), copies of the real companyfacts in $FACTS_DIR under synthetic CIKs"
  ./bin/benchinput -out "$work/in" -from "$FACTS_DIR" -companyfacts "$filers" -zip=false >"$work/counts"
else
  echo "generated: $filers filers (SCALE=$SCALE of 18,000), copies of the TRIMMED bundled samples (about 12 kB each, not real size: set BENCH_FACTS_DIR)"
  ./bin/benchinput -out "$work/in" -companyfacts "$filers" -zip=false >"$work/counts"
fi
facts=$(awk -F'\t' '$1 == "facts" { print $2 }' "$work/counts")
echo "input: $(du -sh "$work/in/companyfacts" | cut -f1) in $filers files, $facts facts"

sizes() {
  echo "data directory $1:"
  { du -sk "$QUARRY_DATA_DIR"/documents "$QUARRY_DATA_DIR"/indexes "$QUARRY_DATA_DIR"/platform.db* 2>/dev/null || true; } |
    awk -v d="$QUARRY_DATA_DIR/" '{ sub(d, "", $2); printf "  %-24s %8.1f MiB\n", $2, $1 / 1024 }'
}

# timed LABEL ARGS...: one `quarry ARGS` under /usr/bin/time; prints wall
# seconds and peak RSS.
timed() {
  local label=$1
  shift
  /usr/bin/time -v ./bin/quarry "$@" >"$work/out" 2>"$work/time" || { cat "$work/out" "$work/time" >&2; exit 1; }
  secs=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$work/time")
  rss=$(awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$work/time")
  printf "%-44s %8.1f s  peak RSS %5d MiB\n" "$label" "$secs" "$rss"
}

timed "ingest all (the bundled samples)" ingest --quiet all
sizes "after the samples"
timed "ingest us_financials ($filers generated filers)" ingest --quiet us_financials "$work/in/companyfacts" "$work/in/company_tickers.json"
awk -v f="$facts" -v s="$secs" -v n="$filers" 'BEGIN { printf "  %.0f facts/s read, %.1f filers/s\n", (s > 0 ? f / s : 0), (s > 0 ? n / s : 0) }'
sizes "after the generated filers"

start=$(date +%s.%N)
(exec ./bin/quarry serve >"$work/serve.log" 2>&1) &
server_pid=$!
until curl -sf "http://$ADDR/readyz" >/dev/null 2>&1; do
  kill -0 "$server_pid" 2>/dev/null || { cat "$work/serve.log" >&2; exit 1; }
  sleep 0.05
done
awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "serve: /readyz after %.2f s\n", b - a }'
sleep 2
rss() { awk '/^VmRSS|^VmHWM/ { printf "%s %.0f MiB  ", $1, $2 / 1024 }' "/proc/$server_pid/status"; echo; }
echo "serve RSS at rest: $(rss)"

token=$(curl -sf -X POST "http://$ADDR/account/login" \
  -d '{"email":"scale@example.com","password":"benchmark passphrase"}' | sed 's/.*"session_token":"\([^"]*\)".*/\1/')
key=$(curl -sf -X POST "http://$ADDR/account/keys?name=scale" -H "Authorization: Bearer $token" |
  sed 's/.*"api_key":"\([^"]*\)".*/\1/')

# urls FILE PATH-TEMPLATE: one URL per generated filer, {i} its number.
urls() {
  for i in $(seq "$filers"); do echo "http://$ADDR${2//\{i\}/$i}"; done | shuf >"$work/$1"
}
urls fin "/us/financials?ticker=BENCH{i}"
urls inc "/us/financials/income-statements?ticker=BENCH{i}&period=quarterly&limit=8"
# (seq, not awk: mawk's %d stops at 2^31.)
seq 9000000001 $((9000000000 + filers)) | sed "s|^|http://$ADDR/us/financials/balance-sheets?cik=|" | shuf >"$work/bal"
urls cash "/us/financials/cash-flow-statements?ticker=BENCH{i}&period=ttm"

echo "route (rate $RATE/s, 8 connections, $DURATION)	req/s	p50 ms	p99 ms	statuses"
load() { ./bin/loadgen -c 8 -d "$DURATION" -rate "$RATE" -header "X-API-KEY: $key" "$@"; }
load -label "GET /us/financials (random filer, cold then memo)" -urls "$work/fin"
load -label "GET /us/financials/income-statements (random, quarterly)" -urls "$work/inc"
load -label "GET /us/financials/balance-sheets (random cik)" -urls "$work/bal"
load -label "GET /us/financials/cash-flow-statements (random, ttm)" -urls "$work/cash"
load -label "POST /us/search (sample)" -method POST -url "http://$ADDR/us/search" -body '{"query":"iPhone services revenue"}'
load -label "GET /us/security-fund-holders (sample)" -url "http://$ADDR/us/security-fund-holders?identifier=AAPL"
load -label "GET /china/securities/{code} (sample)" -url "http://$ADDR/china/securities/SSE.600519"
load -label "GET /china/prices (sample)" -url "http://$ADDR/china/prices?code=000001.SZ&limit=1000"
load -label "GET /india/judgments/{id} (sample)" -url "http://$ADDR/india/judgments/inj_n4ww4jhpszkskpjk"
load -label "POST /india/search (sample)" -method POST -url "http://$ADDR/india/search" -body '{"query":"writ petition municipal corporation"}'
load -label "GET /india/prices (sample)" -url "http://$ADDR/india/prices?symbol=RELIANCE&limit=1000"
echo "serve RSS after the mixed load: $(rss)"
