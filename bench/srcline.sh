#!/usr/bin/env bash
# Benchmarks `jperf report --sort srcline` against perf 6.1 on the same recording (issue 26): a C
# program with nested inline functions and libc calls (format's test resource dwarf/inl.c, gcc -g
# -O2, frame pointers) recorded with -g at a fixed period until the file holds ~1 M samples; perf
# runs addr2line (a child process per DSO, a round trip per distinct address), jperf reads each
# file's DWARF once. Prints wall, CPU and the ratio (jperf / perf), both with a private build-id dir.
#
# Usage: bench/srcline.sh [RUNS]   (RUNS: runs per command, the best counts; default 3)
# Target: ratio <= 0.1 in both rows.
. "$(dirname "$0")/common.sh"
RUNS=${1:-3}
D=/tmp/jperf-srcline
mkdir -p $D
if [ ! -f $D/perf.data ]; then
	gcc -g -O2 -fno-omit-frame-pointer -o $D/inl format/src/test/resources/dwarf/inl.c
	echo "bench: recording $D/perf.data (~1 M samples)"
	perf --buildid-dir $D/buildid record -q -g -e cpu-clock:u -c 10000 -o $D/perf.data $D/inl 200 >/dev/null 2>&1
fi
echo "samples: $(perf report -i $D/perf.data --stats 2>/dev/null | awk '/SAMPLE events:/{print $3; exit}')"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
row() {
	local label=$1; shift
	read -r pt pc pm < <(measure perf --buildid-dir $D/buildid "$@")
	read -r jt jc jm < <(measure ./jperf --buildid-dir $D/buildid "$@")
	awk -v l="$label" -v pt="$pt" -v jt="$jt" -v pc="$pc" -v jc="$jc" 'BEGIN{
		printf "%-44s %7.2f %7.2f %6.3f %7.2f %7.2f %6.3f\n", l, pt, jt, jt/pt, pc, jc, jc/pc }'
}
printf "%-44s %7s %7s %6s %7s %7s %6s\n" command "perf s" "jperf s" ratio "perf c" "jperf c" ratio
row "report --sort srcline --no-children -g none" report -i $D/perf.data --stdio --sort srcline --no-children -g none
row "report --sort srcline -g none"              report -i $D/perf.data --stdio --sort srcline -g none
row "script -F +srcline"                          script -i $D/perf.data -F +srcline
