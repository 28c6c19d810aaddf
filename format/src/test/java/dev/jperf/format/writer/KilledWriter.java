package dev.jperf.format.writer;

import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Child process of {@link CrashSafetyTest}: writes a corpus file's records through a writer,
 * reports its progress on stdout, then waits to be killed with SIGKILL.
 * Arguments: input perf.data, output path, and where to wait: {@code checkpoint} (right after a
 * checkpoint, features on disk) or {@code appending} (after later records overwrote them).
 */
public final class KilledWriter {
    private KilledWriter() {
    }

    public static void main(String[] args) throws Exception {
        CorpusInput c = CorpusInput.read(Path.of(args[0]));
        int[] bounds = c.recordBoundaries();
        ByteBuffer records = c.records();
        PerfDataWriter w = PerfDataWriter.create(Path.of(args[1]), c.events(), 1 << 16);
        c.setFeatures(w);
        int i = appendUntil(w, records, bounds, 0, 300_000);
        w.checkpoint();
        System.out.println("checkpointed " + w.dataSize());
        if (args[2].equals("appending")) {
            i = appendUntil(w, records, bounds, i, 500_000);
            System.out.println("appended " + w.dataSize() + " " + bounds[i]);
        }
        System.out.flush();
        Thread.sleep(600_000);
    }

    private static int appendUntil(PerfDataWriter w, ByteBuffer records, int[] bounds, int i, int end) throws Exception {
        while (bounds[i] < end) {
            w.append(records, bounds[i], bounds[i + 1] - bounds[i]);
            i++;
        }
        return i;
    }
}
