#!/usr/bin/env bash
# Benchmarks `jperf record` against Linux perf record on the same workload: system-wide,
# callchains, 20 kHz (`-a -g -F 20000`) or the options given, and prints the ratios (jperf / perf)
# of the recorders' own CPU time (user + sys, workload excluded), lost samples and file size.
#
# Usage: bench/record.sh [SECONDS] [RUNS] [OPTIONS]      (as root; needs perf)
#   SECONDS  length of each recording (default 10)
#   RUNS     recordings per recorder, alternating; the medians count (default 3)
#   OPTIONS  the record options after -a (default "-g -F 20000"); the DWARF case is
#            "--call-graph dwarf -F 1000" (8 KiB of stack per sample: the bytes, not the records, cost)
# Targets: CPU time ratio <= 1.0, zero lost samples, size within 5 % of perf's.
#
# The workload (one `workload SECONDS mixed` per CPU, from the corpus) runs beside the recorder,
# not under it, so /usr/bin/time's user+sys of the recorder are the recorder's alone (its child
# is `sleep`).
. "$(dirname "$0")/common.sh"
SECS=${1:-10}
RUNS=${2:-3}
OPTS=${3:-"-g -F 20000"}
corpus_binaries
BIN=/tmp/corpus/src
OUT=$(mktemp -d /tmp/bench-record.XXXXXX)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$OUT"' EXIT
NCPU=$(nproc)
# the first two recordings after a build list the classes and dump the class-data sharing
# archive (./jperf): not measured
for _ in 1 2; do ./jperf record -q -a -o "$OUT/warm-up.data" -- sleep 0.1 > /dev/null 2>&1; done

# one recording: prints "cpu_seconds lost_samples bytes samples user_seconds sys_seconds"
one() {
	local name=$1; shift
	local file=$OUT/$name.data pids=() i
	for ((i = 0; i < NCPU; i++)); do $BIN/workload $((SECS + 2)) mixed > /dev/null & pids+=($!); done
	sleep 0.5
	# shellcheck disable=SC2086 # OPTS is a list of options
	/usr/bin/time -o "$OUT/$name.time" -f "%U %S" "$@" -a $OPTS -o "$file" -- sleep "$SECS" > /dev/null 2> "$OUT/$name.err"
	wait "${pids[@]}"
	local t
	t=$(tail -1 "$OUT/$name.time")
	# LOST records carry how many records the kernel dropped (perf script sums them), LOST_SAMPLES
	# too (--stats gives each event's sum); not perf report -D, which resolves every callchain
	# entry through addr2line (minutes for a DWARF recording)
	local lost
	lost=$(( $(perf script -i "$file" --show-lost-events -F comm 2>/dev/null | awk '/PERF_RECORD_LOST lost / {s += $NF} END {print s + 0}') \
		+ $(perf report -i "$file" --stats 2>/dev/null | awk '/Aggregated stats:/ {a = 1; next} / stats:$/ {a = 0} !a && /LOST_SAMPLES events:/ {s += $3} END {print s + 0}') ))
	local samples
	samples=$(perf report -i "$file" --stats 2>/dev/null | awk '/SAMPLE events:/ {print $3; exit}')
	echo "$(awk -v u="${t% *}" -v s="${t#* }" 'BEGIN{print u+s}') $lost $(stat -c %s "$file") ${samples:-0} $t"
}

median() { sort -g | awk '{a[NR]=$1} END{print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

: > "$OUT/perf.rows"; : > "$OUT/jperf.rows"
for ((r = 0; r < RUNS; r++)); do
	one perf perf record -q >> "$OUT/perf.rows"
	one jperf ./jperf record -q >> "$OUT/jperf.rows"
done
pc=$(cut -d' ' -f1 "$OUT/perf.rows" | median); jc=$(cut -d' ' -f1 "$OUT/jperf.rows" | median)
pl=$(cut -d' ' -f2 "$OUT/perf.rows" | median); jl=$(cut -d' ' -f2 "$OUT/jperf.rows" | median)
# user and sys apart: where the difference lies (the kernel's share is the file writes and the rings)
pu=$(cut -d' ' -f5 "$OUT/perf.rows" | median); ju=$(cut -d' ' -f5 "$OUT/jperf.rows" | median)
psy=$(cut -d' ' -f6 "$OUT/perf.rows" | median); jsy=$(cut -d' ' -f6 "$OUT/jperf.rows" | median)
ps=$(cut -d' ' -f3 "$OUT/perf.rows" | median); js=$(cut -d' ' -f3 "$OUT/jperf.rows" | median)
# bytes per sample: the files hold what the (shared, noisy) machine ran, so compare per sample too
pb=$(awk '$4 > 0 {print $3 / $4}' "$OUT/perf.rows" | median); jb=$(awk '$4 > 0 {print $3 / $4}' "$OUT/jperf.rows" | median)
echo "record -a $OPTS, ${SECS} s, median of $RUNS runs each (workload: $NCPU x workload mixed)"
printf "%-22s %12s %12s %8s\n" "" "perf" "jperf" "ratio"
awk -v p="$pc" -v j="$jc" 'BEGIN{printf "%-22s %12.2f %12.2f %8.2f\n", "recorder CPU s", p, j, (p > 0 ? j / p : 0)}'
awk -v p="$pu" -v j="$ju" 'BEGIN{printf "%-22s %12.2f %12.2f %8.2f\n", "  of it user s", p, j, (p > 0 ? j / p : 0)}'
awk -v p="$psy" -v j="$jsy" 'BEGIN{printf "%-22s %12.2f %12.2f %8.2f\n", "  of it sys s", p, j, (p > 0 ? j / p : 0)}'
awk -v p="$pl" -v j="$jl" 'BEGIN{printf "%-22s %12d %12d %8s\n", "lost samples", p, j, (p > 0 ? sprintf("%.2f", j / p) : "-")}'
awk -v p="$ps" -v j="$js" 'BEGIN{printf "%-22s %12.1f %12.1f %8.3f\n", "file MB", p / 1048576, j / 1048576, j / p}'
awk -v p="$pb" -v j="$jb" 'BEGIN{printf "%-22s %12.1f %12.1f %8.3f\n", "bytes per sample", p, j, j / p}'
