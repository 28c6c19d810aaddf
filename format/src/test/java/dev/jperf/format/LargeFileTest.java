package dev.jperf.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.header.PerfEventAttr;
import dev.jperf.format.io.ByteSource;
import dev.jperf.format.record.AuxtraceRecord;
import dev.jperf.format.record.CommRecord;
import dev.jperf.format.record.PerfRecord;
import dev.jperf.format.record.RecordType;
import dev.jperf.format.record.SampleRecord;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A 2.5 GiB (sparse) file: an AUXTRACE payload spans the first windows, then records straddle
 * a window boundary beyond 2 GiB. Checks the mapped windows, their overlap and 64-bit offsets.
 */
class LargeFileTest {

    @Test
    void recordsPast2GiBAndAcrossWindowBoundaries(@TempDir Path dir) throws IOException {
        long boundary = 5 * ByteSource.WINDOW_STRIDE; // 2.5 GiB
        TestFile t = new TestFile(ByteOrder.LITTLE_ENDIAN).attr(1, 0, PerfEventAttr.PERF_SAMPLE_IP | PerfEventAttr.PERF_SAMPLE_TID,
                0, 0, 0, 0, 0, 1);
        byte[] head = t.build(); // header + ids + attr, no data yet
        long dataAt = head.length;
        long commAt = boundary - 20; // the COMM record straddles the boundary
        long payload = commAt - dataAt - 48;
        TestFile.Buf aux = t.buf().u32(RecordType.PERF_RECORD_AUXTRACE).u16(0).u16(48).u64(payload).u64(0).u64(0)
                .u32(0).u32(0).u32(0).u32(0);
        TestFile.Buf comm = t.buf().u32(RecordType.PERF_RECORD_COMM).u16(0).u16(32).u32(10).u32(11).str8("wide-comm");
        comm.put(new byte[32 - comm.size()]);
        TestFile.Buf sample = t.buf().u32(RecordType.PERF_RECORD_SAMPLE).u16(2).u16(24).u64(0xabcdef).u32(10).u32(11);
        long dataSize = 48 + payload + 32 + 24;
        Path f = dir.resolve("big.data");
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.write(head);
            raf.seek(dataAt);
            raf.write(aux.bytes());
            // a marker inside the payload, across the first window boundary
            raf.seek(ByteSource.WINDOW_STRIDE - 4);
            raf.write(new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
            raf.seek(commAt);
            raf.write(comm.bytes());
            raf.write(sample.bytes());
            // data.size in the header (offset 48)
            raf.seek(48);
            raf.write(java.nio.ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(dataSize).array());
        }
        assertTrue(Files.size(f) > (2L << 30));
        List<PerfRecord> rs = new ArrayList<>();
        byte[] marker = new byte[8];
        try (PerfDataFile p = PerfDataFile.open(f); RecordStream s = p.records()) {
            while (s.hasNext()) {
                PerfRecord r = s.next();
                rs.add(r);
                if (r instanceof AuxtraceRecord a) {
                    a.data().get(ByteSource.WINDOW_STRIDE - 4 - (dataAt + 48), marker, 0, 8);
                }
            }
            assertEquals(List.of(), p.warnings());
        }
        assertEquals(3, rs.size());
        assertEquals(payload, ((AuxtraceRecord) rs.get(0)).auxSize());
        assertEquals("[1, 2, 3, 4, 5, 6, 7, 8]", Arrays.toString(marker));
        CommRecord c = (CommRecord) rs.get(1);
        assertEquals(commAt, c.offset());
        assertEquals("wide-comm", c.comm());
        assertEquals(11, c.tid());
        SampleRecord s = (SampleRecord) rs.get(2);
        assertEquals(0xabcdef, s.ip());
        assertEquals(boundary + 12, s.offset());
    }
}
