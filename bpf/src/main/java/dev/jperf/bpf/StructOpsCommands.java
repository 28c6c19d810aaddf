package dev.jperf.bpf;

import dev.jperf.loader.BpfObjInfo;
import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.jperf.format.bpf.BpfProgInfo;
import dev.jperf.format.btf.Btf;
import dev.jperf.format.btf.BtfDumper;
import dev.jperf.format.btf.BtfException;
import dev.jperf.format.btf.BtfKind;
import dev.jperf.format.btf.BtfType;
import dev.jperf.format.json.JsonWriter;
import dev.jperf.loader.BpfMap;
import dev.jperf.loader.BpfObject;
import dev.jperf.loader.BpfObjectException;
import dev.jperf.loader.BpfProgram;
import dev.jperf.loader.LoadOptions;
import dev.jperf.format.bpf.BpfMapInfoLayout;
import dev.jperf.format.bpf.BpfProgInfoLayout;
import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.NativeException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * {@code bpftool struct_ops show|list|dump|unregister} (struct_ops.c of bpftool 7.1): the kernel's
 * struct_ops maps, their kernel struct named through vmlinux's BTF, dumped typed through it (each
 * function pointer as its signature and the program it holds). {@code register} answers as
 * bpftool's for its words and objects without struct_ops; one with them needs a loader that loads
 * {@code .struct_ops} maps, which jperf's does not: it is refused in one line.
 */
public final class StructOpsCommands {
    private static final String VALUE_PREFIX = "bpf_struct_ops_";
    private static final int BPF_MAP_TYPE_STRUCT_OPS = 26;

    private final KernelObjects kernel = new KernelObjects();
    private final Output o;
    private final PrintStream err;
    private Btf vmlinux;
    private int mapInfoTypeId;
    private int mapInfoLen;
    private int errors;
    private int maps;

    public StructOpsCommands(Output o, PrintStream err) {
        this.o = o;
        this.err = err;
    }

    /** One struct_ops map found: what the subcommand does with it; false on a failure it reported. */
    private interface Work {
        boolean on(int fd, byte[] info, JsonWriter wtr);
    }

    /** {@code show|list [id ID | name NAME]}. */
    public void show(List<String> args) {
        if (!args.isEmpty() && args.size() != 2) {
            throw BpftoolException.usage();
        }
        work(args, this::showOne, o.json() ? o.jw() : null);
        retval(args.size() == 2);
    }

    /** {@code dump [id ID | name NAME]}: pretty JSON in both modes, values as plain text without {@code -j}. */
    public void dump(List<String> args) {
        if (!args.isEmpty() && args.size() != 2) {
            throw BpftoolException.usage();
        }
        btf();
        JsonWriter wtr = o.json() ? o.jw() : new JsonWriter(o.out()).pretty(true);
        boolean plain = !o.json();
        try {
            work(args, (fd, info, w) -> dumpOne(fd, info, w, plain), wtr);
        } finally {
            if (!o.json()) {
                wtr.finish();
            }
        }
        retval(args.size() == 2);
    }

    /** {@code unregister id ID | name NAME}. */
    public void unregister(List<String> args) {
        if (args.size() != 2) {
            throw BpftoolException.usage();
        }
        work(args, this::unregisterOne, null);
        retval(true);
    }

    /**
     * {@code register OBJ} as do_register: one argument, the object opened and loaded (libbpf's
     * line and -1 when it is not), then its struct_ops maps registered; none is bpftool's
     * {@code no struct_ops found in OBJ}. An object with struct_ops maps is refused: jperf's loader
     * does not load them.
     */
    public void register(List<String> args) {
        if (args.size() != 1) {
            throw BpftoolException.usage();
        }
        String file = args.get(0);
        BpfObject obj;
        try {
            obj = BpfObject.open(Path.of(file));
        } catch (BpfObjectException | RuntimeException e) {
            err.println("libbpf: " + e.getMessage());
            throw BpftoolException.quiet("failed to open " + file);
        }
        try (obj) {
            // the loader keeps no .struct_ops map: its programs (struct_ops/ sections) say there is one
            for (BpfMap m : obj.maps()) {
                if (m.type() == BPF_MAP_TYPE_STRUCT_OPS) {
                    throw new BpftoolException("'struct_ops register' is not supported by jperf: its loader does not load"
                            + " .struct_ops maps (" + m.name() + ")");
                }
            }
            for (BpfProgram p : obj.programs()) {
                if (p.sectionName().startsWith("struct_ops")) {
                    throw new BpftoolException("'struct_ops register' is not supported by jperf: its loader does not load"
                            + " .struct_ops maps (program " + p.name() + ")");
                }
            }
            try {
                obj.load(LoadOptions.DEFAULT);
            } catch (BpfObjectException e) {
                err.println("libbpf: " + e.getMessage());
                throw BpftoolException.quiet("failed to load " + file);
            }
            for (BpfProgram p : obj.programs()) {
                if (p.autoload() && p.fd() < 0) {
                    err.println("libbpf: prog '" + p.name() + "': failed to load: " + p.error());
                    throw BpftoolException.quiet("failed to load " + file);
                }
            }
        }
        throw new BpftoolException("no struct_ops found in " + file);
    }

    /** cmd_retval. */
    private void retval(boolean mustHaveOne) {
        if (errors > 0 || maps == 0 && mustHaveOne) {
            throw BpftoolException.quiet("struct_ops failed");
        }
    }

    /** do_work_on_struct_ops. */
    private void work(List<String> args, Work work, JsonWriter wtr) {
        if (args.isEmpty()) {
            search(null, work, wtr);
        } else if ("id".startsWith(args.get(0))) {
            oneId(args.get(1), work, wtr);
        } else if ("name".startsWith(args.get(0))) {
            search(args.get(1), work, wtr);
        } else {
            throw BpftoolException.usage();
        }
    }

    /** A p_err that the command goes on after. */
    private void report(String message) {
        if (o.json()) {
            o.error(message);
        } else {
            err.println("Error: " + message);
        }
    }

    /** get_btf_vmlinux: null after saying so when the kernel has no BTF. */
    private Btf btf() {
        if (vmlinux == null) {
            try {
                vmlinux = Btf.load(Path.of("/sys/kernel/btf/vmlinux"));
            } catch (IOException | BtfException e) {
                report("struct_ops requires kernel CONFIG_DEBUG_INFO_BTF=y");
                return null;
            }
        }
        return vmlinux;
    }

    /** map_info_alloc: the length of the running kernel's struct bpf_map_info; 0 after a failure said. */
    private int infoLen() {
        if (mapInfoTypeId == 0) {
            Btf btf = btf();
            if (btf == null) {
                return 0;
            }
            int id = btf.findByName("bpf_map_info", BtfKind.STRUCT);
            if (id <= 0) {
                report("can't find bpf_map_info from btf_vmlinux");
                return 0;
            }
            mapInfoTypeId = id;
            mapInfoLen = Math.max(((BtfType.Composite) btf.type(id)).size(), BpfMapInfoLayout.SIZE);
        }
        return mapInfoLen;
    }

    private byte[] info(int fd, int len) {
        return kernel.info(fd, new Memory(len), len, true);
    }

    /** do_search: every struct_ops map (named {@code name}, if given). */
    private void search(String name, Work work, JsonWriter wtr) {
        int len = infoLen();
        if (len == 0) {
            errors++;
            return;
        }
        if (wtr != null) {
            wtr.startArray();
        }
        boolean failed = false;
        int id = 0;
        try {
            while (true) {
                try {
                    id = kernel.bpf.mapGetNextId(id);
                } catch (NativeException e) {
                    report("can't get next map: " + KernelObjects.strerror(e));
                    failed = true;
                    break;
                }
                if (id == 0) {
                    break;
                }
                int fd = kernel.bpf.mapGetFdByIdOrErrno(id);
                if (fd == -Errno.ENOENT) {
                    continue;
                }
                if (fd < 0) {
                    report("can't get map by id (" + Integer.toUnsignedString(id) + "): " + Errno.text(-fd));
                    failed = true;
                    break;
                }
                try {
                    byte[] info;
                    try {
                        info = info(fd, len);
                    } catch (NativeException e) {
                        report("can't get map info: " + KernelObjects.strerror(e));
                        failed = true;
                        break;
                    }
                    BpfMapInfo m = BpfMapInfo.decode(info);
                    if (m.type() == BPF_MAP_TYPE_STRUCT_OPS && (name == null || name.equals(m.name()))) {
                        maps++;
                        if (!work.on(fd, info, wtr)) {
                            errors++;
                        }
                    }
                } finally {
                    Fd.close(fd);
                }
            }
        } finally {
            if (wtr != null) {
                wtr.endArray();
            }
        }
        if (failed) {
            errors++;
        }
        if (wtr == null && name != null && errors == 0 && maps == 0) {
            report("no struct_ops found for " + name);
        } else if (wtr == null && o.json() && errors == 0) {
            o.jw().nul();
        }
    }

    /** do_one_id. */
    private void oneId(String text, Work work, JsonWriter wtr) {
        Long id = MapElemCommands.strtoul(text, 0);
        if (id == null || id == 0 || id > 0xffffffffL) {
            report("invalid id " + text);
            errors++;
            return;
        }
        int fd = kernel.bpf.mapGetFdByIdOrErrno((int) (long) id);
        if (fd < 0) {
            report("can't get map by id (" + id + "): " + Errno.text(-fd));
            errors++;
            return;
        }
        try {
            int len = infoLen();
            if (len == 0) {
                errors++;
                return;
            }
            byte[] info;
            try {
                info = info(fd, len);
            } catch (NativeException e) {
                report("can't get map info: " + KernelObjects.strerror(e));
                errors++;
                return;
            }
            BpfMapInfo m = BpfMapInfo.decode(info);
            if (m.type() != BPF_MAP_TYPE_STRUCT_OPS) {
                report(m.name() + " id " + Integer.toUnsignedString(m.id()) + " is not a struct_ops map");
                errors++;
                return;
            }
            maps++;
            if (!work.on(fd, info, wtr)) {
                errors++;
            } else if (wtr == null && o.json()) {
                o.jw().nul();
            }
        } finally {
            Fd.close(fd);
        }
    }

    /** get_kern_struct_ops_name: the kernel struct the map implements. */
    private String kernName(BpfMapInfo m) {
        Btf btf = btf();
        if (btf == null) {
            return "<btf_vmlinux_not_found>";
        }
        String n = btf.name(m.btfVmlinuxValueTypeId());
        return n.length() >= VALUE_PREFIX.length() ? n.substring(VALUE_PREFIX.length()) : "";
    }

    private boolean showOne(int fd, byte[] raw, JsonWriter wtr) {
        BpfMapInfo m = BpfMapInfo.decode(raw);
        if (wtr != null) {
            wtr.startObject();
            wtr.uintField("id", Integer.toUnsignedLong(m.id()));
            wtr.stringField("name", m.name());
            wtr.stringField("kernel_struct_ops", kernName(m));
            wtr.endObject();
        } else {
            o.out().append(String.format("%s: %-15s %-32s%n", Integer.toUnsignedString(m.id()), m.name(), kernName(m)));
        }
        return true;
    }

    private boolean dumpOne(int fd, byte[] raw, JsonWriter wtr, boolean plain) {
        BpfMapInfo m = BpfMapInfo.decode(raw);
        Memory key = new Memory(4);
        key.clear();
        Memory value = new Memory(Math.max(1, m.valueSize()));
        value.clear();
        if (kernel.bpf.mapLookupElem(fd, key, value) != 0) {
            report("can't lookup struct_ops map " + m.name() + " id " + Integer.toUnsignedString(m.id()));
            return false;
        }
        BtfDumper d = new BtfDumper(vmlinux, wtr, plain).funcPointers(this::progAsFuncPtr);
        wtr.startObject();
        wtr.name("bpf_map_info");
        d.dump(mapInfoTypeId, raw, 0);
        wtr.endObject();
        wtr.startObject();
        wtr.name(vmlinux.name(m.btfVmlinuxValueTypeId()));
        d.dump(m.btfVmlinuxValueTypeId(), value.getByteArray(0, m.valueSize()), 0);
        wtr.endObject();
        o.flushSome();
        return true;
    }

    /** dump_prog_id_as_func_ptr: the pointer's signature, then the program's BTF name and id. */
    private String progAsFuncPtr(int protoId, long progId) {
        String sig = BtfTypeOnly.of(vmlinux, protoId);
        if (sig.isEmpty()) {
            return null;
        }
        if (progId == 0) {
            return sig + " 0";
        }
        String name = progBtfName((int) progId);
        return sig + " " + (name != null ? name : "<unknown_prog_name>") + "/prog_id:" + progId;
    }

    /** The BTF name of a program's first function, null when it cannot be had. */
    private String progBtfName(int id) {
        int fd = kernel.bpf.progGetFdByIdOrErrno(id);
        if (fd < 0) {
            return null;
        }
        try {
            BpfProgInfo info = BpfObjInfo.progInfo(kernel.bpf, fd, 0);
            if (info.btfId() == 0 || info.nrFuncInfo() == 0) {
                return null;
            }
            Memory finfo = new Memory(8);
            finfo.clear();
            Memory q = new Memory(BpfProgInfoLayout.SIZE);
            q.clear();
            q.setInt(BpfProgInfoLayout.NR_FUNC_INFO, 1);
            q.setInt(BpfProgInfoLayout.FUNC_INFO_REC_SIZE, info.funcInfoRecSize());
            q.setLong(BpfProgInfoLayout.FUNC_INFO, Pointer.nativeValue(finfo));
            kernel.bpf.objGetInfoByFd(fd, q, BpfProgInfoLayout.SIZE);
            Btf btf = kernel.btf(info.btfId());
            int typeId = finfo.getInt(4);
            return typeId > 0 && typeId <= btf.lastId() && btf.kind(typeId) == BtfKind.FUNC ? btf.name(typeId) : null;
        } catch (NativeException | BtfException | BpftoolException e) {
            return null;
        } finally {
            Fd.close(fd);
        }
    }

    private boolean unregisterOne(int fd, byte[] raw, JsonWriter wtr) {
        BpfMapInfo m = BpfMapInfo.decode(raw);
        Memory key = new Memory(4);
        key.clear();
        int e = -kernel.bpf.mapDeleteElem(fd, key);
        if (e != 0) {
            report("can't unload " + kernName(m) + " " + m.name() + " id " + Integer.toUnsignedString(m.id()) + ": "
                    + Errno.text(e));
            return false;
        }
        if (!o.json()) {
            err.println("Unregistered " + kernName(m) + " " + m.name() + " id " + Integer.toUnsignedString(m.id()));
        }
        return true;
    }
}
