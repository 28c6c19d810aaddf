package dev.jperf.format.feature;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;

/** Decodes a feature body into its typed value (encoding is {@link FeatureSection#encode()}). */
public final class FeatureCodec {
    private FeatureCodec() {
    }

    /**
     * Decodes the body of feature {@code bit} (from the buffer's position to its limit, in its byte
     * order). {@code nrCpusAvail} is NRCPUS' nr_cpus_avail, needed by CPU_TOPOLOGY (-1 if unknown).
     * Features without a decoder come back as {@link RawFeature}.
     *
     * @throws FeatureException naming the feature and the problem when the body is malformed
     */
    public static FeatureSection decode(int bit, ByteBuffer body, int nrCpusAvail) {
        Feature f = Feature.of(bit);
        if (f == null) {
            return raw(bit, body);
        }
        try {
            return switch (f) {
                case HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC, CPUID -> StringFeature.decode(f, body);
                case NRCPUS -> NrCpus.decode(body);
                case TOTAL_MEM -> TotalMem.decode(body);
                case CMDLINE -> Cmdline.decode(body);
                case EVENT_DESC -> EventDescs.decode(body);
                case CPU_TOPOLOGY -> CpuTopology.decode(body, nrCpusAvail);
                case NUMA_TOPOLOGY -> NumaTopology.decode(body);
                case BUILD_ID -> BuildIds.decode(body);
                case PMU_MAPPINGS -> PmuMappings.decode(body);
                case GROUP_DESC -> GroupDescs.decode(body);
                case CACHE -> CacheTopology.decode(body);
                case SAMPLE_TIME -> SampleTime.decode(body);
                case MEM_TOPOLOGY -> MemTopology.decode(body);
                case CLOCKID -> ClockResolution.decode(body);
                case CLOCK_DATA -> ClockData.decode(body);
                case DIR_FORMAT -> DirFormat.decode(body);
                case CPU_PMU_CAPS -> CpuPmuCaps.decode(body);
                case HYBRID_TOPOLOGY -> HybridTopology.decode(body);
                case PMU_CAPS -> PmuCaps.decode(body);
                case COMPRESSED -> Compression.decode(body);
                case BPF_PROG_INFO -> BpfProgInfos.decode(body);
                case BPF_BTF -> BpfBtfs.decode(body);
                case BRANCH_STACK, STAT -> new EmptyFeature(bit);
                case RESERVED, TRACING_DATA, AUXTRACE, CPU_DOMAIN_INFO -> raw(bit, body);
            };
        } catch (BufferUnderflowException | IndexOutOfBoundsException | IllegalArgumentException e) {
            // the readers check lengths first; this is the net under value-level consistency checks
            throw new FeatureException(f + ": " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
        }
    }

    static RawFeature raw(int bit, ByteBuffer body) {
        byte[] b = new byte[body.remaining()];
        body.duplicate().get(b);
        return new RawFeature(bit, b);
    }
}
