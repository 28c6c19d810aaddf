package dev.jperf.recorder;

import dev.jperf.nativeshim.BpfProgInfoLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One program's metadata as the kernel returned it: the 232-byte {@code bpf_prog_info} (pointer
 * fields still holding our buffer addresses) and each fetched array by PERF_BPIL bit.
 */
record BpfProgCapture(int id, byte[] info, byte[][] arrays) {

    ByteBuffer infoBuffer() {
        return ByteBuffer.wrap(info).order(ByteOrder.LITTLE_ENDIAN);
    }

    int btfId() {
        return infoBuffer().getInt(BpfProgInfoLayout.BTF_ID);
    }

    byte[] tag() {
        byte[] t = new byte[BpfProgInfoLayout.BPF_TAG_SIZE];
        System.arraycopy(info, BpfProgInfoLayout.TAG, t, 0, t.length);
        return t;
    }

    /** Number of JITed functions (main program + subprograms). */
    int functions() {
        return infoBuffer().getInt(BpfProgInfoLayout.NR_JITED_KSYMS);
    }

    /** The arrays mask (perf's PERF_BPIL bits) of what was fetched. */
    long arraysMask() {
        long m = 0;
        for (int b = 0; b < arrays.length; b++) {
            if (arrays[b] != null) {
                m |= 1L << b;
            }
        }
        return m;
    }
}
