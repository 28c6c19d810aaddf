#!/usr/bin/env bash
# Benchmarks what jperf record exists for: catching BPF programs that live microseconds. A storm
# of COUNT programs, each loaded and unloaded at once (testdata/corpus/scripts/scenario.sh storm,
# the workload busy on every CPU), recorded system-wide by perf record and by jperf record in
# turn; prints how many of the storm's programs each file holds a bpf_prog_info of (perf's own
# `report --header-only` counts both) and the ratio (jperf / perf: 1 or more is the target).
#
# Usage: bench/storm.sh [COUNT] [RUNS]    (as root; needs perf)
#   COUNT  programs in a storm (default 200)
#   RUNS   storms per recorder, alternating; the medians count (default 3)
# JPERF_RECORD_COMPILE_COMMANDS=FILE runs jperf with another JIT list (bench/README.md measures
# the list's pin-path group this way).
. "$(dirname "$0")/common.sh"
COUNT=${1:-200}
RUNS=${2:-3}
corpus_binaries
export BIN=/tmp/corpus/src
OUT=$(mktemp -d /tmp/bench-storm.XXXXXX)
trap 'rm -rf "$OUT"' EXIT
for _ in 1 2; do ./jperf record -q -a -o "$OUT/warm-up.data" -- sleep 0.1 > /dev/null 2>&1; done

# one storm recorded by "$@": prints how many of its programs the file describes
one() {
	local file=$OUT/storm.data
	"$@" -a -o "$file" -- "$CORPUS/scripts/scenario.sh" storm "$COUNT" 0 "" busy > /dev/null 2>&1
	perf report -i "$file" --header-only 2>/dev/null | grep -c '^# bpf_prog_info .*_storm_tiny' || true
	rm -f "$file"
}
median() { sort -g | awk '{a[NR]=$1} END{print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

: > "$OUT/perf.rows"; : > "$OUT/jperf.rows"
for ((r = 0; r < RUNS; r++)); do
	one perf record -q >> "$OUT/perf.rows"
	one ./jperf record -q >> "$OUT/jperf.rows"
done
p=$(median < "$OUT/perf.rows"); j=$(median < "$OUT/jperf.rows")
echo "storm of $COUNT programs living microseconds, median of $RUNS each (load average $(cut -d' ' -f1 /proc/loadavg))"
echo "perf:  $(tr '\n' ' ' < "$OUT/perf.rows")-> $p"
echo "jperf: $(tr '\n' ' ' < "$OUT/jperf.rows")-> $j"
awk -v p="$p" -v j="$j" 'BEGIN{ printf "captured ratio (jperf / perf): %.2f\n", (p > 0 ? j / p : 0) }'
