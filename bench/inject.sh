#!/usr/bin/env bash
# Copy benchmark: `jperf inject -i FILE -o OUT` against `perf inject -i FILE -o OUT` (both rewrite
# a perf.data as a file-mode perf.data, record by record) on the same large file. Prints the
# fastest wall and CPU time, max RSS, MB/s and the ratios (perf time / jperf time: > 1 means
# jperf is faster), then checks that perf reads the copy with the same header as the original.
#
# Usage: bench/inject.sh [FILE] [RUNS]
#   FILE  a large perf.data (default /tmp/corpus/big/perf.data, made with
#         testdata/corpus/make-big.sh when absent: needs root and perf)
#   RUNS  runs per command; the fastest counts (default 3)
# Output goes to a temporary folder next to nothing else. Not a unit test.
. "$(dirname "$0")/common.sh"
big_file "${1:-}"
RUNS=${2:-3}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
# each run writes a fresh copy (perf moves an existing output to .old)
before_each() { rm -f "$OUT"/*.data "$OUT"/*.old; }

size=$(stat -c %s "$FILE")
read -r pw pc pm < <(measure perf inject -i "$FILE" -o "$OUT/perf.data")
read -r jw jc jm < <(measure ./jperf inject -i "$FILE" -o "$OUT/jperf.data")
echo "file: $FILE ($size bytes)"
printf "%-14s %8s %8s %10s %10s %12s %12s\n" command "wall s" "cpu s" "RSS MB" "MB/s" "perf/jperf" "(cpu)"
line() {
	awk -v l="$1" -v w="$2" -v c="$3" -v m="$4" -v n="$size" -v pw="$pw" -v pc="$pc" 'BEGIN{
		printf "%-14s %8.2f %8.2f %10.0f %10.0f %12.2f %12.2f\n", l, w, c, m / 1024, n / 1e6 / w, pw / w, pc / c }'
}
line "perf inject" "$pw" "$pc" "$pm"
line "jperf inject" "$jw" "$jc" "$jm"
touch -r "$FILE" "$OUT/jperf.data"
if diff <(perf report -i "$FILE" --header-only -I 2>&1) <(perf report -i "$OUT/jperf.data" --header-only -I 2>&1) >/dev/null; then
	echo "perf report --header-only -I: copy equals original"
else
	echo "perf report --header-only -I: copy DIFFERS from original"; exit 1
fi
