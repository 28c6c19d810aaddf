#!/usr/bin/env bash
# Benchmarks `jperf stat`:
#  1. `stat -b`'s cost to the program it watches: a raw_tp sys_enter program (samples' RunCounter)
#     run ~100k times a second by a paced getppid() loop; the program's own ns per run is the
#     loop's ns per syscall with it attached minus without, measured with and without
#     `jperf stat -b ID` around the loop (which turns the kernel's BPF statistics on: two clock
#     reads per run). Prints both, their ratio, and jperf's own avg ns/run.
#  2. `jperf stat` vs `perf stat` wall time: `-e task-clock true` (start-up) and `-a -- sleep 1`.
#
# Usage: bench/stat.sh [RUNS]     (as root; needs perf and gcc)
#   RUNS  measurements of each kind; medians (1) and fastest walls (2) count (default 5)
. "$(dirname "$0")/common.sh"
RUNS=${1:-5}
command -v gcc >/dev/null || { echo "bench: gcc not installed"; exit 2; }
OUT=$(mktemp -d /tmp/bench-stat.XXXXXX)
[ -n "${KEEP:-}" ] || trap 'exec 3>&- 2>/dev/null; rm -rf "$OUT"' EXIT
RATE=100000
SECS=2
# the first two stat runs after a build list the classes and dump the class-data sharing archive
for _ in 1 2; do ./jperf stat -e task-clock true > /dev/null 2>&1; done

# syscalls RATE SECONDS: getppid() in batches of 100, paced to RATE calls/s; prints ns per call
# (the batches' time only, not the pauses)
cat > "$OUT/syscalls.c" <<'C'
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
int main(int argc, char **argv) {
	double rate = atof(argv[1]), secs = atof(argv[2]), start = now(), busy = 0;
	long calls = 0;
	while (now() - start < secs) {
		double t0 = now();
		for (int i = 0; i < 100; i++) syscall(SYS_getppid);
		busy += now() - t0;
		calls += 100;
		double due = start + calls / rate, wait = due - now();
		if (wait > 0) { struct timespec w = { 0, (long)(wait * 1e9) }; nanosleep(&w, NULL); }
	}
	printf("%.1f\n", busy * 1e9 / calls);
	return 0;
}
C
gcc -O2 -o "$OUT/syscalls" "$OUT/syscalls.c"

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# 1. the program's own cost with and without stat -b
: > "$OUT/bare"; : > "$OUT/prog"; : > "$OUT/stat"; : > "$OUT/avg"
mkfifo "$OUT/hold"
java -cp "cli/target/jperf.jar:samples/target/classes" dev.jperf.samples.RunCounter < "$OUT/hold" > "$OUT/id" &
exec 3> "$OUT/hold"   # the program stays attached while fd 3 is open
for _ in $(seq 50); do [ -s "$OUT/id" ] && break; sleep 0.1; done
ID=$(cat "$OUT/id")
[ -n "$ID" ] || { echo "bench: RunCounter did not attach"; exit 1; }
for ((i = 0; i < RUNS; i++)); do
	"$OUT/syscalls" $RATE $SECS >> "$OUT/prog"
	./jperf stat -b "$ID" -x, -- "$OUT/syscalls" $RATE $SECS >> "$OUT/stat" 2> "$OUT/stat.err"
	awk -F, '/avg_run_time/ { print $1 }' "$OUT/stat.err" >> "$OUT/avg"
done
exec 3>&-
wait
for ((i = 0; i < RUNS; i++)); do "$OUT/syscalls" $RATE $SECS >> "$OUT/bare"; done
BARE=$(median < "$OUT/bare"); PROG=$(median < "$OUT/prog"); STAT=$(median < "$OUT/stat"); AVG=$(median < "$OUT/avg")
echo "getppid at $RATE/s, ns per call (median of $RUNS): no program $BARE, program $PROG, program + jperf stat -b $STAT"
awk -v b="$BARE" -v p="$PROG" -v s="$STAT" -v a="$AVG" 'BEGIN {
	printf "program ns/run: %.1f without jperf, %.1f with jperf stat -b: ratio %.2f (jperf reports avg %.1f ns/run)\n",
		p - b, s - b, (s - b) / (p - b), a }'

# 2. wall time against perf stat
printf "%-34s %10s %10s %7s\n" "stat (fastest of $RUNS)" "perf s" "jperf s" "ratio"
for args in "-e task-clock true" "-a -- sleep 1"; do
	# shellcheck disable=SC2086
	P=$(measure perf stat $args); J=$(measure ./jperf stat $args)
	awk -v n="$args" -v p="${P%% *}" -v j="${J%% *}" 'BEGIN { printf "%-34s %10.3f %10.3f %7.2f\n", n, p, j, j / p }'
done
