#!/usr/bin/env bash
# Loader benchmark: `jperf bpf load OBJ` (jperf's own loader: open, BTF, maps, CO-RE, PROG_LOAD,
# close) against bench/bpf-load.c doing the same with libbpf, on the largest external object
# (testdata/bpf-objects, every program of it loads here). Prints the fastest wall and
# CPU time of RUNS runs each and the ratio jperf / libbpf (> 1: jperf is slower; JVM start-up
# included). Needs root, libbpf-dev and gcc (for bpf-load). Not a unit test.
#
# Usage: bench/loader.sh [OBJ] [RUNS]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
OBJ=${1:-testdata/bpf-objects/obj/execsnoop.bpf.o}
RUNS=${2:-5}
[ -f /usr/include/bpf/libbpf.h ] || { echo "bench: libbpf-dev not installed (apt-get install -y libbpf-dev)"; exit 2; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
gcc -O2 bench/bpf-load.c -o "$TMP/bpf-load" -lbpf
./jperf --version >/dev/null
# the first runs after a build list and archive the command's classes (./jperf): not measured
for _ in 1 2; do ./jperf bpf load "$OBJ" >/dev/null 2>&1 || true; done
measure() {
	local best="" cpu="" t w u s
	t=$(mktemp)
	for ((i = 0; i < RUNS; i++)); do
		/usr/bin/time -o "$t" -f "%e %U %S" "$@" > /dev/null 2>/dev/null
		read -r w u s < "$t"
		if [ -z "$best" ] || awk "BEGIN{exit !($w < $best)}"; then best=$w; cpu=$(awk "BEGIN{print $u + $s}"); fi
	done
	rm -f "$t"
	echo "$best $cpu"
}
read -r lw lc < <(measure "$TMP/bpf-load" "$OBJ")
read -r jw jc < <(measure ./jperf bpf load "$OBJ")
echo "object: $OBJ ($(stat -c %s "$OBJ") bytes)"
printf "%-18s %8s %8s\n" loader "wall s" "cpu s"
printf "%-18s %8.3f %8.3f\n" "libbpf bpf-load" "$lw" "$lc"
printf "%-18s %8.3f %8.3f\n" "jperf bpf load" "$jw" "$jc"
awk -v a="$jw" -v b="$lw" -v c="$jc" -v d="$lc" 'BEGIN{printf "ratio jperf/libbpf: wall %.2f, cpu %.2f\n", a / b, c / d}'
