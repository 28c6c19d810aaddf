/**
 * Reading and writing perf.data.
 *
 * <p>Programs that embed jperf read recordings through {@link dev.jperf.format.consumer} and the
 * packages its types come from (records, header and events, feature sections, BPF programs and
 * their BTF, the bytes records carry): these are exported to everyone, and their javadoc is the
 * contract. Every other package is jperf's own, exported only to the jperf modules that use it,
 * and changes with them.
 */
module dev.jperf.format {
    requires aircompressor;
    // sun.misc.Unsafe for bounds-checked reads (dev.jperf.format.unsafe.Unsafes says why)
    requires jdk.unsupported;

    exports dev.jperf.format.consumer;
    exports dev.jperf.format.record;
    exports dev.jperf.format.header;
    exports dev.jperf.format.feature;
    exports dev.jperf.format.bpf;
    exports dev.jperf.format.btf;
    exports dev.jperf.format.io;

    exports dev.jperf.format to dev.jperf.recorder, dev.jperf.report, dev.jperf.cli;
    exports dev.jperf.format.dwarf to dev.jperf.report;
    exports dev.jperf.format.elf to dev.jperf.loader, dev.jperf.recorder, dev.jperf.report, dev.jperf.bpf;
    exports dev.jperf.format.json to dev.jperf.recorder, dev.jperf.report, dev.jperf.bpf, dev.jperf.cli;
    exports dev.jperf.format.kallsyms to dev.jperf.loader, dev.jperf.recorder, dev.jperf.report, dev.jperf.bpf;
    exports dev.jperf.format.unwind to dev.jperf.report;
    exports dev.jperf.format.writer to dev.jperf.recorder, dev.jperf.report, dev.jperf.cli;
    exports dev.jperf.format.unsafe to dev.jperf.recorder;
    exports dev.jperf.format.collect to dev.jperf.report;
}
