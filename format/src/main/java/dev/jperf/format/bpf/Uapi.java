package dev.jperf.format.bpf;

/**
 * uapi linux/bpf.h enums and flags, named as the kernel names them (values of libbpf 1.1's copy):
 * the one place loader, recorder, bpf and format spell them.
 */
public final class Uapi {
    private Uapi() {
    }

    // enum bpf_prog_type
    public static final int BPF_PROG_TYPE_UNSPEC = 0;
    public static final int BPF_PROG_TYPE_SOCKET_FILTER = 1;
    public static final int BPF_PROG_TYPE_KPROBE = 2;
    public static final int BPF_PROG_TYPE_SCHED_CLS = 3;
    public static final int BPF_PROG_TYPE_SCHED_ACT = 4;
    public static final int BPF_PROG_TYPE_TRACEPOINT = 5;
    public static final int BPF_PROG_TYPE_XDP = 6;
    public static final int BPF_PROG_TYPE_PERF_EVENT = 7;
    public static final int BPF_PROG_TYPE_CGROUP_SKB = 8;
    public static final int BPF_PROG_TYPE_CGROUP_SOCK = 9;
    public static final int BPF_PROG_TYPE_LWT_IN = 10;
    public static final int BPF_PROG_TYPE_LWT_OUT = 11;
    public static final int BPF_PROG_TYPE_LWT_XMIT = 12;
    public static final int BPF_PROG_TYPE_SOCK_OPS = 13;
    public static final int BPF_PROG_TYPE_SK_SKB = 14;
    public static final int BPF_PROG_TYPE_CGROUP_DEVICE = 15;
    public static final int BPF_PROG_TYPE_SK_MSG = 16;
    public static final int BPF_PROG_TYPE_RAW_TRACEPOINT = 17;
    public static final int BPF_PROG_TYPE_CGROUP_SOCK_ADDR = 18;
    public static final int BPF_PROG_TYPE_LWT_SEG6LOCAL = 19;
    public static final int BPF_PROG_TYPE_LIRC_MODE2 = 20;
    public static final int BPF_PROG_TYPE_SK_REUSEPORT = 21;
    public static final int BPF_PROG_TYPE_FLOW_DISSECTOR = 22;
    public static final int BPF_PROG_TYPE_CGROUP_SYSCTL = 23;
    public static final int BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE = 24;
    public static final int BPF_PROG_TYPE_CGROUP_SOCKOPT = 25;
    public static final int BPF_PROG_TYPE_TRACING = 26;
    public static final int BPF_PROG_TYPE_STRUCT_OPS = 27;
    public static final int BPF_PROG_TYPE_EXT = 28;
    public static final int BPF_PROG_TYPE_LSM = 29;
    public static final int BPF_PROG_TYPE_SK_LOOKUP = 30;
    public static final int BPF_PROG_TYPE_SYSCALL = 31;
    // enum bpf_attach_type
    public static final int BPF_CGROUP_INET_INGRESS = 0;
    public static final int BPF_CGROUP_INET_EGRESS = 1;
    public static final int BPF_CGROUP_INET_SOCK_CREATE = 2;
    public static final int BPF_CGROUP_SOCK_OPS = 3;
    public static final int BPF_SK_SKB_STREAM_PARSER = 4;
    public static final int BPF_SK_SKB_STREAM_VERDICT = 5;
    public static final int BPF_CGROUP_DEVICE = 6;
    public static final int BPF_SK_MSG_VERDICT = 7;
    public static final int BPF_CGROUP_INET4_BIND = 8;
    public static final int BPF_CGROUP_INET6_BIND = 9;
    public static final int BPF_CGROUP_INET4_CONNECT = 10;
    public static final int BPF_CGROUP_INET6_CONNECT = 11;
    public static final int BPF_CGROUP_INET4_POST_BIND = 12;
    public static final int BPF_CGROUP_INET6_POST_BIND = 13;
    public static final int BPF_CGROUP_UDP4_SENDMSG = 14;
    public static final int BPF_CGROUP_UDP6_SENDMSG = 15;
    public static final int BPF_LIRC_MODE2 = 16;
    public static final int BPF_FLOW_DISSECTOR = 17;
    public static final int BPF_CGROUP_SYSCTL = 18;
    public static final int BPF_CGROUP_UDP4_RECVMSG = 19;
    public static final int BPF_CGROUP_UDP6_RECVMSG = 20;
    public static final int BPF_CGROUP_GETSOCKOPT = 21;
    public static final int BPF_CGROUP_SETSOCKOPT = 22;
    public static final int BPF_TRACE_RAW_TP = 23;
    public static final int BPF_TRACE_FENTRY = 24;
    public static final int BPF_TRACE_FEXIT = 25;
    public static final int BPF_MODIFY_RETURN = 26;
    public static final int BPF_LSM_MAC = 27;
    public static final int BPF_TRACE_ITER = 28;
    public static final int BPF_CGROUP_INET4_GETPEERNAME = 29;
    public static final int BPF_CGROUP_INET6_GETPEERNAME = 30;
    public static final int BPF_CGROUP_INET4_GETSOCKNAME = 31;
    public static final int BPF_CGROUP_INET6_GETSOCKNAME = 32;
    public static final int BPF_XDP_DEVMAP = 33;
    public static final int BPF_CGROUP_INET_SOCK_RELEASE = 34;
    public static final int BPF_XDP_CPUMAP = 35;
    public static final int BPF_SK_LOOKUP = 36;
    public static final int BPF_XDP = 37;
    public static final int BPF_SK_SKB_VERDICT = 38;
    public static final int BPF_SK_REUSEPORT_SELECT = 39;
    public static final int BPF_SK_REUSEPORT_SELECT_OR_MIGRATE = 40;
    public static final int BPF_PERF_EVENT = 41;
    public static final int BPF_TRACE_KPROBE_MULTI = 42;
    public static final int BPF_LSM_CGROUP = 43;
    // enum bpf_map_type
    public static final int BPF_MAP_TYPE_UNSPEC = 0;
    public static final int BPF_MAP_TYPE_HASH = 1;
    public static final int BPF_MAP_TYPE_ARRAY = 2;
    public static final int BPF_MAP_TYPE_PROG_ARRAY = 3;
    public static final int BPF_MAP_TYPE_PERF_EVENT_ARRAY = 4;
    public static final int BPF_MAP_TYPE_PERCPU_HASH = 5;
    public static final int BPF_MAP_TYPE_PERCPU_ARRAY = 6;
    public static final int BPF_MAP_TYPE_STACK_TRACE = 7;
    public static final int BPF_MAP_TYPE_CGROUP_ARRAY = 8;
    public static final int BPF_MAP_TYPE_LRU_HASH = 9;
    public static final int BPF_MAP_TYPE_LRU_PERCPU_HASH = 10;
    public static final int BPF_MAP_TYPE_LPM_TRIE = 11;
    public static final int BPF_MAP_TYPE_ARRAY_OF_MAPS = 12;
    public static final int BPF_MAP_TYPE_HASH_OF_MAPS = 13;
    public static final int BPF_MAP_TYPE_DEVMAP = 14;
    public static final int BPF_MAP_TYPE_SOCKMAP = 15;
    public static final int BPF_MAP_TYPE_CPUMAP = 16;
    public static final int BPF_MAP_TYPE_XSKMAP = 17;
    public static final int BPF_MAP_TYPE_SOCKHASH = 18;
    public static final int BPF_MAP_TYPE_CGROUP_STORAGE_DEPRECATED = 19;
    public static final int BPF_MAP_TYPE_CGROUP_STORAGE = 19;
    public static final int BPF_MAP_TYPE_REUSEPORT_SOCKARRAY = 20;
    public static final int BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE = 21;
    public static final int BPF_MAP_TYPE_QUEUE = 22;
    public static final int BPF_MAP_TYPE_STACK = 23;
    public static final int BPF_MAP_TYPE_SK_STORAGE = 24;
    public static final int BPF_MAP_TYPE_DEVMAP_HASH = 25;
    public static final int BPF_MAP_TYPE_STRUCT_OPS = 26;
    public static final int BPF_MAP_TYPE_RINGBUF = 27;
    public static final int BPF_MAP_TYPE_INODE_STORAGE = 28;
    public static final int BPF_MAP_TYPE_TASK_STORAGE = 29;
    public static final int BPF_MAP_TYPE_BLOOM_FILTER = 30;
    public static final int BPF_MAP_TYPE_USER_RINGBUF = 31;
    public static final int BPF_MAP_TYPE_CGRP_STORAGE = 32;
    // src_reg of ld_imm64
    public static final int BPF_PSEUDO_MAP_FD = 1;
    public static final int BPF_PSEUDO_MAP_VALUE = 2;
    public static final int BPF_PSEUDO_BTF_ID = 3;
    public static final int BPF_PSEUDO_FUNC = 4;
    public static final int BPF_PSEUDO_MAP_IDX = 5;
    public static final int BPF_PSEUDO_MAP_IDX_VALUE = 6;
    // src_reg of call
    public static final int BPF_PSEUDO_CALL = 1;
    public static final int BPF_PSEUDO_KFUNC_CALL = 2;
}
