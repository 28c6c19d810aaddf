#!/bin/bash
# Writes golden/ again: Linux perf's own view of every external vector (perf 6.1 made the files
# here; another perf version prints other text). Symbols play no part, so any machine gives the
# same output, except `# captured on` in the headers (the vector file's mtime: tests skip it).
#
# Usage: make-golden.sh [OUT]   (default: golden/ beside this script)
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$(realpath -m "${1:-$HERE/golden}")
mkdir -p "$OUT"
# a home of its own: perf must not read or fill the user's ~/.debug and config
HOME=$(mktemp -d)
export HOME PERF_BUILDID_DIR=$HOME/.debug
trap 'rm -rf "$HOME"' EXIT
for f in "$HERE"/perf_data_converter/* "$HERE"/linux-perf-data/*; do
	n=$(basename "$f")
	case $n in LICENSE* | *.md) continue ;; esac
	{ perf report -i "$f" --stats 2>&1; echo "exit $?"; } > "$OUT/$n.stats.txt"
	perf report -i "$f" --header-only -I > "$OUT/$n.header.txt" 2>&1
	# only where perf can print samples
	perf script -i "$f" -F pid,tid,time,ip 2>/dev/null | head -5000 > "$OUT/$n.samples.txt"
	[ -s "$OUT/$n.samples.txt" ] || rm "$OUT/$n.samples.txt"
done
