package dev.jperf.format.bpf;

/** A line_info entry resolved against BTF: file as compiled, line, column and the source text. */
public record BpfSourceLine(String file, int line, int column, String text) {
    /** {@code file:line:column}, as bpf-lines.txt and bpftool print it. */
    public String location() {
        return file + ":" + line + ":" + column;
    }
}
