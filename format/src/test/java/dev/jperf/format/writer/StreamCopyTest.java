package dev.jperf.format.writer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.Corpus;
import dev.jperf.format.PerfDataFile;
import dev.jperf.format.RecordStream;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pipe-mode stream that trickles in (as from a live {@code perf record -o -}) is copied to a
 * file that is readable while the copy runs: within about a second of arriving, records are in
 * the file and covered by its header, with the feature sections.
 */
class StreamCopyTest {
    @TempDir
    Path tmp;

    @Test
    void aTricklingPipeIsReadableWhileItIsCopied() throws Exception {
        byte[] pipe = Files.readAllBytes(Corpus.CORPUS.resolve("f-pipe/perf.data"));
        Path out = tmp.resolve("perf.data");
        PipedInputStream in = new PipedInputStream(1 << 16);
        PipedOutputStream feed = new PipedOutputStream(in);
        CompletableFuture<PerfDataCopier.Result> copy = CompletableFuture.supplyAsync(() -> {
            try {
                return PerfDataCopier.copy("stdin", in, out);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        // 8 KiB every 25 ms: the 0.9 MB stream takes about 3 s.
        long seenWhileRunning = 0;
        int p = 0;
        try (OutputStream o = feed) {
            while (p < pipe.length) {
                int n = Math.min(8192, pipe.length - p);
                o.write(pipe, p, n);
                p += n;
                Thread.sleep(25);
                if (Files.exists(out) && p < pipe.length) {
                    seenWhileRunning = Math.max(seenWhileRunning, readWhole(out));
                }
            }
        }
        PerfDataCopier.Result r = copy.get(60, TimeUnit.SECONDS);
        assertEquals(List.of(), r.warnings());
        assertTrue(seenWhileRunning > 0 && seenWhileRunning < r.records(),
                "records readable while the stream was still coming: " + seenWhileRunning + " of " + r.records());
        Path fromFile = tmp.resolve("from-file.data");
        PerfDataCopier.copy(Corpus.CORPUS.resolve("f-pipe/perf.data"), fromFile);
        assertArrayEquals(Files.readAllBytes(fromFile), Files.readAllBytes(out));
    }

    /** Opens the file as it is now; every record covered by its header must be whole. */
    private static long readWhole(Path f) throws java.io.IOException {
        if (Files.size(f) < 104) {
            return 0; // created, header not written yet (a busy machine can catch that moment)
        }
        try (PerfDataFile p = PerfDataFile.open(f); RecordStream rs = p.records()) {
            if (p.header().data().size() == 0) {
                return 0;
            }
            long n = 0;
            while (rs.hasNext()) {
                rs.next();
                n++;
            }
            assertEquals(List.of(), p.warnings());
            assertTrue(!p.featureBits().isEmpty(), "feature sections published with the records");
            return n;
        }
    }
}
