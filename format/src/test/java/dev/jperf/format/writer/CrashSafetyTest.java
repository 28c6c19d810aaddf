package dev.jperf.format.writer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.Corpus;
import dev.jperf.format.PerfDataFile;
import dev.jperf.format.PerfOracle;
import dev.jperf.format.RecordStream;
import dev.jperf.format.header.PerfFileSection;
import dev.jperf.format.io.ByteSource;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file is a complete perf.data at every moment after {@link PerfDataWriter#create}: opened
 * with the reader (and with Linux perf when installed) at several moments while writing, and
 * after the writer was abandoned or its process killed with SIGKILL, it holds a prefix of whole
 * records that data.size covers exactly, and feature sections only where the header says they are.
 */
class CrashSafetyTest {
    @TempDir
    Path tmp;

    static final Path INPUT = Corpus.CORPUS.resolve("a-system-wide-bpf/perf.data");

    /** What a reader sees in the file now: checks it and returns data.size. */
    static long assertConsistent(Path file, CorpusInput c, boolean featuresExpected) throws Exception {
        int[] bounds = c.recordBoundaries();
        try (PerfDataFile f = PerfDataFile.open(file)) {
            PerfFileSection data = f.header().data();
            int dataSize = (int) data.size();
            assertTrue(data.end() <= Files.size(file), "data section ends past the end of the file");
            int whole = Arrays.binarySearch(bounds, dataSize);
            assertTrue(whole >= 0, "data.size " + dataSize + " splits a record");
            ByteBuffer onDisk = ByteBuffer.wrap(Files.readAllBytes(file)).slice((int) data.offset(), dataSize);
            assertEquals(c.records().slice(0, dataSize), onDisk.order(ByteOrder.LITTLE_ENDIAN));
            // The reader: no complaint beyond an empty file's, every record whole, features as published.
            List<String> expectedWarnings = dataSize == 0
                    ? List.of(file + ": data size is 0 (the recording was not finished?): reading records up to the end of the file, no features")
                    : List.of();
            assertEquals(expectedWarnings, f.warnings());
            long n = 0;
            try (RecordStream records = f.records()) {
                while (records.hasNext()) {
                    records.next();
                    n++;
                }
            }
            assertEquals(expectedWarnings, f.warnings());
            if (dataSize > 0) {
                assertEquals(whole, n, "records the reader finds");
            }
            List<Integer> bits = f.featureBits();
            assertEquals(featuresExpected, !bits.isEmpty(), "feature sections published: " + bits);
            for (int bit = 0; bit < c.features().length && featuresExpected; bit++) {
                byte[] expected = c.features()[bit];
                assertEquals(expected != null, bits.contains(bit), "feature " + bit);
                if (expected != null) {
                    ByteSource body = f.featureBody(bit).orElseThrow();
                    assertArrayEquals(expected, body.bytes(0, (int) body.size()), "feature " + bit);
                }
            }
            return dataSize;
        }
    }

    /** perf reads the file without error and finds samples in it. */
    static void assertPerfReads(Path file, boolean features) throws Exception {
        PerfOracle.Result r = PerfOracle.reportSortSym(file);
        assertEquals(0, r.rc(), r.err());
        assertFalse(r.err().contains("failed") || r.err().contains("WARNING"), r.err());
        assertTrue(r.out().matches("(?s).*# Samples: \\d+K? +of event 'cpu-clock:ppp'.*"), r.out());
        PerfOracle.Result h = PerfOracle.headerOnly(file);
        assertEquals(features, h.out().contains("# hostname : vm"), h.out());
        assertEquals(features, h.out().contains("sub_prog 3: bpf_prog_4a3cf986b23077d4_fold_c"), h.out());
    }

    @Test
    void readableAtEveryMomentAndAfterTheWriterIsAbandoned() throws Exception {
        CorpusInput c = CorpusInput.read(INPUT);
        int[] bounds = c.recordBoundaries();
        ByteBuffer records = c.records();
        Path out = tmp.resolve("perf.data");
        PerfDataWriter w = PerfDataWriter.create(out, c.events(), 1 << 16);
        c.setFeatures(w);

        // Right after start: header, ids and attrs, no records, no features.
        assertEquals(0, assertConsistent(out, c, false));
        assertEquals(w.dataOffset(), Files.size(out));
        boolean perf = PerfOracle.installed();
        if (perf) {
            PerfOracle.Result h = PerfOracle.headerOnly(out);
            assertEquals(0, h.rc(), h.err());
            assertTrue(h.out().contains("# data size      : 0"), h.out());
        }

        int i = 0;
        long lastSize = 0;
        for (int moment = 0; moment < 6; moment++) {
            int target = (moment + 1) * 150_000;
            while (bounds[i] < target) {
                w.append(records, bounds[i], bounds[i + 1] - bounds[i]);
                i++;
            }
            // Mid-stream: flushes covered by data.size, buffered records not yet.
            long size = assertConsistent(out, c, false);
            assertEquals(w.dataSize(), size);
            assertTrue(size > lastSize && size <= bounds[i], "data.size " + size + " after " + bounds[i] + " bytes");
            if (perf) {
                assertPerfReads(out, false);
            }
            if (moment % 2 == 1) {
                w.checkpoint();
                assertEquals(bounds[i], assertConsistent(out, c, true));
                if (perf) {
                    assertPerfReads(out, true);
                }
            }
            lastSize = size;
        }
        // Abandoned without close (a crash of the recorder's JVM): buffered records are lost, the rest reads.
        while (bounds[i] < 1_000_000) {
            w.append(records, bounds[i], bounds[i + 1] - bounds[i]);
            i++;
        }
        long kept = w.dataSize();
        w = null;
        assertEquals(kept, assertConsistent(out, c, false));
        if (perf) {
            assertPerfReads(out, false);
        }
    }

    @Test
    void sigkillRightAfterACheckpointLeavesACompleteFile() throws Exception {
        Path out = tmp.resolve("perf.data");
        String[] lines = runAndKill(out, "checkpoint");
        CorpusInput c = CorpusInput.read(INPUT);
        assertEquals(Long.parseLong(lines[0].split(" ")[1]), assertConsistent(out, c, true));
        if (PerfOracle.installed()) {
            assertPerfReads(out, true);
        }
    }

    @Test
    void sigkillWhileAppendingLeavesTheFlushedRecords() throws Exception {
        Path out = tmp.resolve("perf.data");
        String[] lines = runAndKill(out, "appending");
        CorpusInput c = CorpusInput.read(INPUT);
        long checkpointed = Long.parseLong(lines[0].split(" ")[1]);
        long flushed = Long.parseLong(lines[1].split(" ")[1]);
        long appended = Long.parseLong(lines[1].split(" ")[2]);
        assertTrue(checkpointed < flushed && flushed <= appended, String.join("|", lines));
        assertEquals(flushed, assertConsistent(out, c, false), "records after the last flush died with the process");
        if (PerfOracle.installed()) {
            assertPerfReads(out, false);
        }
    }

    /** Runs {@link KilledWriter} until it has printed its progress, then SIGKILLs it. */
    private static String[] runAndKill(Path out, String mode) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                KilledWriter.class.getName(), INPUT.toString(), out.toString(), mode)
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream()));
            int n = mode.equals("appending") ? 2 : 1;
            String[] lines = new String[n];
            for (int k = 0; k < n; k++) {
                lines[k] = r.readLine();
                assertTrue(lines[k] != null, () -> "writer process ended early" + (p.isAlive() ? "" : ": exit " + p.exitValue()));
            }
            return lines;
        } finally {
            p.destroyForcibly(); // SIGKILL on Linux: no shutdown hooks, no close()
            assertTrue(p.waitFor(30, TimeUnit.SECONDS));
            assertEquals(137, p.exitValue(), "killed by SIGKILL");
        }
    }
}
