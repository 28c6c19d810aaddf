#!/usr/bin/env bash
# Benchmarks `jperf annotate --stdio SYMBOL` against `perf annotate --stdio SYMBOL` on the big
# file's hottest user-space function (perf report's first row in an ELF DSO), in the same run,
# and prints ratios (jperf / perf) of wall time, CPU time (user+sys) and peak RSS.
#
# Usage: bench/annotate.sh [FILE] [RUNS]
#   FILE  a large perf.data (default /tmp/corpus/big/perf.data, made by make-big.sh when absent)
#   RUNS  runs per command, the best one counts (default 3)
# Target (issue 26): wall ratio <= 1.0.
. "$(dirname "$0")/common.sh"
big_file "${1:-}"
RUNS=${2:-3}
corpus_kallsyms
corpus_binaries
# the hottest symbol of a user-space ELF DSO: perf report's rows are by overhead
SYM=$(perf report -i "$FILE" --kallsyms $K --stdio --no-children -g none --sort dso,sym -q 2>/dev/null |
	awk '!f && $2 !~ /^\[/ && $3 == "[.]" { print $4; f = 1 }')
[ -n "$SYM" ] || { echo "bench: no user-space symbol in $FILE"; exit 2; }
for _ in 1 2; do ./jperf annotate -i "$FILE" --kallsyms $K --stdio "$SYM" >/dev/null 2>&1 || true; done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs; wall is noisy under load, CPU (user+sys) less so"
printf "%-40s %7s %7s %6s %7s %7s %6s %7s %7s %6s\n" "command (on $FILE)" "perf s" "jperf s" "ratio" \
	"perf c" "jperf c" "ratio" "perf MB" "jperf MB" "ratio"
read -r pt pc pm < <(measure perf annotate -i "$FILE" --stdio "$SYM")
read -r jt jc jm < <(measure ./jperf annotate -i "$FILE" --kallsyms $K --stdio "$SYM")
awk -v l="annotate --stdio $SYM" -v pt="$pt" -v jt="$jt" -v pc="$pc" -v jc="$jc" -v pm="$pm" -v jm="$jm" 'BEGIN{
	printf "%-40s %7.2f %7.2f %6.2f %7.2f %7.2f %6.2f %7.0f %7.0f %6.2f\n", l, pt, jt, jt/pt, pc, jc, jc/pc,
		pm/1024, jm/1024, jm/pm }'
