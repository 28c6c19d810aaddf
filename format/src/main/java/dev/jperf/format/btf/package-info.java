/**
 * BTF (uapi linux/btf.h): {@link dev.jperf.format.btf.Btf} parses a blob (a program's BTF from
 * HEADER_BPF_BTF, an object's .BTF, /sys/kernel/btf/vmlinux, split module BTF) and decodes types
 * on demand as {@link dev.jperf.format.btf.BtfType} values.
 */
package dev.jperf.format.btf;
