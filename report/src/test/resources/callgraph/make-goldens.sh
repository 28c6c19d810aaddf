#!/bin/bash
# Remakes the goldens of cases.txt with Linux perf (the oracle; jperf never runs it):
#   perf --buildid-dir DIR report -i CASE/perf.data --stdio --kallsyms kallsyms.txt ARGS
# DIR is a private build-id cache holding only the recording VM's vdso (corpus/vdso), so [vdso]
# rows are named as on the recording VM whatever ~/.debug holds; the corpus binaries are copied to
# /tmp/corpus/src as the corpus README says. Run from this directory: ./make-goldens.sh [NAME...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
testdata=${JPERF_TESTDATA:-$here/../../../../../testdata}
corpus=$(cd "$testdata/corpus" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
xz -dc "$corpus/kallsyms.txt.xz" > "$tmp/kallsyms.txt"
mkdir -p /tmp/corpus/src && cp -u "$corpus"/src/* /tmp/corpus/src/
for so in "$corpus"/vdso/*.so; do
	bid=$(basename "$so" .so)
	mkdir -p "$tmp/buildid/[vdso]/$bid" "$tmp/buildid/.build-id/${bid:0:2}"
	cp "$so" "$tmp/buildid/[vdso]/$bid/vdso"
	ln -s "../../[vdso]/$bid" "$tmp/buildid/.build-id/${bid:0:2}/${bid:2}"
done
grep -v '^#' "$here/cases.txt" | while IFS=$'\t' read -r name kase args; do
	[ -z "$name" ] && continue
	[ $# -gt 0 ] && [[ " $* " != *" $name "* ]] && continue
	# shellcheck disable=SC2086
	PAGER=cat perf --buildid-dir "$tmp/buildid" report -i "$corpus/$kase/perf.data" --stdio \
		--kallsyms "$tmp/kallsyms.txt" $args 2>/dev/null | grep -v '^# (Tip' | xz -9 > "$here/$name.txt.xz"
	echo "$name"
done
