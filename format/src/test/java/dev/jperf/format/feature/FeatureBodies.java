package dev.jperf.format.feature;

import dev.jperf.format.Corpus;
import dev.jperf.format.header.FileHeader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Test helper: cuts the raw feature bodies out of a perf.data file (file mode: index table after
 * the data; pipe mode: HEADER_FEATURE records) without the reader core, straight from the spec.
 */
final class FeatureBodies {
    static final long MAGIC = 0x32454c4946524550L;

    final Path path;
    final boolean pipe;
    final ByteOrder order;
    final Map<Integer, ByteBuffer> bodies = new LinkedHashMap<>();

    private FeatureBodies(Path path) {
        this.path = path;
        byte[] all;
        try {
            all = Files.readAllBytes(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ByteBuffer b = ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN);
        long magic = b.getLong(0);
        if (magic == MAGIC) {
            order = ByteOrder.LITTLE_ENDIAN;
        } else if (magic == Long.reverseBytes(MAGIC)) {
            order = ByteOrder.BIG_ENDIAN;
            b.order(order);
        } else {
            throw new IllegalArgumentException(path + ": not a perf.data file");
        }
        pipe = b.getLong(8) == 16;
        if (pipe) {
            int pos = 16;
            while (pos + 8 <= all.length) {
                int type = b.getInt(pos);
                int size = Short.toUnsignedInt(b.getShort(pos + 6));
                if (size < 8 || pos + size > all.length || (type != 64 && type != 78 && type != 80)) {
                    break;
                }
                if (type == 80) {
                    int feat = (int) b.getLong(pos + 8);
                    if (size > 16 || feat < Feature.PERF_6_1_LAST_FEATURE) {
                        bodies.put(feat, b.slice(pos + 16, size - 16).order(order));
                    }
                }
                pos += size;
            }
        } else {
            long dataOff = b.getLong(40);
            long dataSize = b.getLong(48);
            long table = dataOff + dataSize;
            int slot = 0;
            for (int bit = 0; bit < FileHeader.HEADER_FEAT_BITS; bit++) {
                long word = b.getLong(72 + (bit / 64) * 8);
                if ((word >>> (bit % 64) & 1) != 0) {
                    long off = b.getLong((int) table + slot * 16);
                    long size = b.getLong((int) table + slot * 16 + 8);
                    slot++;
                    if (off >= 0 && size >= 0 && off + size <= all.length) {
                        bodies.put(bit, b.slice((int) off, (int) size).order(order));
                    }
                }
            }
        }
    }

    static FeatureBodies of(Path path) {
        return new FeatureBodies(path);
    }

    /** Every healthy corpus perf.data and every external vector. */
    static List<Path> allFiles() {
        return Stream.concat(Corpus.corpusFiles().stream(), Corpus.externalFiles().stream()).toList();
    }

    static Path corpus(String name) {
        return Corpus.CORPUS.resolve(name).resolve("perf.data");
    }

    static byte[] bytes(ByteBuffer body) {
        byte[] out = new byte[body.remaining()];
        body.duplicate().get(out);
        return out;
    }
}
