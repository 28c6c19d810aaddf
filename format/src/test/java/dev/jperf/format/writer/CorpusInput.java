package dev.jperf.format.writer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A file-mode corpus file split into what a writer needs: attrs with ids, the record bytes, the feature bodies. */
record CorpusInput(List<PerfDataWriter.EventAttr> events, ByteBuffer records, byte[][] features) {

    static CorpusInput read(Path in) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(in)).order(ByteOrder.LITTLE_ENDIAN);
        long attrSize = b.getLong(16);
        int attrsOff = (int) b.getLong(24);
        int nAttrs = (int) (b.getLong(32) / attrSize);
        List<PerfDataWriter.EventAttr> events = new ArrayList<>();
        for (int i = 0; i < nAttrs; i++) {
            int e = attrsOff + i * (int) attrSize;
            int sz = b.getInt(e + 4);
            byte[] attr = new byte[sz];
            b.get(e, attr);
            int idsOff = (int) b.getLong(e + sz);
            long[] ids = new long[(int) (b.getLong(e + sz + 8) / 8)];
            for (int j = 0; j < ids.length; j++) {
                ids[j] = b.getLong(idsOff + 8 * j);
            }
            events.add(new PerfDataWriter.EventAttr(attr, ids));
        }
        int dataOff = (int) b.getLong(40);
        int dataSize = (int) b.getLong(48);
        byte[][] features = new byte[256][];
        int idx = dataOff + dataSize;
        for (int bit = 0; bit < 256; bit++) {
            if ((b.getLong(72 + 8 * (bit / 64)) & (1L << (bit % 64))) != 0) {
                int off = (int) b.getLong(idx);
                features[bit] = new byte[(int) b.getLong(idx + 8)];
                b.get(off, features[bit]);
                idx += 16;
            }
        }
        return new CorpusInput(events, b.slice(dataOff, dataSize).order(ByteOrder.LITTLE_ENDIAN), features);
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
