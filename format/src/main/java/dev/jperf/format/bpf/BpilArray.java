package dev.jperf.format.bpf;

/**
 * The arrays of struct bpf_prog_info that perf stores, numbered as perf's PERF_BPIL_* bits (the
 * {@code arrays} mask of HEADER_BPF_PROG_INFO). Offsets are into struct bpf_prog_info; an element
 * size of 0 means "read it from {@code recSizeOffset}".
 */
public enum BpilArray {
    JITED_INSNS(BpfProgInfoLayout.JITED_PROG_INSNS, BpfProgInfoLayout.JITED_PROG_LEN, 1, -1),
    XLATED_INSNS(BpfProgInfoLayout.XLATED_PROG_INSNS, BpfProgInfoLayout.XLATED_PROG_LEN, 1, -1),
    MAP_IDS(BpfProgInfoLayout.MAP_IDS, BpfProgInfoLayout.NR_MAP_IDS, 4, -1),
    JITED_KSYMS(BpfProgInfoLayout.JITED_KSYMS, BpfProgInfoLayout.NR_JITED_KSYMS, 8, -1),
    JITED_FUNC_LENS(BpfProgInfoLayout.JITED_FUNC_LENS, BpfProgInfoLayout.NR_JITED_FUNC_LENS, 4, -1),
    FUNC_INFO(BpfProgInfoLayout.FUNC_INFO, BpfProgInfoLayout.NR_FUNC_INFO, 0, BpfProgInfoLayout.FUNC_INFO_REC_SIZE),
    LINE_INFO(BpfProgInfoLayout.LINE_INFO, BpfProgInfoLayout.NR_LINE_INFO, 0, BpfProgInfoLayout.LINE_INFO_REC_SIZE),
    JITED_LINE_INFO(BpfProgInfoLayout.JITED_LINE_INFO, BpfProgInfoLayout.NR_JITED_LINE_INFO, 0, BpfProgInfoLayout.JITED_LINE_INFO_REC_SIZE),
    PROG_TAGS(BpfProgInfoLayout.PROG_TAGS, BpfProgInfoLayout.NR_PROG_TAGS, BpfProgInfoLayout.BPF_TAG_SIZE, -1);

    /** The mask perf 6.1 requests and writes: every array except xlated code and map ids. */
    public static final long PERF_DEFAULT_MASK = 0x1f9;

    private final int pointerOffset;
    private final int countOffset;
    private final int fixedSize;
    private final int recSizeOffset;

    BpilArray(int pointerOffset, int countOffset, int fixedSize, int recSizeOffset) {
        this.pointerOffset = pointerOffset;
        this.countOffset = countOffset;
        this.fixedSize = fixedSize;
        this.recSizeOffset = recSizeOffset;
    }

    /** Bit number in the perf_bpil {@code arrays} mask. */
    public int bit() {
        return ordinal();
    }

    public long mask() {
        return 1L << ordinal();
    }

    public int pointerOffset() {
        return pointerOffset;
    }

    public int countOffset() {
        return countOffset;
    }

    /** Offset of the *_rec_size field giving the element size, or -1 for fixed-size elements. */
    public int recSizeOffset() {
        return recSizeOffset;
    }

    /** Element size for fixed-size arrays (0 if the size comes from a *_rec_size field). */
    public int fixedSize() {
        return fixedSize;
    }
}
