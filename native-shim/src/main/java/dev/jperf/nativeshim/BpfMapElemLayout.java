package dev.jperf.nativeshim;

/**
 * union bpf_attr for the map-element commands (uapi bpf.h: map_fd, key, value / next_key, flags)
 * and for BPF_OBJ_GET (pathname, bpf_fd, file_flags), the commands {@code jperf bpf map} uses.
 */
public final class BpfMapElemLayout {
    private BpfMapElemLayout() {}

    // enum bpf_cmd (those not in BpfAttrLayout)
    public static final int BPF_MAP_DELETE_ELEM = 3;
    public static final int BPF_MAP_GET_NEXT_KEY = 4;

    /** Bytes of bpf_attr the element commands use. */
    public static final int SIZE = 32;
    public static final int MAP_FD = 0;
    public static final int KEY = 8;
    public static final int VALUE = 16;
    public static final int NEXT_KEY = 16;
    public static final int FLAGS = 24;
    // BPF_OBJ_GET
    public static final int OBJ_PATHNAME = 0;
}
