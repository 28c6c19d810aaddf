#!/usr/bin/env bash
# Benchmarks `jperf report -g` on a `perf record --call-graph dwarf` file (user stacks unwound
# offline, issue 25) against perf 6.1's libunwind post-unwinder on the same file, in the same run:
# ratios (jperf / perf) of wall time, CPU time (user+sys) and peak RSS; and jperf's `-g none` and
# `--stats` on it, which say what reading alone and the report without unwinding cost.
#
# Usage: bench/unwind.sh [FILE] [RUNS]
#   FILE  a --call-graph dwarf recording; by default /tmp/corpus/dwarf/perf.data, made with
#         make-dwarf.sh when absent (needs root and perf)
#   RUNS  runs per command, the best one counts (default 1: perf takes minutes)
# Target (issue 25): report -g <= 0.2 of perf's wall time.
. "$(dirname "$0")/common.sh"
FILE=${1:-/tmp/corpus/dwarf/perf.data}
[ -f "$FILE" ] || { echo "bench: making $FILE with make-dwarf.sh (25 s)"; bench/make-dwarf.sh "$FILE"; }
RUNS=${2:-1}
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs; wall is noisy under load, CPU (user+sys) less so"
printf "%-40s %8s %8s %7s %8s %8s %7s %7s %7s %6s\n" "command (on $FILE)" "perf s" "jperf s" "ratio" \
	"perf c" "jperf c" "ratio" "perf MB" "jperf MB" "ratio"
row() {
	local label=$1; shift
	read -r pt pc pm < <(measure perf "$@")
	read -r jt jc jm < <(measure ./jperf "$@")
	awk -v l="$label" -v pt="$pt" -v jt="$jt" -v pc="$pc" -v jc="$jc" -v pm="$pm" -v jm="$jm" 'BEGIN{
		printf "%-40s %8.2f %8.2f %7.3f %8.2f %8.2f %7.3f %7.0f %7.0f %6.2f\n", l, pt, jt, jt/pt, pc, jc, jc/pc,
			pm/1024, jm/1024, jm/pm }'
}
row "report --stdio --no-children -g" report -i "$FILE" --stdio --no-children -g
for args in "--stdio --no-children -g none" "--stats"; do
	# shellcheck disable=SC2086
	read -r jt jc jm < <(measure ./jperf report -i "$FILE" $args)
	printf "%-40s %8s %8.2f %7s %8s %8.2f %7s %7s %7.0f\n" "jperf report $args" - "$jt" - - "$jc" - - "$((jm / 1024))"
done
