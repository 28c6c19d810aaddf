#!/usr/bin/env bash
# BTF dump benchmark: `jperf bpf btf dump file /sys/kernel/btf/vmlinux format c` (and `format
# raw`) against bpftool doing the same, and `jperf --version` (the JVM's start-up, the floor of
# any jperf command). Prints the fastest wall and CPU time of RUNS runs each. Target: jperf no
# slower than bpftool by more than the JVM's start-up. Needs bpftool and a kernel with BTF. Not a
# unit test.
#
# Usage: bench/btf.sh [RUNS]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
RUNS=${1:-5}
BTF=/sys/kernel/btf/vmlinux
command -v bpftool >/dev/null || { echo "bench: bpftool not installed (apt-get install -y bpftool)"; exit 2; }
[ -r "$BTF" ] || { echo "bench: no readable $BTF"; exit 2; }
./jperf --version >/dev/null
# the first runs after a build list and archive the command's classes (./jperf): not measured
for _ in 1 2; do ./jperf bpf btf dump file "$BTF" format c >/dev/null 2>&1 || true; done
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
printf "%-34s %8s %8s\n" command "wall s" "cpu s"
read -r vw vc < <(measure ./jperf --version)
printf "%-34s %8.3f %8.3f\n" "jperf --version" "$vw" "$vc"
for fmt in c raw; do
	read -r bw bc < <(measure bpftool btf dump file "$BTF" format "$fmt")
	read -r jw jc < <(measure ./jperf bpf btf dump file "$BTF" format "$fmt")
	printf "%-34s %8.3f %8.3f\n" "bpftool btf dump ... format $fmt" "$bw" "$bc"
	printf "%-34s %8.3f %8.3f\n" "jperf bpf btf dump ... format $fmt" "$jw" "$jc"
	awk -v j="$jw" -v b="$bw" -v v="$vw" -v f="$fmt" \
		'BEGIN{printf "format %s: jperf - bpftool %.3f s wall, start-up %.3f s\n", f, j - b, v}'
done
