package dev.jperf.bpf;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.jperf.format.bpf.BpfTypeNames;
import dev.jperf.format.json.JsonWriter;
import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.NativeException;
import java.util.List;

/**
 * {@code bpftool link list|show|detach} (link.c of bpftool 7.1): the kernel's links with
 * bpftool's fields and layout, {@code -j}/{@code -p} as its JSON. Pinning is {@link PinCommands}.
 */
public final class LinkCommands {
    /** sizeof(struct bpf_link_info) in bpftool 7.1's UAPI (6.1): what it asks the kernel for. */
    static final int INFO_SIZE = 48;
    private static final int RAW_TRACEPOINT = 1, TRACING = 2, CGROUP = 3, ITER = 4, NETNS = 5;

    /** libbpf 1.1's link_type_name. */
    private static final String[] LINK_TYPES = {"unspec", "raw_tracepoint", "tracing", "cgroup", "iter", "netns",
        "xdp", "perf_event", "kprobe_multi", "struct_ops"};

    /** libbpf 1.1's attach_type_name, by enum bpf_attach_type. */
    private static final String[] ATTACH_TYPES = {"cgroup_inet_ingress", "cgroup_inet_egress",
        "cgroup_inet_sock_create", "cgroup_sock_ops", "sk_skb_stream_parser", "sk_skb_stream_verdict",
        "cgroup_device", "sk_msg_verdict", "cgroup_inet4_bind", "cgroup_inet6_bind", "cgroup_inet4_connect",
        "cgroup_inet6_connect", "cgroup_inet4_post_bind", "cgroup_inet6_post_bind", "cgroup_udp4_sendmsg",
        "cgroup_udp6_sendmsg", "lirc_mode2", "flow_dissector", "cgroup_sysctl", "cgroup_udp4_recvmsg",
        "cgroup_udp6_recvmsg", "cgroup_getsockopt", "cgroup_setsockopt", "trace_raw_tp", "trace_fentry",
        "trace_fexit", "modify_return", "lsm_mac", "trace_iter", "cgroup_inet4_getpeername",
        "cgroup_inet6_getpeername", "cgroup_inet4_getsockname", "cgroup_inet6_getsockname", "xdp_devmap",
        "cgroup_inet_sock_release", "xdp_cpumap", "sk_lookup", "xdp", "sk_skb_verdict", "sk_reuseport_select",
        "sk_reuseport_select_or_migrate", "perf_event", "trace_kprobe_multi", "lsm_cgroup"};

    /** libbpf_bpf_attach_type_str: the name of enum bpf_attach_type {@code type}, null when unknown. */
    static String attachTypeName(int type) {
        return type >= 0 && type < ATTACH_TYPES.length ? ATTACH_TYPES[type] : null;
    }

    private final KernelObjects kernel = new KernelObjects();
    private final Output o;
    private final boolean bpffs;
    private PinnedPaths pins;

    public LinkCommands(Output output, boolean bpffs) {
        this.o = output;
        this.bpffs = bpffs;
    }

    /** link_parse_fd. */
    static int open(KernelObjects kernel, BpfHandle h) {
        if (h.kind() == BpfHandle.Kind.PINNED) {
            return kernel.pinned(h.text(), "link");
        }
        int fd = kernel.bpf.linkGetFdById(h.id());
        if (fd < 0) {
            // bpftool prints the id with %d and returns libbpf's -errno
            throw new BpftoolException("failed to get link with ID " + h.id() + ": " + Errno.text(-fd), false, fd & 0xff);
        }
        return fd;
    }

    /** {@code bpftool link show|list [LINK]}. */
    public void show(List<String> args) {
        if (bpffs) {
            pins = PinnedPaths.build(kernel, "link");
        }
        if (args.size() == 2) {
            int fd = open(kernel, BpfHandle.parse(args, 0, "link"));
            try {
                showFd(fd);
            } finally {
                Fd.close(fd);
            }
            return;
        }
        if (!args.isEmpty()) {
            throw new BpftoolException("what is '" + args.get(0) + "'?");
        }
        o.all(new IdWalk(kernel, IdWalk.Kind.LINK, true), (i, fd) -> {
            showFd(fd);
        });
    }

    /** {@code bpftool link detach LINK}: the program leaves its hook; the link stays until closed. */
    public void detach(List<String> args) {
        if (args.size() != 2) {
            throw new BpftoolException("link specifier is invalid or missing\n", false, 1);
        }
        int fd;
        try {
            fd = open(kernel, BpfHandle.parse(args, 0, "link"));
        } catch (BpftoolException e) {
            throw new BpftoolException(e.getMessage(), e.onStdout(), 1);
        }
        int err;
        try {
            err = kernel.bpf.linkDetach(fd);
        } finally {
            Fd.close(fd);
        }
        if (err < 0) {
            throw new BpftoolException("failed link detach: " + Errno.text(-err), false, 1);
        }
        if (o.json()) {
            o.jw().nul();
        }
    }

    /** do_show_link: bpf_link_info, asked again with a buffer for a raw tracepoint's or iterator's name. */
    private void showFd(int fd) {
        Memory info = new Memory(INFO_SIZE);
        info.clear();
        Memory name = new Memory(256);
        name.clear();
        get(fd, info);
        int type = info.getInt(0);
        if ((type == RAW_TRACEPOINT || type == ITER) && info.getLong(16) == 0) {
            info.setLong(16, Pointer.nativeValue(name));
            info.setInt(24, 256);
            get(fd, info);
        }
        if (o.json()) {
            json(info, type);
        } else {
            plain(info, type);
        }
    }

    private void get(int fd, Memory info) {
        try {
            kernel.bpf.objGetInfoByFd(fd, info, INFO_SIZE);
        } catch (NativeException e) {
            throw new BpftoolException("can't get link info: " + KernelObjects.strerror(e), false, -e.errno() & 0xff);
        }
    }

    private static String cString(Memory info, int at) {
        long p = info.getLong(at);
        return p == 0 ? "" : new Pointer(p).getString(0);
    }

    private static String linkType(int t) {
        return t >= 0 && t < LINK_TYPES.length ? LINK_TYPES[t] : null;
    }

    static String attachType(int t) {
        return t >= 0 && t < ATTACH_TYPES.length ? ATTACH_TYPES[t] : null;
    }

    /** The type of the link's program (get_prog_info), for a tracing link. */
    private int progType(int progId) {
        int fd = kernel.bpf.progGetFdByIdOrErrno(progId);
        if (fd < 0) {
            throw new BpftoolException("get prog by id (" + Integer.toUnsignedString(progId) + "): " + Errno.text(-fd),
                    true);
        }
        try {
            return ProgCommands.info(kernel, fd).type();
        } finally {
            Fd.close(fd);
        }
    }

    private void json(Memory info, int type) {
        JsonWriter jw = o.jw();
        int id = info.getInt(4);
        int progId = info.getInt(8);
        int progType = type == TRACING ? progType(progId) : 0;
        jw.startObject();
        jw.uintField("id", Integer.toUnsignedLong(id));
        if (linkType(type) != null) {
            jw.stringField("type", linkType(type));
        } else {
            jw.uintField("type", Integer.toUnsignedLong(type));
        }
        jw.uintField("prog_id", Integer.toUnsignedLong(progId));
        switch (type) {
            case RAW_TRACEPOINT -> jw.stringField("tp_name", cString(info, 16));
            case TRACING -> {
                if (BpfTypeNames.progType(progType) != null) {
                    jw.stringField("prog_type", BpfTypeNames.progType(progType));
                } else {
                    jw.uintField("prog_type", Integer.toUnsignedLong(progType));
                }
                attachTypeJson(jw, info.getInt(16));
            }
            case CGROUP -> {
                jw.uintField("cgroup_id", info.getLong(16));
                attachTypeJson(jw, info.getInt(24));
            }
            case ITER -> {
                String target = cString(info, 16);
                jw.stringField("target_name", target);
                if (isMapTarget(target)) {
                    jw.uintField("map_id", Integer.toUnsignedLong(info.getInt(28)));
                } else if (isTaskTarget(target)) {
                    if (info.getInt(32) != 0) {
                        jw.uintField("tid", Integer.toUnsignedLong(info.getInt(32)));
                    } else if (info.getInt(36) != 0) {
                        jw.uintField("pid", Integer.toUnsignedLong(info.getInt(36)));
                    }
                }
                if (target.equals("cgroup")) {
                    jw.uintField("cgroup_id", info.getLong(32));
                    jw.stringField("order", cgroupOrder(info.getInt(40)));
                }
            }
            case NETNS -> {
                jw.uintField("netns_ino", Integer.toUnsignedLong(info.getInt(16)));
                attachTypeJson(jw, info.getInt(20));
            }
            default -> {
            }
        }
        if (pins != null && !pins.isEmpty()) {
            PinnedPaths.json(jw, pins.paths(id));
        }
        jw.endObject();
    }

    private static void attachTypeJson(JsonWriter jw, int t) {
        if (attachType(t) != null) {
            jw.stringField("attach_type", attachType(t));
        } else {
            jw.uintField("attach_type", Integer.toUnsignedLong(t));
        }
    }

    private void plain(Memory info, int type) {
        int id = info.getInt(4);
        int progId = info.getInt(8);
        int progType = type == TRACING ? progType(progId) : 0;
        StringBuilder out = o.out();
        out.append(Integer.toUnsignedString(id)).append(": ");
        if (linkType(type) != null) {
            out.append(linkType(type)).append("  ");
        } else {
            out.append("type ").append(Integer.toUnsignedString(type)).append("  ");
        }
        out.append("prog ").append(Integer.toUnsignedString(progId)).append("  ");
        switch (type) {
            case RAW_TRACEPOINT -> out.append("\n\ttp '").append(cString(info, 16)).append("'  ");
            case TRACING -> {
                out.append("\n\tprog_type ").append(BpfTypeNames.progType(progType) != null
                        ? BpfTypeNames.progType(progType) : Integer.toUnsignedString(progType)).append("  ");
                attachTypePlain(out, info.getInt(16));
            }
            case CGROUP -> {
                out.append("\n\tcgroup_id ").append(Long.toUnsignedString(info.getLong(16))).append("  ");
                attachTypePlain(out, info.getInt(24));
            }
            case ITER -> {
                String target = cString(info, 16);
                out.append("target_name ").append(target).append("  ");
                if (isMapTarget(target)) {
                    out.append("map_id ").append(Integer.toUnsignedString(info.getInt(28))).append("  ");
                } else if (isTaskTarget(target)) {
                    if (info.getInt(32) != 0) {
                        out.append("tid ").append(Integer.toUnsignedString(info.getInt(32))).append(' ');
                    } else if (info.getInt(36) != 0) {
                        out.append("pid ").append(Integer.toUnsignedString(info.getInt(36))).append(' ');
                    }
                }
                if (target.equals("cgroup")) {
                    out.append("cgroup_id ").append(Long.toUnsignedString(info.getLong(32))).append("  ");
                    out.append("order ").append(cgroupOrder(info.getInt(40))).append("  ");
                }
            }
            case NETNS -> {
                out.append("\n\tnetns_ino ").append(Integer.toUnsignedString(info.getInt(16))).append("  ");
                attachTypePlain(out, info.getInt(20));
            }
            default -> {
            }
        }
        if (pins != null && !pins.isEmpty()) {
            PinnedPaths.plain(out, pins.paths(id));
        }
        out.append('\n');
    }

    private static void attachTypePlain(StringBuilder out, int t) {
        out.append("attach_type ").append(attachType(t) != null ? attachType(t) : Integer.toUnsignedString(t)).append("  ");
    }

    private static boolean isMapTarget(String t) {
        return t.equals("bpf_map_elem") || t.equals("bpf_sk_storage_map");
    }

    private static boolean isTaskTarget(String t) {
        return t.equals("task") || t.equals("task_file") || t.equals("task_vma");
    }

    private static String cgroupOrder(int order) {
        return switch (order) {
            case 0 -> "order_unspec";
            case 1 -> "self_only";
            case 2 -> "descendants_pre";
            case 3 -> "descendants_post";
            case 4 -> "ancestors_up";
            default -> "unknown";
        };
    }
}
