#!/usr/bin/env bash
# Benchmarks jperf's exports (folded stacks, pprof, flame graph) on the same large file against
# `jperf report --sort sym` (the report they come from) and against perf's pipelines for the same
# output: `perf script report stackcollapse` (perf's folded stacks), with `perf script` alone as
# the floor of any perf-script pipeline. Prints wall, CPU (user+sys) and peak RSS, and ratios.
#
# Usage: bench/export.sh [FILE] [RUNS]
#   FILE  a large -a -g perf.data (default /tmp/corpus/big/perf.data, made with
#         testdata/corpus/make-big.sh when absent: needs root and perf)
#   RUNS  runs per command, the best one counts (default 3)
. "$(dirname "$0")/common.sh"
big_file "${1:-}"
RUNS=${2:-3}
corpus_kallsyms
corpus_binaries
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs; wall is noisy under load, CPU (user+sys) less so"
printf "%-44s %7s %7s %7s\n" "command (on $(basename "$FILE"))" "wall s" "cpu s" "RSS MB"
declare -A WALL CPU
row() {
	local key=$1 label=$2; shift 2
	read -r t c m < <(measure "$@")
	WALL[$key]=$t; CPU[$key]=$c
	awk -v l="$label" -v t="$t" -v c="$c" -v m="$m" 'BEGIN{ printf "%-44s %7.2f %7.2f %7.0f\n", l, t, c, m/1024 }'
}
row report  "jperf report --stdio --sort sym"           ./jperf report -i "$FILE" --kallsyms $K --stdio --sort sym
row folded  "jperf script --folded"                     ./jperf script -i "$FILE" --kallsyms $K --folded
row pprof   "jperf report --pprof"                      ./jperf report -i "$FILE" --kallsyms $K --pprof="$OUT/p.pb.gz"
row flame   "jperf report --flamegraph"                 ./jperf report -i "$FILE" --kallsyms $K --flamegraph="$OUT/f.html"
row pscript "perf script"                               perf script -i "$FILE" --kallsyms $K
row pfold   "perf script report stackcollapse"          perf script report stackcollapse -i "$FILE" --kallsyms $K
echo
printf "%-28s %14s %14s %14s\n" "export (wall / cpu ratios)" "/ jperf report" "/ perf script" "/ perf collapse"
for k in folded pprof flame; do
	awk -v k="$k" -v t="${WALL[$k]}" -v c="${CPU[$k]}" -v rt="${WALL[report]}" -v rc="${CPU[report]}" \
		-v st="${WALL[pscript]}" -v sc="${CPU[pscript]}" -v ft="${WALL[pfold]}" -v fc="${CPU[pfold]}" 'BEGIN{
		printf "%-28s %6.2f / %5.2f %6.2f / %5.2f %6.2f / %5.2f\n", k, t/rt, c/rc, t/st, c/sc, t/ft, c/fc }'
done
ls -l "$OUT"/p.pb.gz "$OUT"/f.html | awk '{ printf "%s: %.1f MB\n", $NF, $5/1048576 }'
# the flame graph in a browser: headless Chromium loading it and running its script, less an empty page
if command -v chromium >/dev/null; then
	echo '<!DOCTYPE html><title>empty</title>' > "$OUT/empty.html"
	browse=(chromium --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update
		--disable-sync --no-first-run --user-data-dir="$OUT/chromium" --dump-dom)
	read -r et _ _ < <(measure "${browse[@]}" "file://$OUT/empty.html")
	read -r ft _ _ < <(measure "${browse[@]}" "file://$OUT/f.html")
	awk -v f="$ft" -v e="$et" 'BEGIN{ printf "flame graph in headless Chromium: %.2f s (load, script, first drawing; %.2f s with the browser start)\n", f - e, f }'
fi
