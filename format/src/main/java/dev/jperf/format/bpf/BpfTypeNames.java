package dev.jperf.format.bpf;

/**
 * enum bpf_map_type and enum bpf_prog_type as libbpf names them (libbpf_bpf_map_type_str,
 * libbpf_bpf_prog_type_str) in the libbpf Debian's bpftool 7.1 is built with, Linux 6.1's: the
 * names it prints (no cgrp_storage, which came with 6.2; its `map create` refuses the name); null
 * for a number past its tables, which bpftool prints as the number.
 */
public final class BpfTypeNames {
    private static final String[] MAP_TYPES = {"unspec", "hash", "array", "prog_array", "perf_event_array",
        "percpu_hash", "percpu_array", "stack_trace", "cgroup_array", "lru_hash", "lru_percpu_hash", "lpm_trie",
        "array_of_maps", "hash_of_maps", "devmap", "sockmap", "cpumap", "xskmap", "sockhash", "cgroup_storage",
        "reuseport_sockarray", "percpu_cgroup_storage", "queue", "stack", "sk_storage", "devmap_hash",
        "struct_ops", "ringbuf", "inode_storage", "task_storage", "bloom_filter", "user_ringbuf"};

    private static final String[] PROG_TYPES = {"unspec", "socket_filter", "kprobe", "sched_cls", "sched_act",
        "tracepoint", "xdp", "perf_event", "cgroup_skb", "cgroup_sock", "lwt_in", "lwt_out", "lwt_xmit",
        "sock_ops", "sk_skb", "cgroup_device", "sk_msg", "raw_tracepoint", "cgroup_sock_addr", "lwt_seg6local",
        "lirc_mode2", "sk_reuseport", "flow_dissector", "cgroup_sysctl", "raw_tracepoint_writable",
        "cgroup_sockopt", "tracing", "struct_ops", "ext", "lsm", "sk_lookup", "syscall"};

    private BpfTypeNames() {}

    public static String mapType(int type) {
        return type >= 0 && type < MAP_TYPES.length ? MAP_TYPES[type] : null;
    }

    public static String progType(int type) {
        return type >= 0 && type < PROG_TYPES.length ? PROG_TYPES[type] : null;
    }

    /** map_is_per_cpu: the value is one 8-byte-aligned slot per possible CPU. */
    public static boolean isPerCpu(int mapType) {
        return mapType == Uapi.BPF_MAP_TYPE_PERCPU_HASH || mapType == Uapi.BPF_MAP_TYPE_PERCPU_ARRAY
                || mapType == Uapi.BPF_MAP_TYPE_LRU_PERCPU_HASH || mapType == Uapi.BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE;
    }
}
