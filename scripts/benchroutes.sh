# The routes the benchmark scripts load-test (scripts/bench.sh,
# scripts/benchcompare.sh), sourced by both so that they measure the same
# requests. bench_routes CALLBACK STACK ADDR KEY calls
# CALLBACK STACK LABEL LOADGEN-ARGS... once per route, in order; healthz
# first. BENCH_ROUTES, when set, keeps only the routes it names (labels with
# their spaces written as dashes: "healthz ask-figure china-prices").

# JUDGMENT is the sample's Supreme Court judgment in Civil Appeal No. 5700
# of 2021 (38 pages in the original, 76 kB of text), the longest: its PDF
# is the heaviest the sample renders.
JUDGMENT=inj_n4ww4jhpszkskpjk

bench_routes() {
  local cb=$1 stack=$2 addr=$3 key=$4
  local h="X-API-KEY: $key"
  _bench_route "$cb" "$stack" healthz -url "http://$addr/healthz"
  _bench_route "$cb" "$stack" metered -url "http://$addr/china/securities/SSE.600519" -header "$h"
  _bench_route "$cb" "$stack" financials -url "http://$addr/us/financials?ticker=AAPL" -header "$h"
  _bench_route "$cb" "$stack" search -method POST -url "http://$addr/us/search" \
    -body '{"query":"iPhone services revenue"}' -header "$h"
  _bench_route "$cb" "$stack" holders -url "http://$addr/us/security-fund-holders?identifier=AAPL" -header "$h"
  # limit=1000 asks for a 1,000-bar page; the sample holds 302 bars of
  # 000001.SZ, so the page carries all 302 (two year buckets on MongoDB).
  _bench_route "$cb" "$stack" "china prices" -url "http://$addr/china/prices?code=000001.SZ&limit=1000" -header "$h"
  # Ask: a figure question (answered from the statements) and a text
  # question (retrieval over the 10-K sections).
  _bench_route "$cb" "$stack" ask-figure -method POST -url "http://$addr/ask" \
    -body '{"question":"What was Apple'"'"'s revenue in fiscal 2023?"}' -header "$h"
  _bench_route "$cb" "$stack" ask-text -method POST -url "http://$addr/ask" \
    -body '{"question":"What are Apple'"'"'s reportable segments?"}' -header "$h"
  _bench_route "$cb" "$stack" judgment -url "http://$addr/india/judgments/$JUDGMENT" -header "$h"
  _bench_route "$cb" "$stack" "judgment pdf" -url "http://$addr/india/judgments/$JUDGMENT/pdf" -header "$h"
  _bench_route "$cb" "$stack" "india search" -method POST -url "http://$addr/india/search" \
    -body '{"query":"writ petition municipal corporation"}' -header "$h"
  # RELIANCE's rows in the sample (16 days); the export is the same rows as
  # a typed Parquet file.
  _bench_route "$cb" "$stack" "india prices" -url "http://$addr/india/prices?symbol=RELIANCE&limit=1000" -header "$h"
  _bench_route "$cb" "$stack" "india csv" -url "http://$addr/india/prices.csv?symbol=RELIANCE" -header "$h"
  _bench_route "$cb" "$stack" "india export" -method POST -url "http://$addr/india/exports" \
    -body '{"dataset":"india.prices","format":"parquet","filters":{"symbol":"RELIANCE"}}' -header "$h"
}

# _bench_route CALLBACK STACK LABEL ARGS...: calls back unless BENCH_ROUTES
# leaves the route out.
_bench_route() {
  local cb=$1 stack=$2 label=$3
  shift 3
  if [[ -n ${BENCH_ROUTES:-} && " $BENCH_ROUTES " != *" ${label// /-} "* ]]; then
    return 0
  fi
  "$cb" "$stack" "$label" "$@"
}
