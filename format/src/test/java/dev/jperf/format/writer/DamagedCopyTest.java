package dev.jperf.format.writer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.Corpus;
import dev.jperf.format.PerfDataException;
import dev.jperf.format.PerfDataFile;
import dev.jperf.format.PerfOracle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damaged corpus files (h-damaged) through the copier: what the reader recovers becomes a sound
 * file that perf 6.1 reads in full, where the original gave perf an empty report; unreadable
 * input is one line.
 */
class DamagedCopyTest {
    @TempDir
    Path tmp;

    static Path damaged(String name) {
        return Corpus.CORPUS.resolve("h-damaged").resolve(name + ".data");
    }

    @Test
    void aFileCutMidRecordBecomesReadable() throws Exception {
        Path out = tmp.resolve("perf.data");
        PerfDataCopier.Result r = PerfDataCopier.copy(damaged("truncated"), out);
        // damage.tsv: cut inside the record at file offset 0x9fb38; data starts at 0x1a8.
        assertEquals(0x9fb38 - 0x1a8, r.dataSize());
        assertTrue(r.warnings().get(0).contains("records after 0x9fb38 are missing"), r.warnings().toString());
        try (PerfDataFile f = PerfDataFile.open(out)) {
            assertEquals(List.of(), f.warnings());
            assertEquals(List.of(), f.featureBits(), "the cut took the feature sections");
        }
        PerfOracle.assumeInstalled();
        assertTrue(Files.readString(damaged("truncated").resolveSibling("truncated.report.stderr")).contains("failed to process"));
        PerfOracle.Result rep = PerfOracle.reportSortSym(out);
        assertEquals(0, rep.rc(), rep.err());
        assertFalse(rep.err().contains("failed"), rep.err());
        assertTrue(rep.out().contains("[k] bpf_prog_904d8356ffe3e4ed_mix_a"), rep.out());
    }

    @Test
    void aPipeCutMidRecordBecomesAFile() throws Exception {
        Path out = tmp.resolve("perf.data");
        PerfDataCopier.Result r = PerfDataCopier.copy(damaged("pipe-truncated"), out);
        assertTrue(r.records() > 5000, "records " + r.records());
        PerfOracle.assumeInstalled();
        PerfOracle.Result rep = PerfOracle.reportSortSym(out);
        assertEquals(0, rep.rc(), rep.err());
        assertFalse(rep.err().contains("unexpected end"), rep.err());
        assertTrue(rep.out().contains("# Samples:"), rep.out());
    }

    /** A data.size 8 bytes too big: the 8 stray bytes and the misplaced feature table are left out. */
    @Test
    void badDataSizeKeepsTheRecordsOnly() throws Exception {
        Path out = tmp.resolve("perf.data");
        PerfDataCopier.Result r = PerfDataCopier.copy(damaged("bad-data-size"), out);
        assertEquals(153720, r.dataSize());
        PerfOracle.assumeInstalled();
        PerfOracle.Result rep = PerfOracle.reportSortSym(out);
        assertEquals(0, rep.rc(), rep.err());
        assertFalse(rep.err().contains("failed"), rep.err());
        assertEquals(PerfOracle.reportSortSym(Corpus.CORPUS.resolve("c-process/perf.data")).out(), rep.out());
    }

    /** A BPF_PROG_INFO body whose entries run past its end is left out with a warning; the rest is copied. */
    @Test
    void aMalformedBpfProgInfoIsLeftOut() throws Exception {
        CorpusInput c = CorpusInput.read(Corpus.CORPUS.resolve("c-process/perf.data"));
        Path in = tmp.resolve("in.data");
        try (PerfDataWriter w = PerfDataWriter.create(in, c.events())) {
            w.append(c.records().duplicate());
            w.setFeature(3, c.features()[3]);
            w.setFeature(24, new byte[] {5, 0, 0, 0, (byte) 232, 0, 0, 0}); // count 5, one cut entry
        }
        // Make the bogus section BPF_PROG_INFO (bit 25) behind the writer's back.
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(in, java.nio.file.StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(0, (1L << 3) | (1L << 25)), 72);
        }
        Path out = tmp.resolve("out.data");
        PerfDataCopier.Result r = PerfDataCopier.copy(in, out);
        assertEquals(List.of(in + ": HEADER_BPF_PROG_INFO at byte 4: entry 0 of 5 is cut off: feature left out"), r.warnings());
        try (PerfDataFile f = PerfDataFile.open(out)) {
            assertEquals(List.of(3), f.featureBits());
        }
    }

    @Test
    void unreadableInputIsOneLine() {
        Path out = tmp.resolve("perf.data");
        PerfDataException e = assertThrows(PerfDataException.class, () -> PerfDataCopier.copy(damaged("bad-magic"), out));
        assertEquals(damaged("bad-magic") + ": not a perf.data file (bad magic)", e.getMessage());
        assertFalse(Files.exists(out), "nothing is written for unreadable input");
        assertThrows(PerfDataException.class, () -> PerfDataCopier.copy(damaged("short-header"), out));
    }

    @Test
    void copyingAFileOntoItselfReadsTheBackup() throws Exception {
        Path f = tmp.resolve("perf.data");
        Files.copy(Corpus.CORPUS.resolve("c-process/perf.data"), f);
        byte[] orig = Files.readAllBytes(f);
        PerfDataCopier.Result r = PerfDataCopier.copy(f, f);
        assertArrayEquals(orig, Files.readAllBytes(tmp.resolve("perf.data.old")));
        // perf's layout (ids, attrs, data) is the writer's: header and records come out byte for byte.
        int dataEnd = (int) (PerfDataWriterTest.le(f).getLong(40) + r.dataSize());
        assertArrayEquals(Arrays.copyOf(orig, dataEnd), Arrays.copyOf(Files.readAllBytes(f), dataEnd));
    }
}
