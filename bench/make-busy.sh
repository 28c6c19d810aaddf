#!/usr/bin/env bash
# Records the busy-machine benchmark file: testdata/corpus/make-big.sh (perf record -a -g -F 20000
# while the corpus workload and a BPF program run) while a JVM service (BusyJvm.java), a build (javac
# compiling jperf's format module over and over: short-lived JVMs, deep interpreted stacks) and
# CPython interpreters (busy.py) run beside it, as on a machine that serves and builds something:
# a good share of the samples land in interpreter, JIT, GC and runtime frames, under far more
# distinct callchains than make-big.sh alone gives. Costs that grow with distinct stacks show here.
#
# Usage: bench/make-busy.sh OUT.data [SECONDS]   (root; perf, java, python3)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$(realpath -m "${1:?usage: make-busy.sh OUT.data [SECONDS]}")
SECS=${2:-30}
CORPUS=$HERE/../testdata/corpus
pids=()
JAR=$HERE/../cli/target/jperf.jar # aircompressor, which format's sources import
[ -f "$JAR" ] || "$HERE/../jperf" --version > /dev/null
BUILD=$(mktemp -d /tmp/make-busy.XXXXXX)
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$BUILD"' EXIT
java -XX:+UseSerialGC -Xmx256m "$HERE/BusyJvm.java" $((SECS + 10)) 1 > /dev/null & pids+=($!)
python3 "$HERE/busy.py" $((SECS + 10)) 1 > /dev/null & pids+=($!)
(end=$((SECONDS + SECS + 10)); while [ $SECONDS -lt $end ]; do
	javac -nowarn -proc:none -cp "$JAR" -d "$BUILD" $(find "$HERE/../format/src/main/java" -name '*.java') > /dev/null 2>&1
done) & pids+=($!)
sleep 3 # the JVM compiles BusyJvm.java and starts running it
"$CORPUS/make-big.sh" "$OUT" /tmp/corpus/src "$SECS"
