package dev.jperf.format.writer;

import dev.jperf.format.PerfDataFile;
import dev.jperf.format.header.EventDesc;
import dev.jperf.format.header.PerfFileSection;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A file-mode corpus file, as the reader sees it, split into what a writer takes: attrs with ids,
 * the record bytes, the feature bodies.
 */
record CorpusInput(List<PerfDataWriter.EventAttr> events, ByteBuffer records, byte[][] features) {

    static CorpusInput read(Path in) throws IOException {
        try (PerfDataFile f = PerfDataFile.open(in)) {
            List<PerfDataWriter.EventAttr> events = new ArrayList<>();
            for (EventDesc e : f.events()) {
                events.add(PerfDataWriter.EventAttr.of(e));
            }
            byte[][] features = new byte[256][];
            for (int bit : f.featureBits()) {
                f.featureBody(bit).ifPresent(b -> features[bit] = b.bytes(0, (int) b.size()));
            }
            PerfFileSection data = f.dataSection();
            ByteBuffer all = ByteBuffer.wrap(Files.readAllBytes(in));
            return new CorpusInput(events, all.slice((int) data.offset(), (int) data.size()).order(ByteOrder.LITTLE_ENDIAN),
                    features);
        }
    }

    /** Offsets of record starts in {@link #records()}, plus its end. */
    int[] recordBoundaries() {
        List<Integer> at = new ArrayList<>();
        int p = 0;
        while (p < records.limit()) {
            at.add(p);
            p += Short.toUnsignedInt(records.getShort(p + 6));
        }
        at.add(p);
        return at.stream().mapToInt(Integer::intValue).toArray();
    }

    void setFeatures(PerfDataWriter w) {
        for (int bit = 0; bit < features.length; bit++) {
            if (features[bit] != null) {
                w.setFeature(bit, features[bit]);
            }
        }
    }
}
