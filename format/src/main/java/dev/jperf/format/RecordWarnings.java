package dev.jperf.format;

/**
 * Where a {@link RecordStream} reports the damage it reads past: one line each, naming the input
 * (a record skipped, the data stopping early). The stream goes on where it can.
 */
public interface RecordWarnings {
    /** One line about damage found while reading records. */
    void warn(String line);

    /**
     * The records of an input already known to be truncated (its data section runs past its end)
     * stop at {@code offset}, the end of the last whole record: instead of a line of its own,
     * the one line about the truncation can say where. Ignored by default.
     */
    default void truncatedAt(long offset) {
    }
}
