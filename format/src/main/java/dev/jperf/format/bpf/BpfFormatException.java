package dev.jperf.format.bpf;

/** A bpf_prog_info (or its perf_bpil encoding) that is inconsistent; the message says what and where. */
public final class BpfFormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public BpfFormatException(String message) {
        super(message, null, false, false);
    }
}
