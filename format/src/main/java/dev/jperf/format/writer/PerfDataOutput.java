package dev.jperf.format.writer;

import dev.jperf.format.feature.FeatureSection;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Where a recorder's records and feature sections go: a perf.data file ({@link PerfDataWriter})
 * or perf's pipe mode ({@link PerfPipeWriter}). Not thread-safe: one thread owns an output.
 */
public interface PerfDataOutput extends Closeable {
    /**
     * Appends whole records: {@code length} bytes of {@code src} from absolute index {@code offset}
     * ({@code src}'s position is not used).
     *
     * @throws IllegalArgumentException if the bytes do not end on a record boundary
     * @throws IOException if writing failed; the output has then stopped
     */
    void append(ByteBuffer src, int offset, int length) throws IOException;

    /**
     * {@link #append} for bytes the caller has already walked record by record (a ring drain,
     * which checks every header it passes): an output may write them without walking them again.
     */
    default void appendFramed(ByteBuffer src, int offset, int length) throws IOException {
        append(src, offset, length);
    }

    /** Sets the body of feature {@code bit} (HEADER_* number); null removes it. */
    void setFeature(int bit, byte[] body);

    /** Sets a feature from its typed value: {@code setFeature(f.bit(), f.encode())}. */
    default void setFeature(FeatureSection f) {
        setFeature(f.bit(), f.encode());
    }

    /** Makes everything appended so far readable by a reader of the output. */
    void checkpoint() throws IOException;

    /** The failure that stopped this output, or null. */
    IOException failure();

    /** Bytes written so far (after {@link #close()}: the whole output). */
    long written();

    /** What the output is called in messages: the file's path, or "-". */
    String name();
}
