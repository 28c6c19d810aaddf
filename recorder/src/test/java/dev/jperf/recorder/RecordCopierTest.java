package dev.jperf.recorder;

import dev.jperf.nativeshim.RingBuffer;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jperf.format.header.FileHeader;
import dev.jperf.format.record.RecordType;
import dev.jperf.format.writer.PerfDataWriter;
import dev.jperf.nativeshim.PerfEventMmapPage;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A drain into a file: the ring's bytes are written straight from the ring, and an inflated
 * KSYMBOL among them is cut to its canonical size with the records after it written again
 * (perf-data-format.md §6), also where the batch wraps around the ring's end.
 */
class RecordCopierTest {
    private static final int DATA = 256;
    private static final int TRAILER = 8;

    /** A record of {@code size} bytes, its body a pattern of {@code seed}. */
    private static byte[] plain(int type, int size, int seed) {
        byte[] rec = new byte[size];
        ByteBuffer.wrap(rec).order(ByteOrder.LITTLE_ENDIAN).putInt(0, type).putShort(6, (short) size);
        for (int i = 8; i < size; i++) {
            rec[i] = (byte) (seed + i);
        }
        return rec;
    }

    /** A KSYMBOL named "abc" whose 8-byte trailer follows the name, {@code extra} bytes more than that (the kernel's inflation). */
    private static byte[] ksymbol(int extra) {
        int canonical = 24 + 8 + TRAILER;
        byte[] rec = new byte[canonical + extra];
        ByteBuffer b = ByteBuffer.wrap(rec).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0, RecordType.PERF_RECORD_KSYMBOL).putShort(6, (short) rec.length);
        b.putLong(8, 0xffffffffc0001000L).putInt(16, 0x80).putShort(20, (short) 1);
        rec[24] = 'a';
        rec[25] = 'b';
        rec[26] = 'c';
        b.putLong(32, 0x1122334455667788L); // the trailer
        Arrays.fill(rec, canonical, rec.length, (byte) 0x5a);
        return rec;
    }

    private static void put(ByteBuffer data, long pos, byte[] rec) {
        for (int i = 0; i < rec.length; i++) {
            data.put((int) ((pos + i) % DATA), rec[i]);
        }
    }

    private static byte[] canonical(byte[] inflated) {
        byte[] c = Arrays.copyOf(inflated, 24 + 8 + TRAILER);
        ByteBuffer.wrap(c).order(ByteOrder.LITTLE_ENDIAN).putShort(6, (short) c.length);
        return c;
    }

    @Test
    void ringBytesGoStraightToTheFileAndAnInflatedRecordIsCutToItsCanonicalSize(@TempDir Path dir) throws Exception {
        ByteBuffer m = ByteBuffer.allocateDirect(4096 + DATA).order(ByteOrder.LITTLE_ENDIAN);
        m.putLong(PerfEventMmapPage.DATA_OFFSET, 4096);
        m.putLong(PerfEventMmapPage.DATA_SIZE, DATA);
        long start = 1000L * DATA + 200;
        m.putLong(PerfEventMmapPage.DATA_TAIL, start);
        ByteBuffer data = m.slice(4096, DATA).order(ByteOrder.LITTLE_ENDIAN);
        RingBuffer ring = new RingBuffer(5, 0, m);

        Path file = dir.resolve("perf.data");
        PerfDataWriter writer = PerfDataWriter.create(file, List.of(new PerfDataWriter.EventAttr(new byte[128], new long[] {7})));
        RecordCopier copier = new RecordCopier(writer, null, new BpfCapture(), TRAILER, -1, new DsoHits(-1, -1));

        // first drain: 200..240, the inflated KSYMBOL 240..296 (wraps at 256), 296..336, 336..360
        byte[] r1 = plain(RecordType.PERF_RECORD_THROTTLE, 40, 1);
        byte[] r2 = ksymbol(16);
        byte[] r3 = plain(RecordType.PERF_RECORD_THROTTLE, 40, 2);
        byte[] r4 = plain(RecordType.PERF_RECORD_UNTHROTTLE, 24, 3);
        long pos = start;
        for (byte[] r : new byte[][] {r1, r2, r3, r4}) {
            put(data, pos, r);
            pos += r.length;
        }
        m.putLong(PerfEventMmapPage.DATA_HEAD, pos);
        assertEquals(pos - start, ring.drain(copier));
        // second drain, a plain record across the ring's end: 360..560 (104..304 of the area)
        byte[] r5 = plain(RecordType.PERF_RECORD_THROTTLE, 200, 4);
        put(data, pos, r5);
        m.putLong(PerfEventMmapPage.DATA_HEAD, pos + r5.length);
        assertEquals(r5.length, ring.drain(copier));
        copier.appendOwnPlain(ByteBuffer.wrap(plain(RecordType.PERF_RECORD_FINISHED_ROUND, 8, 0)));
        writer.close();

        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        for (byte[] r : new byte[][] {r1, canonical(r2), r3, r4, r5, plain(RecordType.PERF_RECORD_FINISHED_ROUND, 8, 0)}) {
            expected.write(r);
        }
        ByteBuffer f = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        int offset = (int) f.getLong(FileHeader.DATA);
        int size = (int) f.getLong(FileHeader.DATA + 8);
        assertArrayEquals(expected.toByteArray(), Arrays.copyOfRange(f.array(), offset, offset + size));
        assertEquals(5, copier.records());
    }
}
