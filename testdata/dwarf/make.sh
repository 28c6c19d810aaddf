#!/usr/bin/env bash
# Makes the DWARF unwinding test data: builds the programs of src/ with gcc/g++, records each with
# Linux perf (`perf record --call-graph dwarf`, user space only, a few hundred samples, each file
# under 2 MB), keeps the binaries the samples hit in buildid/ (perf's build-id cache layout, filled
# by perf record itself) and writes perf's goldens beside each recording, read with that cache.
#
# Usage: testdata/dwarf/make.sh      (needs perf, gcc, g++; any user perf may record a workload as)
# The programs run from /tmp/jperf-dwarf (the paths the recordings name); it is removed after.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
RUN=/tmp/jperf-dwarf
BID=$here/buildid
rm -rf "$RUN" "$BID"
mkdir -p "$RUN"
trap 'rm -rf "$RUN"' EXIT

gcc -O2 -fomit-frame-pointer -o "$RUN/deep" "$here/src/deep.c"
g++ -O2 -static-libstdc++ -static-libgcc -o "$RUN/except" "$here/src/except.cpp"
gcc -O2 -fomit-frame-pointer -o "$RUN/sort" "$here/src/sort.c"

# record CASE CALL_GRAPH PROGRAM ARGS...: CASE/perf.data
record() {
	local case=$1 cg=$2
	shift 2
	mkdir -p "$here/$case"
	rm -f "$here/$case/perf.data" "$here/$case/perf.data.old"
	(cd "$RUN" && perf --buildid-dir "$BID" record -q -e cpu-clock:u -F 1000 --call-graph "$cg" \
		-o "$here/$case/perf.data" -- "$@")
	rm -f "$here/$case/perf.data.old"
	# perf writes its file for its user alone: the test suite also reads it as another user
	chmod 644 "$here/$case/perf.data"
}

# golden CASE: perf's script and report of CASE/perf.data, read with buildid/ as it is kept
golden() {
	local data=$here/$1/perf.data
	perf --buildid-dir "$BID" script -i "$data" -F comm,tid,ip,sym,dso --no-inline 2> /dev/null | xz -9 > "$here/$1/script.txt.xz"
	# perf's closing tip is drawn at random: not part of the golden
	perf --buildid-dir "$BID" report -i "$data" --no-children --stdio --no-inline -g caller 2> /dev/null \
		| grep -v '^# (Tip:\|^# (Cannot load tips' > "$here/$1/report.txt"
	local samples
	samples=$(perf report -i "$data" --stats 2> /dev/null | awk '/SAMPLE events:/ {print $3; exit}')
	echo "$1: $samples samples, $(stat -c %s "$data") bytes"
}

record c-deep dwarf "$RUN/deep" 220
record cpp-except dwarf,4096 "$RUN/except" 110000
record c-qsort dwarf,4096 "$RUN/sort" 260
# perf record cached the kernel's kallsyms (user-space samples only here: not needed) and libc's
# separate debug file (libc6-dbg, over 4 MB): neither is kept, so the goldens are made without them
rm -rf "$BID/[kernel.kallsyms]"
find "$BID" -name debug -type f -delete
find "$BID/.build-id" -xtype l -delete
for case in c-deep cpp-except c-qsort; do
	golden "$case"
done
echo "buildid/: $(du -sh "$BID" | cut -f1)"
