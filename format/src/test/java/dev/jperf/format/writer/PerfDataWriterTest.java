package dev.jperf.format.writer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.header.FileHeader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PerfDataWriterTest {
    @TempDir
    Path tmp;

    static byte[] attr(int size) {
        byte[] a = new byte[size];
        ByteBuffer b = ByteBuffer.wrap(a).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0, 1).putInt(4, size).putLong(8, 0).putLong(16, 4000).putLong(24, 0x10187);
        return a;
    }

    static byte[] record(int type, int size) {
        byte[] r = new byte[size];
        ByteBuffer.wrap(r).order(ByteOrder.LITTLE_ENDIAN).putInt(0, type).putShort(6, (short) size).put(size - 1, (byte) 0x5a);
        return r;
    }

    static ByteBuffer le(Path p) throws Exception {
        return ByteBuffer.wrap(Files.readAllBytes(p)).order(ByteOrder.LITTLE_ENDIAN);
    }

    @Test
    void attrsAreNormalisedTo128Bytes() {
        byte[] big = attr(136);
        byte[] n = PerfDataWriter.normaliseAttr(big);
        assertEquals(128, n.length);
        assertEquals(128, ByteBuffer.wrap(n).order(ByteOrder.LITTLE_ENDIAN).getInt(4));
        assertArrayEquals(Arrays.copyOfRange(big, 8, 128), Arrays.copyOfRange(n, 8, 128));

        byte[] small = PerfDataWriter.normaliseAttr(attr(112));
        assertEquals(128, small.length);
        assertEquals(128, ByteBuffer.wrap(small).order(ByteOrder.LITTLE_ENDIAN).getInt(4));

        byte[] config3 = attr(136);
        config3[130] = 1;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PerfDataWriter.normaliseAttr(config3));
        assertTrue(e.getMessage().contains("byte 130"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PerfDataWriter.normaliseAttr(new byte[40]));
    }

    @Test
    void layoutIsHeaderIdsAttrsDataFeatures() throws Exception {
        Path f = tmp.resolve("perf.data");
        PerfDataWriter w = PerfDataWriter.create(f, List.of(new PerfDataWriter.EventAttr(attr(136), new long[] {7, 8}),
                new PerfDataWriter.EventAttr(attr(120), new long[] {9})));
        ByteBuffer b = le(f);
        assertEquals(104 + 24 + 2 * 144, b.limit());
        assertEquals(FileHeader.PERF_MAGIC2, b.getLong(0));
        assertEquals(104, b.getLong(8));
        assertEquals(144, b.getLong(16));
        assertEquals(128, b.getLong(24));
        assertEquals(288, b.getLong(32));
        assertEquals(416, b.getLong(40));
        assertEquals(0, b.getLong(48));
        assertEquals(7, b.getLong(104));
        assertEquals(9, b.getLong(120));
        assertEquals(104, b.getLong(128 + 128));
        assertEquals(16, b.getLong(128 + 136));
        assertEquals(120, b.getLong(128 + 144 + 128));
        assertEquals(8, b.getLong(128 + 144 + 136));

        w.append(record(9, 24), 0, 24);
        w.append(record(3, 40), 0, 40);
        assertEquals(0, le(f).getLong(48), "buffered records are not yet covered by the header");
        w.setFeature(3, new byte[] {1, 2, 3});
        w.setFeature(7, new byte[] {4, 5, 6, 7, 8, 9, 10, 11});
        w.close();
        b = le(f);
        assertEquals(64, b.getLong(48));
        assertEquals((1L << 3) | (1L << 7), b.getLong(72));
        long table = 416 + 64;
        assertEquals(table + 32, b.getLong((int) table));
        assertEquals(3, b.getLong((int) table + 8));
        assertEquals(table + 35, b.getLong((int) table + 16));
        assertEquals(8, b.getLong((int) table + 24));
        assertEquals(table + 43, b.limit());
        assertEquals(0x5a, b.get(416 + 23));
    }

    /**
     * perf.data is the owner's only, as perf creates it (it holds kernel addresses, command lines and
     * process names); the backup perf.data.old is the old file renamed: its mode and owner stay.
     */
    @Test
    void newFilesAreOwnerOnlyAndTheBackupKeepsItsMode() throws Exception {
        Path f = tmp.resolve("perf.data");
        List<PerfDataWriter.EventAttr> events = List.of(new PerfDataWriter.EventAttr(attr(128), new long[0]));
        PerfDataWriter.create(f, events).close();
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
        Files.setPosixFilePermissions(f, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r-----"));
        Object owner = Files.getOwner(f);
        Path old = PerfDataWriter.backupExisting(f);
        PerfDataWriter.create(f, events).close();
        assertEquals(tmp.resolve("perf.data.old"), old);
        assertEquals("rw-r-----", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(old)));
        assertEquals(owner, Files.getOwner(old));
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
    }

    @Test
    void appendTakesWholeRecordsOnly() throws Exception {
        Path f = tmp.resolve("perf.data");
        try (PerfDataWriter w = PerfDataWriter.create(f, List.of(new PerfDataWriter.EventAttr(attr(128), new long[0])))) {
            byte[] two = new byte[24 + 12];
            System.arraycopy(record(9, 24), 0, two, 0, 24);
            System.arraycopy(record(9, 16), 0, two, 24, 12);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> w.append(two, 0, two.length));
            assertTrue(e.getMessage().contains("offset 24"), e.getMessage());
            byte[] zero = new byte[8];
            assertThrows(IllegalArgumentException.class, () -> w.append(zero, 0, 8));
            w.flush();
            assertEquals(24, w.dataSize(), "the whole record before the bad one is kept");
        }
    }

    @Test
    void flushesStopAtRecordBoundaries() throws Exception {
        Path f = tmp.resolve("perf.data");
        try (PerfDataWriter w = PerfDataWriter.create(f, List.of(new PerfDataWriter.EventAttr(attr(128), new long[0])), 1 << 16)) {
            byte[] r = record(9, 4000);
            long written = 0;
            for (int i = 0; i < 100; i++) {
                w.append(r, 0, r.length);
                written += r.length;
                long onDisk = le(f).getLong(48);
                assertEquals(0, onDisk % 4000, "data.size " + onDisk + " splits a record");
                assertEquals(onDisk, w.dataSize());
            }
            assertTrue(w.dataSize() > 0 && w.dataSize() < written);
        }
        assertEquals(400_000, le(f).getLong(48));
    }

    @Test
    void framedRunsKeepTheirOrderWhetherTheyFitTheBufferOrNot() throws Exception {
        Path f = tmp.resolve("perf.data");
        // a ring-like direct buffer: runs of 1 and 40 records (40 x 4000 bytes exceed the 64 KiB buffer)
        ByteBuffer ring = ByteBuffer.allocateDirect(41 * 4000).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 41; i++) {
            byte[] r = record(9, 4000);
            r[8] = (byte) i;
            ring.put(i * 4000, r);
        }
        byte[] round8 = new byte[8];
        ByteBuffer.wrap(round8).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 68).putShort(6, (short) 8);
        List<Integer> expected = new java.util.ArrayList<>();
        try (PerfDataWriter w = PerfDataWriter.create(f, List.of(new PerfDataWriter.EventAttr(attr(128), new long[0])), 1 << 16)) {
            for (int round = 0; round < 3; round++) {
                w.appendFramed(ring, 0, 4000); // copied into the buffer
                expected.add(0);
                w.append(round8, 0, 8); // an own record between runs (FINISHED_ROUND)
                expected.add(-1);
                w.appendFramed(ring, 4000, 40 * 4000); // split at record boundaries, as append does
                for (int i = 1; i <= 40; i++) {
                    expected.add(i);
                }
                assertTrue(w.dataSize() % 8 == 0 && w.dataSize() <= (round + 1) * (41 * 4000L + 8));
            }
            w.checkpoint();
            assertEquals(3 * (41 * 4000L + 8), le(f).getLong(48), "the header names every run after a checkpoint");
        }
        ByteBuffer b = le(f);
        List<Integer> seen = new java.util.ArrayList<>();
        for (long p = b.getLong(40), end = p + b.getLong(48); p < end; ) {
            int type = b.getInt((int) p);
            int size = b.getShort((int) p + 6) & 0xffff;
            seen.add(type == 68 ? -1 : (int) b.get((int) p + 8));
            assertEquals(type == 68 ? 8 : 4000, size);
            p += size;
        }
        assertEquals(expected, seen);
    }

    @Test
    void bpfProgInfoIsWrittenWith232ByteInfo() {
        // Two entries: info_len 240 (a newer writer's struct) and 224 (an older one's).
        ByteBuffer in = ByteBuffer.allocate(4 + 16 + 240 + 16 + 16 + 224 + 8).order(ByteOrder.LITTLE_ENDIAN);
        in.putInt(2);
        in.putInt(240).putInt(16).putLong(0x1f9);
        for (int i = 0; i < 240; i++) {
            in.put((byte) (i < 232 ? i : 0x77));
        }
        in.putLong(0x1111).putLong(0x2222);
        in.putInt(224).putInt(8).putLong(0x1);
        for (int i = 0; i < 224; i++) {
            in.put((byte) 3);
        }
        in.putLong(0x3333);
        ByteBuffer out = ByteBuffer.wrap(BpfProgInfoNormaliser.normalise(in.array())).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(4 + 2 * (16 + 232) + 16 + 8, out.limit());
        assertEquals(2, out.getInt(0));
        assertEquals(232, out.getInt(4));
        assertEquals(16, out.getInt(8));
        assertEquals(0x1f9, out.getLong(12));
        assertEquals(231 - 256, out.get(20 + 231));
        assertEquals(0x1111, out.getLong(20 + 232));
        int second = 4 + 16 + 232 + 16;
        assertEquals(232, out.getInt(second));
        assertEquals(3, out.get(second + 16 + 223));
        assertEquals(0, out.get(second + 16 + 224), "a short info is zero-extended");
        assertEquals(0x3333, out.getLong(second + 16 + 232));

        byte[] cut = Arrays.copyOf(in.array(), 100);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BpfProgInfoNormaliser.normalise(cut));
        assertTrue(e.getMessage().startsWith("HEADER_BPF_PROG_INFO"), e.getMessage());
    }

    @Test
    void anUncreatableFileIsOneLine() {
        Path f = tmp.resolve("no-such-dir/perf.data");
        java.io.IOException e = assertThrows(java.io.IOException.class,
                () -> PerfDataWriter.create(f, List.of(new PerfDataWriter.EventAttr(attr(128), new long[0]))));
        assertEquals(f + ": cannot create: No such file or directory", e.getMessage());
    }

    @Test
    void backupRenamesLikePerf() throws Exception {
        Path f = tmp.resolve("perf.data");
        assertNull(PerfDataWriter.backupExisting(f));
        Files.write(f, new byte[0]);
        assertNull(PerfDataWriter.backupExisting(f), "perf keeps no backup of an empty file");
        Files.write(f, new byte[] {1});
        Files.write(tmp.resolve("perf.data.old"), new byte[] {2, 2});
        assertEquals(tmp.resolve("perf.data.old"), PerfDataWriter.backupExisting(f));
        assertTrue(Files.notExists(f));
        assertArrayEquals(new byte[] {1}, Files.readAllBytes(tmp.resolve("perf.data.old")));
    }
}
