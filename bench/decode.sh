#!/usr/bin/env bash
# Decode benchmark: jperf's reader against Linux perf on the same large file.
# Times `jperf report --stats` (every record decoded, SAMPLEs with their callchains, nothing
# else) against `perf report -D > /dev/null` (perf's decode-and-dump) and `perf report --stats`,
# and prints records/s and the ratios (perf time / jperf time: > 1 means jperf is faster).
#
# Usage: bench/decode.sh [FILE] [RUNS]
#   FILE  a large perf.data (default /tmp/corpus/big/perf.data, made with
#         ../shared/corpus/make-big.sh when absent: needs root and perf, `apt-get install linux-perf`)
#   RUNS  runs per command; the fastest counts (default 3)
# Wall time includes the JVM's start-up and JIT warm-up; CPU time (user+sys) is shown too, as it
# is steadier on a shared machine. Not a unit test.
set -euo pipefail
cd "$(dirname "$0")/.."
FILE=${1:-/tmp/corpus/big/perf.data}
RUNS=${2:-3}
SHARED=$(cd ../shared && pwd)
command -v perf >/dev/null || { echo "bench: perf not installed (apt-get update && apt-get install -y linux-perf)"; exit 2; }
if [ ! -f "$FILE" ]; then
	echo "bench: making $FILE with make-big.sh (30 s)"
	"$SHARED/corpus/make-big.sh" "$FILE" >/dev/null
fi
./jperf --version >/dev/null   # build outside the measurement

# fastest "wall cpu" seconds over RUNS runs of a command (stdout discarded)
measure() {
	local best="" bcpu="" i w u s t
	t=$(mktemp)
	for ((i = 0; i < RUNS; i++)); do
		/usr/bin/time -o "$t" -f "%e %U %S" "$@" > /dev/null 2>/dev/null
		read -r w u s < "$t"
		if [ -z "$best" ] || awk "BEGIN{exit !($w < $best)}"; then best=$w; bcpu=$(awk "BEGIN{print $u + $s}"); fi
	done
	rm -f "$t"
	echo "$best $bcpu"
}

records=$(./jperf report --stats -i "$FILE" | awk '/TOTAL events:/ {print $3; exit}')
read -r jw jc < <(measure ./jperf report --stats -i "$FILE")
read -r dw dc < <(measure perf report -D -i "$FILE")
read -r sw sc < <(measure perf report --stats -i "$FILE")
echo "file: $FILE ($(stat -c %s "$FILE") bytes, $records records)"
printf "%-34s %8s %8s %14s %12s %12s\n" command "wall s" "cpu s" "records/s" "perf/jperf" "(cpu)"
line() {
	awk -v l="$1" -v w="$2" -v c="$3" -v n="$records" -v jw="$jw" -v jc="$jc" 'BEGIN{
		printf "%-34s %8.2f %8.2f %14.0f %12.2f %12.2f\n", l, w, c, n / w, w / jw, c / jc }'
}
line "jperf report --stats" "$jw" "$jc"
line "perf report -D > /dev/null" "$dw" "$dc"
line "perf report --stats" "$sw" "$sc"

# The reader alone, in one JVM: cold first pass, then steady passes (JVM start-up excluded).
echo
echo "jperf reader in-process (bench/DecodeBench.java; target >= 5 M records/s):"
java -XX:+UseParallelGC -cp cli/target/jperf.jar bench/DecodeBench.java "$FILE" 6
