#!/usr/bin/env bash
# Records the DWARF file unwind.sh reads: `perf record --call-graph dwarf -F 1000 -a` for SECONDS
# (default 25; ~50,000 samples on 2 CPUs, each with 8 KiB of stack) while a gcc -O2
# -fomit-frame-pointer build of report's unwind test workload (primes.c) runs beside whatever the
# machine runs. Needs root (or perf_event_paranoid <= 0) and perf.
# Usage: bench/make-dwarf.sh OUT [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=$1
SECONDS_=${2:-25}
mkdir -p "$(dirname "$OUT")"
prog=$(dirname "$OUT")/primes
gcc -O2 -fomit-frame-pointer -o "$prog" report/src/test/resources/unwind/primes.c
( end=$((SECONDS + SECONDS_)); while [ $SECONDS -lt $end ]; do "$prog" 400 >/dev/null; done ) &
work=$!
perf record -q --call-graph dwarf -F 1000 -a -o "$OUT" -- sleep "$SECONDS_"
wait $work
