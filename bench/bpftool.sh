#!/usr/bin/env bash
# bpftool commands, one per kind: `jperf bpf OBJECT ...` against bpftool 7.1 running the same
# command on the same kernel, and `jperf --version` (the JVM's start-up, included in every jperf
# time: each jperf command is a new JVM). Prints the fastest wall and the CPU of that run, of RUNS
# runs each. Needs root (the kernel's BPF objects), bpftool, samples/bpf/obj. Not a unit test.
#
# Usage: bench/bpftool.sh [RUNS]
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
RUNS=${1:-5}
command -v bpftool >/dev/null || { echo "bench: bpftool not installed (apt-get install -y bpftool)"; exit 2; }
OBJ=samples/bpf/obj/exec_count.bpf.o
[ -f "$OBJ" ] || { echo "bench: no $OBJ (samples/build.sh)"; exit 2; }
BATCH=$(mktemp)
trap 'rm -f "$BATCH"' EXIT
printf 'prog list\nmap list\nlink list\nbtf list\n' > "$BATCH"
printf "%-48s %8s %8s %8s %8s\n" command "bpftool" "" "jperf" ""
printf "%-48s %8s %8s %8s %8s\n" "" "wall s" "cpu s" "wall s" "cpu s"
read -r vw vc _ < <(measure ./jperf --version)
printf "%-48s %8s %8s %8.3f %8.3f\n" "--version (JVM start-up)" "" "" "$vw" "$vc"
row() {
	local bw bc jw jc
	read -r bw bc _ < <(measure bpftool "$@")
	read -r jw jc _ < <(measure ./jperf bpf "$@")
	printf "%-48s %8.3f %8.3f %8.3f %8.3f\n" "${*/$BATCH/FILE (prog, map, link, btf list)}" "$bw" "$bc" "$jw" "$jc"
}
row prog list
row map list
row link list
row btf list
row feature probe kernel
row net list
row perf list
row cgroup tree
row struct_ops list
row gen skeleton "$OBJ"
row batch file "$BATCH"
