#!/usr/bin/env bash
# Benchmarks `jperf report` / `jperf script` against Linux perf on the same large file, in the
# same run, and prints ratios (jperf / perf) of wall time and peak RSS.
#
# Usage: bench/report.sh [FILE] [RUNS]
#   FILE  a large -a -g perf.data (default /tmp/corpus/big/perf.data, made with
#         ../shared/corpus/make-big.sh when absent: needs root and perf)
#   RUNS  runs per command, the best one counts (default 3)
# Targets (issue 3): first row <= 1.0, second and third <= 0.33, script <= 0.5, RSS <= 1.0.
set -euo pipefail
cd "$(dirname "$0")/.."
FILE=${1:-/tmp/corpus/big/perf.data}
RUNS=${2:-3}
SHARED=$(cd ../shared && pwd)
if [ ! -f "$FILE" ]; then
	echo "bench: making $FILE with make-big.sh (30 s)"
	"$SHARED/corpus/make-big.sh" "$FILE" >/dev/null
fi
K=/tmp/corpus-kallsyms.txt; [ -s $K ] || xzcat "$SHARED/corpus/kallsyms.txt.xz" > $K
mkdir -p /tmp/corpus/src && cp -n "$SHARED"/corpus/src/* /tmp/corpus/src/ 2>/dev/null || true
./jperf --version >/dev/null   # build outside the measurement
command -v perf >/dev/null || { echo "bench: perf not installed (apt-get install linux-perf)"; exit 2; }

# best wall seconds and its peak RSS (kB) over RUNS runs of a command
measure() {
	local best="" rss="" i out
	for ((i = 0; i < RUNS; i++)); do
		out=$( { /usr/bin/time -f "%e %M" "$@" > /dev/null 2>/dev/null; } 2>&1 | tail -1)
		set -- "$@"
		local t=${out% *} m=${out#* }
		if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; rss=$m; fi
	done
	echo "$best $rss"
}

printf "%-48s %9s %9s %7s %9s %9s %7s\n" "command (on $(basename "$FILE"))" "perf s" "jperf s" "ratio" "perf MB" "jperf MB" "ratio"
row() {
	local label=$1; shift
	local args=("$@")
	read -r pt pm < <(measure perf "${args[@]}")
	read -r jt jm < <(measure ./jperf "${args[@]}")
	awk -v l="$label" -v pt="$pt" -v jt="$jt" -v pm="$pm" -v jm="$jm" 'BEGIN{
		printf "%-48s %9.2f %9.2f %7.2f %9.0f %9.0f %7.2f\n", l, pt, jt, jt/pt, pm/1024, jm/1024, jm/pm }'
}
row "report --stdio --sort sym --no-children -g none" report -i "$FILE" --kallsyms $K --stdio --sort sym --no-children -g none
row "report --stdio --sort sym -g none"               report -i "$FILE" --kallsyms $K --stdio --sort sym -g none
row "report --stdio --sort sym"                       report -i "$FILE" --kallsyms $K --stdio --sort sym
row "script"                                          script -i "$FILE" --kallsyms $K
