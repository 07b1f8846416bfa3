#!/usr/bin/env bash
# Benchmarks the export file writers on BENCH_EXPORT_ROWS generated rows
# (not real data; see cmd/exportbench), one process per format so that each
# peak RSS is its own. Prints rows/s, MB/s and the peak RSS growth; fails if
# a format's growth reaches 128 MiB. Timings are reported, never asserted.
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=${BENCH_EXPORT_ROWS:-1000000}
for format in csv xlsx parquet; do
  ./bin/exportbench -format "$format" -rows "$ROWS" -max-rss-growth 128
done
