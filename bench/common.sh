# Sourced by the bench scripts (not run alone): works from the repository root, finds the corpus
# (CORPUS, testdata/corpus), stops when Linux perf (every script's baseline) is missing, builds jperf outside the
# measurement, and gives the inputs and the timing the scripts share.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
CORPUS=$(pwd)/testdata/corpus
command -v perf >/dev/null || { echo "bench: perf not installed (apt-get update && apt-get install -y linux-perf)"; exit 2; }
./jperf --version >/dev/null
# the first run of a command family after a build lists its classes, the second dumps the
# class-data sharing archive (./jperf): neither is measured
for _ in 1 2; do ./jperf report -i "$CORPUS/g-fixed-period/perf.data" --stdio >/dev/null 2>&1 || true; done

# big_file [PATH]: FILE = PATH or /tmp/corpus/big/perf.data, recorded with make-big.sh when absent
# (needs root and perf)
big_file() {
	FILE=${1:-/tmp/corpus/big/perf.data}
	if [ ! -f "$FILE" ]; then
		echo "bench: making $FILE with make-big.sh (30 s)"
		"$CORPUS/make-big.sh" "$FILE" >/dev/null
	fi
}

# busy_file: BUSY = /tmp/corpus/busy/perf.data, recorded with make-busy.sh (JVMs and CPython
# beside the workload) when absent
busy_file() {
	BUSY=/tmp/corpus/busy/perf.data
	if [ ! -f "$BUSY" ]; then
		echo "bench: making $BUSY with make-busy.sh (40 s)"
		bench/make-busy.sh "$BUSY" >/dev/null
	fi
}

# the corpus programs where they ran from (/tmp/corpus/src): their symbols are looked up there
corpus_binaries() {
	mkdir -p /tmp/corpus/src && cp -n "$CORPUS"/src/* /tmp/corpus/src/ 2>/dev/null || true
}

# K = the corpus kallsyms as a file (perf reads it from a file, not a pipe)
corpus_kallsyms() {
	K=/tmp/corpus-kallsyms.txt
	[ -s $K ] || xzcat "$CORPUS/kallsyms.txt.xz" > $K
}

# run before each measured run; a script redefines it to clear what the last run left
before_each() { :; }

# measure CMD...: "wall cpu rss_kb" of the fastest (wall) of RUNS runs of CMD, its stdout and
# stderr discarded; cpu is user+sys seconds, rss the peak
measure() {
	local best="" cpu="" rss="" i t w u s m
	t=$(mktemp)
	for ((i = 0; i < RUNS; i++)); do
		before_each
		/usr/bin/time -o "$t" -f "%e %U %S %M" "$@" > /dev/null 2>/dev/null
		read -r w u s m < "$t"
		if [ -z "$best" ] || awk "BEGIN{exit !($w < $best)}"; then best=$w; cpu=$(awk "BEGIN{print $u + $s}"); rss=$m; fi
	done
	rm -f "$t"
	echo "$best $cpu $rss"
}
