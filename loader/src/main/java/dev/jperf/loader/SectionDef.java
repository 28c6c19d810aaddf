package dev.jperf.loader;

import dev.jperf.format.bpf.Uapi;
import java.util.List;

/**
 * How a program's ELF section name maps to its program type, expected attach type and way of
 * attaching: libbpf 1.1's {@code section_defs} table, in its order (the first match wins).
 * {@code sec} ending in '+' matches the name alone or followed by '/...'; ending in '/' matches
 * as a prefix; otherwise the name exactly.
 */
public record SectionDef(String sec, int progType, int expectedAttachType, int flags, AttachKind attach) {
    /** enum sec_def_flags */
    public static final int SEC_NONE = 0;
    /** The expected attach type is passed only if the kernel takes it. */
    public static final int SEC_EXP_ATTACH_OPT = 1;
    /** The expected attach type is passed at load. */
    public static final int SEC_ATTACHABLE = 2;
    /** SEC_ATTACHABLE and SEC_EXP_ATTACH_OPT. */
    public static final int SEC_ATTACHABLE_OPT = SEC_ATTACHABLE | SEC_EXP_ATTACH_OPT;
    /** The attach point is a BTF id (fentry, tp_btf, lsm...), found at load. */
    public static final int SEC_ATTACH_BTF = 4;
    /** Loaded sleepable (BPF_F_SLEEPABLE). */
    public static final int SEC_SLEEPABLE = 8;
    /** Loaded with BPF_F_XDP_HAS_FRAGS. */
    public static final int SEC_XDP_FRAGS = 16;

    /** BPF_F_SLEEPABLE, BPF_F_XDP_HAS_FRAGS: the prog_flags the section implies. */
    static final int BPF_F_SLEEPABLE = 1 << 4;
    static final int BPF_F_XDP_HAS_FRAGS = 1 << 5;

    /** How libbpf attaches a program of this section (its attach callback). */
    public enum AttachKind {
        /** No automatic attach: the caller gives the target (xdp, tc, socket, cgroup, perf_event...). */
        NONE,
        /** kprobe/kretprobe on the function the section names. */
        KPROBE,
        /** uprobe/uretprobe on binary:function. */
        UPROBE,
        /** kprobe.multi (not attached by jperf). */
        KPROBE_MULTI,
        /** ksyscall/kretsyscall on the syscall's wrapper. */
        KSYSCALL,
        /** usdt (not attached by jperf). */
        USDT,
        /** A tracefs tracepoint category/name. */
        TRACEPOINT,
        /** A raw tracepoint by name. */
        RAW_TRACEPOINT,
        /** tp_btf, fentry, fexit, fmod_ret: the BTF attach point found at load. */
        TRACE,
        /** An LSM hook. */
        LSM,
        /** A BPF iterator (a link). */
        ITER
    }

    private static final List<SectionDef> DEFS = List.of(
        new SectionDef("socket", Uapi.BPF_PROG_TYPE_SOCKET_FILTER, 0, SEC_NONE, AttachKind.NONE),
        new SectionDef("sk_reuseport/migrate", Uapi.BPF_PROG_TYPE_SK_REUSEPORT, Uapi.BPF_SK_REUSEPORT_SELECT_OR_MIGRATE, SEC_ATTACHABLE, AttachKind.NONE),
        new SectionDef("sk_reuseport", Uapi.BPF_PROG_TYPE_SK_REUSEPORT, Uapi.BPF_SK_REUSEPORT_SELECT, SEC_ATTACHABLE, AttachKind.NONE),
        new SectionDef("kprobe+", Uapi.BPF_PROG_TYPE_KPROBE, 0, SEC_NONE, AttachKind.KPROBE),
        new SectionDef("uprobe+", Uapi.BPF_PROG_TYPE_KPROBE, 0, SEC_NONE, AttachKind.UPROBE),
        new SectionDef("uprobe.s+", Uapi.BPF_PROG_TYPE_KPROBE, 0, SEC_SLEEPABLE, AttachKind.UPROBE),
        new SectionDef("kretprobe+", Uapi.BPF_PROG_TYPE_KPROBE, 0, SEC_NONE, AttachKind.KPROBE),
        new SectionDef("uretprobe+", Uapi.BPF_PROG_TYPE_KPROBE, 0, SEC_NONE, AttachKind.UPROBE),
        new SectionDef("uretprobe.s+", Uapi.BPF_PROG_TYPE_KPROBE, 0, SEC_SLEEPABLE, AttachKind.UPROBE),
        new SectionDef("kprobe.multi+", Uapi.BPF_PROG_TYPE_KPROBE, Uapi.BPF_TRACE_KPROBE_MULTI, SEC_NONE, AttachKind.KPROBE_MULTI),
        new SectionDef("kretprobe.multi+", Uapi.BPF_PROG_TYPE_KPROBE, Uapi.BPF_TRACE_KPROBE_MULTI, SEC_NONE, AttachKind.KPROBE_MULTI),
        new SectionDef("ksyscall+", Uapi.BPF_PROG_TYPE_KPROBE, 0, SEC_NONE, AttachKind.KSYSCALL),
        new SectionDef("kretsyscall+", Uapi.BPF_PROG_TYPE_KPROBE, 0, SEC_NONE, AttachKind.KSYSCALL),
        new SectionDef("usdt+", Uapi.BPF_PROG_TYPE_KPROBE, 0, SEC_NONE, AttachKind.USDT),
        new SectionDef("tc", Uapi.BPF_PROG_TYPE_SCHED_CLS, 0, SEC_NONE, AttachKind.NONE),
        new SectionDef("classifier", Uapi.BPF_PROG_TYPE_SCHED_CLS, 0, SEC_NONE, AttachKind.NONE),
        new SectionDef("action", Uapi.BPF_PROG_TYPE_SCHED_ACT, 0, SEC_NONE, AttachKind.NONE),
        new SectionDef("tracepoint+", Uapi.BPF_PROG_TYPE_TRACEPOINT, 0, SEC_NONE, AttachKind.TRACEPOINT),
        new SectionDef("tp+", Uapi.BPF_PROG_TYPE_TRACEPOINT, 0, SEC_NONE, AttachKind.TRACEPOINT),
        new SectionDef("raw_tracepoint+", Uapi.BPF_PROG_TYPE_RAW_TRACEPOINT, 0, SEC_NONE, AttachKind.RAW_TRACEPOINT),
        new SectionDef("raw_tp+", Uapi.BPF_PROG_TYPE_RAW_TRACEPOINT, 0, SEC_NONE, AttachKind.RAW_TRACEPOINT),
        new SectionDef("raw_tracepoint.w+", Uapi.BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE, 0, SEC_NONE, AttachKind.RAW_TRACEPOINT),
        new SectionDef("raw_tp.w+", Uapi.BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE, 0, SEC_NONE, AttachKind.RAW_TRACEPOINT),
        new SectionDef("tp_btf+", Uapi.BPF_PROG_TYPE_TRACING, Uapi.BPF_TRACE_RAW_TP, SEC_ATTACH_BTF, AttachKind.TRACE),
        new SectionDef("fentry+", Uapi.BPF_PROG_TYPE_TRACING, Uapi.BPF_TRACE_FENTRY, SEC_ATTACH_BTF, AttachKind.TRACE),
        new SectionDef("fmod_ret+", Uapi.BPF_PROG_TYPE_TRACING, Uapi.BPF_MODIFY_RETURN, SEC_ATTACH_BTF, AttachKind.TRACE),
        new SectionDef("fexit+", Uapi.BPF_PROG_TYPE_TRACING, Uapi.BPF_TRACE_FEXIT, SEC_ATTACH_BTF, AttachKind.TRACE),
        new SectionDef("fentry.s+", Uapi.BPF_PROG_TYPE_TRACING, Uapi.BPF_TRACE_FENTRY, SEC_ATTACH_BTF | SEC_SLEEPABLE, AttachKind.TRACE),
        new SectionDef("fmod_ret.s+", Uapi.BPF_PROG_TYPE_TRACING, Uapi.BPF_MODIFY_RETURN, SEC_ATTACH_BTF | SEC_SLEEPABLE, AttachKind.TRACE),
        new SectionDef("fexit.s+", Uapi.BPF_PROG_TYPE_TRACING, Uapi.BPF_TRACE_FEXIT, SEC_ATTACH_BTF | SEC_SLEEPABLE, AttachKind.TRACE),
        new SectionDef("freplace+", Uapi.BPF_PROG_TYPE_EXT, 0, SEC_ATTACH_BTF, AttachKind.TRACE),
        new SectionDef("lsm+", Uapi.BPF_PROG_TYPE_LSM, Uapi.BPF_LSM_MAC, SEC_ATTACH_BTF, AttachKind.LSM),
        new SectionDef("lsm.s+", Uapi.BPF_PROG_TYPE_LSM, Uapi.BPF_LSM_MAC, SEC_ATTACH_BTF | SEC_SLEEPABLE, AttachKind.LSM),
        new SectionDef("lsm_cgroup+", Uapi.BPF_PROG_TYPE_LSM, Uapi.BPF_LSM_CGROUP, SEC_ATTACH_BTF, AttachKind.NONE),
        new SectionDef("iter+", Uapi.BPF_PROG_TYPE_TRACING, Uapi.BPF_TRACE_ITER, SEC_ATTACH_BTF, AttachKind.ITER),
        new SectionDef("iter.s+", Uapi.BPF_PROG_TYPE_TRACING, Uapi.BPF_TRACE_ITER, SEC_ATTACH_BTF | SEC_SLEEPABLE, AttachKind.ITER),
        new SectionDef("syscall", Uapi.BPF_PROG_TYPE_SYSCALL, 0, SEC_SLEEPABLE, AttachKind.NONE),
        new SectionDef("xdp.frags/devmap", Uapi.BPF_PROG_TYPE_XDP, Uapi.BPF_XDP_DEVMAP, SEC_XDP_FRAGS, AttachKind.NONE),
        new SectionDef("xdp/devmap", Uapi.BPF_PROG_TYPE_XDP, Uapi.BPF_XDP_DEVMAP, SEC_ATTACHABLE, AttachKind.NONE),
        new SectionDef("xdp.frags/cpumap", Uapi.BPF_PROG_TYPE_XDP, Uapi.BPF_XDP_CPUMAP, SEC_XDP_FRAGS, AttachKind.NONE),
        new SectionDef("xdp/cpumap", Uapi.BPF_PROG_TYPE_XDP, Uapi.BPF_XDP_CPUMAP, SEC_ATTACHABLE, AttachKind.NONE),
        new SectionDef("xdp.frags", Uapi.BPF_PROG_TYPE_XDP, Uapi.BPF_XDP, SEC_XDP_FRAGS, AttachKind.NONE),
        new SectionDef("xdp", Uapi.BPF_PROG_TYPE_XDP, Uapi.BPF_XDP, SEC_ATTACHABLE_OPT, AttachKind.NONE),
        new SectionDef("perf_event", Uapi.BPF_PROG_TYPE_PERF_EVENT, 0, SEC_NONE, AttachKind.NONE),
        new SectionDef("lwt_in", Uapi.BPF_PROG_TYPE_LWT_IN, 0, SEC_NONE, AttachKind.NONE),
        new SectionDef("lwt_out", Uapi.BPF_PROG_TYPE_LWT_OUT, 0, SEC_NONE, AttachKind.NONE),
        new SectionDef("lwt_xmit", Uapi.BPF_PROG_TYPE_LWT_XMIT, 0, SEC_NONE, AttachKind.NONE),
        new SectionDef("lwt_seg6local", Uapi.BPF_PROG_TYPE_LWT_SEG6LOCAL, 0, SEC_NONE, AttachKind.NONE),
        new SectionDef("sockops", Uapi.BPF_PROG_TYPE_SOCK_OPS, Uapi.BPF_CGROUP_SOCK_OPS, SEC_ATTACHABLE_OPT, AttachKind.NONE),
        new SectionDef("sk_skb/stream_parser", Uapi.BPF_PROG_TYPE_SK_SKB, Uapi.BPF_SK_SKB_STREAM_PARSER, SEC_ATTACHABLE_OPT, AttachKind.NONE),
        new SectionDef("sk_skb/stream_verdict", Uapi.BPF_PROG_TYPE_SK_SKB, Uapi.BPF_SK_SKB_STREAM_VERDICT, SEC_ATTACHABLE_OPT, AttachKind.NONE),
        new SectionDef("sk_skb", Uapi.BPF_PROG_TYPE_SK_SKB, 0, SEC_NONE, AttachKind.NONE),
        new SectionDef("sk_msg", Uapi.BPF_PROG_TYPE_SK_MSG, Uapi.BPF_SK_MSG_VERDICT, SEC_ATTACHABLE_OPT, AttachKind.NONE),
        new SectionDef("lirc_mode2", Uapi.BPF_PROG_TYPE_LIRC_MODE2, Uapi.BPF_LIRC_MODE2, SEC_ATTACHABLE_OPT, AttachKind.NONE),
        new SectionDef("flow_dissector", Uapi.BPF_PROG_TYPE_FLOW_DISSECTOR, Uapi.BPF_FLOW_DISSECTOR, SEC_ATTACHABLE_OPT, AttachKind.NONE),
        new SectionDef("cgroup_skb/ingress", Uapi.BPF_PROG_TYPE_CGROUP_SKB, Uapi.BPF_CGROUP_INET_INGRESS, SEC_ATTACHABLE_OPT, AttachKind.NONE),
        new SectionDef("cgroup_skb/egress", Uapi.BPF_PROG_TYPE_CGROUP_SKB, Uapi.BPF_CGROUP_INET_EGRESS, SEC_ATTACHABLE_OPT, AttachKind.NONE),
        new SectionDef("cgroup/skb", Uapi.BPF_PROG_TYPE_CGROUP_SKB, 0, SEC_NONE, AttachKind.NONE),
        new SectionDef("cgroup/sock_create", Uapi.BPF_PROG_TYPE_CGROUP_SOCK, Uapi.BPF_CGROUP_INET_SOCK_CREATE, SEC_ATTACHABLE, AttachKind.NONE),
        new SectionDef("cgroup/sock_release", Uapi.BPF_PROG_TYPE_CGROUP_SOCK, Uapi.BPF_CGROUP_INET_SOCK_RELEASE, SEC_ATTACHABLE, AttachKind.NONE),
        new SectionDef("cgroup/sock", Uapi.BPF_PROG_TYPE_CGROUP_SOCK, Uapi.BPF_CGROUP_INET_SOCK_CREATE, SEC_ATTACHABLE_OPT, AttachKind.NONE),
        new SectionDef("cgroup/post_bind4", Uapi.BPF_PROG_TYPE_CGROUP_SOCK, Uapi.BPF_CGROUP_INET4_POST_BIND, SEC_ATTACHABLE, AttachKind.NONE),
        new SectionDef("cgroup/post_bind6", Uapi.BPF_PROG_TYPE_CGROUP_SOCK, Uapi.BPF_CGROUP_INET6_POST_BIND, SEC_ATTACHABLE, AttachKind.NONE),
        new SectionDef("cgroup/bind4", Uapi.BPF_PROG_TYPE_CGROUP_SOCK_ADDR, Uapi.BPF_CGROUP_INET4_BIND, SEC_ATTACHABLE, AttachKind.NONE),
        new SectionDef("cgroup/bind6", Uapi.BPF_PROG_TYPE_CGROUP_SOCK_ADDR, Uapi.BPF_CGROUP_INET6_BIND, SEC_ATTACHABLE, AttachKind.NONE),
        new SectionDef("cgroup/connect4", Uapi.BPF_PROG_TYPE_CGROUP_SOCK_ADDR, Uapi.BPF_CGROUP_INET4_CONNECT, SEC_ATTACHABLE, AttachKind.NONE),
        new SectionDef("cgroup/connect6", Uapi.BPF_PROG_TYPE_CGROUP_SOCK_ADDR, Uapi.BPF_CGROUP_INET6_CONNECT, SEC_ATTACHABLE, AttachKind.NONE),
        new SectionDef("cgroup/sendmsg4", Uapi.BPF_PROG_TYPE_CGROUP_SOCK_ADDR, Uapi.BPF_CGROUP_UDP4_SENDMSG, SEC_ATTACHABLE, AttachKind.NONE),
        new SectionDef("cgroup/sendmsg6", Uapi.BPF_PROG_TYPE_CGROUP_SOCK_ADDR, Uapi.BPF_CGROUP_UDP6_SENDMSG, SEC_ATTACHABLE, AttachKind.NONE),
        new SectionDef("cgroup/recvmsg4", Uapi.BPF_PROG_TYPE_CGROUP_SOCK_ADDR, Uapi.BPF_CGROUP_UDP4_RECVMSG, SEC_ATTACHABLE, AttachKind.NONE),
        new SectionDef("cgroup/recvmsg6", Uapi.BPF_PROG_TYPE_CGROUP_SOCK_ADDR, Uapi.BPF_CGROUP_UDP6_RECVMSG, SEC_ATTACHABLE, AttachKind.NONE),
        new SectionDef("cgroup/getpeername4", Uapi.BPF_PROG_TYPE_CGROUP_SOCK_ADDR, Uapi.BPF_CGROUP_INET4_GETPEERNAME, SEC_ATTACHABLE, AttachKind.NONE),
        new SectionDef("cgroup/getpeername6", Uapi.BPF_PROG_TYPE_CGROUP_SOCK_ADDR, Uapi.BPF_CGROUP_INET6_GETPEERNAME, SEC_ATTACHABLE, AttachKind.NONE),
        new SectionDef("cgroup/getsockname4", Uapi.BPF_PROG_TYPE_CGROUP_SOCK_ADDR, Uapi.BPF_CGROUP_INET4_GETSOCKNAME, SEC_ATTACHABLE, AttachKind.NONE),
        new SectionDef("cgroup/getsockname6", Uapi.BPF_PROG_TYPE_CGROUP_SOCK_ADDR, Uapi.BPF_CGROUP_INET6_GETSOCKNAME, SEC_ATTACHABLE, AttachKind.NONE),
        new SectionDef("cgroup/sysctl", Uapi.BPF_PROG_TYPE_CGROUP_SYSCTL, Uapi.BPF_CGROUP_SYSCTL, SEC_ATTACHABLE, AttachKind.NONE),
        new SectionDef("cgroup/getsockopt", Uapi.BPF_PROG_TYPE_CGROUP_SOCKOPT, Uapi.BPF_CGROUP_GETSOCKOPT, SEC_ATTACHABLE, AttachKind.NONE),
        new SectionDef("cgroup/setsockopt", Uapi.BPF_PROG_TYPE_CGROUP_SOCKOPT, Uapi.BPF_CGROUP_SETSOCKOPT, SEC_ATTACHABLE, AttachKind.NONE),
        new SectionDef("cgroup/dev", Uapi.BPF_PROG_TYPE_CGROUP_DEVICE, Uapi.BPF_CGROUP_DEVICE, SEC_ATTACHABLE_OPT, AttachKind.NONE),
        new SectionDef("struct_ops+", Uapi.BPF_PROG_TYPE_STRUCT_OPS, 0, SEC_NONE, AttachKind.NONE),
        new SectionDef("sk_lookup", Uapi.BPF_PROG_TYPE_SK_LOOKUP, Uapi.BPF_SK_LOOKUP, SEC_ATTACHABLE, AttachKind.NONE)
    );

    /** The definition for section {@code name} ("?" prefix already dropped), or null when libbpf knows none. */
    public static SectionDef find(String name) {
        for (SectionDef d : DEFS) {
            if (d.matches(name)) {
                return d;
            }
        }
        return null;
    }

    boolean matches(String name) {
        int len = sec.length();
        char last = sec.charAt(len - 1);
        if (last == '/') {
            return name.startsWith(sec);
        }
        if (last == '+') {
            String base = sec.substring(0, len - 1);
            return name.startsWith(base) && (name.length() == base.length() || name.charAt(base.length()) == '/');
        }
        return name.equals(sec);
    }

    /** The part after the first '/', or null: the attach target libbpf reads from the section name. */
    public static String target(String sectionName) {
        int slash = sectionName.indexOf('/');
        return slash < 0 ? null : sectionName.substring(slash + 1);
    }
}
