package dev.jperf.recorder;

import static dev.jperf.format.record.BpfEventRecord.PERF_BPF_EVENT_PROG_LOAD;
import static dev.jperf.format.record.CpuMapRecord.PERF_CPU_MAP__CPUS;
import static dev.jperf.format.record.CpuMapRecord.PERF_CPU_MAP__RANGE_CPUS;
import static dev.jperf.format.record.EventUpdateRecord.PERF_EVENT_UPDATE__NAME;
import static dev.jperf.format.record.KsymbolRecord.PERF_RECORD_KSYMBOL_TYPE_BPF;
import static dev.jperf.format.record.PerfRecord.PERF_RECORD_MISC_FORK_EXEC;
import static dev.jperf.format.record.RecordType.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Builds the records a recorder writes itself (perf-data-format.md §6, §10), as perf 6.1 lays them
 * out: strings NUL-padded to 8 bytes, kernel record types followed by an all-zero sample_id
 * trailer of {@code trailerSize} bytes (time 0, id 0: perf's synthesized records look the same).
 * Records accumulate in one growing buffer that the caller drains into the file.
 */
final class SyntheticRecords {
    /** sizeof(struct perf_record_event_update) in perf 6.1: header, type, id and a 16-byte union. */
    private static final int EVENT_UPDATE_SIZE = 40;

    private final int trailerSize;
    /** The trailer every record gets, or null for zeros. */
    private final byte[] trailer;
    private ByteBuffer buf = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);

    SyntheticRecords(int trailerSize) {
        this.trailerSize = trailerSize;
        this.trailer = null;
    }

    /**
     * Records that carry {@code trailer} (a kernel record's sample_id: its pid, time, id, cpu), to
     * sit where that record sits in time.
     */
    SyntheticRecords(byte[] trailer) {
        this.trailerSize = trailer.length;
        this.trailer = trailer.clone();
    }

    /** The records built so far (position 0 to limit); {@link #clear()} starts over. */
    ByteBuffer records() {
        return buf.duplicate().flip().order(ByteOrder.LITTLE_ENDIAN);
    }

    int size() {
        return buf.position();
    }

    void clear() {
        buf.clear();
    }

    private void begin(int type, int misc, int size) {
        if (size > 0xffff) {
            throw new IllegalArgumentException("record of type " + type + " would be " + size + " bytes");
        }
        if (buf.remaining() < size) {
            ByteBuffer bigger = ByteBuffer.allocate(Math.max(buf.capacity() * 2, buf.position() + size))
                    .order(ByteOrder.LITTLE_ENDIAN);
            buf.flip();
            bigger.put(buf);
            buf = bigger;
        }
        buf.putInt(type).putShort((short) misc).putShort((short) size);
    }

    private static byte[] cstr(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static int pad8(int n) {
        return (n + 7) & ~7;
    }

    private void putString(byte[] s, int padded) {
        buf.put(s);
        for (int i = s.length; i < padded; i++) {
            buf.put((byte) 0);
        }
    }

    private void trailer() {
        if (trailer != null) {
            buf.put(trailer);
            return;
        }
        for (int i = 0; i < trailerSize; i++) {
            buf.put((byte) 0);
        }
    }

    /** PERF_RECORD_MMAP (perf uses it for the kernel and its modules). */
    void mmap(int misc, int pid, int tid, long addr, long len, long pgoff, String filename) {
        byte[] name = cstr(filename);
        int padded = pad8(name.length + 1);
        begin(PERF_RECORD_MMAP, misc, 40 + padded + trailerSize);
        buf.putInt(pid).putInt(tid).putLong(addr).putLong(len).putLong(pgoff);
        putString(name, padded);
        trailer();
    }

    /** PERF_RECORD_MMAP2 with device and inode (synthesized from /proc/PID/maps). */
    void mmap2(int misc, int pid, int tid, long addr, long len, long pgoff, int maj, int min, long ino,
            int prot, int flags, String filename) {
        byte[] name = cstr(filename);
        int padded = pad8(name.length + 1);
        begin(PERF_RECORD_MMAP2, misc, 72 + padded + trailerSize);
        buf.putInt(pid).putInt(tid).putLong(addr).putLong(len).putLong(pgoff);
        buf.putInt(maj).putInt(min).putLong(ino).putLong(0).putInt(prot).putInt(flags);
        putString(name, padded);
        trailer();
    }

    /** PERF_RECORD_COMM. */
    void comm(int misc, int pid, int tid, String comm) {
        byte[] name = cstr(comm);
        int padded = pad8(name.length + 1);
        begin(PERF_RECORD_COMM, misc, 16 + padded + trailerSize);
        buf.putInt(pid).putInt(tid);
        putString(name, padded);
        trailer();
    }

    /** PERF_RECORD_FORK as perf synthesizes it (misc FORK_EXEC, time 0). */
    void fork(int pid, int ppid, int tid, int ptid) {
        begin(PERF_RECORD_FORK, PERF_RECORD_MISC_FORK_EXEC, 32 + trailerSize);
        buf.putInt(pid).putInt(ppid).putInt(tid).putInt(ptid).putLong(0);
        trailer();
    }

    /**
     * PERF_RECORD_NAMESPACES as perf synthesizes it (perf_event__synthesize_namespaces): {@code devIno}
     * holds a (dev, inode) pair per namespace in perf's order, zeros where it could not be read.
     */
    void namespaces(int pid, int tid, long[] devIno) {
        int nr = devIno.length / 2;
        begin(PERF_RECORD_NAMESPACES, 0, 24 + 16 * nr + trailerSize);
        buf.putInt(pid).putInt(tid).putLong(nr);
        for (long v : devIno) {
            buf.putLong(v);
        }
        trailer();
    }

    /** PERF_RECORD_KSYMBOL registering a BPF function (or trampoline/dispatcher image). */
    void ksymbol(long addr, int len, String name) {
        byte[] n = cstr(name);
        int padded = pad8(n.length + 1);
        begin(PERF_RECORD_KSYMBOL, 0, 24 + padded + trailerSize);
        buf.putLong(addr).putInt(len).putShort((short) PERF_RECORD_KSYMBOL_TYPE_BPF).putShort((short) 0);
        putString(n, padded);
        trailer();
    }

    /** PERF_RECORD_BPF_EVENT PROG_LOAD. */
    void bpfProgLoad(int id, byte[] tag) {
        begin(PERF_RECORD_BPF_EVENT, 0, 24 + trailerSize);
        buf.putShort((short) PERF_BPF_EVENT_PROG_LOAD).putShort((short) 0).putInt(id).put(tag, 0, 8);
        trailer();
    }

    /**
     * PERF_RECORD_LOST_SAMPLES as perf writes it at the end of a recording: the count read from
     * one fd, its trailer zero but for the fd's id, {@code isPos} u64s from the trailer's end
     * (perf's is_pos: 1 for IDENTIFIER, ID's place otherwise).
     */
    void lostSamples(long lost, long id, int isPos) {
        if (isPos < 1 || 8 * isPos > trailerSize) {
            throw new IllegalStateException("LOST_SAMPLES needs a sample_id trailer with an id");
        }
        begin(PERF_RECORD_LOST_SAMPLES, 0, 16 + trailerSize);
        buf.putLong(lost);
        for (int i = 8; i <= trailerSize; i += 8) {
            buf.putLong(i == trailerSize - 8 * (isPos - 1) ? id : 0);
        }
    }

    /**
     * PERF_RECORD_EVENT_UPDATE of type NAME, laid out as perf 6.1's
     * perf_event__synthesize_event_update_name: the struct, then the name, NUL-padded to 8.
     */
    void eventUpdateName(long id, String name) {
        byte[] n = cstr(name);
        int size = pad8(EVENT_UPDATE_SIZE + n.length + 1);
        begin(PERF_RECORD_EVENT_UPDATE, 0, size);
        buf.putLong(PERF_EVENT_UPDATE__NAME).putLong(id);
        putString(n, size - 24);
    }

    /** PERF_RECORD_ID_INDEX: {id, idx, cpu, tid} per event fd. */
    void idIndex(long[][] entries) {
        begin(PERF_RECORD_ID_INDEX, 0, 16 + 32 * entries.length);
        buf.putLong(entries.length);
        for (long[] e : entries) {
            buf.putLong(e[0]).putLong(e[1]).putLong(e[2]).putLong(e[3]);
        }
    }

    /** PERF_RECORD_THREAD_MAP: {pid, comm[16]} per thread ({-1, ""} for system-wide). */
    void threadMap(int[] tids, String[] comms) {
        begin(PERF_RECORD_THREAD_MAP, 0, 16 + 24 * tids.length);
        buf.putLong(tids.length);
        for (int i = 0; i < tids.length; i++) {
            buf.putLong(tids[i]);
            byte[] c = cstr(comms[i]);
            int n = Math.min(c.length, 15);
            buf.put(c, 0, n);
            for (int j = n; j < 16; j++) {
                buf.put((byte) 0);
            }
        }
    }

    /** PERF_RECORD_CPU_MAP: a range when contiguous, as perf 6.x writes it, else a list. */
    void cpuMap(int[] cpus) {
        boolean range = cpus.length > 0;
        for (int i = 1; i < cpus.length; i++) {
            range &= cpus[i] == cpus[i - 1] + 1;
        }
        if (range) {
            begin(PERF_RECORD_CPU_MAP, 0, 16);
            buf.putShort((short) PERF_CPU_MAP__RANGE_CPUS).put((byte) 0).put((byte) 0).putShort((short) cpus[0])
                    .putShort((short) cpus[cpus.length - 1]);
        } else {
            int size = pad8(8 + 4 + 2 * cpus.length);
            begin(PERF_RECORD_CPU_MAP, 0, size);
            buf.putShort((short) PERF_CPU_MAP__CPUS).putShort((short) cpus.length);
            for (int c : cpus) {
                buf.putShort((short) c);
            }
            for (int i = 8 + 4 + 2 * cpus.length; i < size; i++) {
                buf.put((byte) 0);
            }
        }
    }

    /** An empty user-space record (FINISHED_ROUND, FINISHED_INIT). */
    void empty(int type) {
        begin(type, 0, 8);
    }
}
