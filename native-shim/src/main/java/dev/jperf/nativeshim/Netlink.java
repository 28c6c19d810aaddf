package dev.jperf.nativeshim;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * A NETLINK_ROUTE socket, as bpftool's net.c and libbpf's netlink.c use one: a request sent, the
 * answers read until NLMSG_DONE (a dump) or the ACK, each message handed over in turn. The
 * rtnetlink constants are here, in one place.
 */
public final class Netlink implements AutoCloseable {
    // x86-64 syscall numbers
    static final long SYS_SOCKET = 41, SYS_SENDTO = 44, SYS_RECVFROM = 45, SYS_BIND = 49, SYS_GETSOCKNAME = 51,
            SYS_SETSOCKOPT = 54;
    static final int AF_NETLINK = 16, SOCK_RAW = 3, NETLINK_ROUTE = 0, SOL_NETLINK = 270, NETLINK_EXT_ACK = 11;
    /** sizeof(struct sockaddr_nl). */
    static final int SOCKADDR_NL = 12;

    public static final int AF_UNSPEC = 0, AF_PACKET = 17;
    public static final int NLMSG_HDRLEN = 16;
    public static final int NLMSG_ERROR = 2, NLMSG_DONE = 3;
    public static final int NLM_F_REQUEST = 1, NLM_F_MULTI = 2, NLM_F_ACK = 4, NLM_F_DUMP = 0x300;
    public static final int NLM_F_CAPPED = 0x100, NLM_F_ACK_TLVS = 0x200;
    public static final int NLMSGERR_ATTR_MSG = 1;
    public static final int NLA_F_NESTED = 0x8000;
    public static final int RTM_SETLINK = 19, RTM_GETLINK = 18, RTM_GETQDISC = 38, RTM_GETTCLASS = 42,
            RTM_GETTFILTER = 46;
    /** sizeof(struct ifinfomsg), sizeof(struct tcmsg). */
    public static final int IFINFOMSG = 16, TCMSG = 20;
    // IFLA_*
    public static final int IFLA_IFNAME = 3, IFLA_XDP = 43;
    public static final int IFLA_XDP_FD = 1, IFLA_XDP_ATTACHED = 2, IFLA_XDP_FLAGS = 3, IFLA_XDP_PROG_ID = 4,
            IFLA_XDP_DRV_PROG_ID = 5, IFLA_XDP_SKB_PROG_ID = 6, IFLA_XDP_HW_PROG_ID = 7;
    public static final int XDP_ATTACHED_NONE = 0, XDP_ATTACHED_DRV = 1, XDP_ATTACHED_SKB = 2, XDP_ATTACHED_HW = 3,
            XDP_ATTACHED_MULTI = 4;
    public static final int XDP_FLAGS_UPDATE_IF_NOEXIST = 1, XDP_FLAGS_SKB_MODE = 2, XDP_FLAGS_DRV_MODE = 4,
            XDP_FLAGS_HW_MODE = 8;
    // TCA_*
    public static final int TCA_KIND = 1, TCA_OPTIONS = 2;
    public static final int TCA_BPF_ACT = 1, TCA_BPF_NAME = 7, TCA_BPF_ID = 11;
    public static final int TCA_ACT_KIND = 1, TCA_ACT_OPTIONS = 2, TCA_ACT_MAX_PRIO = 32;
    public static final int TCA_ACT_BPF_PARMS = 2, TCA_ACT_BPF_NAME = 6, TCA_ACT_BPF_ID = 10;
    public static final int TC_H_ROOT = 0xFFFFFFFF, TC_H_CLSACT = 0xFFFF0000, TC_H_MIN_INGRESS = 0xFFF2,
            TC_H_MIN_EGRESS = 0xFFF3;
    /** libbpf's LIBBPF_ERRNO__WRNGPID, __INVSEQ, __NLPARSE. */
    public static final int WRONG_PID = 4011, INVALID_SEQ = 4012, NL_PARSE = 4013;

    /** One message of an answer: its type and the bytes after its header. */
    public interface Handler {
        /** 0 to go on, else the error that ends the request. */
        int message(int type, ByteBuffer payload);
    }

    private final int fd;
    private final int pid;
    private final Memory buf = new Memory(32 * 1024);
    private String kernelMessage;
    private boolean extAck;

    private Netlink(int fd, int pid, boolean extAck) {
        this.fd = fd;
        this.pid = pid;
        this.extAck = extAck;
    }

    /** netlink_open: a bound NETLINK_ROUTE socket asking for extended ACKs. A {@link NativeException} when none can be had. */
    public static Netlink open() {
        long s = LibC.syscall(SYS_SOCKET, AF_NETLINK, SOCK_RAW, NETLINK_ROUTE, 0, 0);
        if (s < 0) {
            throw new NativeException("socket(AF_NETLINK)", Errno.last());
        }
        int sock = (int) s;
        Memory one = new Memory(4);
        one.setInt(0, 1);
        boolean ack = LibC.syscall(SYS_SETSOCKOPT, sock, SOL_NETLINK, NETLINK_EXT_ACK, Pointer.nativeValue(one), 4) >= 0;
        Memory sa = new Memory(SOCKADDR_NL);
        sa.clear();
        sa.setShort(0, (short) AF_NETLINK);
        Memory len = new Memory(4);
        len.setInt(0, SOCKADDR_NL);
        if (LibC.syscall(SYS_BIND, sock, Pointer.nativeValue(sa), SOCKADDR_NL, 0, 0) < 0
                || LibC.syscall(SYS_GETSOCKNAME, sock, Pointer.nativeValue(sa), Pointer.nativeValue(len), 0, 0) < 0) {
            int errno = Errno.last();
            LibC.close(sock);
            throw new NativeException("bind(AF_NETLINK)", errno);
        }
        return new Netlink(sock, sa.getInt(4), ack);
    }

    /** False when the kernel refused NETLINK_EXT_ACK (bpftool says so and goes on). */
    public boolean extAck() {
        return extAck;
    }

    /**
     * A request: header fields around {@code body} (the ifinfomsg or tcmsg and its attributes),
     * sent with sequence number {@code seq}.
     */
    public static ByteBuffer message(int type, int flags, int seq, byte[] body) {
        ByteBuffer b = ByteBuffer.allocate(NLMSG_HDRLEN + body.length).order(ByteOrder.nativeOrder());
        b.putInt(NLMSG_HDRLEN + body.length).putShort((short) type).putShort((short) flags).putInt(seq).putInt(0);
        b.put(body);
        return b.flip();
    }

    /**
     * Sends {@code request} and reads the answer as bpftool's netlink_recv does: every message
     * not an error or the end handed to {@code handler}; 0 at NLMSG_DONE or after the last
     * datagram, else the negative errno of an error message (its extended ACK text in
     * {@link #kernelMessage()}), -errno of a failed call, or -{@link #WRONG_PID}/-{@link #INVALID_SEQ}.
     */
    public int request(ByteBuffer request, int seq, Handler handler) {
        kernelMessage = null;
        byte[] req = new byte[request.remaining()];
        request.duplicate().get(req);
        Memory m = new Memory(req.length);
        m.write(0, req, 0, req.length);
        if (LibC.syscall(SYS_SENDTO, fd, Pointer.nativeValue(m), req.length, 0, 0) < 0) {
            return -Errno.last();
        }
        boolean multipart = true;
        while (multipart) {
            multipart = false;
            long len = LibC.syscall(SYS_RECVFROM, fd, Pointer.nativeValue(buf), buf.size(), 0, 0);
            if (len < 0) {
                return -Errno.last();
            }
            if (len == 0) {
                break;
            }
            ByteBuffer in = buf.getByteBuffer(0, len).order(ByteOrder.nativeOrder());
            int at = 0;
            while (len - at >= NLMSG_HDRLEN) {
                int mlen = in.getInt(at);
                if (mlen < NLMSG_HDRLEN || mlen > len - at) {
                    break;
                }
                int type = in.getShort(at + 4) & 0xffff;
                int flags = in.getShort(at + 6) & 0xffff;
                if (in.getInt(at + 12) != pid) {
                    return -WRONG_PID;
                }
                if (in.getInt(at + 8) != seq) {
                    return -INVALID_SEQ;
                }
                if ((flags & NLM_F_MULTI) != 0) {
                    multipart = true;
                }
                ByteBuffer payload = in.slice(at + NLMSG_HDRLEN, mlen - NLMSG_HDRLEN).order(ByteOrder.nativeOrder());
                if (type == NLMSG_ERROR) {
                    int error = payload.getInt(0);
                    if (error != 0) {
                        kernelMessage = extAckMessage(payload, flags);
                        return error;
                    }
                } else if (type == NLMSG_DONE) {
                    return 0;
                } else {
                    int r = handler.message(type, payload);
                    if (r != 0) {
                        return r;
                    }
                }
                at += (mlen + 3) & ~3;
            }
        }
        return 0;
    }

    /** libbpf_nla_dump_errormsg: the NLMSGERR_ATTR_MSG of an error with ACK TLVs, else null. */
    private static String extAckMessage(ByteBuffer err, int flags) {
        if ((flags & NLM_F_ACK_TLVS) == 0) {
            return null;
        }
        int at = 4 + NLMSG_HDRLEN;
        if ((flags & NLM_F_CAPPED) == 0) {
            at += err.getInt(4) - NLMSG_HDRLEN;
        }
        while (at + 4 <= err.limit()) {
            int alen = err.getShort(at) & 0xffff;
            int type = err.getShort(at + 2) & 0x3fff;
            if (alen < 4 || at + alen > err.limit()) {
                break;
            }
            if (type == NLMSGERR_ATTR_MSG) {
                return cString(err, at + 4, alen - 4);
            }
            at += (alen + 3) & ~3;
        }
        return null;
    }

    /** The extended ACK text of the last request's error, null if the kernel gave none. */
    public String kernelMessage() {
        return kernelMessage;
    }

    /** A NUL-terminated string of at most {@code max} bytes at {@code at}. */
    public static String cString(ByteBuffer b, int at, int max) {
        int end = at;
        while (end < at + max && end < b.limit() && b.get(end) != 0) {
            end++;
        }
        byte[] s = new byte[end - at];
        b.get(at, s);
        return new String(s, StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        LibC.close(fd);
    }

    static final int AF_UNIX = 1, SOCK_DGRAM = 2, SOCK_CLOEXEC = 0x80000, SIOCGIFINDEX = 0x8933, IFNAMSIZ = 16;

    /**
     * if_nametoindex(3): the index of interface {@code name} in this thread's network namespace,
     * or 0 when there is none (a name of IFNAMSIZ bytes or more included).
     */
    public static int ifNameToIndex(String name) {
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        if (n.length >= IFNAMSIZ) {
            return 0;
        }
        long s = LibC.syscall(SYS_SOCKET, AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, 0, 0);
        if (s < 0) {
            return 0;
        }
        try {
            Memory ifr = new Memory(40); // struct ifreq: ifr_name[16], then ifr_ifindex
            ifr.clear();
            ifr.write(0, n, 0, n.length);
            return LibC.ioctl((int) s, SIOCGIFINDEX, Pointer.nativeValue(ifr)) < 0 ? 0 : ifr.getInt(IFNAMSIZ);
        } finally {
            LibC.close((int) s);
        }
    }

}
