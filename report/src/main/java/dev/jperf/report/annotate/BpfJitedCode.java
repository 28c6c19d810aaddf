package dev.jperf.report.annotate;

import dev.jperf.format.bpf.BpfProgInfo;

/** A JITed BPF function's machine code, cut from its program's jited_prog_insns by jited_func_lens. */
final class BpfJitedCode {
    private BpfJitedCode() {
    }

    /** The bytes of {@code fn}, null when the file has no image for it (or it disagrees with the lengths). */
    static byte[] of(BpfFunction fn) {
        BpfProgInfo prog = fn.prog();
        byte[] all = prog.jitedProgInsns();
        if (all.length == 0) {
            return null;
        }
        int[] lens = prog.jitedFuncLens();
        long from = 0;
        long len = all.length;
        if (lens.length > 0) {
            if (fn.index() >= lens.length) {
                return null;
            }
            for (int i = 0; i < fn.index(); i++) {
                from += Integer.toUnsignedLong(lens[i]);
            }
            len = Integer.toUnsignedLong(lens[fn.index()]);
        }
        if (from + len > all.length) {
            return null;
        }
        return java.util.Arrays.copyOfRange(all, (int) from, (int) (from + len));
    }
}
