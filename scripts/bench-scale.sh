#!/usr/bin/env bash
# Scale benchmark (go tool task bench-scale; SCALE=0.01 by default, 0.1 or 1
# for more). It generates SCALE of issue 25's full universe at run time,
# from real rows, everything labelled as generated and deleted at exit
# (cmd/benchinput):
#   - US filers, SCALE x 18,000 of them (EDGAR's companyfacts universe), as
#     copies under synthetic CIKs from 9000000001 of the real companyfacts
#     documents in BENCH_FACTS_DIR (the SEC's CIK##########.json, a few MB
#     each; see docs/capacity.md for where to get them); without it, of the
#     trimmed bundled samples, which are not of real size and say so
#     (tickers BENCH1..., titles "benchmark copy of ...");
#   - 10-K filing folders, SCALE x 6,000 filers x 20 years, copies of the
#     sample's real folders (CIKs from 9100000001, "benchmark copy of ...");
#   - 13F-HR filings, SCALE x 8,000 filers x 40 quarters, of the sample's
#     real information tables (CIKs from 9200000001);
#   - A-share bars, SCALE x 5,600 unlisted codes from listing to yesterday
#     (about 4,460 bars a code), the sample's real bars re-dated and re-coded;
#   - NSE UDiFF days, SCALE x 10 million rows in whole days, the sample's
#     real days re-dated;
#   - India judgments, SCALE x 200,000, the sample's real texts re-laid,
#     tokenized on ingest with a key made for the run.
# Then, on a data directory (QUARRY_DATA_DIR) on the host's disk, or with
# BENCH_STACK=databases on PostgreSQL + a MongoDB-wire server in containers:
#   - ingests the bundled sample of every dataset, then each generated
#     dataset through `quarry ingest`: wall time, rows/s, peak RSS, and the
#     documents' growth on disk;
#   - prints the data directory's bytes on disk (documents, platform.db,
#     the bleve indexes) after the sample, after the inputs and once
#     served; on a data directory `quarry ingest` builds the search
#     indexes, on the databases' stack the first start does (in memory);
#   - serves it: time from start to /readyz, RSS at rest, RSS after a mixed
#     load, and time to /readyz again on a restart;
#   - drives each data route with loadgen at BENCH_RATE requests/s (8
#     connections, BENCH_DURATION each), over random generated keys (and
#     random listed codes for /china/securities).
# BENCH_SEARCH=both (databases' stack only) compares the search engines in
# the same run: the ingestions index into the shared PostgreSQL index too
# (QUARRY_SEARCH=postgres; its build is part of their time and its tables'
# size is printed), the node serves on bleve as above, then restarts on
# bleve and on PostgreSQL in turn, each timed to /readyz and loaded with
# the search routes alone. BENCH_SEARCH=postgres serves on the shared
# index only (no bleve build, which at 10% takes most of an hour), and its
# first start is the one timed.
# BENCH_DATASETS (all) limits the generated datasets to a space-separated
# list of financials filings holders bars nse judgments, to run one at a
# larger SCALE. Figures are printed, never asserted. Not part of `go tool
# task test` or CI.
set -euo pipefail
cd "$(dirname "$0")/.."
SCALE=${SCALE:-0.01}
RATE=${BENCH_RATE:-20}
DURATION=${BENCH_DURATION:-10s}
FACTS_DIR=${BENCH_FACTS_DIR:-}
# BENCH_PORT (18490) and the next two ports serve HTTP, metrics and the
# files `quarry sync` fetches, so that two runs can share a machine.
PORT=${BENCH_PORT:-18490}
ADDR=127.0.0.1:$PORT
DATASETS=${BENCH_DATASETS:-financials filings holders bars nse judgments}
# BENCH_STACK: datadir (the default: a data directory on the host's disk)
# or databases (PostgreSQL and a MongoDB-wire server in containers, their
# data bind-mounted on the host's disk; images as in scripts/bench.sh).
STACK=${BENCH_STACK:-datadir}
SEARCH=${BENCH_SEARCH:-bleve}
if [[ $SEARCH != bleve && $STACK != databases ]]; then
  echo "BENCH_SEARCH=$SEARCH needs BENCH_STACK=databases" >&2
  exit 2
fi
PG_IMAGE=${QUARRY_TEST_POSTGRES_IMAGE:-quarry-test/postgres:15}
MONGO_IMAGE=${QUARRY_TEST_MONGO_IMAGE:-quarry-test/ferretdb:1.24.2}
# scaled N: SCALE x N, at least 1; 0 when the dataset named second is not
# among BENCH_DATASETS.
scaled() {
  [[ " $DATASETS " == *" $2 "* ]] || { echo 0; return; }
  awk -v s="$SCALE" -v n="$1" 'BEGIN { n = int(n * s + 0.5); print (n < 1 ? 1 : n) }'
}
filers=$(scaled 18000 financials)
work=$(mktemp -d "$PWD/bin/scale.XXXXXX")
server_pid=""
containers=()
cleanup() {
  [[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true
  for c in "${containers[@]}"; do docker rm -f "$c" >/dev/null 2>&1 || true; done
  rm -rf "$work"
}
trap cleanup EXIT
export QUARRY_DATA_DIR=$work/data QUARRY_HTTP_ADDR=$ADDR QUARRY_METRICS_ADDR=127.0.0.1:$((PORT + 1)) \
  QUARRY_INITIAL_CREDITS=1000000000 QUARRY_RATE_LIMIT_RPS=1000000 QUARRY_RATE_LIMIT_BURST=1000000 QUARRY_LOG_LEVEL=error
unset QUARRY_POSTGRES_URL QUARRY_MONGO_URI QUARRY_MONGO_DB

# shellcheck source=scripts/containers.sh
source scripts/containers.sh
if [[ $STACK == databases ]]; then
  mkdir -p "$work/pgdata" "$work/mongo"
  containers+=("$(docker run -d -v "$work/pgdata:/var/lib/postgresql/data" -p 127.0.0.1::5432 \
    -e POSTGRES_USER=quarry -e POSTGRES_PASSWORD=bench -e POSTGRES_DB=quarry "$PG_IMAGE")")
  containers+=("$(docker run -d -v "$work/mongo:/state" -p 127.0.0.1::27017 "$MONGO_IMAGE")")
  unset QUARRY_DATA_DIR
  export QUARRY_POSTGRES_URL="postgres://quarry:bench@$(address "${containers[0]}" 5432)/quarry?sslmode=disable"
  export QUARRY_MONGO_URI="mongodb://$(address "${containers[1]}" 27017)" QUARRY_MONGO_DB=scale
  for _ in $(seq 300); do ./bin/quarry migrate >/dev/null 2>&1 && break; sleep 0.2; done
  echo "stack: PostgreSQL ($PG_IMAGE) and MongoDB-wire ($MONGO_IMAGE) in containers, data on the host's disk"
  # The ingestions index into the shared index too (a bleve node builds
  # its own at its first start either way).
  [[ $SEARCH != bleve ]] && export QUARRY_SEARCH=postgres
else
  echo "stack: a data directory on the host's disk"
fi

if ((filers > 0)); then
if [[ -n $FACTS_DIR ]]; then
  echo "generated: $filers filers (SCALE=$SCALE of 18,000), copies of the real companyfacts in $FACTS_DIR under synthetic CIKs"
  ./bin/benchinput -out "$work/in" -from "$FACTS_DIR" -companyfacts "$filers" >"$work/counts"
else
  echo "generated: $filers filers (SCALE=$SCALE of 18,000), copies of the TRIMMED bundled samples (about 12 kB each, not real size: set BENCH_FACTS_DIR)"
  ./bin/benchinput -out "$work/in" -companyfacts "$filers" >"$work/counts"
fi
facts=$(awk -F'\t' '$1 == "facts" { print $2 }' "$work/counts")
echo "input: $(du -sh "$work/in/companyfacts" | cut -f1) in $filers files, $facts facts"
fi

# The other datasets' inputs, SCALE of issue 25's full sizes.
gen_flags=(-filings "$(scaled 6000 filings)" -holders "$(scaled 8000 holders)" -bars "$(scaled 5600 bars)"
  -nse-rows "$(scaled 10000000 nse)" -judgments "$(scaled 200000 judgments)")
gen_start=$(date +%s.%N)
./bin/benchinput -out "$work/gen" -companyfacts 0 "${gen_flags[@]}" >"$work/gencounts"
awk -v a="$gen_start" -v b="$(date +%s.%N)" 'BEGIN { printf "generated (SCALE=%s, in %.1f s):", ENVIRON["SCALE"], b - a }'
awk -F'\t' '{ printf " %s %s;", $2, $1 } END { print "" }' "$work/gencounts"
[[ -d $work/gen ]] && echo "generated input on disk: $(du -sh "$work/gen" | cut -f1)"
# count NAME: a figure benchinput printed, 0 when it generated nothing.
count() { awk -F'\t' -v n="$1" '$1 == n { print $2; f = 1 } END { if (!f) print 0 }' "$work/gencounts"; }

# docs: the directory the documents are stored in, whose growth each
# generated dataset's ingest reports.
docs=${QUARRY_DATA_DIR:-}/documents
[[ $STACK == databases ]] && docs=$work/mongo
sizes() {
  if [[ $STACK == databases ]]; then
    echo "stores $1:"
    du -sk "$work/pgdata" "$work/mongo" | awk -v d="$work/" '{ sub(d, "", $2); printf "  %-24s %8.1f MiB\n", $2, $1 / 1024 }'
    return
  fi
  echo "data directory $1:"
  { du -sk "$QUARRY_DATA_DIR"/documents "$QUARRY_DATA_DIR"/indexes "$QUARRY_DATA_DIR"/platform.db* 2>/dev/null || true; } |
    awk -v d="$QUARRY_DATA_DIR/" '{ sub(d, "", $2); printf "  %-24s %8.1f MiB\n", $2, $1 / 1024 }'
}

# timed LABEL ARGS...: one `quarry ARGS` under /usr/bin/time; prints wall
# seconds, peak RSS and CPU seconds (user + system: on a shared machine
# the steadier figure).
timed() {
  local label=$1
  shift
  /usr/bin/time -v ./bin/quarry "$@" >"$work/out" 2>"$work/time" || { cat "$work/out" >&2; sed '/Command being timed/d' "$work/time" >&2; exit 1; }
  secs=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$work/time")
  rss=$(awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$work/time")
  cpu=$(awk -F': ' '/(User|System) time/ { s += $2 } END { print s }' "$work/time")
  printf "%-44s %8.1f s  peak RSS %5d MiB  (CPU %.1f s)\n" "$label" "$secs" "$rss" "$cpu"
}

# bulk_sync: the same filers through `quarry sync edgar --bulk`, the path
# a backfill from the SEC's nightly companyfacts.zip takes: the archive
# served at its real URL path by cmd/fileserve, loaded into a data
# directory of its own (deleted after), then asked again (a 304).
bulk_sync() {
  local www=$work/www/Archives/edgar/daily-index/xbrl
  mkdir -p "$www" "$work/www/files"
  ln "$work/in/companyfacts.zip" "$www/companyfacts.zip"
  ln "$work/in/company_tickers.json" "$work/www/files/company_tickers.json"
  (exec ./bin/fileserve -dir "$work/www" -addr "127.0.0.1:$((PORT + 2))" >"$work/fileserve.log" 2>&1) &
  local files_pid=$! size
  size=$(du -k "$www/companyfacts.zip" | cut -f1)
  (
    unset QUARRY_POSTGRES_URL QUARRY_MONGO_URI QUARRY_MONGO_DB
    export QUARRY_DATA_DIR=$work/syncdata QUARRY_SEC_USER_AGENT="Quarry bench-scale ops@example.org"
    export QUARRY_SEC_BASE_URL=http://127.0.0.1:$((PORT + 2))/ QUARRY_SEC_DATA_BASE_URL=http://127.0.0.1:$((PORT + 2))/
    timed "sync edgar --bulk (companyfacts.zip, $((size / 1024)) MiB)" sync edgar --bulk
    awk -v f="$facts" -v s="$secs" 'BEGIN { printf "  %.0f facts/s read\n", (s > 0 ? f / s : 0) }'
    timed "sync edgar --bulk again (unchanged: 304)" sync edgar --bulk
  )
  kill "$files_pid"
  rm -rf "$work/syncdata"
}

timed "ingest all (the bundled samples)" ingest --quiet all
sizes "after the samples"
if ((filers > 0)); then
timed "ingest us_financials ($filers generated filers)" ingest --quiet us_financials "$work/in/companyfacts" "$work/in/company_tickers.json"
awk -v f="$facts" -v s="$secs" -v n="$filers" 'BEGIN { printf "  %.0f facts/s read, %.1f filers/s\n", (s > 0 ? f / s : 0), (s > 0 ? n / s : 0) }'
sizes "after the generated filers"
bulk_sync
fi

# generated LABEL ROWS ARGS...: `quarry ingest ARGS` of a generated
# dataset, timed, then its rows/s and how much the documents grew.
generated() {
  local label=$1 rows=$2 before after
  shift 2
  before=$(du -sk "$docs" | cut -f1)
  timed "$label" ingest --quiet "$@"
  after=$(du -sk "$docs" | cut -f1)
  awk -v r="$rows" -v s="$secs" -v b="$before" -v a="$after" 'BEGIN {
    printf "  %.0f rows/s; documents +%.1f MiB, %.0f bytes a row\n", (s > 0 ? r / s : 0), (a - b) / 1024, (r > 0 ? (a - b) * 1024 / r : 0) }'
}
if [[ -d $work/gen/us_filings ]]; then
  generated "ingest us_filing_indexes ($(count filings) filings)" $(($(count filings) + $(count sections))) us_filing_indexes "$work/gen/us_filings"/*
  echo "  ($(count sections) sections; rows are filings + sections)"
fi
[[ -d $work/gen/us_holdings ]] && generated "ingest us_security_fund_holders ($(count '13f filings') filings)" "$(count '13f rows')" \
  us_security_fund_holders "$work/gen/us_holdings"
[[ -d $work/gen/china_prices ]] && generated "ingest china_prices ($(count 'a-share codes') codes)" "$(count 'a-share bars')" china_prices "$work/gen/china_prices"
[[ -d $work/gen/nse_udiff ]] && generated "ingest india_prices ($(count 'nse days') UDiFF days)" "$(count 'nse rows')" india_prices "$work/gen/nse_udiff"
if [[ -d $work/gen/india_judgments ]]; then
  # Judgments are tokenized with the vault key before they are stored; a
  # data directory has no vault (QUARRY_VAULT_POSTGRES_URL), so the
  # mapping is not kept (the run's output says how many tokens).
  QUARRY_VAULT_KEY=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n') \
    generated "ingest india_judgments ($(count judgments))" "$(count judgments)" india_judgments "$work/gen/india_judgments"/meta-*.jsonl
  sed -n 's/.*; \([0-9]* tokens.*\)/  \1/p' "$work/out" | head -1
fi
sizes "after the generated inputs"
# search_tables: the shared index's size in PostgreSQL.
search_tables() {
  docker exec "${containers[0]}" psql -U quarry -d quarry -Atc "SELECT relname, count, pg_size_pretty(pg_total_relation_size(relname::regclass))
    FROM (SELECT 'search_sections' AS relname, (SELECT count(*) FROM search_sections) AS count
      UNION ALL SELECT 'search_judgments', (SELECT count(*) FROM search_judgments)) t" |
    awk -F'|' '{ printf "  %-24s %8d rows  %s (table, TOAST and GIN)\n", $1, $2, $3 }'
}
if [[ $SEARCH != bleve ]]; then
  echo "shared PostgreSQL search index after the ingestions:"
  search_tables
fi

# serve: starts the server and prints the time to /readyz. On the
# databases' stack the server keeps its search indexes in its own
# QUARRY_INDEX_DIR, as the README asks of each node; the ingestions above
# ran without it, as on a machine apart from the nodes.
serve() {
  local start
  start=$(date +%s.%N)
  if [[ ${SERVE_SEARCH:-bleve} == postgres ]]; then
    (QUARRY_SEARCH=postgres exec ./bin/quarry serve >"$work/serve.log" 2>&1) &
  elif [[ $STACK == databases ]]; then
    (QUARRY_SEARCH=bleve QUARRY_INDEX_DIR=$work/index exec ./bin/quarry serve >"$work/serve.log" 2>&1) &
  else
    (exec ./bin/quarry serve >"$work/serve.log" 2>&1) &
  fi
  server_pid=$!
  until curl -sf "http://$ADDR/readyz" >/dev/null 2>&1; do
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/serve.log" >&2; exit 1; }
    sleep 0.05
  done
  awk -v a="$start" -v b="$(date +%s.%N)" -v w="$1" 'BEGIN { printf "serve (%s): /readyz after %.2f s\n", w, b - a }'
}
# On a data directory the first start resumes the search indexes `quarry
# ingest` built; on the databases' stack a node's first start builds them
# into its QUARRY_INDEX_DIR, and its restart resumes them.
first="first start, indexes resumed from ingest"
[[ $STACK == databases ]] && first="first start of a node, indexes built into QUARRY_INDEX_DIR"
if [[ $SEARCH == postgres ]]; then
  first="first start of a node on the shared PostgreSQL index, none of its own"
  export SERVE_SEARCH=postgres
fi
serve "$first"
sleep 2
rss() {
  awk '/^VmRSS|^VmHWM/ { printf "%s %.0f MiB  ", $1, $2 / 1024 }' "/proc/$server_pid/status"
  ((${#containers[@]} == 0)) || docker stats --no-stream --format '{{.Name}} {{.MemUsage}}' "${containers[@]}" | tr '\n' ' '
  echo
}
echo "serve RSS at rest: $(rss)"
sizes "once served"

token=$(curl -sf -X POST "http://$ADDR/account/login" \
  -d '{"email":"scale@example.com","password":"benchmark passphrase"}' | sed 's/.*"session_token":"\([^"]*\)".*/\1/')
key=$(curl -sf -X POST "http://$ADDR/account/keys?name=scale" -H "Authorization: Bearer $token" |
  sed 's/.*"api_key":"\([^"]*\)".*/\1/')

# urls FILE PATH-TEMPLATE: one URL per generated filer, {i} its number.
urls() {
  for i in $(seq "$filers"); do echo "http://$ADDR${2//\{i\}/$i}"; done | shuf >"$work/$1"
}
# keyed FILE KEYS PATH-TEMPLATE: one URL per line of the generated keys
# file KEYS, {1} and {2} its first and second fields, with & (M&M) escaped
# as a query value must be.
keyed() {
  awk -v a="http://$ADDR$3" '{ u = a; k1 = $1; k2 = $2; gsub(/&/, "%26", k1); gsub(/&/, "%26", k2)
    gsub(/\{1\}/, k1, u); gsub(/\{2\}/, k2, u); print u }' "$work/gen/keys/$2.txt" | shuf >"$work/$1"
}
# bodies FILE KEYS TEMPLATE: one JSON body per line of KEYS, as keyed.
bodies() {
  awk -v a="$3" '{ u = a; gsub(/\{1\}/, $1, u); gsub(/\{2\}/, $2, u); print u }' "$work/gen/keys/$2.txt" | shuf >"$work/$1"
}
# queries FILE TEMPLATE QUERY...: one JSON body per query, {q} in TEMPLATE.
queries() {
  local file=$1 template=$2
  shift 2
  for q in "$@"; do echo "${template//\{q\}/$q}"; done >"$work/$file"
}

echo "route (rate $RATE/s, 8 connections, $DURATION)	req/s	p50 ms	p99 ms	statuses	bytes"
# load ARGS...: one loadgen run, then the server's CPU seconds during it
# (user + system, from /proc: with BENCH_DURATION past QUARRY_MONGO_REFRESH
# it spans a refresh of the search indexes).
cpu() { awk '{ print $14 + $15 }' "/proc/$server_pid/stat"; }
load() {
  local before
  before=$(cpu)
  ./bin/loadgen -c 8 -d "$DURATION" -rate "$RATE" -header "X-API-KEY: $key" "$@"
  awk -v a="$before" -v b="$(cpu)" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "  server CPU %.1f s\n", (b - a) / hz }'
}
# india_search, us_search: the search routes' loads.
india_search() {
  load -label "POST /india/search (5 queries)" -method POST -url "http://$ADDR/india/search" -bodies "$work/inq"
}
us_search() {
  load -label "POST /us/search (5 queries, every filer)" -method POST -url "http://$ADDR/us/search" -bodies "$work/usq"
  load -label "POST /us/search (random filer's cik)" -method POST -url "http://$ADDR/us/search" -bodies "$work/usqcik"
}
if ((filers > 0)); then
urls fin "/us/financials?ticker=BENCH{i}"
urls inc "/us/financials/income-statements?ticker=BENCH{i}&period=quarterly&limit=8"
# (seq, not awk: mawk's %d stops at 2^31.)
seq 9000000001 $((9000000000 + filers)) | sed "s|^|http://$ADDR/us/financials/balance-sheets?cik=|" | shuf >"$work/bal"
urls cash "/us/financials/cash-flow-statements?ticker=BENCH{i}&period=ttm"
load -label "GET /us/financials (random filer, cold then memo)" -urls "$work/fin"
load -label "GET /us/financials/income-statements (random, quarterly)" -urls "$work/inc"
load -label "GET /us/financials/balance-sheets (random cik)" -urls "$work/bal"
load -label "GET /us/financials/cash-flow-statements (random, ttm)" -urls "$work/cash"
# An as_of before the filer's latest filing reads its statements' histories.
for i in $(seq "$filers"); do
  printf 'http://%s/us/financials?ticker=BENCH%d&as_of=%d-%02d-15\n' "$ADDR" "$i" $((2012 + RANDOM % 13)) $((1 + RANDOM % 12))
done | shuf >"$work/past"
load -label "GET /us/financials?as_of= (random filer, random month 2012-2024)" -urls "$work/past"
fi
if [[ -d $work/gen/us_filings ]]; then
  keyed filing us_filings "/us/filings/{1}/index"
  load -label "GET /us/filings/{accession}/index (random filing)" -urls "$work/filing"
fi
if [[ -d $work/gen/us_holdings ]]; then
  keyed holders us_holdings "/us/security-fund-holders?identifier={2}&accession_number={1}"
  load -label "GET /us/security-fund-holders (random filing)" -urls "$work/holders"
  load -label "GET /us/security-fund-holders?identifier=AAPL (every filer)" -url "http://$ADDR/us/security-fund-holders?identifier=AAPL"
fi
# (the route names a listing SSE.600519, Tushare's file 600519.SH.)
tail -n +2 sampledata/tushare_stock_basic.csv | cut -d, -f1 |
  sed -e 's|^\(.*\)\.SH$|SSE.\1|' -e 's|^\(.*\)\.SZ$|SZSE.\1|' -e 's|^\(.*\)\.BJ$|BSE.\1|' -e "s|^|http://$ADDR/china/securities/|" | shuf >"$work/listed"
load -label "GET /china/securities/{code} (random listed code)" -urls "$work/listed"
if [[ -d $work/gen/china_prices ]]; then
  keyed bars china_prices "/china/prices?code={1}&limit=1000"
  load -label "GET /china/prices (random generated code)" -urls "$work/bars"
fi
if [[ -d $work/gen/nse_udiff ]]; then
  keyed nse nse "/india/prices?symbol={1}&limit=1000"
  load -label "GET /india/prices (random symbol)" -urls "$work/nse"
fi
if [[ -d $work/gen/india_judgments ]]; then
  keyed judgments india_judgments "/india/judgments/{1}"
  load -label "GET /india/judgments/{id} (random generated)" -urls "$work/judgments"
  queries inq '{"query":"{q}"}' "writ petition municipal corporation" "arbitration award" "land acquisition compensation" "withdrawn with no order as to costs" "service tax"
  india_search
fi
# US search last: before its hits were read back one _id at a time, each
# search's "find sections" scanned the sections at 1% and outlasted its
# client (docs/capacity.md), and the reads left running in the document
# store held the connections every other route needs; kept last, so that
# a regression of that kind cannot hide the other routes' figures.
if [[ -d $work/gen/us_filings ]]; then
  queries usq '{"query":"{q}"}' "iPhone services revenue" "supply chain risk" "cybersecurity incident" "data center GPUs" "cloud revenue growth"
  bodies usqcik us_filings '{"query":"revenue","cik":"{2}"}'
  us_search
fi
echo "serve RSS after the mixed load: $(rss)"
kill "$server_pid" && wait "$server_pid" 2>/dev/null || true
serve "restart"
if [[ $SEARCH == both ]]; then
  # The engines side by side: the restarted bleve node (its index resumed
  # from its folder), then a node on the shared PostgreSQL index, which
  # reads no section or judgment at start.
  for engine in bleve postgres; do
    if [[ $engine == postgres ]]; then
      kill "$server_pid" && wait "$server_pid" 2>/dev/null || true
      SERVE_SEARCH=postgres serve "a node on the shared PostgreSQL index, none of its own"
      sleep 2
      echo "serve RSS at rest: $(rss)"
    fi
    echo "search on $engine (rate $RATE/s, 8 connections, $DURATION)	req/s	p50 ms	p99 ms	statuses"
    [[ -d $work/gen/india_judgments ]] && india_search
    [[ -d $work/gen/us_filings ]] && us_search
  done
  echo "shared PostgreSQL search index once served:"
  search_tables
fi
