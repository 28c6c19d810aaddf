/**
 * {@code jperf bpf prog|map}: the kernel's BPF programs and maps listed, shown and dumped with
 * bpftool's fields, layouts and JSON (Debian's bpftool 7.1 with libbpf 1.1 is the reference);
 * map values typed through BTF by {@link dev.jperf.format.btf.BtfDumper}.
 */
package dev.jperf.bpf;
