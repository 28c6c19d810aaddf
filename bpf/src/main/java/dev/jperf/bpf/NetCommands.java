package dev.jperf.bpf;

import dev.jperf.format.json.JsonWriter;
import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.NativeException;
import dev.jperf.nativeshim.Netlink;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code bpftool net list|show|attach|detach} (net.c and netlink_dumper.c of bpftool 7.1): the
 * XDP programs of each network device and the BPF tc filters (and their bpf actions) of its
 * classes, qdiscs and clsact hooks, read over rtnetlink as bpftool asks for them; the flow
 * dissector of this network namespace; XDP attached and detached as libbpf's bpf_xdp_attach does.
 */
public final class NetCommands {
    private static final String[] ATTACH_TYPES = {"xdp", "xdpgeneric", "xdpdrv", "xdpoffload"};
    private static final int BPF_FLOW_DISSECTOR = 17;

    private final Output o;
    private final PrintStream err;
    private final KernelObjects kernel = new KernelObjects();

    public NetCommands(Output o, PrintStream err) {
        this.o = o;
        this.err = err;
    }

    private record Dev(String name, int ifindex) {}

    /** {@code net show [dev NAME]}. */
    public void show(List<String> args) {
        int filter = -1;
        if (args.size() == 2) {
            filter = parseDev(args, 0, BpftoolException.EXIT);
            if (filter < 1) {
                throw BpftoolException.quiet("no such device");
            }
        } else if (!args.isEmpty()) {
            throw BpftoolException.usage();
        }
        int flowDissector = flowDissector();
        Netlink nl;
        try {
            nl = Netlink.open();
        } catch (NativeException e) {
            err.println("failed to open netlink sock");
            throw BpftoolException.quiet("failed to open netlink sock");
        }
        if (!nl.extAck()) {
            err.println("Error: Netlink error reporting not supported");
        }
        JsonWriter jw = o.jw();
        StringBuilder out = o.out();
        int ret;
        try (nl) {
            if (o.json()) {
                jw.startArray();
                jw.startObject();
            }
            startArray("xdp");
            List<Dev> devs = new ArrayList<>();
            int seq = seq();
            int filterIdx = filter;
            ret = nl.request(Netlink.message(Netlink.RTM_GETLINK, Netlink.NLM_F_DUMP | Netlink.NLM_F_REQUEST, seq,
                    ifinfomsg(Netlink.AF_PACKET, 0)), seq, (type, m) -> link(m, filterIdx, devs));
            kernelMessage(nl);
            endArray();
            if (ret == 0) {
                startArray("tc");
                for (Dev d : devs) {
                    tc(nl, d);
                }
                endArray();
            }
            startArray("flow_dissector");
            if (flowDissector > 0) {
                if (o.json()) {
                    jw.uintField("id", Integer.toUnsignedLong(flowDissector));
                } else {
                    out.append("id ").append(Integer.toUnsignedString(flowDissector));
                }
            }
            endArray();
            if (o.json()) {
                jw.endObject();
                jw.endArray();
            }
        }
        if (ret != 0) {
            if (o.json()) {
                jw.nul();
            }
            // bpftool's own fprintf, not p_err: no JSON error object
            err.println("Error: " + netlinkError(ret));
            throw BpftoolException.quiet(netlinkError(ret), ret);
        }
    }

    /** {@code net attach ATTACH_TYPE PROG dev NAME [overwrite]}. */
    public void attach(String verb, List<String> args) {
        PinCommands.require(args, 5, verb, -Errno.EINVAL);
        int type = attachType(args.get(0));
        int progFd;
        try {
            progFd = PinCommands.open(kernel, o, "prog", BpfHandle.parse(args, 1, "prog"));
        } catch (BpftoolException e) {
            throw new BpftoolException(e.getMessage(), e.onStdout(), -Errno.EINVAL);
        }
        try {
            int ifindex = parseDev(args, 3, -Errno.EINVAL);
            if (ifindex < 1) {
                throw BpftoolException.quiet("no such device", -Errno.EINVAL);
            }
            boolean overwrite = false;
            if (args.size() > 5) {
                if ("overwrite".startsWith(args.get(5))) {
                    overwrite = true;
                } else {
                    throw new BpftoolException("expected 'overwrite', got: '" + args.get(5) + "'?", false, -Errno.EINVAL);
                }
            }
            int e = xdpAttach(ifindex, progFd, type, overwrite);
            if (e != 0) {
                throw new BpftoolException("interface " + ATTACH_TYPES[type] + " attach failed: " + Errno.text(-e), false, e);
            }
            if (o.json()) {
                o.jw().nul();
            }
        } finally {
            Fd.close(progFd);
        }
    }

    /** {@code net detach ATTACH_TYPE dev NAME}. */
    public void detach(String verb, List<String> args) {
        PinCommands.require(args, 3, verb, -Errno.EINVAL);
        int type = attachType(args.get(0));
        int ifindex = parseDev(args, 1, -Errno.EINVAL);
        if (ifindex < 1) {
            throw BpftoolException.quiet("no such device", -Errno.EINVAL);
        }
        int e = xdpAttach(ifindex, -1, type, false);
        if (e < 0) {
            throw new BpftoolException("interface " + ATTACH_TYPES[type] + " detach failed: " + Errno.text(-e), false, e);
        }
        if (o.json()) {
            o.jw().nul();
        }
    }

    private static int attachType(String w) {
        for (int t = 0; t < ATTACH_TYPES.length; t++) {
            if (ATTACH_TYPES[t].startsWith(w)) {
                return t;
            }
        }
        throw new BpftoolException("invalid net attach/detach type: " + w, false, -Errno.EINVAL);
    }

    /**
     * net_parse_dev: {@code dev NAME} at {@code at}: its ifindex, 0 when there is no such device
     * (said on stderr), bpftool's message when the word is not {@code dev} (the command then
     * returning {@code status}).
     */
    private int parseDev(List<String> args, int at, int status) {
        if (!"dev".startsWith(args.get(at))) {
            throw new BpftoolException("expected 'dev', got: '" + args.get(at) + "'?", false, status);
        }
        String name = args.get(at + 1);
        int ifindex = Netlink.ifNameToIndex(name);
        if (ifindex == 0) {
            reportNow("invalid devname " + name);
        }
        return ifindex;
    }

    /** A p_err that the command goes on after: the JSON object or the Error line, now. */
    private void reportNow(String message) {
        if (o.json()) {
            o.error(message);
        } else {
            err.println("Error: " + message);
        }
    }

    /**
     * libbpf 1.1's bpf_xdp_attach: RTM_SETLINK with IFLA_XDP {FD, FLAGS} (fd -1 detaches); 0 or
     * a negative errno, the kernel's extended ACK text said as libbpf says it.
     */
    private int xdpAttach(int ifindex, int progFd, int type, boolean overwrite) {
        int flags = overwrite ? 0 : Netlink.XDP_FLAGS_UPDATE_IF_NOEXIST;
        flags |= switch (type) {
            case 1 -> Netlink.XDP_FLAGS_SKB_MODE;
            case 2 -> Netlink.XDP_FLAGS_DRV_MODE;
            case 3 -> Netlink.XDP_FLAGS_HW_MODE;
            default -> 0;
        };
        ByteBuffer body = ByteBuffer.allocate(Netlink.IFINFOMSG + 4 + 8 + (flags != 0 ? 8 : 0)).order(ByteOrder.nativeOrder());
        body.put(ifinfomsg(Netlink.AF_UNSPEC, ifindex));
        body.putShort((short) (body.capacity() - Netlink.IFINFOMSG)).putShort((short) (Netlink.IFLA_XDP | Netlink.NLA_F_NESTED));
        body.putShort((short) 8).putShort((short) Netlink.IFLA_XDP_FD).putInt(progFd);
        if (flags != 0) {
            body.putShort((short) 8).putShort((short) Netlink.IFLA_XDP_FLAGS).putInt(flags);
        }
        Netlink nl;
        try {
            nl = Netlink.open();
        } catch (NativeException e) {
            return -e.errno();
        }
        try (nl) {
            int seq = seq();
            int r = nl.request(Netlink.message(Netlink.RTM_SETLINK, Netlink.NLM_F_REQUEST | Netlink.NLM_F_ACK, seq,
                    body.array()), seq, (t, m) -> 0);
            kernelMessage(nl);
            return r;
        }
    }

    /** libbpf_nla_dump_errormsg's line. */
    private void kernelMessage(Netlink nl) {
        if (nl.kernelMessage() != null) {
            err.println("libbpf: Kernel error message: " + nl.kernelMessage());
        }
    }

    /** The sequence number libbpf and bpftool give a request: time(NULL). */
    private static int seq() {
        return (int) (System.currentTimeMillis() / 1000);
    }

    private static byte[] ifinfomsg(int family, int ifindex) {
        ByteBuffer b = ByteBuffer.allocate(Netlink.IFINFOMSG).order(ByteOrder.nativeOrder());
        b.put((byte) family).put((byte) 0).putShort((short) 0).putInt(ifindex);
        return b.array();
    }

    private static byte[] tcmsg(int ifindex, int parent) {
        ByteBuffer b = ByteBuffer.allocate(Netlink.TCMSG).order(ByteOrder.nativeOrder());
        b.put((byte) Netlink.AF_UNSPEC).put((byte) 0).putShort((short) 0).putInt(ifindex).putInt(0).putInt(parent)
                .putInt(0);
        return b.array();
    }

    /** query_flow_dissector: the program attached in this network namespace, 0 for none. */
    private int flowDissector() {
        int fd = Fd.open("/proc/self/ns/net", Fd.O_RDONLY);
        if (fd < 0) {
            throw new BpftoolException("can't open /proc/self/ns/net: " + Errno.text(-fd));
        }
        try {
            int[] ids = new int[1];
            int n = kernel.bpf.progQuery(fd, BPF_FLOW_DISSECTOR, 0, ids, null, new int[1]);
            if (n == -Errno.EINVAL) {
                return 0;
            }
            if (n < 0) {
                throw new BpftoolException("can't query prog: " + Errno.text(-n));
            }
            return n == 1 ? ids[0] : 0;
        } finally {
            Fd.close(fd);
        }
    }

    /** libbpf_nla_parse: attributes by type (the last of a type wins), types above {@code max} left out. */
    private static ByteBuffer[] attrs(ByteBuffer b, int from, int max) {
        ByteBuffer[] tb = new ByteBuffer[max + 1];
        int at = from;
        while (at + 4 <= b.limit()) {
            int len = b.getShort(at) & 0xffff;
            int type = b.getShort(at + 2) & 0x3fff;
            if (len < 4 || at + len > b.limit()) {
                break;
            }
            if (type <= max) {
                tb[type] = b.slice(at + 4, len - 4).order(ByteOrder.nativeOrder());
            }
            at += (len + 3) & ~3;
        }
        return tb;
    }

    private static String str(ByteBuffer a) {
        return Netlink.cString(a, 0, a.limit());
    }

    /** dump_link_nlmsg: the device noted (when the filter takes it) and its XDP programs shown. */
    private int link(ByteBuffer m, int filter, List<Dev> devs) {
        int ifindex = m.getInt(4);
        if (filter > 0 && filter != ifindex) {
            return 0;
        }
        ByteBuffer[] tb = attrs(m, Netlink.IFINFOMSG, Netlink.IFLA_XDP);
        String name = tb[Netlink.IFLA_IFNAME] != null ? str(tb[Netlink.IFLA_IFNAME]) : "";
        devs.add(new Dev(name.length() > 63 ? name.substring(0, 63) : name, ifindex));
        if (tb[Netlink.IFLA_XDP] == null) {
            return 0;
        }
        ByteBuffer[] x = attrs(tb[Netlink.IFLA_XDP], 0, Netlink.IFLA_XDP_HW_PROG_ID);
        if (x[Netlink.IFLA_XDP_ATTACHED] == null) {
            return 0;
        }
        int mode = x[Netlink.IFLA_XDP_ATTACHED].get(0) & 0xff;
        if (mode == Netlink.XDP_ATTACHED_NONE) {
            return 0;
        }
        JsonWriter jw = o.jw();
        if (o.json()) {
            jw.startObject();
            jw.stringField("devname", name);
            jw.uintField("ifindex", Integer.toUnsignedLong(ifindex));
        } else {
            o.out().append(name).append('(').append(ifindex).append(')');
        }
        if (mode == Netlink.XDP_ATTACHED_MULTI) {
            if (o.json()) {
                jw.name("multi_attachments");
                jw.startArray();
            }
            xdpProg(x, Netlink.IFLA_XDP_SKB_PROG_ID, "generic", true);
            xdpProg(x, Netlink.IFLA_XDP_DRV_PROG_ID, "driver", true);
            xdpProg(x, Netlink.IFLA_XDP_HW_PROG_ID, "offload", true);
            if (o.json()) {
                jw.endArray();
            }
        } else if (mode == Netlink.XDP_ATTACHED_DRV) {
            xdpProg(x, Netlink.IFLA_XDP_PROG_ID, "driver", false);
        } else if (mode == Netlink.XDP_ATTACHED_SKB) {
            xdpProg(x, Netlink.IFLA_XDP_PROG_ID, "generic", false);
        } else if (mode == Netlink.XDP_ATTACHED_HW) {
            xdpProg(x, Netlink.IFLA_XDP_PROG_ID, "offload", false);
        }
        endObjectFinal();
        return 0;
    }

    private void xdpProg(ByteBuffer[] x, int attr, String mode, boolean object) {
        if (x[attr] == null) {
            return;
        }
        long id = Integer.toUnsignedLong(x[attr].getInt(0));
        if (o.json()) {
            JsonWriter jw = o.jw();
            if (object) {
                jw.startObject();
            }
            jw.stringField("mode", mode);
            jw.uintField("id", id);
            if (object) {
                jw.endObject();
            }
        } else {
            o.out().append(' ').append(mode).append(" id ").append(id);
        }
    }

    private record Handle(String kind, int handle) {}

    /** show_dev_tc_bpf: the filters of each class and qdisc of the device, then of root, clsact ingress and egress. */
    private void tc(Netlink nl, Dev d) {
        List<Handle> handles = new ArrayList<>();
        int seq = seq();
        int r = nl.request(Netlink.message(Netlink.RTM_GETTCLASS, Netlink.NLM_F_DUMP | Netlink.NLM_F_REQUEST, seq,
                tcmsg(d.ifindex(), 0)), seq, (t, m) -> classOrQdisc(m, false, handles));
        kernelMessage(nl);
        if (r != 0) {
            return; // bpftool goes on to the next device
        }
        seq = seq();
        r = nl.request(Netlink.message(Netlink.RTM_GETQDISC, Netlink.NLM_F_DUMP | Netlink.NLM_F_REQUEST, seq,
                tcmsg(d.ifindex(), 0)), seq, (t, m) -> classOrQdisc(m, true, handles));
        kernelMessage(nl);
        if (r != 0) {
            return;
        }
        handles.add(new Handle("root", Netlink.TC_H_ROOT));
        handles.add(new Handle("clsact/ingress", Netlink.TC_H_CLSACT | Netlink.TC_H_MIN_INGRESS));
        handles.add(new Handle("clsact/egress", Netlink.TC_H_CLSACT | Netlink.TC_H_MIN_EGRESS));
        for (Handle h : handles) {
            seq = seq();
            r = nl.request(Netlink.message(Netlink.RTM_GETTFILTER, Netlink.NLM_F_DUMP | Netlink.NLM_F_REQUEST, seq,
                    tcmsg(d.ifindex(), h.handle())), seq, (t, m) -> filter(m, h.kind(), d));
            kernelMessage(nl);
            if (r != 0) {
                return;
            }
        }
        o.flushSome();
    }

    /** dump_class_qdisc_nlmsg: a class, or a qdisc other than clsact with a handle. */
    private static int classOrQdisc(ByteBuffer m, boolean qdisc, List<Handle> handles) {
        ByteBuffer[] tb = attrs(m, Netlink.TCMSG, Netlink.TCA_OPTIONS);
        int handle = m.getInt(8);
        if (qdisc && (tb[Netlink.TCA_KIND] != null && str(tb[Netlink.TCA_KIND]).equals("clsact") || handle == 0)) {
            return 0;
        }
        String kind = tb[Netlink.TCA_KIND] != null ? str(tb[Netlink.TCA_KIND]) : "unknown";
        handles.add(new Handle(kind.length() > 63 ? kind.substring(0, 63) : kind, handle));
        return 0;
    }

    /** do_filter_dump: a filter of kind bpf with its program and bpf actions. */
    private int filter(ByteBuffer m, String kind, Dev d) {
        ByteBuffer[] tb = attrs(m, Netlink.TCMSG, Netlink.TCA_OPTIONS);
        if (tb[Netlink.TCA_OPTIONS] == null || tb[Netlink.TCA_KIND] == null || !str(tb[Netlink.TCA_KIND]).equals("bpf")) {
            return 0;
        }
        JsonWriter jw = o.jw();
        StringBuilder out = o.out();
        if (o.json()) {
            jw.startObject();
            if (!d.name().isEmpty()) {
                jw.stringField("devname", d.name());
            }
            jw.uintField("ifindex", Integer.toUnsignedLong(d.ifindex()));
            jw.stringField("kind", kind);
        } else {
            out.append(d.name()).append('(').append(Integer.toUnsignedString(d.ifindex())).append(") ").append(kind);
        }
        ByteBuffer[] b = attrs(tb[Netlink.TCA_OPTIONS], 0, Netlink.TCA_BPF_ID);
        int ret = 0;
        if (b[Netlink.TCA_BPF_NAME] != null) {
            dumpStr("name", " ", str(b[Netlink.TCA_BPF_NAME]));
        }
        if (b[Netlink.TCA_BPF_ID] != null) {
            dumpUint("id", " id ", b[Netlink.TCA_BPF_ID].getInt(0));
        }
        if (b[Netlink.TCA_BPF_ACT] != null) {
            ret = actions(b[Netlink.TCA_BPF_ACT]);
        }
        endObjectFinal();
        return ret;
    }

    /** do_bpf_act_dump: the bpf actions of a filter, by priority. */
    private int actions(ByteBuffer a) {
        ByteBuffer[] tb = attrs(a, 0, Netlink.TCA_ACT_MAX_PRIO);
        if (o.json()) {
            o.jw().name("act");
            o.jw().startArray();
        } else {
            o.out().append(" act [");
        }
        int ret = 0;
        for (int act = 0; act <= Netlink.TCA_ACT_MAX_PRIO && ret == 0; act++) {
            if (tb[act] == null) {
                continue;
            }
            ByteBuffer[] t = attrs(tb[act], 0, Netlink.TCA_ACT_OPTIONS);
            if (t[Netlink.TCA_ACT_KIND] == null || !str(t[Netlink.TCA_ACT_KIND]).equals("bpf")) {
                continue;
            }
            if (t[Netlink.TCA_ACT_OPTIONS] == null) {
                ret = -Netlink.NL_PARSE;
                break;
            }
            ByteBuffer[] p = attrs(t[Netlink.TCA_ACT_OPTIONS], 0, Netlink.TCA_ACT_BPF_ID);
            if (p[Netlink.TCA_ACT_BPF_PARMS] == null) {
                ret = -Netlink.NL_PARSE;
                break;
            }
            if (o.json()) {
                o.jw().startObject();
            } else {
                o.out().append('{');
            }
            if (p[Netlink.TCA_ACT_BPF_NAME] != null) {
                dumpStr("name", "", str(p[Netlink.TCA_ACT_BPF_NAME]));
            }
            if (p[Netlink.TCA_ACT_BPF_ID] != null) {
                dumpUint("id", " id ", p[Netlink.TCA_ACT_BPF_ID].getInt(0));
            }
            if (o.json()) {
                o.jw().endObject();
            } else {
                o.out().append('}');
            }
        }
        if (o.json()) {
            o.jw().endArray();
        } else {
            o.out().append("] ");
        }
        return ret;
    }

    private void dumpStr(String name, String before, String value) {
        if (o.json()) {
            o.jw().stringField(name, value);
        } else {
            o.out().append(before).append(value);
        }
    }

    private void dumpUint(String name, String before, int value) {
        if (o.json()) {
            o.jw().uintField(name, Integer.toUnsignedLong(value));
        } else {
            o.out().append(before).append(Integer.toUnsignedString(value));
        }
    }

    private void startArray(String name) {
        if (o.json()) {
            o.jw().name(name);
            o.jw().startArray();
        } else {
            o.out().append(name).append(":\n");
        }
    }

    private void endArray() {
        if (o.json()) {
            o.jw().endArray();
        } else {
            o.out().append('\n');
        }
    }

    private void endObjectFinal() {
        if (o.json()) {
            o.jw().endObject();
        } else {
            o.out().append('\n');
        }
    }

    /** libbpf_strerror. */
    private static String netlinkError(int ret) {
        int e = -ret;
        return switch (e) {
            case Netlink.WRONG_PID -> "Wrong pid in netlink message";
            case Netlink.INVALID_SEQ -> "Invalid netlink sequence";
            case Netlink.NL_PARSE -> "Incorrect netlink message parsing";
            default -> Errno.text(e);
        };
    }
}
