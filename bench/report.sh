#!/usr/bin/env bash
# Benchmarks `jperf report` / `jperf script` against Linux perf on the same large file, in the
# same run, and prints ratios (jperf / perf) of wall time, CPU time (user+sys) and peak RSS.
#
# Usage: bench/report.sh [FILE] [RUNS]
#   FILE  a large -a -g perf.data; by default two: /tmp/corpus/big/perf.data (the quiet machine,
#         testdata/corpus/make-big.sh) and /tmp/corpus/busy/perf.data (JVMs and CPython running
#         beside it, bench/make-busy.sh), each made when absent (needs root and perf)
#   RUNS  runs per command, the best one counts (default 3)
# Targets (issue 3): first row <= 1.0, second and third <= 0.33, script <= 0.5, RSS <= 1.0.
. "$(dirname "$0")/common.sh"
big_file "${1:-}"
FILES=("$FILE")
if [ -z "${1:-}" ]; then busy_file; FILES+=("$BUSY"); fi
RUNS=${2:-3}
corpus_kallsyms
corpus_binaries

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs; wall is noisy under load, CPU (user+sys) less so"
row() {
	local label=$1; shift
	local args=("$@")
	read -r pt pc pm < <(measure perf "${args[@]}")
	read -r jt jc jm < <(measure ./jperf "${args[@]}")
	awk -v l="$label" -v pt="$pt" -v jt="$jt" -v pc="$pc" -v jc="$jc" -v pm="$pm" -v jm="$jm" 'BEGIN{
		printf "%-48s %7.2f %7.2f %6.2f %7.2f %7.2f %6.2f %7.0f %7.0f %6.2f\n", l, pt, jt, jt/pt, pc, jc, jc/pc,
			pm/1024, jm/1024, jm/pm }'
}
for FILE in "${FILES[@]}"; do
	printf "%-48s %7s %7s %6s %7s %7s %6s %7s %7s %6s\n" "command (on $FILE)" "perf s" "jperf s" "ratio" \
		"perf c" "jperf c" "ratio" "perf MB" "jperf MB" "ratio"
	row "report --stdio --sort sym --no-children -g none" report -i "$FILE" --kallsyms $K --stdio --sort sym --no-children -g none
	row "report --stdio --sort sym -g none"               report -i "$FILE" --kallsyms $K --stdio --sort sym -g none
	row "report --stdio --sort sym"                       report -i "$FILE" --kallsyms $K --stdio --sort sym
	row "script"                                          script -i "$FILE" --kallsyms $K
done
