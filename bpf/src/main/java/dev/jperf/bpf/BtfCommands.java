package dev.jperf.bpf;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.jperf.format.btf.Btf;
import dev.jperf.format.btf.BtfCDump;
import dev.jperf.format.btf.BtfException;
import dev.jperf.format.btf.BtfRawDump;
import dev.jperf.format.elf.ElfException;
import dev.jperf.format.elf.ElfFile;
import dev.jperf.format.elf.ElfSection;
import dev.jperf.format.json.JsonWriter;
import dev.jperf.format.bpf.BpfMapInfoLayout;
import dev.jperf.format.bpf.BpfProgInfoLayout;
import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.NativeException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * bpftool 7.1's btf.c: {@code btf list|show [id ID]} (each BTF object with the programs and maps
 * using it) and {@code btf dump {id ID | prog PROG | map MAP [key|value|kv|all] | file PATH}
 * [format raw|c]}, the raw dump through format's {@link BtfRawDump}, the C one through
 * {@link BtfCDump}. Errors carry bpftool's return value, whose low byte is its exit code.
 */
public final class BtfCommands {
    /** bpftool's sysfs_vmlinux. */
    public static final String SYSFS_VMLINUX = "/sys/kernel/btf/vmlinux";
    private static final int EINVAL = -22;
    private static final int ENOTSUP = -95;
    /** LIBBPF_ERRNO__LIBELF: what libbpf fails with when a file is neither BTF nor ELF (no ELF header). */
    private static final int LIBBPF_ERRNO_LIBELF = 4001;

    private final Output o;
    /** The bpf(2) side, made when first needed: {@code dump file} loads no native code. */
    private KernelObjects kernel;
    /** bpftool's base_btf ({@code -B FILE}), null when not given. */
    private Btf baseBtf;

    private final PrintStream err;

    /** {@code err}: where bpftool's p_err/p_info lines of the lookups go. */
    public BtfCommands(Output o, PrintStream err) {
        this.o = o;
        this.err = err;
    }

    /** {@code -B FILE}: the base of split BTF, for {@code dump id} and {@code dump file}. */
    public void baseBtf(String path) {
        try {
            baseBtf = parseFile(path, null);
        } catch (BpftoolException e) {
            throw new BpftoolException("failed to parse base BTF at '" + path + "': " + e.status() + "\n");
        }
    }

    private KernelObjects kernel() {
        if (kernel == null) {
            kernel = new KernelObjects();
        }
        return kernel;
    }

    // ---- list / show

    /** {@code bpftool btf list}: every BTF object. */
    public void list() {
        LibbpfHashmap<Long> progs = table(IdWalk.Kind.PROG);
        LibbpfHashmap<Long> maps = table(IdWalk.Kind.MAP);
        JsonWriter jw = o.jw();
        if (o.json()) {
            jw.startArray();
        }
        try {
            int id = 0;
            while (true) {
                try {
                    id = kernel().bpf.btfGetNextId(id);
                } catch (NativeException e) {
                    throw new BpftoolException("can't get next BTF object: " + KernelObjects.strerror(e)
                            + (e.errno() == Errno.EINVAL ? " -- kernel too old?" : ""));
                }
                if (id == 0) {
                    break;
                }
                int fd;
                try {
                    fd = kernel().bpf.btfGetFdById(id);
                } catch (NativeException e) {
                    if (e.errno() == Errno.ENOENT) {
                        continue;
                    }
                    throw new BpftoolException("can't get BTF object by id (" + Integer.toUnsignedString(id) + "): "
                            + KernelObjects.strerror(e));
                }
                try {
                    show(fd, progs, maps);
                    o.flushSome();
                } finally {
                    Fd.close(fd);
                }
            }
        } catch (BpftoolException e) {
            throw o.inline(e);
        } finally {
            if (o.json()) {
                jw.endArray();
            }
        }
    }

    /** {@code bpftool btf show id ID}. */
    public void show(int id) {
        int fd;
        try {
            fd = kernel().bpf.btfGetFdById(id);
        } catch (NativeException e) {
            throw new BpftoolException("can't get BTF object by id (" + Integer.toUnsignedString(id) + "): "
                    + KernelObjects.strerror(e));
        }
        try {
            // bpftool opens the object before it walks the programs and maps
            LibbpfHashmap<Long> progs = table(IdWalk.Kind.PROG);
            LibbpfHashmap<Long> maps = table(IdWalk.Kind.MAP);
            show(fd, progs, maps);
        } finally {
            Fd.close(fd);
        }
    }

    /** build_btf_type_table: the ids of the programs or maps using each BTF object. */
    private LibbpfHashmap<Long> table(IdWalk.Kind kind) {
        LibbpfHashmap<Long> t = new LibbpfHashmap<>();
        IdWalk walk = new IdWalk(kernel(), kind, true);
        while (true) {
            int fd;
            try {
                fd = walk.next();
            } catch (BpftoolException e) {
                // build_btf_type_table names a program "prog" where do_show says "program"
                throw e.getMessage().startsWith("can't get next program")
                        ? new BpftoolException("can't get next prog" + e.getMessage().substring("can't get next program".length()))
                        : e;
            }
            if (fd < 0) {
                break;
            }
            byte[] info;
            try {
                info = kernel().info(fd, new Memory(kind.infoSize), kind.infoSize, true);
            } catch (NativeException e) {
                throw new BpftoolException("can't get " + kind.word + " info: " + KernelObjects.strerror(e));
            } finally {
                Fd.close(fd);
            }
            int at = kind == IdWalk.Kind.PROG ? BpfProgInfoLayout.BTF_ID : BpfMapInfoLayout.BTF_ID;
            int btfId = (info[at] & 0xff) | (info[at + 1] & 0xff) << 8 | (info[at + 2] & 0xff) << 16 | (info[at + 3] & 0xff) << 24;
            if (btfId != 0) {
                t.append(Integer.toUnsignedLong(btfId), Integer.toUnsignedLong(walk.id()));
            }
        }
        return t;
    }

    /** show_btf: its bpf_btf_info, read again with a name buffer when the kernel names it. */
    private void show(int fd, LibbpfHashmap<Long> progs, LibbpfHashmap<Long> maps) {
        Memory info = new Memory(BpfProgInfoLayout.BTF_INFO_SIZE);
        Memory name = new Memory(64);
        name.clear();
        try {
            kernel().info(fd, info, BpfProgInfoLayout.BTF_INFO_SIZE, true);
            if (info.getInt(BpfProgInfoLayout.BTF_INFO_NAME_LEN) != 0) {
                info.clear();
                info.setInt(BpfProgInfoLayout.BTF_INFO_NAME_LEN, 64);
                info.setLong(BpfProgInfoLayout.BTF_INFO_NAME, Pointer.nativeValue(name));
                kernel().bpf.objGetInfoByFd(fd, info, BpfProgInfoLayout.BTF_INFO_SIZE);
            }
        } catch (NativeException e) {
            throw new BpftoolException("can't get BTF object info: " + KernelObjects.strerror(e));
        }
        long id = Integer.toUnsignedLong(info.getInt(BpfProgInfoLayout.BTF_INFO_ID));
        long size = Integer.toUnsignedLong(info.getInt(BpfProgInfoLayout.BTF_INFO_BTF_SIZE));
        boolean kernelBtf = info.getInt(BpfProgInfoLayout.BTF_INFO_KERNEL_BTF) != 0;
        String n = name.getString(0, StandardCharsets.UTF_8.name());
        List<Long> progIds = progs.values(id);
        List<Long> mapIds = maps.values(id);
        if (o.json()) {
            JsonWriter jw = o.jw();
            jw.startObject();
            jw.uintField("id", id);
            jw.uintField("size", size);
            jw.name("prog_ids");
            jw.startArray();
            for (long p : progIds) {
                jw.uint(p);
            }
            jw.endArray();
            jw.name("map_ids");
            jw.startArray();
            for (long m : mapIds) {
                jw.uint(m);
            }
            jw.endArray();
            jw.boolField("kernel", kernelBtf);
            if (!n.isEmpty()) {
                jw.stringField("name", n);
            }
            jw.endObject();
            return;
        }
        StringBuilder out = o.out();
        out.append(id).append(": ");
        if (kernelBtf) {
            out.append("name [").append(n).append("]  ");
        } else if (!n.isEmpty()) {
            out.append("name ").append(n).append("  ");
        } else {
            out.append("name <anon>  ");
        }
        out.append("size ").append(size).append('B');
        for (int i = 0; i < progIds.size(); i++) {
            out.append(i == 0 ? "  prog_ids " : ",").append(progIds.get(i));
        }
        for (int i = 0; i < mapIds.size(); i++) {
            out.append(i == 0 ? "  map_ids " : ",").append(mapIds.get(i));
        }
        out.append('\n');
    }

    // ---- dump

    /** Where {@code btf dump} takes its BTF from, and which of its types (none: all). */
    public record Source(Btf btf, int[] roots) {
    }

    /** {@code dump id ID}: btf__load_from_kernel_by_id_split (a module's BTF over vmlinux's). */
    public Source byId(int id) {
        if (baseBtf == null && isKernelModule(id)) {
            if (!o.json()) {
                err.println("Warning: valid base BTF was not specified with -B option, falling back to standard base BTF ("
                        + SYSFS_VMLINUX + ")");
            }
            baseBtf = vmlinux();
        }
        return new Source(load(id, baseBtf), new int[0]);
    }

    /** {@code dump prog PROG}: the BTF of the one program {@code h} names. */
    public Source byProg(BpfHandle h) {
        int[] fds = ProgCommands.open(kernel(), h);
        if (fds.length != 1) {
            closeAll(fds);
            throw new BpftoolException(fds.length == 0 ? "no program matches " + h : "several programs match this handle");
        }
        int btfId;
        try {
            byte[] info = kernel().info(fds[0], new Memory(BpfProgInfoLayout.SIZE), BpfProgInfoLayout.SIZE, true);
            btfId = le32(info, BpfProgInfoLayout.BTF_ID);
        } catch (NativeException e) {
            throw new BpftoolException("can't get prog info: " + KernelObjects.strerror(e));
        } finally {
            Fd.close(fds[0]);
        }
        return byId(btfId);
    }

    /**
     * {@code dump map MAP [key|value|kv|all]}: the map's BTF, its key and value types by default
     * ({@code which} null), one of them, or all of it.
     */
    public Source byMap(BpfHandle h, String which) {
        int[] fds = new MapCommands(o, false).open(h);
        if (fds.length != 1) {
            closeAll(fds);
            throw new BpftoolException(fds.length == 0 ? "no map matches " + h : "several maps match this handle");
        }
        byte[] info;
        try {
            info = kernel().info(fds[0], new Memory(BpfMapInfoLayout.SIZE), BpfMapInfoLayout.SIZE, true);
        } catch (NativeException e) {
            throw new BpftoolException("can't get map info: " + KernelObjects.strerror(e));
        } finally {
            Fd.close(fds[0]);
        }
        int key = le32(info, BpfMapInfoLayout.BTF_KEY_TYPE_ID);
        int value = le32(info, BpfMapInfoLayout.BTF_VALUE_TYPE_ID);
        int[] roots;
        if (which == null || which.equals("kv")) {
            roots = new int[] {key, value};
        } else if (which.equals("key")) {
            roots = new int[] {key};
        } else if (which.equals("value")) {
            roots = new int[] {value};
        } else {
            roots = new int[0];
        }
        Source s = byId(le32(info, BpfMapInfoLayout.BTF_ID));
        return new Source(s.btf(), roots);
    }

    /**
     * {@code dump file PATH}: raw BTF, or an ELF file's .BTF section (btf__parse_split); a module's
     * BTF under /sys/kernel/btf/ is read over vmlinux's.
     */
    public Source byFile(String path) {
        Btf base = baseBtf;
        if (base == null && path.startsWith("/sys/kernel/btf/") && !path.equals(SYSFS_VMLINUX)) {
            base = vmlinux();
        }
        return new Source(parseFile(path, base), new int[0]);
    }

    /** btf__parse_split: raw BTF or an ELF file's .BTF over {@code base}; bpftool's message when it fails. */
    private static Btf parseFile(String path, Btf base) {
        byte[] raw;
        try {
            raw = Files.readAllBytes(Path.of(path));
        } catch (NoSuchFileException e) {
            throw fileError(path, Errno.ENOENT);
        } catch (AccessDeniedException e) {
            throw fileError(path, 13);
        } catch (IOException | RuntimeException e) {
            throw fileError(path, 5);
        }
        try {
            if (raw.length >= 2 && ((raw[0] & 0xff) == 0x9f && (raw[1] & 0xff) == 0xeb
                    || (raw[0] & 0xff) == 0xeb && (raw[1] & 0xff) == 0x9f)) {
                return Btf.parse(raw, base);
            }
            ElfFile elf;
            try {
                elf = ElfFile.of(path, raw);
            } catch (ElfException e) {
                throw fileError(path, LIBBPF_ERRNO_LIBELF);
            }
            ElfSection s = elf.section(".BTF").orElse(null);
            if (s == null) {
                throw fileError(path, Errno.ENOENT);
            }
            return Btf.parse(elf.sectionBytes(s), base);
        } catch (BtfException | ElfException e) {
            throw fileError(path, -EINVAL);
        }
    }

    private static BpftoolException fileError(String path, int errno) {
        return new BpftoolException("failed to load BTF from " + path + ": " + strerror(errno), false, -errno);
    }

    /** glibc's strerror, libbpf's own errnos as glibc names them. */
    private static String strerror(int errno) {
        return errno >= 4000 ? "Unknown error " + errno : Errno.text(errno);
    }

    /** The dump of {@code s}: raw, or C ({@code c}). */
    public void dump(Source s, boolean c) {
        if (c) {
            if (o.json()) {
                throw new BpftoolException("JSON output for C-syntax dump is not supported", false, ENOTSUP);
            }
            StringBuilder out = o.out();
            BtfCDump d = new BtfCDump(s.btf(), out);
            out.append(BtfCDump.preamble());
            try {
                if (s.roots().length > 0) {
                    for (int id : s.roots()) {
                        d.dumpType(id);
                        o.flushSome();
                    }
                } else {
                    for (int id = 1; id <= s.btf().lastId(); id++) {
                        d.dumpType(id);
                        o.flushSome();
                    }
                }
            } catch (BtfException e) {
                throw new BpftoolException(e.getMessage(), false, EINVAL);
            }
            out.append(BtfCDump.epilogue());
            return;
        }
        new BtfRawDump(s.btf(), o.jw(), o.json()).dump(s.roots(), this::flush);
    }

    private void flush() {
        o.flushSome();
    }

    /** p_err of a step that goes on after it: the JSON error object, or the line on stderr. */
    private void pErr(String message) {
        if (o.json()) {
            o.error(message);
        } else {
            err.println("Error: " + message);
        }
    }

    /** btf_is_kernel_module: a kernel BTF object that is not vmlinux's. */
    private boolean isKernelModule(int id) {
        int fd;
        try {
            fd = kernel().bpf.btfGetFdById(id);
        } catch (NativeException e) {
            pErr("can't get BTF object by id (" + Integer.toUnsignedString(id) + "): " + KernelObjects.strerror(e));
            return false;
        }
        try {
            Memory info = new Memory(BpfProgInfoLayout.BTF_INFO_SIZE);
            Memory name = new Memory(64);
            name.clear();
            info.clear();
            info.setLong(BpfProgInfoLayout.BTF_INFO_NAME, Pointer.nativeValue(name));
            info.setInt(BpfProgInfoLayout.BTF_INFO_NAME_LEN, 64);
            kernel().bpf.objGetInfoByFd(fd, info, BpfProgInfoLayout.BTF_INFO_SIZE);
            return info.getInt(BpfProgInfoLayout.BTF_INFO_KERNEL_BTF) != 0
                    && !name.getString(0, StandardCharsets.UTF_8.name()).equals("vmlinux");
        } catch (NativeException e) {
            pErr("can't get BTF (ID " + Integer.toUnsignedString(id) + ") object info: " + KernelObjects.strerror(e));
            return false;
        } finally {
            Fd.close(fd);
        }
    }

    private Btf load(int id, Btf base) {
        try {
            byte[] raw = kernel().btfBytes(id);
            return Btf.parse(raw, base);
        } catch (NativeException e) {
            throw new BpftoolException("get btf by id (" + Integer.toUnsignedString(id) + "): " + KernelObjects.strerror(e),
                    false, -e.errno());
        } catch (BtfException e) {
            throw new BpftoolException("get btf by id (" + Integer.toUnsignedString(id) + "): " + Errno.text(22), false, EINVAL);
        }
    }

    /** get_vmlinux_btf_from_sysfs. */
    private static Btf vmlinux() {
        try {
            return Btf.load(Path.of(SYSFS_VMLINUX));
        } catch (IOException | BtfException e) {
            throw new BpftoolException("failed to parse vmlinux BTF at '" + SYSFS_VMLINUX + "': -2\n");
        }
    }

    private static void closeAll(int[] fds) {
        for (int fd : fds) {
            Fd.close(fd);
        }
    }

    private static int le32(byte[] b, int at) {
        return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8 | (b[at + 2] & 0xff) << 16 | (b[at + 3] & 0xff) << 24;
    }

}
