package dev.jperf.format.feature;

import dev.jperf.format.record.PerfRecord;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * BUILD_ID: a sequence of perf_record_header_build_id entries: perf_event_header {u32 type = 0,
 * u16 misc (cpumode | PERF_RECORD_MISC_BUILD_ID_SIZE), u16 size}, s32 pid, u8 build_id[20],
 * u8 size, u8[3] reserved, filename NUL-padded to a multiple of 64.
 */
public record BuildIds(List<Entry> entries) implements FeatureSection {
    /** Fixed part of an entry before the file name. */
    public static final int ENTRY_HEADER_SIZE = 36;

    public BuildIds {
        entries = List.copyOf(entries);
    }

    /** One DSO: {@code buildId} holds the {@code size} valid bytes (20 when misc lacks PERF_RECORD_MISC_BUILD_ID_SIZE). */
    public record Entry(int misc, int pid, byte[] buildId, String filename) {
        public Entry {
            if (buildId.length > 20) {
                throw new IllegalArgumentException("build-id longer than 20 bytes");
            }
            buildId = buildId.clone();
        }

        @Override
        public byte[] buildId() {
            return buildId.clone();
        }

        /** The build-id as lower-case hex, as perf buildid-list prints it. */
        public String buildIdHex() {
            return HexFormat.of().formatHex(buildId);
        }

        /** PERF_RECORD_MISC_CPUMODE_MASK bits of misc. */
        public int cpumode() {
            return misc & PerfRecord.PERF_RECORD_MISC_CPUMODE_MASK;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Entry e && misc == e.misc && pid == e.pid && Arrays.equals(buildId, e.buildId)
                    && filename.equals(e.filename);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(buildId) * 31 + filename.hashCode();
        }

        @Override
        public String toString() {
            return "Entry[" + buildIdHex() + " " + filename + " pid " + pid + " misc 0x" + Integer.toHexString(misc) + "]";
        }
    }

    public static BuildIds decode(ByteBuffer body) {
        FeatureReader r = new FeatureReader(body, "BUILD_ID");
        List<Entry> entries = new ArrayList<>();
        while (r.remaining() > 0) {
            r.u32("type");
            int misc = r.u16("misc");
            int size = r.u16("size");
            if (size < ENTRY_HEADER_SIZE || size - 8 > r.remaining()) {
                throw r.error("build-id entry size " + size + " invalid");
            }
            int pid = r.u32("pid");
            byte[] id = r.bytes(20, "build_id");
            int idSize = r.u8("size");
            r.bytes(3, "reserved");
            byte[] name = r.bytes(size - ENTRY_HEADER_SIZE, "filename");
            int len = 0;
            while (len < name.length && name[len] != 0) {
                len++;
            }
            int valid = (misc & PerfRecord.PERF_RECORD_MISC_BUILD_ID_SIZE) != 0 ? Math.min(idSize, 20) : 20;
            entries.add(new Entry(misc, pid, Arrays.copyOf(id, valid), new String(name, 0, len, StandardCharsets.UTF_8)));
        }
        return new BuildIds(entries);
    }

    @Override
    public int bit() {
        return Feature.BUILD_ID.bit();
    }

    @Override
    public byte[] encode() {
        FeatureWriter w = new FeatureWriter();
        for (Entry e : entries) {
            byte[] name = e.filename.getBytes(StandardCharsets.UTF_8);
            int len = FeatureWriter.stringLength(name.length);
            w.u32(0).u16(e.misc).u16(ENTRY_HEADER_SIZE + len);
            w.u32(e.pid).bytes(Arrays.copyOf(e.buildId, 20));
            // writers before PERF_RECORD_MISC_BUILD_ID_SIZE left the size byte 0
            int sizeByte = (e.misc & PerfRecord.PERF_RECORD_MISC_BUILD_ID_SIZE) != 0 ? e.buildId.length : 0;
            w.bytes(new byte[] {(byte) sizeByte, 0, 0, 0});
            w.bytes(name).zeros(len - name.length);
        }
        return w.toByteArray();
    }
}
