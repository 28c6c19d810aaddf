package dev.jperf.report;

import dev.jperf.format.header.PerfEventAttr;
import dev.jperf.format.writer.PerfDataWriter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * perf.data files written record by record for tests: one cpu-clock event, sample_type
 * IP|TID|TIME|PERIOD, no sample_id_all (so records are delivered in file order).
 */
public final class SyntheticData {
    private static final int PERF_RECORD_COMM = 3;
    private static final int PERF_RECORD_SAMPLE = 9;
    private static final int PERF_RECORD_MMAP2 = 10;
    private static final int PERF_RECORD_MISC_USER = 2;

    private SyntheticData() {
    }

    /** The file with its one cpu-clock attr (disabled, inherit, exclude_hv; sample_period 4000). */
    public static PerfDataWriter create(Path data) throws IOException {
        ByteBuffer attr = le(PerfEventAttr.PERF_ATTR_SIZE_VER7);
        attr.putInt(0, 1).putInt(4, PerfEventAttr.PERF_ATTR_SIZE_VER7).putLong(8, 0).putLong(16, 4000)
                .putLong(24, 1 | 2 | 4 | 256).putLong(40, (1L << 8) | (1L << 9) | (1L << 10));
        return PerfDataWriter.create(data, List.of(new PerfDataWriter.EventAttr(attr.array(), new long[0])));
    }

    /** PERF_RECORD_COMM of pid = tid. */
    public static void comm(PerfDataWriter w, int pid, String comm) throws IOException {
        byte[] name = pad(comm);
        ByteBuffer c = record(PERF_RECORD_COMM, 0, 8 + 8 + name.length);
        c.putInt(pid).putInt(pid).put(name);
        w.append(c.flip());
    }

    /** A user PERF_RECORD_MMAP2 of pid = tid at page offset 0, MAP_PRIVATE, no device or inode. */
    public static void mmap2(PerfDataWriter w, int pid, long start, long len, int prot, String file)
            throws IOException {
        byte[] name = pad(file);
        ByteBuffer m = record(PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, 8 + 64 + name.length);
        m.putInt(pid).putInt(pid).putLong(start).putLong(len).putLong(0).putInt(0).putInt(0).putLong(0).putLong(0)
                .putInt(prot).putInt(2).put(name);
        w.append(m.flip());
    }

    /** PERF_RECORD_SAMPLE of pid = tid with {@code misc} as its cpumode. */
    public static void sample(PerfDataWriter w, int misc, long ip, int pid, long time, long period)
            throws IOException {
        ByteBuffer s = record(PERF_RECORD_SAMPLE, misc, 8 + 32);
        s.putLong(ip).putInt(pid).putInt(pid).putLong(time).putLong(period);
        w.append(s.flip());
    }

    /** PERF_RECORD_KSYMBOL of a BPF function (PERF_RECORD_KSYMBOL_TYPE_BPF) at {@code addr}. */
    public static void bpfKsymbol(PerfDataWriter w, long addr, int len, String name) throws IOException {
        byte[] n = pad(name);
        ByteBuffer k = record(17, 0, 8 + 16 + n.length);
        k.putLong(addr).putInt(len).putShort((short) 1).putShort((short) 0).put(n);
        w.append(k.flip());
    }

    /** A record buffer of {@code size} bytes, its perf_event_header written. */
    public static ByteBuffer record(int type, int misc, int size) {
        return le(size).putInt(type).putShort((short) misc).putShort((short) size);
    }

    /** A NUL-terminated string padded to 8 bytes, as perf writes names in records. */
    public static byte[] pad(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return Arrays.copyOf(b, (b.length / 8 + 1) * 8);
    }

    private static ByteBuffer le(int n) {
        return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    }
}
