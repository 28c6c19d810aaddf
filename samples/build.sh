#!/bin/sh
# Rebuilds samples/bpf/obj/*.bpf.o and samples/bin/jperf-sample-spin from their sources (the
# committed ones are what tests use; only this script needs clang and gcc):
#   clang -O2 -g -target bpf against a vmlinux.h dumped from the running kernel's BTF by jperf
#   (`jperf bpf btf dump file /sys/kernel/btf/vmlinux format c`, bpftool's output), then
#   llvm-strip -g (DWARF dropped, .BTF and .BTF.ext kept), as libbpf-bootstrap's Makefile does.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$here/bpf/obj
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v clang >/dev/null || { echo "build.sh: clang is needed (apt-get install clang)" >&2; exit 1; }
"$here/../jperf" bpf btf dump file /sys/kernel/btf/vmlinux format c > "$tmp/vmlinux.h"
mkdir -p "$out" "$here/bin"
# compiled with the checkout's path mapped away: the BTF line info names the source
# "samples/bpf/x.bpf.c", not a path of the machine that built it
cd "$here/bpf"
for src in *.bpf.c; do
	obj=$out/${src%.c}.o
	clang -O2 -g -target bpf -D__TARGET_ARCH_x86 -fdebug-prefix-map="$here"=samples -I"$tmp" -I. -c "$src" -o "$obj"
	llvm-strip -g "$obj"
done
cd "$here"
gcc -O1 -g -fno-omit-frame-pointer -o bin/jperf-sample-spin workloads/spin.c
echo "built: $(ls "$out" | tr '\n' ' ')bin/jperf-sample-spin"
