package dev.jperf.format.feature;

import dev.jperf.format.bpf.BpfPrograms;
import dev.jperf.format.btf.Btf;
import dev.jperf.format.btf.BtfException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The feature sections of one perf.data file (or pipe stream), decoded. A body that fails to
 * decode is kept as a {@link RawFeature} with its problem, and listed in {@link #warnings()}; the
 * other features stay usable (perf 6.1 instead stops at the first bad one).
 */
public final class Features {
    private final TreeMap<Integer, FeatureSection> sections;
    private final List<String> warnings;
    private final Map<Integer, Optional<Btf>> btfCache = new ConcurrentHashMap<>();

    private Features(TreeMap<Integer, FeatureSection> sections, List<String> warnings) {
        this.sections = sections;
        this.warnings = List.copyOf(warnings);
    }

    /** Decodes every body (bit -> body, in the file's byte order), in bit order. */
    public static Features decode(Map<Integer, ByteBuffer> bodies) {
        TreeMap<Integer, FeatureSection> out = new TreeMap<>();
        List<String> warnings = new ArrayList<>();
        int nrCpus = -1;
        for (Map.Entry<Integer, ByteBuffer> e : new TreeMap<>(bodies).entrySet()) {
            int bit = e.getKey();
            try {
                FeatureSection s = FeatureCodec.decode(bit, e.getValue().duplicate().order(e.getValue().order()), nrCpus);
                if (s instanceof NrCpus n) {
                    nrCpus = n.available();
                }
                out.put(bit, s);
            } catch (FeatureException ex) {
                warnings.add(ex.getMessage());
                out.put(bit, new RawFeature(bit, FeatureCodec.raw(bit, e.getValue()).encode(), ex.getMessage()));
            }
        }
        return new Features(out, warnings);
    }

    /** Features built by a writer or recorder (one per bit; later ones replace earlier ones). */
    public static Features of(Collection<? extends FeatureSection> sections) {
        TreeMap<Integer, FeatureSection> m = new TreeMap<>();
        sections.forEach(s -> m.put(s.bit(), s));
        return new Features(m, List.of());
    }

    /** The set bits, in increasing order. */
    public Set<Integer> bits() {
        return Collections.unmodifiableSet(sections.keySet());
    }

    public Collection<FeatureSection> sections() {
        return Collections.unmodifiableCollection(sections.values());
    }

    public boolean has(Feature f) {
        return sections.containsKey(f.bit());
    }

    public Optional<FeatureSection> get(int bit) {
        return Optional.ofNullable(sections.get(bit));
    }

    /** One line per body that could not be decoded ("BPF_PROG_INFO: ..."). */
    public List<String> warnings() {
        return warnings;
    }

    private <T extends FeatureSection> Optional<T> typed(Feature f, Class<T> type) {
        FeatureSection s = sections.get(f.bit());
        return type.isInstance(s) ? Optional.of(type.cast(s)) : Optional.empty();
    }

    private Optional<String> string(Feature f) {
        return typed(f, StringFeature.class).map(StringFeature::value);
    }

    public Optional<String> hostname() {
        return string(Feature.HOSTNAME);
    }

    public Optional<String> osRelease() {
        return string(Feature.OSRELEASE);
    }

    public Optional<String> version() {
        return string(Feature.VERSION);
    }

    public Optional<String> arch() {
        return string(Feature.ARCH);
    }

    public Optional<String> cpuDesc() {
        return string(Feature.CPUDESC);
    }

    public Optional<String> cpuId() {
        return string(Feature.CPUID);
    }

    public Optional<NrCpus> nrCpus() {
        return typed(Feature.NRCPUS, NrCpus.class);
    }

    public Optional<TotalMem> totalMem() {
        return typed(Feature.TOTAL_MEM, TotalMem.class);
    }

    public Optional<Cmdline> cmdline() {
        return typed(Feature.CMDLINE, Cmdline.class);
    }

    public Optional<EventDescs> eventDesc() {
        return typed(Feature.EVENT_DESC, EventDescs.class);
    }

    public Optional<CpuTopology> cpuTopology() {
        return typed(Feature.CPU_TOPOLOGY, CpuTopology.class);
    }

    public Optional<NumaTopology> numaTopology() {
        return typed(Feature.NUMA_TOPOLOGY, NumaTopology.class);
    }

    public Optional<BuildIds> buildIds() {
        return typed(Feature.BUILD_ID, BuildIds.class);
    }

    public Optional<PmuMappings> pmuMappings() {
        return typed(Feature.PMU_MAPPINGS, PmuMappings.class);
    }

    public Optional<GroupDescs> groupDesc() {
        return typed(Feature.GROUP_DESC, GroupDescs.class);
    }

    public Optional<CacheTopology> cache() {
        return typed(Feature.CACHE, CacheTopology.class);
    }

    public Optional<SampleTime> sampleTime() {
        return typed(Feature.SAMPLE_TIME, SampleTime.class);
    }

    public Optional<MemTopology> memTopology() {
        return typed(Feature.MEM_TOPOLOGY, MemTopology.class);
    }

    public Optional<ClockResolution> clockId() {
        return typed(Feature.CLOCKID, ClockResolution.class);
    }

    public Optional<ClockData> clockData() {
        return typed(Feature.CLOCK_DATA, ClockData.class);
    }

    public Optional<DirFormat> dirFormat() {
        return typed(Feature.DIR_FORMAT, DirFormat.class);
    }

    public Optional<CpuPmuCaps> cpuPmuCaps() {
        return typed(Feature.CPU_PMU_CAPS, CpuPmuCaps.class);
    }

    public Optional<HybridTopology> hybridTopology() {
        return typed(Feature.HYBRID_TOPOLOGY, HybridTopology.class);
    }

    public Optional<PmuCaps> pmuCaps() {
        return typed(Feature.PMU_CAPS, PmuCaps.class);
    }

    public Optional<Compression> compressed() {
        return typed(Feature.COMPRESSED, Compression.class);
    }

    public Optional<BpfProgInfos> bpfProgInfos() {
        return typed(Feature.BPF_PROG_INFO, BpfProgInfos.class);
    }

    public Optional<BpfBtfs> bpfBtfs() {
        return typed(Feature.BPF_BTF, BpfBtfs.class);
    }

    /** The BPF programs of BPF_PROG_INFO with their BTF, indexed for symbolisation (empty if none). */
    public BpfPrograms bpfPrograms() {
        return new BpfPrograms(bpfProgInfos().map(BpfProgInfos::programs).orElse(List.of()), this::btf);
    }

    /**
     * The parsed BTF with this id from BPF_BTF (parsed once, then cached); empty when absent or
     * malformed (a BPF program then simply has no names/lines from BTF).
     */
    public Optional<Btf> btf(int btfId) {
        return btfCache.computeIfAbsent(btfId, id -> bpfBtfs().flatMap(b -> b.byId(id)).flatMap(blob -> {
            try {
                return Optional.of(blob.parse());
            } catch (BtfException e) {
                return Optional.empty();
            }
        }));
    }
}
