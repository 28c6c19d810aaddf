package dev.jperf.bpf;

import dev.jperf.loader.BpfObjInfo;
import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.jperf.format.bpf.BpfProgInfo;
import dev.jperf.format.btf.Btf;
import dev.jperf.format.json.JsonWriter;
import dev.jperf.nativeshim.BpfAttrLayout;
import dev.jperf.format.bpf.BpfProgInfoLayout;
import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.NativeException;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;

/**
 * {@code bpftool cgroup show|tree|attach|detach} (cgroup.c of bpftool 7.1): the programs attached
 * to cgroup v2 directories, per attach type, with bpftool's columns and JSON.
 */
public final class CgroupCommands {
    /** bpftool asks for at most this many programs per attach type. */
    private static final int MAX_PROGS = 1024;

    /** bpf_attach_type_input_str's traditional names, accepted by any prefix (null: libbpf's name). */
    private static final String[] INPUT_NAMES = new String[BpfAttrLayout.MAX_ATTACH_TYPE_6_1];

    static {
        String[][] names = {{"0", "ingress"}, {"1", "egress"}, {"2", "sock_create"}, {"34", "sock_release"},
            {"3", "sock_ops"}, {"6", "device"}, {"8", "bind4"}, {"9", "bind6"}, {"10", "connect4"}, {"11", "connect6"},
            {"12", "post_bind4"}, {"13", "post_bind6"}, {"29", "getpeername4"}, {"30", "getpeername6"},
            {"31", "getsockname4"}, {"32", "getsockname6"}, {"14", "sendmsg4"}, {"15", "sendmsg6"}, {"18", "sysctl"},
            {"19", "recvmsg4"}, {"20", "recvmsg6"}, {"21", "getsockopt"}, {"22", "setsockopt"}, {"23", "raw_tp"},
            {"24", "fentry"}, {"25", "fexit"}, {"26", "mod_ret"}, {"39", "sk_skb_reuseport_select"},
            {"40", "sk_skb_reuseport_select_or_migrate"}};
        for (String[] n : names) {
            INPUT_NAMES[Integer.parseInt(n[0])] = n[1];
        }
    }

    private final Output o;
    private final KernelObjects kernel = new KernelObjects();
    private int queryFlags;
    /** libbpf_find_kernel_btf's answer, read when a program first needs it (null: none here). */
    private Btf vmlinux;
    private boolean vmlinuxRead;
    /** btf_vmlinux_id: guessed from the first program whose attach BTF object is vmlinux's. */
    private int vmlinuxId;

    public CgroupCommands(Output o) {
        this.o = o;
    }

    /** parse_attach_type: libbpf's names exactly, the traditional ones by prefix; -1 for none. */
    static int attachType(String s) {
        for (int t = 0; LinkCommands.attachType(t) != null; t++) {
            if (s.equals(LinkCommands.attachType(t))) {
                return t;
            }
        }
        for (int t = 0; inputName(t) != null; t++) {
            if (inputName(t).startsWith(s)) {
                return t;
            }
        }
        return -1;
    }

    private static String inputName(int t) {
        return t < INPUT_NAMES.length && INPUT_NAMES[t] != null ? INPUT_NAMES[t] : LinkCommands.attachType(t);
    }

    /** {@code cgroup show CGROUP [effective]} ({@code verb}: the word as typed, for bpftool's message). */
    public void show(String verb, List<String> args) {
        PinCommands.require(args, 1, verb);
        String path = args.get(0);
        effective(args.subList(1, args.size()));
        int fd = Fd.open(path, Fd.O_RDONLY);
        if (fd < 0) {
            throw new BpftoolException("can't open cgroup " + path);
        }
        try {
            int has = hasAttachedProgs(fd);
            if (has < 0) {
                throw new BpftoolException("can't query bpf programs attached to " + path + ": " + Errno.text(-has));
            }
            if (has == 0) {
                return;
            }
            if (o.json()) {
                o.jw().startArray();
            } else {
                header();
            }
            boolean any = false;
            for (int type = 0; type < BpfAttrLayout.MAX_ATTACH_TYPE_6_1; type++) {
                // not every attach type can be queried: one that can is enough
                any |= showProgs(fd, type, 0) == 0;
            }
            if (o.json()) {
                o.jw().endArray();
            }
            if (!any) {
                throw BpftoolException.quiet("no attach type could be queried");
            }
        } finally {
            Fd.close(fd);
        }
    }

    /** {@code cgroup tree [CGROUP_ROOT [effective]]}: every cgroup below the root with programs attached. */
    public void tree(List<String> args) {
        String root;
        if (args.isEmpty()) {
            root = cgroup2Root();
            if (root == null) {
                throw new BpftoolException("cgroup v2 isn't mounted");
            }
        } else {
            root = args.get(0);
            effective(args.subList(1, args.size()));
        }
        if (o.json()) {
            o.jw().startArray();
        } else {
            o.out().append("CgroupPath\n");
            header();
        }
        try {
            BasicFileAttributes a;
            Object dev;
            try {
                a = Files.readAttributes(Path.of(root), BasicFileAttributes.class);
                dev = Files.getAttribute(Path.of(root), "unix:dev");
            } catch (IOException e) {
                throw new BpftoolException("can't iterate over " + root + ": " + ioText(e));
            }
            if (a.isDirectory()) {
                // nftw names the root without its trailing slashes
                String r = root;
                while (r.length() > 1 && r.endsWith("/")) {
                    r = r.substring(0, r.length() - 1);
                }
                walk(r, 0, dev);
            }
        } catch (BpftoolException e) {
            throw o.inline(e);
        } finally {
            if (o.json()) {
                o.jw().endArray();
            }
        }
    }

    /** nftw(root, ..., FTW_MOUNT): each directory before what it holds, in readdir order, on root's file system. */
    private void walk(String dir, int level, Object dev) {
        showTreeDir(dir, level);
        o.flushSome();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(Path.of(dir))) {
            for (Path e : entries) {
                String child = (dir.endsWith("/") ? dir : dir + "/") + e.getFileName();
                Path p = Path.of(child);
                try {
                    if (!Files.isDirectory(p) || !dev.equals(Files.getAttribute(p, "unix:dev"))) {
                        continue;
                    }
                } catch (IOException x) {
                    continue;
                }
                walk(child, level + 1, dev);
            }
        } catch (IOException e) {
            // FTW_DNR: a directory that cannot be read is passed over
        }
    }

    private void showTreeDir(String path, int level) {
        int fd = Fd.open(path, Fd.O_RDONLY);
        if (fd < 0) {
            throw new BpftoolException("can't open cgroup " + path + ": " + Errno.text(-fd));
        }
        try {
            int has = hasAttachedProgs(fd);
            if (has < 0) {
                throw new BpftoolException("can't query bpf programs attached to " + path + ": " + Errno.text(-has));
            }
            if (has == 0) {
                return;
            }
            JsonWriter jw = o.jw();
            if (o.json()) {
                jw.startObject();
                jw.stringField("cgroup", path);
                jw.name("programs");
                jw.startArray();
            } else {
                o.out().append(path).append('\n');
            }
            for (int type = 0; type < BpfAttrLayout.MAX_ATTACH_TYPE_6_1; type++) {
                showProgs(fd, type, level);
            }
            if (o.json()) {
                jw.endArray();
                jw.endObject();
            }
        } finally {
            Fd.close(fd);
        }
    }

    /** {@code cgroup attach CGROUP ATTACH_TYPE PROG [multi|override]...}. */
    public void attach(List<String> args) {
        attachOrDetach(args, true);
    }

    /** {@code cgroup detach CGROUP ATTACH_TYPE PROG}. */
    public void detach(List<String> args) {
        attachOrDetach(args, false);
    }

    private void attachOrDetach(List<String> args, boolean attach) {
        if (args.size() < 4) {
            throw new BpftoolException("too few parameters for cgroup " + (attach ? "attach" : "detach"));
        }
        int cgroupFd = Fd.open(args.get(0), Fd.O_RDONLY);
        if (cgroupFd < 0) {
            throw new BpftoolException("can't open cgroup " + args.get(0));
        }
        try {
            int type = attachType(args.get(1));
            if (type < 0) {
                throw new BpftoolException("invalid attach type");
            }
            int progFd = PinCommands.open(kernel, o, "prog", BpfHandle.parse(args, 2, "prog"));
            try {
                int flags = 0;
                if (attach) {
                    for (String w : args.subList(4, args.size())) {
                        if ("multi".startsWith(w)) {
                            flags |= BpfAttrLayout.BPF_F_ALLOW_MULTI;
                        } else if ("override".startsWith(w)) {
                            flags |= BpfAttrLayout.BPF_F_ALLOW_OVERRIDE;
                        } else {
                            throw new BpftoolException("unknown option: " + w);
                        }
                    }
                }
                int err = attach ? kernel.bpf.progAttach(progFd, cgroupFd, type, flags)
                        : kernel.bpf.progDetach(progFd, cgroupFd, type);
                if (err != 0) {
                    throw new BpftoolException(attach ? "failed to attach program" : "failed to detach program");
                }
                if (o.json()) {
                    o.jw().nul();
                }
            } finally {
                Fd.close(progFd);
            }
        } finally {
            Fd.close(cgroupFd);
        }
    }

    private void effective(List<String> rest) {
        queryFlags = 0;
        for (String w : rest) {
            if ("effective".startsWith(w)) {
                if ((queryFlags & BpfAttrLayout.BPF_F_QUERY_EFFECTIVE) != 0) {
                    throw new BpftoolException("duplicated argument: " + w);
                }
                queryFlags |= BpfAttrLayout.BPF_F_QUERY_EFFECTIVE;
            } else {
                throw new BpftoolException("expected no more arguments, 'effective', got: '" + w + "'?");
            }
        }
    }

    private boolean effective() {
        return (queryFlags & BpfAttrLayout.BPF_F_QUERY_EFFECTIVE) != 0;
    }

    private void header() {
        o.out().append(effective() ? String.format("%-8s %-15s %-15s%n", "ID", "AttachType", "Name")
                : String.format("%-8s %-15s %-15s %-15s%n", "ID", "AttachType", "AttachFlags", "Name"));
    }

    /** cgroup_has_attached_progs: 1, 0, or -errno of a query that failed other than with EINVAL. */
    private int hasAttachedProgs(int fd) {
        for (int type = 0; type < BpfAttrLayout.MAX_ATTACH_TYPE_6_1; type++) {
            int n = kernel.bpf.progQuery(fd, type, queryFlags, new int[0], null, null);
            if (n < 0 && n != -Errno.EINVAL) {
                return n;
            }
            if (n > 0) {
                return 1;
            }
        }
        return 0;
    }

    /** show_effective_bpf_progs / show_attached_bpf_progs: 0, or -errno of the query. */
    private int showProgs(int fd, int type, int level) {
        int[] ids = new int[MAX_PROGS];
        int[] progFlags = effective() ? null : new int[MAX_PROGS];
        int[] flags = new int[1];
        int n = kernel.bpf.progQuery(fd, type, queryFlags, ids, progFlags, flags);
        if (n < 0) {
            return n;
        }
        for (int i = 0; i < Math.min(n, MAX_PROGS); i++) {
            String flagText = null;
            if (progFlags != null) {
                int f = progFlags[i] != 0 ? progFlags[i] : flags[0];
                flagText = switch (f) {
                    case BpfAttrLayout.BPF_F_ALLOW_MULTI -> "multi";
                    case BpfAttrLayout.BPF_F_ALLOW_OVERRIDE -> "override";
                    case 0 -> "";
                    default -> "unknown(" + Integer.toHexString(f) + ")";
                };
            }
            showProg(ids[i], type, flagText, level);
        }
        return 0;
    }

    /** show_bpf_prog: nothing when the program is gone. */
    private void showProg(int id, int type, String flagText, int level) {
        int fd = kernel.bpf.progGetFdByIdOrErrno(id);
        if (fd < 0) {
            return;
        }
        try {
            BpfProgInfo info;
            try {
                info = BpfObjInfo.progInfo(kernel.bpf, fd, 0);
            } catch (NativeException e) {
                return;
            }
            String btfName = attachBtfName(info);
            String name = ProgCommands.fullName(kernel, info, fd);
            String typeName = LinkCommands.attachType(type);
            if (o.json()) {
                JsonWriter jw = o.jw();
                jw.startObject();
                jw.uintField("id", Integer.toUnsignedLong(info.id()));
                if (typeName != null) {
                    jw.stringField("attach_type", typeName);
                } else {
                    jw.uintField("attach_type", type);
                }
                if (!effective()) {
                    jw.stringField("attach_flags", flagText);
                }
                jw.stringField("name", name);
                if (btfName != null) {
                    jw.stringField("attach_btf_name", btfName);
                }
                jw.uintField("attach_btf_obj_id", Integer.toUnsignedLong(info.attachBtfObjId()));
                jw.uintField("attach_btf_id", Integer.toUnsignedLong(info.attachBtfId()));
                jw.endObject();
            } else {
                StringBuilder out = o.out();
                out.append(level != 0 ? "    " : "").append(String.format("%-8s ", Integer.toUnsignedString(info.id())));
                out.append(typeName != null ? String.format("%-15s", typeName) : String.format("type %-10d", type));
                if (effective()) {
                    out.append(String.format(" %-15s", name));
                } else {
                    out.append(String.format(" %-15s %-15s", flagText, name));
                }
                if (btfName != null) {
                    out.append(String.format(" %-15s", btfName));
                } else if (info.attachBtfId() != 0) {
                    out.append(" attach_btf_obj_id=").append(info.attachBtfObjId()).append(" attach_btf_id=")
                            .append(info.attachBtfId());
                }
                out.append('\n');
            }
        } finally {
            Fd.close(fd);
        }
    }

    /**
     * The vmlinux type the program attaches to, as bpftool finds it: btf_vmlinux_id is guessed
     * from the first program asked about, so a program with no attach BTF (object 0, type 0)
     * gets type 0's empty name while none was found.
     */
    private String attachBtfName(BpfProgInfo info) {
        if (!vmlinuxRead) {
            vmlinuxRead = true;
            vmlinux = Files.exists(Path.of("/sys/kernel/btf/vmlinux"), LinkOption.NOFOLLOW_LINKS)
                    ? KernelObjects.vmlinuxBtf() : null;
        }
        if (vmlinux == null) {
            return null;
        }
        if (vmlinuxId == 0) {
            vmlinuxId = guessVmlinuxId(info.attachBtfObjId());
        }
        int t = info.attachBtfId();
        if (vmlinuxId == info.attachBtfObjId() && Integer.compareUnsigned(t, vmlinux.lastId() + 1) < 0) {
            return t == 0 ? "" : vmlinux.name(t);
        }
        return null;
    }

    /** guess_vmlinux_btf_id: the id when BTF object {@code id} is the kernel's "vmlinux", else 0. */
    private int guessVmlinuxId(int id) {
        int fd;
        try {
            fd = kernel.bpf.btfGetFdById(id);
        } catch (NativeException e) {
            return 0;
        }
        try {
            Memory name = new Memory(16);
            name.clear();
            Memory info = new Memory(BpfProgInfoLayout.BTF_INFO_SIZE);
            info.clear();
            info.setLong(BpfProgInfoLayout.BTF_INFO_NAME, Pointer.nativeValue(name));
            info.setInt(BpfProgInfoLayout.BTF_INFO_NAME_LEN, 16);
            kernel.bpf.objGetInfoByFd(fd, info, BpfProgInfoLayout.BTF_INFO_SIZE);
            return info.getInt(BpfProgInfoLayout.BTF_INFO_KERNEL_BTF) != 0 && name.getString(0).equals("vmlinux")
                    ? info.getInt(BpfProgInfoLayout.BTF_INFO_ID) : 0;
        } catch (NativeException e) {
            return 0;
        } finally {
            Fd.close(fd);
        }
    }

    /** find_cgroup_root: the first cgroup2 mount of /proc/mounts. */
    private static String cgroup2Root() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/mounts"))) {
                String[] f = line.split(" ");
                if (f.length > 2 && f[2].equals("cgroup2")) {
                    return unescape(f[1]);
                }
            }
        } catch (IOException e) {
            return null;
        }
        return null;
    }

    /** getmntent's octal escapes (\040 for a space). */
    private static String unescape(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 3 < s.length()) {
                String oct = s.substring(i + 1, i + 4);
                if (oct.matches("[0-7]{3}")) {
                    b.append((char) Integer.parseInt(oct, 8));
                    i += 3;
                    continue;
                }
            }
            b.append(c);
        }
        return b.toString();
    }

    private static String ioText(IOException e) {
        return e instanceof NoSuchFileException ? Errno.text(Errno.ENOENT)
                : e instanceof java.nio.file.AccessDeniedException ? Errno.text(Errno.EACCES) : String.valueOf(e.getMessage());
    }
}
