package dev.jperf.format.writer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.Corpus;
import dev.jperf.format.PerfDataFile;
import dev.jperf.format.PerfOracle;
import dev.jperf.format.RecordStream;
import dev.jperf.format.feature.Compression;
import dev.jperf.format.feature.Feature;
import dev.jperf.format.record.PerfRecord;
import dev.jperf.format.record.RecordType;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A corpus recording written again with its kernel records packed into COMPRESSED records, as
 * perf record -z lays them out: perf 6.1 (libzstd) and our reader decode every record, and perf's
 * report and header are those of the original file.
 */
class RecordCompressorTest {
    @TempDir
    Path tmp;

    /** Kernel records through the compressor; perf's own records plain, after what is pending. */
    private static Path compressed(Path in, Path out, int mmapLen) throws Exception {
        CorpusInput c = CorpusInput.read(in);
        RecordCompressor z = new RecordCompressor(mmapLen);
        try (PerfDataWriter w = PerfDataWriter.create(out, c.events())) {
            int[] at = c.recordBoundaries();
            ByteBuffer r = c.records();
            for (int i = 0; i + 1 < at.length; i++) {
                int type = r.getInt(at[i]);
                if (type < RecordType.PERF_RECORD_USER_TYPE_START) {
                    z.add(r, at[i], at[i + 1] - at[i], w);
                } else {
                    z.flush(w);
                    w.append(r, at[i], at[i + 1] - at[i]);
                }
            }
            z.flush(w);
            c.setFeatures(w);
            w.setFeature(z.feature());
        }
        Files.setLastModifiedTime(out, Files.getLastModifiedTime(in));
        return out;
    }

    @Test
    void perfAndJperfReadTheCompressedFileAsTheOriginal() throws Exception {
        PerfOracle.assumeInstalled();
        Path in = Corpus.CORPUS.resolve("a-system-wide-bpf/perf.data");
        Path out = compressed(in, tmp.resolve("z.data"), 129 * 4096);

        long kernelRecords = 0;
        long compressedRecords = 0;
        try (PerfDataFile f = PerfDataFile.open(out); RecordStream rs = f.records()) {
            Compression comp = (Compression) f.features().get(Feature.COMPRESSED.bit()).orElseThrow();
            assertEquals(Compression.ZSTD, comp.type());
            assertTrue(comp.ratio() >= 2, "ratio " + comp.ratio());
            while (rs.hasNext()) {
                PerfRecord r = rs.next();
                kernelRecords += r.type() < RecordType.PERF_RECORD_USER_TYPE_START ? 1 : 0;
                compressedRecords += r.type() == RecordType.PERF_RECORD_COMPRESSED ? 1 : 0;
            }
            assertTrue(f.warnings().isEmpty(), f.warnings().toString());
        }
        long original = 0;
        try (PerfDataFile f = PerfDataFile.open(in); RecordStream rs = f.records()) {
            while (rs.hasNext()) {
                original += rs.next().type() < RecordType.PERF_RECORD_USER_TYPE_START ? 1 : 0;
            }
        }
        assertEquals(original, kernelRecords, "jperf's reader decodes every record");
        assertTrue(compressedRecords > 10, "the kernel records travelled in COMPRESSED records: " + compressedRecords);

        PerfOracle.Result report = PerfOracle.reportSortSym(out);
        assertEquals(0, report.rc(), report.err());
        assertTrue(!report.err().contains("failed to decompress"), report.err());
        assertEquals(PerfOracle.reportSortSym(in).out(), report.out());
        String header = PerfOracle.headerOnly(out).out();
        assertTrue(header.contains("# compressed : Zstd, level = 3, ratio = "), header);
        PerfOracle.Result stats = PerfOracle.perf("report", "-i", out.toString(), "--stats");
        assertTrue(stats.out().contains("COMPRESSED events:"), stats.out());
        PerfOracle.Result origStats = PerfOracle.perf("report", "-i", in.toString(), "--stats");
        assertEquals(line(origStats.out(), "SAMPLE events:"), line(stats.out(), "SAMPLE events:"));
    }

    /** Small rings (perf -m 1: mmap_len 8 KiB) make small frames: every one must still decode. */
    @Test
    void smallRingsMakeSmallFramesThatPerfReads() throws Exception {
        PerfOracle.assumeInstalled();
        Path in = Corpus.CORPUS.resolve("c-process/perf.data");
        Path out = compressed(in, tmp.resolve("small.data"), 2 * 4096);
        PerfOracle.Result report = PerfOracle.reportSortSym(out);
        assertEquals(0, report.rc(), report.err());
        assertEquals(PerfOracle.reportSortSym(in).out(), report.out());
    }

    @Test
    void incompressibleBytesStillFitARecord() throws Exception {
        RecordCompressor z = new RecordCompressor(1 << 20);
        byte[] noise = new byte[300_000];
        new java.util.Random(1).nextBytes(noise);
        Path out = tmp.resolve("noise.data");
        try (PerfDataWriter w = PerfDataWriter.create(out, java.util.List.of(
                new PerfDataWriter.EventAttr(PerfDataWriterTest.attr(128), new long[] {1})))) {
            z.add(ByteBuffer.wrap(noise), 0, noise.length, w); // whole COMPRESSED records or an exception
            z.flush(w);
        }
        assertTrue(Files.size(out) > noise.length);
    }

    /** The count on perf's --stats line with {@code key} (its share differs: COMPRESSED records count too). */
    private static String line(String text, String key) {
        return text.lines().filter(l -> l.contains(key)).findFirst().map(l -> l.replaceAll("\\s*\\(.*", ""))
                .orElse("none: " + key);
    }
}
