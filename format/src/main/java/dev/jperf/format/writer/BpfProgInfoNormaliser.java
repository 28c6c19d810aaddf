package dev.jperf.format.writer;

import dev.jperf.format.bpf.BpfProgInfo;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Rewrites a HEADER_BPF_PROG_INFO body so that every entry carries exactly the 232-byte
 * {@code struct bpf_prog_info} perf 6.1 knows (bpf-metadata.md §7). perf 6.1 drops the whole
 * section, and every feature after it, when one entry's info_len is larger; a smaller one is a
 * struct from an older writer, zero-extended as the kernel ABI does. The arrays after the struct
 * are referenced by offsets into the data area, so they are copied unchanged.
 */
final class BpfProgInfoNormaliser {
    private BpfProgInfoNormaliser() {
    }

    /** Returns {@code body} with every info_len = 232; a copy even when nothing changes. */
    static byte[] normalise(byte[] body) {
        ByteBuffer in = ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN);
        if (body.length < 4) {
            throw bad(0, "a " + body.length + "-byte section has no entry count");
        }
        long count = Integer.toUnsignedLong(in.getInt(0));
        // First pass: bounds-check every entry and size the output from what is really there.
        long outSize = 4;
        int p = 4;
        for (long i = 0; i < count; i++) {
            if (body.length - p < BpfProgInfo.BPIL_HEADER_SIZE) {
                throw bad(p, "entry " + i + " of " + count + " is cut off");
            }
            long infoLen = Integer.toUnsignedLong(in.getInt(p));
            long dataLen = Integer.toUnsignedLong(in.getInt(p + 4));
            if (infoLen + dataLen > body.length - p - BpfProgInfo.BPIL_HEADER_SIZE) {
                throw bad(p, "entry " + i + " (info_len " + infoLen + ", data_len " + dataLen
                        + ") runs past the section end");
            }
            outSize += BpfProgInfo.BPIL_HEADER_SIZE + BpfProgInfo.INFO_SIZE + dataLen;
            p += BpfProgInfo.BPIL_HEADER_SIZE + (int) infoLen + (int) dataLen;
        }
        if (outSize > Integer.MAX_VALUE - 8) {
            throw bad(0, count + " entries are too large to rewrite");
        }
        ByteBuffer out = ByteBuffer.allocate((int) outSize).order(ByteOrder.LITTLE_ENDIAN);
        out.putInt((int) count);
        p = 4;
        for (long i = 0; i < count; i++) {
            int infoLen = in.getInt(p);
            int dataLen = in.getInt(p + 4);
            out.putInt(BpfProgInfo.INFO_SIZE).putInt(dataLen).putLong(in.getLong(p + 8));
            int keep = Math.min(infoLen, BpfProgInfo.INFO_SIZE);
            out.put(body, p + BpfProgInfo.BPIL_HEADER_SIZE, keep);
            out.position(out.position() + BpfProgInfo.INFO_SIZE - keep);
            out.put(body, p + BpfProgInfo.BPIL_HEADER_SIZE + infoLen, dataLen);
            p += BpfProgInfo.BPIL_HEADER_SIZE + infoLen + dataLen;
        }
        // Bytes after the last entry are not part of the section perf reads; they are dropped.
        return out.array();
    }

    private static IllegalArgumentException bad(int at, String what) {
        return new IllegalArgumentException("HEADER_BPF_PROG_INFO at byte " + at + ": " + what);
    }
}
