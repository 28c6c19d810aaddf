#!/usr/bin/env bash
# Decode benchmark: jperf's reader against Linux perf on the same large file.
# Times `jperf report --stats` (every record decoded, SAMPLEs with their callchains, nothing
# else) against `perf report -D > /dev/null` (perf's decode-and-dump) and `perf report --stats`,
# and prints records/s and the ratios (perf time / jperf time: > 1 means jperf is faster).
#
# Usage: bench/decode.sh [FILE] [RUNS]
#   FILE  a large perf.data (default /tmp/corpus/big/perf.data, made with
#         testdata/corpus/make-big.sh when absent: needs root and perf, `apt-get install linux-perf`)
#   RUNS  runs per command; the fastest counts (default 3)
# Wall time includes the JVM's start-up and JIT warm-up; CPU time (user+sys) is shown too, as it
# is steadier on a shared machine. Not a unit test.
. "$(dirname "$0")/common.sh"
big_file "${1:-}"
RUNS=${2:-3}

records=$(./jperf report --stats -i "$FILE" | awk '/TOTAL events:/ {print $3; exit}')
read -r jw jc _ < <(measure ./jperf report --stats -i "$FILE")
read -r dw dc _ < <(measure perf report -D -i "$FILE")
read -r sw sc _ < <(measure perf report --stats -i "$FILE")
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
