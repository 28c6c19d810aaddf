package dev.jperf.report.export;

import dev.jperf.report.session.Frame;
import dev.jperf.report.symbol.Dso;
import java.util.regex.Pattern;

/** What kind of code a frame is in, as the flame graph colours it. */
enum FrameKind {
    KERNEL("kernel"),
    USER("user"),
    /** JITed code: BPF programs and perf-map JITs. */
    JIT("jit"),
    /** No symbol: only an address, perhaps a DSO. */
    UNKNOWN("unknown"),
    /** The samples' thread name (the root's children), not code. */
    COMM("comm");

    /** A BPF function's name as the kernel gives it (one in the kernel map has a kernel DSO). */
    private static final Pattern BPF_PROG_NAME = Pattern.compile("bpf_prog_[0-9a-f]{16}(_.*)?");

    final String css;

    FrameKind(String css) {
        this.css = css;
    }

    static FrameKind of(Frame f) {
        if (f.symbol() == null) {
            return UNKNOWN;
        }
        if (isBpf(f)) {
            return JIT;
        }
        Dso d = f.dso();
        if (d != null && d.kind() == Dso.Kind.PERF_MAP) {
            return JIT;
        }
        return f.kernelSpace() || f.level() == 'k' ? KERNEL : USER;
    }

    static boolean isBpf(Frame f) {
        Dso d = f.dso();
        if (f.symbol() == null) {
            return false;
        }
        if (d != null && d.kind() == Dso.Kind.BPF) {
            return true;
        }
        String name = f.symbol().name();
        return name.startsWith("bpf_prog_") && BPF_PROG_NAME.matcher(name).matches();
    }
}
