#!/usr/bin/env bash
# Ingestion benchmark: generates inputs from the bundled samples at run time
# (cmd/benchinput; nothing generated is committed), then times
# `bin/quarry ingest` on a MongoDB-wire server: the bundled real Tushare
# stock_basic list (5,524 listings) and the SZSE's A股列表.xlsx (2,880), and
# the bundled real NSE bhavcopy files and Tushare daily bars, and
# BENCH_COMPANIES companyfacts documents (copies of the samples under
# synthetic CIKs) as a folder and as companyfacts.zip,
# each into a fresh database and then again unchanged. Prints files, rows
# (listings, or facts in the files), seconds, rows/s and peak RSS from
# /usr/bin/time. Uses QUARRY_MONGO_URI when set, else starts a FerretDB
# container. Timings are reported, never asserted, except that peak RSS
# must stay under BENCH_MAX_RSS_MIB (512).
set -euo pipefail
cd "$(dirname "$0")/.."
COMPANIES=${BENCH_COMPANIES:-2000}
LISTINGS=sampledata/tushare_stock_basic.csv
SZSE_LIST=adapters/asharelistings/testdata/szse_a_share_list.xlsx
MAX_RSS_MIB=${BENCH_MAX_RSS_MIB:-512}
MONGO_IMAGE=${QUARRY_TEST_MONGO_IMAGE:-quarry-test/ferretdb:1.24.2}
work=$(mktemp -d)
container=""

cleanup() {
  [[ -n $container ]] && docker rm -f "$container" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

if [[ -z ${QUARRY_MONGO_URI:-} ]]; then
  # tmpfs: this sandbox stores container layers on fuse-overlayfs, which
  # would measure FUSE rather than the service.
  container=$(docker run -d --tmpfs /state -p 127.0.0.1::27017 "$MONGO_IMAGE")
  export QUARRY_MONGO_URI="mongodb://$(docker port "$container" 27017 | head -n 1)"
fi
run=bench$$

go run ./cmd/benchinput -out "$work" -companyfacts "$COMPANIES" >"$work/counts"
facts=$(awk -F'\t' '$1 == "facts" { print $2 }' "$work/counts")

# wait until the server answers: an ingest of nothing new is cheap.
for _ in $(seq 100); do
  QUARRY_MONGO_DB=${run}_ready ./bin/quarry ingest --quiet china_securities >/dev/null 2>&1 && break
  sleep 0.2
done

failed=0
# measure LABEL DB FILES ROWS ARGS...: one ingest run under /usr/bin/time.
measure() {
  local label=$1 db=$2 files=$3 rows=$4
  shift 4
  QUARRY_MONGO_DB=$db /usr/bin/time -v ./bin/quarry ingest --quiet "$@" >"$work/out" 2>"$work/time" ||
    { cat "$work/out" "$work/time" >&2; exit 1; }
  local secs rss
  secs=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$work/time")
  rss=$(awk -F': ' '/Maximum resident set size/ { printf "%.1f", $2 / 1024 }' "$work/time")
  awk -v l="$label" -v f="$files" -v r="$rows" -v s="$secs" -v m="$rss" \
    'BEGIN { printf "%-40s %6d %8d %8.2f %10.0f %10s\n", l, f, r, s, (s > 0 ? r / s : 0), m }'
  if awk -v m="$rss" -v max="$MAX_RSS_MIB" 'BEGIN { exit !(m >= max) }'; then
    echo "peak RSS ${rss} MiB is not under ${MAX_RSS_MIB} MiB" >&2
    failed=1
  fi
}

printf "%-40s %6s %8s %8s %10s %10s\n" "run" "files" "rows" "seconds" "rows/s" "RSS MiB"
measure "china_securities Tushare list, new" "${run}_l" 1 5524 china_securities "$LISTINGS"
measure "china_securities Tushare list, unchanged" "${run}_l" 1 5524 china_securities "$LISTINGS"
measure "china_securities SZSE .xlsx, new" "${run}_s" 1 2880 china_securities "$SZSE_LIST"
measure "china_securities SZSE .xlsx, over it" "${run}_l" 1 2880 china_securities "$SZSE_LIST"
measure "us_financials folder, new" "${run}_f" "$COMPANIES" "$facts" us_financials "$work/company_tickers.json" "$work/companyfacts"
measure "us_financials folder, unchanged" "${run}_f" "$COMPANIES" "$facts" us_financials "$work/company_tickers.json" "$work/companyfacts"
# The bundled real NSE files (11 legacy days, 5 full-bhavcopy days of the
# same dates, which agree and add nothing) as a folder, and the China
# sample (Tushare daily).
mkdir -p "$work/nse"
for z in sampledata/india_prices/*.zip; do unzip -q -o "$z" -d "$work/nse"; done
nse_rows=$(awk 'FNR > 1' "$work"/nse/*.csv | wc -l)
nse_files=$(ls "$work"/nse/*.csv | wc -l)
china_rows=$(awk 'FNR > 1' sampledata/china_prices/*.csv | wc -l)
china_files=$(ls sampledata/china_prices/*.csv | wc -l)
measure "india_prices NSE bhavcopy folder, new" "${run}_n" "$nse_files" "$nse_rows" india_prices "$work/nse"
measure "india_prices NSE bhavcopy folder, unchanged" "${run}_n" "$nse_files" "$nse_rows" india_prices "$work/nse"
measure "china_prices Tushare daily, new" "${run}_c" "$china_files" "$china_rows" china_prices sampledata/china_prices
measure "us_financials companyfacts.zip, new" "${run}_z" "$COMPANIES" "$facts" us_financials "$work/companyfacts.zip" "$work/company_tickers.json"
exit $failed
