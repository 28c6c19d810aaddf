package dev.jperf.nativeshim;

/**
 * union bpf_attr, per command, with the offsets of bpf-metadata.md §3.1 (identical in the 6.1 UAPI
 * and the 6.18 kernel). Callers pass only the bytes a command uses, all others zero.
 */
public final class BpfAttrLayout {
    private BpfAttrLayout() {}

    /** sizeof(union bpf_attr) in the 6.18 kernel; the scratch buffer size. */
    public static final int SIZE = 168;

    // enum bpf_cmd
    public static final int BPF_MAP_CREATE = 0;
    public static final int BPF_MAP_LOOKUP_ELEM = 1;
    public static final int BPF_MAP_UPDATE_ELEM = 2;
    public static final int BPF_PROG_LOAD = 5;
    public static final int BPF_OBJ_PIN = 6;
    public static final int BPF_MAP_LOOKUP_AND_DELETE_ELEM = 21;
    public static final int BPF_MAP_FREEZE = 22;
    public static final int BPF_PROG_BIND_MAP = 35;
    public static final int BPF_OBJ_GET = 7;
    public static final int BPF_PROG_TEST_RUN = 10;
    public static final int BPF_PROG_GET_NEXT_ID = 11;
    public static final int BPF_MAP_GET_NEXT_ID = 12;
    public static final int BPF_PROG_GET_FD_BY_ID = 13;
    public static final int BPF_MAP_GET_FD_BY_ID = 14;
    public static final int BPF_OBJ_GET_INFO_BY_FD = 15;
    public static final int BPF_RAW_TRACEPOINT_OPEN = 17;
    public static final int BPF_BTF_LOAD = 18;
    public static final int BPF_BTF_GET_FD_BY_ID = 19;
    public static final int BPF_BTF_GET_NEXT_ID = 23;
    public static final int BPF_LINK_CREATE = 28;
    public static final int BPF_LINK_GET_FD_BY_ID = 30;
    public static final int BPF_LINK_GET_NEXT_ID = 31;
    public static final int BPF_LINK_DETACH = 34;
    public static final int BPF_ENABLE_STATS = 32;
    public static final int BPF_PROG_ATTACH = 8;
    public static final int BPF_PROG_DETACH = 9;
    public static final int BPF_PROG_QUERY = 16;
    public static final int BPF_TASK_FD_QUERY = 20;
    public static final int BPF_ITER_CREATE = 33;

    // BPF_PROG_ATTACH / BPF_PROG_DETACH: target_fd, attach_bpf_fd, attach_type, attach_flags, replace_bpf_fd
    public static final int ATTACH_TARGET_FD = 0;
    public static final int ATTACH_BPF_FD = 4;
    public static final int ATTACH_TYPE = 8;
    public static final int ATTACH_FLAGS = 12;
    /** offsetofend(union bpf_attr, replace_bpf_fd): what libbpf 1.1 passes. */
    public static final int ATTACH_SIZE = 20;
    /** BPF_F_ALLOW_OVERRIDE, BPF_F_ALLOW_MULTI: prog attach flags. */
    public static final int BPF_F_ALLOW_OVERRIDE = 1;
    public static final int BPF_F_ALLOW_MULTI = 2;
    // BPF_PROG_QUERY: target_fd, attach_type, query_flags, attach_flags, prog_ids, prog_cnt, prog_attach_flags
    public static final int QUERY_TARGET_FD = 0;
    public static final int QUERY_ATTACH_TYPE = 4;
    public static final int QUERY_FLAGS = 8;
    public static final int QUERY_ATTACH_FLAGS = 12;
    public static final int QUERY_PROG_IDS = 16;
    public static final int QUERY_PROG_CNT = 24;
    public static final int QUERY_PROG_ATTACH_FLAGS = 32;
    /** offsetofend(query, prog_attach_flags): what libbpf 1.1 passes. */
    public static final int QUERY_SIZE = 40;
    /** BPF_F_QUERY_EFFECTIVE: the programs that run for the cgroup, inherited ones too. */
    public static final int BPF_F_QUERY_EFFECTIVE = 1;
    // BPF_TASK_FD_QUERY: pid, fd, flags, buf_len, buf, prog_id, fd_type, probe_offset, probe_addr
    public static final int TASK_FD_PID = 0;
    public static final int TASK_FD_FD = 4;
    public static final int TASK_FD_BUF_LEN = 12;
    public static final int TASK_FD_BUF = 16;
    public static final int TASK_FD_PROG_ID = 24;
    public static final int TASK_FD_TYPE = 28;
    public static final int TASK_FD_PROBE_OFFSET = 32;
    public static final int TASK_FD_PROBE_ADDR = 40;
    public static final int TASK_FD_SIZE = 48;
    // BPF_ITER_CREATE: link_fd, flags
    public static final int ITER_CREATE_LINK_FD = 0;
    public static final int ITER_CREATE_SIZE = 8;
    /** link_create.iter_info, iter_info_len (BPF_TRACE_ITER). */
    public static final int LINK_CREATE_ITER_INFO = 16;
    public static final int LINK_CREATE_ITER_INFO_LEN = 24;
    /** sizeof(union bpf_iter_link_info) in the 6.1 UAPI. */
    public static final int ITER_LINK_INFO_SIZE = 16;
    /** __MAX_BPF_ATTACH_TYPE of the 6.1 UAPI bpftool 7.1 is built with (BPF_LSM_CGROUP is 43). */
    public static final int MAX_ATTACH_TYPE_6_1 = 44;
    public static final int BPF_TRACE_ITER = 28;

    // BPF_MAP_CREATE
    public static final int MAP_TYPE = 0;
    public static final int KEY_SIZE = 4;
    public static final int VALUE_SIZE = 8;
    public static final int MAX_ENTRIES = 12;
    public static final int MAP_FLAGS = 16;
    public static final int INNER_MAP_FD = 20;
    public static final int NUMA_NODE = 24;
    public static final int MAP_NAME = 28;
    public static final int MAP_IFINDEX = 44;
    public static final int BTF_FD = 48;
    public static final int BTF_KEY_TYPE_ID = 52;
    public static final int BTF_VALUE_TYPE_ID = 56;
    public static final int BTF_VMLINUX_VALUE_TYPE_ID = 60;
    public static final int MAP_EXTRA = 64;
    /** offsetofend(union bpf_attr, map_extra). */
    public static final int MAP_CREATE_SIZE = 72;
    // BPF_MAP_*_ELEM, BPF_MAP_FREEZE: BpfMapElemLayout
    // BPF_LINK_DETACH
    public static final int LINK_DETACH_FD = 0;
    // BPF_PROG_BIND_MAP
    public static final int BIND_PROG_FD = 0;
    public static final int BIND_MAP_FD = 4;
    public static final int BIND_FLAGS = 8;
    // BPF_*_GET_NEXT_ID
    public static final int START_ID = 0;
    public static final int NEXT_ID = 4;
    // BPF_*_GET_FD_BY_ID
    public static final int GET_FD_ID = 0;
    public static final int OPEN_FLAGS = 8;
    // BPF_OBJ_GET_INFO_BY_FD: info.bpf_fd, info.info_len, info.info
    public static final int INFO_BPF_FD = 0;
    public static final int INFO_INFO_LEN = 4;
    public static final int INFO_INFO = 8;
    // BPF_ENABLE_STATS
    public static final int ENABLE_STATS_TYPE = 0;
    public static final int BPF_STATS_RUN_TIME = 0;
    // BPF_PROG_LOAD
    public static final int PROG_TYPE = 0;
    public static final int INSN_CNT = 4;
    public static final int INSNS = 8;
    public static final int LICENSE = 16;
    public static final int LOG_LEVEL = 24;
    public static final int LOG_SIZE = 28;
    public static final int LOG_BUF = 32;
    public static final int KERN_VERSION = 40;
    public static final int PROG_FLAGS = 44;
    public static final int PROG_NAME = 48;
    public static final int PROG_IFINDEX = 64;
    public static final int EXPECTED_ATTACH_TYPE = 68;
    public static final int PROG_BTF_FD = 72;
    public static final int FUNC_INFO_REC_SIZE = 76;
    public static final int FUNC_INFO = 80;
    public static final int FUNC_INFO_CNT = 88;
    public static final int LINE_INFO_REC_SIZE = 92;
    public static final int LINE_INFO = 96;
    public static final int LINE_INFO_CNT = 104;
    public static final int ATTACH_BTF_ID = 108;
    public static final int ATTACH_PROG_FD = 112;
    /** attach_btf_obj_fd shares attach_prog_fd's place. */
    public static final int ATTACH_BTF_OBJ_FD = 112;
    public static final int CORE_RELO_CNT = 116;
    public static final int FD_ARRAY = 120;
    /** offsetofend(union bpf_attr, log_true_size): the PROG_LOAD attr size passed. */
    public static final int PROG_LOAD_SIZE = 144;
    // BPF_LINK_CREATE: link_create.prog_fd, target_fd (target_ifindex for XDP), attach_type, flags
    public static final int LINK_CREATE_PROG_FD = 0;
    public static final int LINK_CREATE_TARGET = 4;
    public static final int LINK_CREATE_ATTACH_TYPE = 8;
    public static final int LINK_CREATE_FLAGS = 12;
    // enum bpf_attach_type
    public static final int BPF_TRACE_FENTRY = 24;
    public static final int BPF_TRACE_FEXIT = 25;
    public static final int BPF_XDP = 37;
    // BPF_RAW_TRACEPOINT_OPEN
    // BPF_OBJ_PIN / BPF_OBJ_GET: pathname, bpf_fd, file_flags
    public static final int OBJ_BPF_FD = 8;
    public static final int OBJ_SIZE = 16;

    // BPF_PROG_TEST_RUN: test.prog_fd, ..., flags, cpu
    public static final int TEST_PROG_FD = 0;
    public static final int TEST_RETVAL = 4;
    public static final int TEST_DATA_SIZE_IN = 8;
    public static final int TEST_DATA_SIZE_OUT = 12;
    public static final int TEST_DATA_IN = 16;
    public static final int TEST_DATA_OUT = 24;
    public static final int TEST_REPEAT = 32;
    public static final int TEST_DURATION = 36;
    public static final int TEST_CTX_SIZE_IN = 40;
    public static final int TEST_CTX_SIZE_OUT = 44;
    public static final int TEST_CTX_IN = 48;
    public static final int TEST_CTX_OUT = 56;
    public static final int TEST_FLAGS = 64;
    public static final int TEST_CPU = 68;
    public static final int TEST_SIZE = 80;
    /** run the program on test.cpu (raw_tp programs only) */
    public static final int BPF_F_TEST_RUN_ON_CPU = 1;

    public static final int RAW_TRACEPOINT_NAME = 0;
    public static final int RAW_TRACEPOINT_PROG_FD = 8;
    // BPF_BTF_LOAD
    public static final int BTF = 0;
    public static final int BTF_LOG_BUF = 8;
    public static final int BTF_SIZE = 16;
    public static final int BTF_LOG_SIZE = 20;
    public static final int BTF_LOG_LEVEL = 24;

    /** BPF_OBJ_NAME_LEN: prog_name holds at most 15 characters and a NUL. */
    public static final int BPF_OBJ_NAME_LEN = 16;
}
