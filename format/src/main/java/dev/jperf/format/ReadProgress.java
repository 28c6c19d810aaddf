package dev.jperf.format;

/**
 * Told how far a reader of a file's records has got, for a progress display (the cli's
 * "Processing events..." line on a terminal): the reading code itself never prints. Called from
 * the thread that reads the records, every few thousand records.
 */
public interface ReadProgress {
    /** No display. */
    ReadProgress NONE = new ReadProgress() {
        @Override
        public void update(long offset, long total) {
        }

        @Override
        public void done() {
        }
    };

    /**
     * Reading reached file offset {@code offset}; {@code total} is the data section's size, -1 for
     * a stream (its size is not known).
     */
    void update(long offset, long total);

    /** Reading ended, done or failed: the display, if one was shown, is taken down. */
    void done();
}
