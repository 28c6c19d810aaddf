package dev.jperf.format.feature;

/**
 * The decoded body of one feature section (file mode) or HEADER_FEATURE record (pipe mode).
 * Immutable; {@link #encode()} gives the body as perf writes it (little-endian), so that
 * decoding an encoded value gives the value back.
 */
public sealed interface FeatureSection
        permits StringFeature, NrCpus, TotalMem, Cmdline, EventDescs, CpuTopology, NumaTopology,
                BuildIds, PmuMappings, GroupDescs, CacheTopology, SampleTime, MemTopology,
                ClockResolution, ClockData, DirFormat, CpuPmuCaps, HybridTopology, PmuCaps,
                Compression, BpfProgInfos, BpfBtfs, EmptyFeature, RawFeature {

    /** The feature bit this body belongs to. */
    int bit();

    /** The body bytes as perf writes them (little-endian). */
    byte[] encode();

    /** The known feature of {@link #bit()}, or null for a bit this reader does not know. */
    default Feature feature() {
        return Feature.of(bit());
    }
}
