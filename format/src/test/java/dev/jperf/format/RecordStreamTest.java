package dev.jperf.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.record.PerfRecord;
import dev.jperf.format.record.RecordType;
import dev.jperf.format.record.SampleRecord;
import dev.jperf.format.record.SampleView;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** RecordStream: damage goes to the sink it was opened with; one cursor, whichever way it is read. */
class RecordStreamTest {
    private static final Path PIPE_TRUNCATED = Corpus.CORPUS.resolve("h-damaged/pipe-truncated.data");
    private static final Path TRUNCATED = Corpus.CORPUS.resolve("h-damaged/truncated.data");

    /** A sink of its own gets the stream's lines; the file's warnings stay as they were opened. */
    @Test
    void damageGoesToTheSinkGivenAtOpen() throws IOException {
        List<String> lines = new ArrayList<>();
        try (PerfDataFile f = PerfDataFile.open("stdin", new ByteArrayInputStream(Files.readAllBytes(PIPE_TRUNCATED)));
                RecordStream rs = f.records(lines::add)) {
            List<String> before = f.warnings();
            while (rs.advance(null) >= 0) {
                // read to the end
            }
            assertEquals(1, lines.size(), lines.toString());
            assertTrue(lines.get(0).startsWith("stdin: ") && lines.get(0).contains("0x55d54"), lines.get(0));
            assertEquals(before, f.warnings());
        }
    }

    /** A truncated file's stop is reported as an offset, for the one line about the truncation. */
    @Test
    void truncatedFileReportsWhereTheRecordsStop() {
        List<String> lines = new ArrayList<>();
        long[] at = {-1};
        RecordWarnings sink = new RecordWarnings() {
            @Override
            public void warn(String line) {
                lines.add(line);
            }

            @Override
            public void truncatedAt(long offset) {
                at[0] = offset;
            }
        };
        try (PerfDataFile f = PerfDataFile.open(TRUNCATED); RecordStream rs = f.records(sink)) {
            while (rs.hasNext()) {
                rs.next();
            }
        }
        assertEquals(List.of(), lines);
        assertEquals(0x9fb38, at[0]);
    }

    /** hasNext() reads ahead; advance(view) then returns that record: the two ways are one cursor. */
    @Test
    void iteratorAndAdvanceAreOneCursor() {
        List<PerfRecord> all = new ArrayList<>();
        try (PerfDataFile f = PerfDataFile.open(TRUNCATED); RecordStream rs = f.records()) {
            while (rs.hasNext()) {
                all.add(rs.next());
            }
        }
        try (PerfDataFile f = PerfDataFile.open(TRUNCATED); RecordStream rs = f.records()) {
            SampleView v = new SampleView();
            int i = 0;
            while (true) {
                boolean peek = i % 3 == 0;
                PerfRecord ahead = null;
                if (peek) {
                    assertEquals(i < all.size(), rs.hasNext());
                    ahead = i < all.size() ? rs.current() : null;
                }
                int type = rs.advance(v);
                if (type < 0) {
                    break;
                }
                PerfRecord want = all.get(i);
                assertEquals(want.type(), type);
                if (peek) {
                    assertSame(ahead, rs.current(), "advance returns the record hasNext read ahead");
                    assertEquals(want.offset(), rs.current().offset());
                } else if (type == RecordType.PERF_RECORD_SAMPLE) {
                    assertNull(rs.current());
                    SampleRecord s = (SampleRecord) want;
                    assertEquals(s.offset(), v.offset());
                    assertEquals(s.ip(), v.ip());
                    assertEquals(s.time(), v.time());
                    assertEquals(s.callchain() == null ? 0 : s.callchain().length, v.callchainLength());
                } else {
                    assertEquals(want.offset(), rs.current().offset());
                    assertEquals(want.type(), rs.current().type());
                }
                i++;
            }
            assertEquals(all.size(), i);
            assertFalse(rs.hasNext());
        }
    }
}
