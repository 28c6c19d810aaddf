package dev.jperf.format.writer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.format.Corpus;
import dev.jperf.format.PerfOracle;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A 1 MiB tmpfs fills up while a 1.3 MB recording is written through the writer. */
class FullDiskTest {
    @TempDir
    Path tmp;
    Path mnt;
    boolean mounted;

    @BeforeEach
    void mountSmallTmpfs() throws Exception {
        mnt = Files.createDirectory(tmp.resolve("mnt"));
        String why = run("mount", "-t", "tmpfs", "-o", "size=1m", "jperf-full", mnt.toString());
        mounted = why == null;
        assumeTrue(mounted, "cannot mount a 1 MiB tmpfs to fill (needs root/CAP_SYS_ADMIN): " + why);
    }

    @AfterEach
    void unmount() throws Exception {
        if (mounted) {
            run("umount", mnt.toString());
        }
    }

    /** Runs a command; null on success, else its error output. */
    private static String run(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return "timed out";
        }
        return p.exitValue() == 0 ? null : out;
    }

    @Test
    void fullDiskStopsTheWriterAndKeepsTheFileReadable() throws Exception {
        Path in = Corpus.CORPUS.resolve("a-system-wide-bpf/perf.data");
        CorpusInput c = CorpusInput.read(in);
        int[] bounds = c.recordBoundaries();
        Path out = mnt.resolve("perf.data");
        PerfDataWriter w = PerfDataWriter.create(out, c.events(), 1 << 16);
        c.setFeatures(w);
        IOException failure = null;
        int appended = 0;
        ByteBuffer records = c.records();
        long sinceCheckpoint = 0;
        for (int i = 0; i + 1 < bounds.length && failure == null; i++) {
            try {
                w.append(records, bounds[i], bounds[i + 1] - bounds[i]);
                appended = bounds[i + 1];
                sinceCheckpoint += bounds[i + 1] - bounds[i];
                if (sinceCheckpoint > 200_000) {
                    w.checkpoint(); // feature sections on disk when the disk fills: they must be unpublished
                    sinceCheckpoint = 0;
                }
            } catch (IOException e) {
                failure = e;
            }
        }
        assertTrue(failure != null, "a 1 MiB tmpfs took all " + records.limit() + " bytes of records");
        String msg = failure.getMessage();
        assertFalse(msg.contains("\n"), msg);
        assertTrue(msg.startsWith(out + ": No space left on device"), msg);
        assertTrue(msg.contains("stopped after " + w.dataSize() + " bytes of records"), msg);
        IOException again = assertThrows(IOException.class, () -> w.append(records, 0, bounds[1]));
        assertSame(failure, again, "later appends report the same failure");
        w.close();

        ByteBuffer f = ByteBuffer.wrap(Files.readAllBytes(out)).order(ByteOrder.LITTLE_ENDIAN);
        long dataOff = f.getLong(40);
        long dataSize = f.getLong(48);
        assertEquals(w.dataSize(), dataSize);
        assertTrue(dataSize > 500_000 && dataSize <= appended, "data.size " + dataSize);
        assertTrue(Arrays.binarySearch(bounds, (int) dataSize) >= 0, "data.size ends on a record boundary");
        assertEquals(records.slice(0, (int) dataSize), f.slice((int) dataOff, (int) dataSize).order(ByteOrder.LITTLE_ENDIAN),
                "the records kept are the records appended");
        long bitmap = f.getLong(72) | f.getLong(80) | f.getLong(88) | f.getLong(96);
        if (bitmap == 0) {
            assertEquals(dataOff + dataSize, f.limit(), "no partial bytes after the last whole record");
        }

        PerfOracle.assumeInstalled();
        Path copy = tmp.resolve("copy.data"); // off the tmpfs, so perf needs no space there
        Files.copy(out, copy);
        PerfOracle.Result r = PerfOracle.reportSortSym(copy);
        assertEquals(0, r.rc(), r.err());
        assertFalse(r.err().contains("failed"), r.err());
        assertTrue(r.out().matches("(?s).*# Samples: \\d+K? +of event 'cpu-clock:ppp'.*"), r.out());
        assertTrue(r.out().contains("[k] bpf_prog_904d8356ffe3e4ed_mix_a"), r.out());
    }
}
