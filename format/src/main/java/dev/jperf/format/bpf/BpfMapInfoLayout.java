package dev.jperf.format.bpf;

/**
 * struct bpf_map_info (uapi bpf.h; bpf-metadata.md §5). 88 bytes is what the 6.1 UAPI (and
 * bpftool 7.1) asks for; the 6.18 kernel's struct is 104.
 */
public final class BpfMapInfoLayout {
    private BpfMapInfoLayout() {}

    /** sizeof(struct bpf_map_info) in the 6.1 UAPI: the length bpftool 7.1 passes. */
    public static final int SIZE = 88;

    public static final int TYPE = 0;
    public static final int ID = 4;
    public static final int KEY_SIZE = 8;
    public static final int VALUE_SIZE = 12;
    public static final int MAX_ENTRIES = 16;
    public static final int MAP_FLAGS = 20;
    public static final int NAME = 24;
    public static final int IFINDEX = 40;
    public static final int BTF_VMLINUX_VALUE_TYPE_ID = 44;
    public static final int NETNS_DEV = 48;
    public static final int NETNS_INO = 56;
    public static final int BTF_ID = 64;
    public static final int BTF_KEY_TYPE_ID = 68;
    public static final int BTF_VALUE_TYPE_ID = 72;
    public static final int MAP_EXTRA = 80;

    /** BPF_OBJ_NAME_LEN: a map's name holds at most 15 characters and a NUL. */
    public static final int BPF_OBJ_NAME_LEN = 16;
}
