package dev.jperf.format.header;

import java.nio.ByteOrder;

/**
 * {@code struct perf_file_header} (104 bytes), or the 16-byte pipe-mode header (then
 * {@link #pipe()} is true and the sections are empty).
 *
 * @param order byte order of the file (the writer's); the opposite of ours when the magic was byte-swapped
 * @param addsFeatures the 256-bit feature bitmap as 4 words: feature n is bit n % 64 of word n / 64
 */
public record FileHeader(ByteOrder order, boolean pipe, long size, long attrSize, PerfFileSection attrs,
        PerfFileSection data, PerfFileSection eventTypes, long[] addsFeatures) {

    /** "PERFILE2" read as a little-endian u64. */
    public static final long PERF_MAGIC2 = 0x32454c4946524550L;
    public static final int PERF_FILE_HEADER_SIZE = 104;
    public static final int PERF_PIPE_HEADER_SIZE = 16;
    /** Header size of files older than the feature bitmap. */
    public static final int PERF_FILE_HEADER_SIZE_NO_FEATURES = 72;
    public static final int HEADER_FEAT_BITS = 256;

    // byte offsets of struct perf_file_header's fields (the reader reads, the writer fills them)
    public static final int MAGIC = 0;
    public static final int SIZE = 8;
    public static final int ATTR_SIZE = 16;
    /** The attrs section: offset, then size (a perf_file_section, two u64). */
    public static final int ATTRS = 24;
    public static final int DATA = 40;
    public static final int EVENT_TYPES = 56;
    /** The feature bitmap, {@link #HEADER_FEAT_BITS} bits. */
    public static final int ADDS_FEATURES = 72;

    public FileHeader {
        addsFeatures = addsFeatures.clone();
    }

    @Override
    public long[] addsFeatures() {
        return addsFeatures.clone();
    }

    public boolean hasFeature(int bit) {
        return bit >= 0 && bit < HEADER_FEAT_BITS && (addsFeatures[bit >>> 6] & (1L << (bit & 63))) != 0;
    }

    /** The set feature bits in increasing order (the order of the feature index table). */
    public int[] featureBits() {
        int n = 0;
        for (long w : addsFeatures) {
            n += Long.bitCount(w);
        }
        int[] bits = new int[n];
        int k = 0;
        for (int bit = 0; bit < HEADER_FEAT_BITS; bit++) {
            if (hasFeature(bit)) {
                bits[k++] = bit;
            }
        }
        return bits;
    }
}
