package dev.jperf.recorder;

import dev.jperf.format.writer.RecordCompressor;
import java.io.PrintStream;
import java.util.Locale;

/** The lines perf record prints at the end, in its wording. */
final class RecordSummary {
    private RecordSummary() {
    }

    /**
     * @param shownName      the file as the summary names it ({@code NAME.<timestamp>} for
     *     {@code --timestamp-filename}, as perf)
     * @param compressor     {@code -z}'s, or null
     * @param streamTooLarge BPF infos and BTFs a stream could not carry (0 for a file)
     */
    static void print(PrintStream err, Recorder.Result r, String shownName, RecordCompressor compressor,
            int streamTooLarge) {
        String mb = String.format(Locale.ROOT, "%.3f", r.bytes() / 1024.0 / 1024.0);
        if (r.writeFailure() != null) {
            err.println("jperf record: " + r.writeFailure());
        }
        // perf's wording, ratio of the ring bytes to their COMPRESSED records
        String compressed = compressor == null || compressor.compressed() == 0 ? ""
                : String.format(Locale.ROOT, ", compressed (original %.3f MB, ratio is %.3f)",
                        compressor.transferred() / 1024.0 / 1024.0,
                        (double) compressor.transferred() / compressor.compressed());
        err.println("[ jperf record: Captured and wrote " + mb + " MB " + shownName + " (" + r.samples() + " samples)"
                + compressed + " ]");
        err.println("[ jperf record: " + r.lost() + " lost samples; BPF programs: " + r.bpfCaptured() + " captured, "
                + r.bpfMissed() + " missed ]");
        if (streamTooLarge > 0) {
            err.println("jperf record: " + streamTooLarge + " BPF program infos or BTFs are larger than one stream"
                    + " record (64 KiB) and are not in the stream: record to a file to keep them");
        }
    }
}
