#!/usr/bin/env bash
# Copy benchmark: `jperf inject -i FILE -o OUT` against `perf inject -i FILE -o OUT` (both rewrite
# a perf.data as a file-mode perf.data, record by record) on the same large file. Prints the
# fastest wall and CPU time, max RSS, MB/s and the ratios (perf time / jperf time: > 1 means
# jperf is faster), then checks that perf reads the copy with the same header as the original.
#
# Usage: bench/inject.sh [FILE] [RUNS]
#   FILE  a large perf.data (default /tmp/corpus/big/perf.data, made with
#         ../shared/corpus/make-big.sh when absent: needs root and perf)
#   RUNS  runs per command; the fastest counts (default 3)
# Output goes to a temporary folder next to nothing else. Not a unit test.
set -euo pipefail
cd "$(dirname "$0")/.."
FILE=${1:-/tmp/corpus/big/perf.data}
RUNS=${2:-3}
SHARED=$(cd ../shared && pwd)
command -v perf >/dev/null || { echo "bench: perf not installed (apt-get update && apt-get install -y linux-perf)"; exit 2; }
if [ ! -f "$FILE" ]; then
	echo "bench: making $FILE with make-big.sh (30 s)"
	"$SHARED/corpus/make-big.sh" "$FILE" >/dev/null
fi
./jperf --version >/dev/null   # build outside the measurement
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

# fastest "wall cpu rss_kb" over RUNS runs of a command
measure() {
	local best="" bcpu="" brss="" i w u s m t
	t=$(mktemp)
	for ((i = 0; i < RUNS; i++)); do
		rm -f "$OUT"/*.data "$OUT"/*.old
		/usr/bin/time -o "$t" -f "%e %U %S %M" "$@" > /dev/null 2>/dev/null
		read -r w u s m < "$t"
		if [ -z "$best" ] || awk "BEGIN{exit !($w < $best)}"; then best=$w; bcpu=$(awk "BEGIN{print $u + $s}"); brss=$m; fi
	done
	rm -f "$t"
	echo "$best $bcpu $brss"
}

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
