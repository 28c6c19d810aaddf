package dev.jperf.loader;

import java.nio.file.Path;

/**
 * How {@link BpfObject#load} loads: the verifier log level of a refused program's retry (libbpf
 * loads without a log first, and retries at level 1 to say why), and the kernel BTF that CO-RE
 * relocations and BTF attach points resolve against.
 */
public record LoadOptions(int logLevel, Path kernelBtf) {
    /** Verifier log level 1, the running kernel's BTF (/sys/kernel/btf/vmlinux). */
    public static final LoadOptions DEFAULT = new LoadOptions(1, KernelBtf.VMLINUX);
}
