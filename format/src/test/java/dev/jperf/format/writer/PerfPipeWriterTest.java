package dev.jperf.format.writer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.PerfDataFile;
import dev.jperf.format.RecordStream;
import dev.jperf.format.feature.Feature;
import dev.jperf.format.feature.StringFeature;
import dev.jperf.format.record.PerfRecord;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pipe-mode stream as perf 6.1 lays it out, read back by our pipe reader. */
class PerfPipeWriterTest {
    private static List<PerfDataWriter.EventAttr> events() {
        return List.of(new PerfDataWriter.EventAttr(PerfDataWriterTest.attr(128), new long[] {11, 12}),
                new PerfDataWriter.EventAttr(PerfDataWriterTest.attr(112), new long[] {13}));
    }

    private static ByteBuffer finishedRound() {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 68).putShort(6, (short) 8);
    }

    @Test
    void headerAttrsFeaturesThenRecords() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PerfPipeWriter w = PerfPipeWriter.create(Channels.newChannel(out), "-", events());
        w.setFeature(new StringFeature(Feature.HOSTNAME, "host"));
        w.setFeature(new StringFeature(Feature.ARCH, "x86_64"));
        w.append(finishedRound(), 0, 8);
        w.setFeature(new StringFeature(Feature.OSRELEASE, "too late")); // a pipe cannot go back
        w.append(finishedRound(), 0, 8);
        w.close();
        byte[] bytes = out.toByteArray();
        assertEquals(bytes.length, w.written());

        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(0x32454c4946524550L, b.getLong(0));
        assertEquals(16, b.getLong(8));
        List<String> layout = new ArrayList<>();
        for (int p = 16; p < bytes.length; p += b.getShort(p + 6) & 0xffff) {
            int type = b.getInt(p);
            layout.add(type == 80 ? "FEATURE " + b.getLong(p + 8) : Integer.toString(type));
        }
        assertEquals(List.of("64", "64", "FEATURE 3", "FEATURE 6", "FEATURE 32", "68", "68"), layout);
        assertEquals(8 + 128 + 16, b.getShort(16 + 6));

        try (PerfDataFile f = PerfDataFile.open("stdin", new ByteArrayInputStream(bytes)); RecordStream rs = f.records()) {
            int n = 0;
            while (rs.hasNext()) {
                PerfRecord r = rs.next();
                n += r.type() == 68 ? 1 : 0;
            }
            assertEquals(2, n);
            assertEquals(2, f.events().size());
            assertArrayEquals(new long[] {11, 12}, f.events().get(0).ids());
            assertEquals("host", f.features().hostname().orElseThrow());
            assertEquals("x86_64", f.features().arch().orElseThrow());
            assertTrue(!f.features().has(Feature.OSRELEASE));
        }
    }

    @Test
    void bytesThatAreNotWholeRecordsAreRefusedAsTheFileWriterRefusesThem() throws Exception {
        PerfPipeWriter w = PerfPipeWriter.create(Channels.newChannel(new ByteArrayOutputStream()), "-", events());
        ByteBuffer roundAndAHalf = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN).put(finishedRound());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> w.append(roundAndAHalf, 0, 12));
        assertEquals("not a whole record at offset 8 of the appended bytes: a record header needs 8 bytes, 4 are left",
                e.getMessage());
        ByteBuffer cut = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 68).putShort(6, (short) 16);
        e = assertThrows(IllegalArgumentException.class, () -> w.append(cut, 0, 8));
        assertEquals("not a whole record at offset 0 of the appended bytes: the record takes 16 bytes, 8 are left",
                e.getMessage());
    }

    @Test
    void aReaderThatGoesAwayStopsTheWriterWithOneLine() throws Exception {
        OutputStream closed = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("Broken pipe");
            }
        };
        IOException e = assertThrows(IOException.class,
                () -> PerfPipeWriter.create(Channels.newChannel(closed), "-", events()));
        assertTrue(e.getMessage().startsWith("-: Broken pipe while writing the stream"), e.getMessage());
    }
}
