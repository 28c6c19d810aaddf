package dev.jperf.report.session;

import dev.jperf.format.RecordStream;
import dev.jperf.format.io.ByteSource;
import java.util.IdentityHashMap;

/**
 * How many samples in flight (queued for ordering, or in a batch not yet handed back) refer to
 * each chunk the reader read the file into. A chunk goes back to the reader for reuse once the
 * reader has moved past it and its last sample has been delivered: a large file then reads into
 * a few chunks instead of promoting a fresh one per 4 MiB into the old generation. Reader thread
 * only (batches come back through the free queue, which orders the consumer's reads before).
 */
final class ChunkRefs {
    private final RecordStream stream;
    private final IdentityHashMap<ByteSource, int[]> refs = new IdentityHashMap<>();
    private ByteSource current;
    private int[] currentCount;
    private ByteSource last;
    private int[] lastCount;

    ChunkRefs(RecordStream stream) {
        this.stream = stream;
        stream.recycleChunks();
    }

    /** A sample of {@code chunk} is queued. */
    void hold(ByteSource chunk) {
        if (chunk != current) {
            ByteSource old = current;
            current = chunk;
            currentCount = refs.computeIfAbsent(chunk, k -> new int[1]);
            int[] c = old == null ? null : refs.get(old);
            if (c != null && c[0] == 0) {
                free(old);
            }
        }
        currentCount[0]++;
    }

    /** A sample of {@code chunk} was delivered. */
    void release(ByteSource chunk) {
        int[] c = chunk == last ? lastCount : refs.get(chunk);
        if (c == null) {
            return;
        }
        last = chunk;
        lastCount = c;
        if (--c[0] == 0 && chunk != current) {
            free(chunk);
        }
    }

    /** The samples of a batch the consumer has finished with. */
    void release(Batch b) {
        for (int i = 0; i < b.n; i++) {
            if (b.o[2 * i] instanceof ByteSource s) {
                release(s);
            }
        }
    }

    private void free(ByteSource chunk) {
        refs.remove(chunk);
        if (chunk == last) {
            last = null;
            lastCount = null;
        }
        stream.recycle(chunk);
    }
}
