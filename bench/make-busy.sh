#!/usr/bin/env bash
# Records the busy-machine benchmark file: ../shared/corpus/make-big.sh (perf record -a -g -F 20000
# while the corpus workload and a BPF program run) while JVMs (BusyJvm.java) and CPython
# interpreters (busy.py) run beside it, as on a machine that serves something: a good share of the
# samples land in interpreter, JIT, GC and runtime frames, under far more distinct callchains than
# make-big.sh alone gives. Costs that grow with distinct stacks show on this file.
#
# Usage: bench/make-busy.sh OUT.data [SECONDS]   (root; perf, java, python3)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$(realpath -m "${1:?usage: make-busy.sh OUT.data [SECONDS]}")
SECS=${2:-30}
SHARED=$(cd "$HERE/../../shared" && pwd)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT
for seed in 1 2; do
	java -XX:+UseSerialGC -Xmx256m "$HERE/BusyJvm.java" $((SECS + 10)) $seed > /dev/null & pids+=($!)
	python3 "$HERE/busy.py" $((SECS + 10)) $seed > /dev/null & pids+=($!)
done
sleep 3 # the JVMs compile BusyJvm.java and start running it
"$SHARED/corpus/make-big.sh" "$OUT" /tmp/corpus/src "$SECS"
