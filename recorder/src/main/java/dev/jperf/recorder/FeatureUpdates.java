package dev.jperf.recorder;

import dev.jperf.format.feature.Feature;
import dev.jperf.format.feature.SampleTime;
import dev.jperf.format.writer.PerfDataOutput;
import dev.jperf.format.writer.PerfPipeWriter;
import dev.jperf.format.writer.RecordCompressor;
import java.io.IOException;

/**
 * The feature sections that change while recording (SAMPLE_TIME, the compression's, the BPF
 * programs and BTFs), rewritten at start, at each checkpoint and at the end: a file stays readable
 * at every moment after start, a {@code kill -9} loses at most the time since the last checkpoint.
 * A pipe gets what is known at start; later programs go into it as records of their own.
 */
final class FeatureUpdates {
    private final PerfDataOutput writer;
    private final RecordCopier copier;
    /** {@code -z}'s; null without. */
    private final RecordCompressor compressor;
    private final BpfCapture capture;
    private long bpfVersion = -1;
    /** Pipe mode: the BPF programs and BTFs the stream carries so far. */
    private StreamedBpf streamedBpf;

    FeatureUpdates(PerfDataOutput writer, RecordCopier copier, RecordCompressor compressor, BpfCapture capture) {
        this.writer = writer;
        this.copier = copier;
        this.compressor = compressor;
        this.capture = capture;
    }

    /** SAMPLE_TIME always; the BPF sections when a program was captured since the last time. */
    void update() throws IOException {
        writer.setFeature(Feature.SAMPLE_TIME.bit(),
                new SampleTime(copier.firstSampleTime(), copier.lastSampleTime()).encode());
        if (compressor != null) {
            writer.setFeature(compressor.feature());
        }
        long v = capture.version();
        if (v != bpfVersion) {
            if (writer instanceof PerfPipeWriter pipe && streamedBpf != null) {
                streamedBpf.send(pipe, capture.programs(), capture.btfs());
            } else {
                HeaderFeatures.setBpf(writer, capture.programs(), capture.btfs());
                if (writer instanceof PerfPipeWriter) {
                    // what the stream's leading records carry; later programs go as records of their own
                    streamedBpf = new StreamedBpf(capture.programs().keySet(), capture.btfs().keySet());
                }
            }
            bpfVersion = v;
        }
    }

    /** The sections updated and the header rewritten, unless the file already failed. */
    void checkpoint() {
        try {
            if (copier.failure() == null && writer.failure() == null) {
                update();
                writer.checkpoint();
            }
        } catch (IOException e) {
            // the writer stopped and keeps the file readable; the copier sees the same failure next
        }
    }

    /** BPF program infos or BTFs a stream could not carry (too large for one record). */
    int streamTooLarge() {
        return streamedBpf == null ? 0 : streamedBpf.tooLarge();
    }
}
