package dev.jperf.format.bpf;

/**
 * struct bpf_prog_info (232 bytes in the 6.1 UAPI and the 6.18 kernel; bpf-metadata.md §5): the one place
 * its offsets are spelled (format's {@link BpfProgInfo} and {@link BpilArray} read through them), and
 * struct bpf_btf_info.
 */
public final class BpfProgInfoLayout {
    private BpfProgInfoLayout() {}

    /** sizeof(struct bpf_prog_info) that perf 6.1 knows; never store more. */
    public static final int SIZE = 232;

    public static final int TYPE = 0;
    public static final int ID = 4;
    public static final int TAG = 8;
    public static final int JITED_PROG_LEN = 16;
    public static final int XLATED_PROG_LEN = 20;
    public static final int JITED_PROG_INSNS = 24;
    public static final int XLATED_PROG_INSNS = 32;
    public static final int LOAD_TIME = 40;
    public static final int CREATED_BY_UID = 48;
    public static final int NR_MAP_IDS = 52;
    public static final int MAP_IDS = 56;
    public static final int NAME = 64;
    public static final int IFINDEX = 80;
    public static final int GPL_COMPATIBLE = 84;
    public static final int NETNS_DEV = 88;
    public static final int NETNS_INO = 96;
    public static final int NR_JITED_KSYMS = 104;
    public static final int NR_JITED_FUNC_LENS = 108;
    public static final int JITED_KSYMS = 112;
    public static final int JITED_FUNC_LENS = 120;
    public static final int BTF_ID = 128;
    public static final int FUNC_INFO_REC_SIZE = 132;
    public static final int FUNC_INFO = 136;
    public static final int NR_FUNC_INFO = 144;
    public static final int NR_LINE_INFO = 148;
    public static final int LINE_INFO = 152;
    public static final int JITED_LINE_INFO = 160;
    public static final int NR_JITED_LINE_INFO = 168;
    public static final int LINE_INFO_REC_SIZE = 172;
    public static final int JITED_LINE_INFO_REC_SIZE = 176;
    public static final int NR_PROG_TAGS = 180;
    public static final int PROG_TAGS = 184;
    public static final int RUN_TIME_NS = 192;
    public static final int RUN_CNT = 200;
    public static final int RECURSION_MISSES = 208;
    public static final int VERIFIED_INSNS = 216;
    public static final int ATTACH_BTF_OBJ_ID = 220;
    public static final int ATTACH_BTF_ID = 224;

    /** BPF_TAG_SIZE */
    public static final int BPF_TAG_SIZE = 8;

    /** struct bpf_btf_info (32 bytes). */
    public static final int BTF_INFO_SIZE = 32;
    public static final int BTF_INFO_BTF = 0;
    public static final int BTF_INFO_BTF_SIZE = 8;
    public static final int BTF_INFO_ID = 12;
    public static final int BTF_INFO_NAME = 16;
    public static final int BTF_INFO_NAME_LEN = 24;
    public static final int BTF_INFO_KERNEL_BTF = 28;
}
