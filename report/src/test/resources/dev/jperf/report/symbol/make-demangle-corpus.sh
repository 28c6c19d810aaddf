#!/bin/bash
# Rebuilds demangle-corpus.tsv.gz: C++ symbols sampled from real binaries on the build machine
# (libjvm.so incl. clone suffixes, libstdc++, libLLVM, libclang-cpp, ICU, x265, gprofng, apt-pkg,
# opencsd), plus hand-written special cases and Rust symbols (SPECIAL, one per line: among them every
# _R/_ZN symbol of rust-workload.rs built by rustc 1.95 with -O, with and without
# -C symbol-mangling-version=v0), each with what binutils' c++filt prints in three modes.
# c++filt and perf are test oracles only; jperf never runs them.
# usage: make-demangle-corpus.sh SPECIAL   (writes next to this script)
set -eu
out=$(dirname "$0")/demangle-corpus.tsv.gz
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
L=/usr/lib/x86_64-linux-gnu
J=/usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so
syms() { nm "$@" 2>/dev/null | awk '{print $NF}' | grep '^_Z' | sed 's/@.*//' | sort -u; }
pick() { shuf -n "$2" --random-source=<(yes 42) "$1"; }
syms "$J" > "$tmp/jvm"
syms -D $L/libstdc++.so.6 > "$tmp/stdcxx"
syms -D $L/libLLVM-15.so.1 > "$tmp/llvm"
syms -D $L/libclang-cpp.so.14 > "$tmp/clang"
for f in libicui18n.so.72 libx265.so.199 libgprofng.so.0 libapt-pkg.so.6.0 libopencsd.so.1; do syms -D $L/$f; done | sort -u > "$tmp/misc"
{ grep '\.' "$tmp/jvm" | pick /dev/stdin 300; pick "$tmp/jvm" 1700; pick "$tmp/stdcxx" 1500
  pick "$tmp/llvm" 1500; pick "$tmp/clang" 1000; pick "$tmp/misc" 800; cat "$1"; } | awk '!seen[$0]++' > "$tmp/in"
xargs -d '\n' c++filt < "$tmp/in" > "$tmp/full"
xargs -d '\n' c++filt -p -i < "$tmp/in" > "$tmp/perf"
xargs -d '\n' c++filt -i < "$tmp/in" > "$tmp/perfv"
{ echo "# mangled<TAB>c++filt<TAB>c++filt -p -i (perf)<TAB>c++filt -i (perf -v); $(c++filt --version | head -1)"
  paste "$tmp/in" "$tmp/full" "$tmp/perf" "$tmp/perfv"; } | gzip -9 > "$out"
# perf-probe-funcs{,-v}.txt.gz: what perf 6.1 itself shows for the same names (perf's own demangling,
# DMGL_NO_OPTS, and with -v DMGL_PARAMS|DMGL_ANSI): every name without '@' becomes a 2-byte function
# of a shared object, listed by `perf probe -F` (each symbol is listed twice, .symtab and .dynsym).
zcat "$out" | grep -v '^#' | cut -f1 | grep -v '@' | awk '!seen[$0]++' > "$tmp/names"
awk '{ gsub(/\\/, "\\\\"); gsub(/"/, "\\\""); printf ".globl \"%s\"\n.type \"%s\", @function\n\"%s\":\n nop\n ret\n.size \"%s\", 2\n", $0, $0, $0, $0 }' "$tmp/names" > "$tmp/syms.s"
gcc -shared -nostdlib -o "$tmp/libsyms.so" "$tmp/syms.s"
for v in "" -v; do
  { echo "# perf 6.1: perf probe $v -F (names of demangle-corpus.tsv.gz without '@'), sorted, one line per symbol"
    perf probe $v -x "$tmp/libsyms.so" -F --filter '*' 2>/dev/null | grep -vx _DYNAMIC | LC_ALL=C sort | awk 'NR%2'
  } | gzip -9 > "$(dirname "$0")/perf-probe-funcs${v}.txt.gz"
done
