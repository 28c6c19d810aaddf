package dev.jperf.bpf;

import dev.jperf.loader.BpfObjInfo;
import dev.jperf.format.bpf.BpfTypeNames;

import com.sun.jna.Memory;
import dev.jperf.format.bpf.BpfProgInfo;
import dev.jperf.format.bpf.BpilArray;
import dev.jperf.format.btf.Btf;
import dev.jperf.format.btf.BtfDumper;
import dev.jperf.format.btf.BtfException;
import dev.jperf.format.btf.BtfKind;
import dev.jperf.format.btf.BtfType;
import dev.jperf.format.json.JsonWriter;
import dev.jperf.format.bpf.BpfMapInfoLayout;
import dev.jperf.format.bpf.Uapi;
import dev.jperf.nativeshim.Clocks;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.NativeException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** {@code bpftool prog show|list} (prog.c of bpftool 7.1): the same lines and the same JSON. */
public final class ProgCommands {
    private static final String BPF_METADATA_PREFIX = "bpf_metadata_";
    /** MAX_PROG_FULL_NAME: the longest name bpftool matches. */
    private static final int MAX_PROG_FULL_NAME = 128;
    private static final DateTimeFormatter LOADED_AT = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssxx");

    private final KernelObjects kernel = new KernelObjects();
    private final Output o;

    /** bpftool's {@code -f}: pinned paths shown, from a walk of every bpf file system. */
    private final boolean bpffs;
    /** The pins, once a show or list starts; null without {@code -f}. */
    private PinnedPaths pins;

    public ProgCommands(Output output) {
        this(output, false);
    }

    /** {@code bpffs}: bpftool's {@code -f}, the paths where each object is pinned. */
    public ProgCommands(Output output, boolean bpffs) {
        this.o = output;
        this.bpffs = bpffs;
    }

    private void buildPins() {
        if (bpffs && pins == null) {
            pins = PinnedPaths.build(kernel, "prog");
        }
    }

    /** The object's pins when bpftool shows them (-f and a pin anywhere), else null. */
    private List<String> pinsOf(int id) {
        return pins == null || pins.isEmpty() ? null : pins.paths(id);
    }

    /** {@code bpftool prog list}. */
    public void list() {
        buildPins();
        o.all(new IdWalk(kernel, IdWalk.Kind.PROG, true), (i, fd) -> showFd(fd));
    }

    /** {@code bpftool prog show id ID}. */
    public void show(int id) {
        show(BpfHandle.id(id));
    }

    /** {@code bpftool prog show HANDLE}: several programs (a name or tag) in a JSON array. */
    public void show(BpfHandle h) {
        buildPins();
        o.each(open(kernel, h), "no program matches " + h, (i, fd) -> showFd(fd));
    }

    /** prog_parse_fds: the programs {@code h} names, maybe several (a name, a tag), maybe none. */
    static int[] open(KernelObjects kernel, BpfHandle h) {
        switch (h.kind()) {
            case ID:
                return new int[] {open(kernel, h.id())};
            case PINNED:
                return new int[] {kernel.pinned(h.text(), "prog")};
            case NAME:
                if (h.text().length() > MAX_PROG_FULL_NAME - 1) {
                    throw new BpftoolException("can't parse name");
                }
                return byNameOrTag(kernel, h);
            default:
                return byNameOrTag(kernel, h);
        }
    }

    /** prog_fd_by_nametag: every program whose full name, or tag, is {@code h}'s. */
    private static int[] byNameOrTag(KernelObjects kernel, BpfHandle h) {
        return IdWalk.matching(kernel, IdWalk.Kind.PROG, (walk, fd) -> {
            BpfProgInfo info = BpfProgInfo.fromKernel(walk.info(fd), Map.of());
            return h.kind() == BpfHandle.Kind.TAG ? Arrays.equals(h.tag(), info.tag())
                    : h.text().equals(fullName(kernel, info, fd));
        });
    }

    /** prog_parse_fds for {@code id ID}. */
    static int open(KernelObjects kernel, int id) {
        try {
            return kernel.bpf.progGetFdById(id);
        } catch (NativeException e) {
            throw new BpftoolException("get by id (" + Integer.toUnsignedString(id) + "): " + KernelObjects.strerror(e));
        }
    }

    /** The program's bpf_prog_info without arrays. */
    static BpfProgInfo info(KernelObjects kernel, int fd) {
        try {
            return BpfObjInfo.progInfo(kernel.bpf, fd, 0);
        } catch (NativeException e) {
            throw new BpftoolException("can't get prog info: " + KernelObjects.strerror(e));
        }
    }

    private void showFd(int fd) {
        BpfProgInfo info = info(kernel, fd);
        if (o.json()) {
            showJson(info, fd);
        } else {
            showPlain(info, fd);
        }
    }

    private void showJson(BpfProgInfo info, int fd) {
        JsonWriter jw = o.jw();
        jw.startObject();
        headerJson(kernel, jw, info, fd);
        Device.json(jw, info.ifindex(), info.netnsDev(), info.netnsIno());
        if (info.loadTime() != 0) {
            jw.name("loaded_at");
            jw.raw(Long.toString(loadedAtSeconds(info.loadTime())));
            jw.uintField("uid", Integer.toUnsignedLong(info.createdByUid()));
        }
        jw.uintField("bytes_xlated", Integer.toUnsignedLong(info.xlatedProgLen()));
        if (info.jitedProgLen() != 0) {
            jw.boolField("jited", true);
            jw.uintField("bytes_jited", Integer.toUnsignedLong(info.jitedProgLen()));
        } else {
            jw.boolField("jited", false);
        }
        String memlock = FdInfo.of(fd).get("memlock");
        if (memlock != null) {
            jw.intField("bytes_memlock", FdInfo.atol(memlock));
        }
        if (info.nrMapIds() != 0) {
            int[] ids = mapIds(fd, info.nrMapIds());
            if (ids.length != 0) {
                jw.name("map_ids");
                jw.startArray();
                for (int id : ids) {
                    jw.uint(Integer.toUnsignedLong(id));
                }
                jw.endArray();
            }
        }
        if (info.btfId() != 0) {
            jw.intField("btf_id", Integer.toUnsignedLong(info.btfId()));
        }
        PinnedPaths.json(jw, pinsOf(info.id()));
        metadata(fd, info.nrMapIds());
        jw.endObject();
    }

    /** print_prog_header_json. */
    static void headerJson(KernelObjects kernel, JsonWriter jw, BpfProgInfo info, int fd) {
        jw.uintField("id", Integer.toUnsignedLong(info.id()));
        String type = BpfTypeNames.progType(info.type());
        if (type != null) {
            jw.stringField("type", type);
        } else {
            jw.uintField("type", Integer.toUnsignedLong(info.type()));
        }
        if (!info.name().isEmpty()) {
            jw.stringField("name", fullName(kernel, info, fd));
        }
        jw.name("tag");
        jw.raw("\"" + info.tagHex() + "\"");
        jw.boolField("gpl_compatible", info.gplCompatible());
        if (info.runTimeNs() != 0) {
            jw.uintField("run_time_ns", info.runTimeNs());
            jw.uintField("run_cnt", info.runCnt());
        }
        if (info.recursionMisses() != 0) {
            jw.uintField("recursion_misses", info.recursionMisses());
        }
    }

    /** print_prog_header_plain: the first line. */
    static void headerPlain(KernelObjects kernel, StringBuilder out, BpfProgInfo info, int fd) {
        out.append(Integer.toUnsignedString(info.id())).append(": ");
        String type = BpfTypeNames.progType(info.type());
        out.append(type != null ? type : "type " + Integer.toUnsignedString(info.type())).append("  ");
        if (!info.name().isEmpty()) {
            out.append("name ").append(fullName(kernel, info, fd)).append("  ");
        }
        out.append("tag ").append(info.tagHex());
        Device.plain(out, info.ifindex(), info.netnsDev(), info.netnsIno());
        out.append(info.gplCompatible() ? "  gpl" : "");
        if (info.runTimeNs() != 0) {
            out.append(" run_time_ns ").append(info.runTimeNs()).append(" run_cnt ").append(info.runCnt());
        }
        if (info.recursionMisses() != 0) {
            out.append(" recursion_misses ").append(info.recursionMisses());
        }
        out.append('\n');
    }

    private void showPlain(BpfProgInfo info, int fd) {
        StringBuilder out = o.out();
        headerPlain(kernel, out, info, fd);
        if (info.loadTime() != 0) {
            Instant at = Instant.ofEpochSecond(loadedAtSeconds(info.loadTime()));
            out.append("\tloaded_at ").append(LOADED_AT.format(at.atZone(ZoneId.systemDefault())))
                    .append("  uid ").append(Integer.toUnsignedString(info.createdByUid())).append('\n');
        }
        out.append("\txlated ").append(Integer.toUnsignedString(info.xlatedProgLen())).append('B');
        if (info.jitedProgLen() != 0) {
            out.append("  jited ").append(Integer.toUnsignedString(info.jitedProgLen())).append('B');
        } else {
            out.append("  not jited");
        }
        String memlock = FdInfo.of(fd).get("memlock");
        if (memlock != null) {
            out.append("  memlock ").append(memlock).append('B');
        }
        if (info.nrMapIds() != 0) {
            int[] ids = mapIds(fd, info.nrMapIds());
            if (ids.length != 0) {
                out.append("  map_ids ");
                for (int i = 0; i < ids.length; i++) {
                    out.append(Integer.toUnsignedString(ids[i])).append(i == ids.length - 1 ? "" : ",");
                }
            }
        }
        PinnedPaths.plain(out, pinsOf(info.id()));
        if (info.btfId() != 0) {
            out.append("\n\tbtf_id ").append(info.btfId());
        }
        out.append('\n');
        metadata(fd, info.nrMapIds());
    }

    /**
     * print_boot_time: load_time counts nanoseconds from boot; the wall clock of then, in seconds,
     * computed from CLOCK_REALTIME and CLOCK_BOOTTIME as bpftool computes it.
     */
    static long loadedAtSeconds(long loadTimeNs) {
        long[] real = Clocks.get(Clocks.CLOCK_REALTIME);
        long[] boot = Clocks.get(Clocks.CLOCK_BOOTTIME);
        return (real[0] - boot[0]) + Long.divideUnsigned(real[1] - boot[1] + loadTimeNs, 1_000_000_000L);
    }

    /** show_prog_maps: the ids of the maps the program uses ({@code count} from the first info call). */
    private int[] mapIds(int fd, int count) {
        if (count < 0 || count > 1 << 16) {
            throw new BpftoolException("program claims " + Integer.toUnsignedString(count) + " maps");
        }
        try {
            return BpfObjInfo.progInfo(kernel.bpf, fd, BpilArray.MAP_IDS.mask()).mapIds();
        } catch (NativeException e) {
            return new int[0]; // bpftool prints no map_ids then
        }
    }

    /**
     * get_prog_full_name: a name cut at 15 characters is completed from the BTF name of the
     * program's first function.
     */
    static String fullName(KernelObjects kernel, BpfProgInfo info, int fd) {
        String name = info.name();
        if (name.length() < BpfProgInfo.NAME_LEN - 1 || info.btfId() == 0 || info.nrFuncInfo() == 0) {
            return name;
        }
        try {
            BpfProgInfo f = BpfObjInfo.progInfo(kernel.bpf, fd, BpilArray.FUNC_INFO.mask());
            Btf btf = kernel.btf(f.btfId());
            int typeId = f.funcInfo().isEmpty() ? 0 : f.funcInfo().get(0).typeId();
            if (typeId > 0 && typeId <= btf.lastId() && btf.kind(typeId) == BtfKind.FUNC) {
                return btf.name(typeId);
            }
        } catch (NativeException | BtfException | BpftoolException e) {
            // bpftool keeps the kernel's name when the BTF cannot be had
        }
        return name;
    }

    /** show_prog_metadata: the bpf_metadata_* variables of the program's .rodata map. */
    private void metadata(int progFd, int nrMaps) {
        if (nrMaps == 0) {
            return;
        }
        int[] ids = mapIds(progFd, nrMaps);
        for (int id : ids) {
            int fd;
            try {
                fd = kernel.bpf.mapGetFdById(id);
            } catch (NativeException e) {
                return;
            }
            try {
                BpfMapInfo m = BpfMapInfo.decode(kernel.info(fd, new Memory(BpfMapInfoLayout.SIZE),
                        BpfMapInfoLayout.SIZE, true));
                if (m.type() != Uapi.BPF_MAP_TYPE_ARRAY || m.keySize() != 4 || m.maxEntries() != 1 || m.btfValueTypeId() == 0
                        || !m.name().contains(".rodata")) {
                    continue;
                }
                Memory key = new Memory(4);
                key.clear();
                Memory value = new Memory(Math.max(1, Integer.toUnsignedLong(m.valueSize())));
                if (kernel.bpf.mapLookupElem(fd, key, value) != 0) {
                    return;
                }
                printMetadata(m, value.getByteArray(0, m.valueSize()));
                return;
            } catch (NativeException | BtfException e) {
                return;
            } finally {
                Fd.close(fd);
            }
        }
    }

    private void printMetadata(BpfMapInfo m, byte[] value) {
        Btf btf = kernel.btf(m.btfId());
        if (m.btfValueTypeId() > btf.lastId() || btf.kind(m.btfValueTypeId()) != BtfKind.DATASEC) {
            return;
        }
        BtfType.DataSec sec = (BtfType.DataSec) btf.type(m.btfValueTypeId());
        boolean header = false;
        JsonWriter plain = null;
        BtfDumper dumper = null;
        for (BtfType.VarSecInfo v : sec.vars()) {
            BtfType t = btf.type(v.type());
            String name = t.name();
            if (!name.startsWith(BPF_METADATA_PREFIX) || !(t instanceof BtfType.Var var)) {
                continue;
            }
            if (o.json()) {
                if (!header) {
                    o.jw().name("metadata");
                    o.jw().startObject();
                    header = true;
                    dumper = new BtfDumper(btf, o.jw(), false);
                }
                o.jw().name(name.substring(BPF_METADATA_PREFIX.length()));
                if (dumper.dump(var.type(), value, v.offset()) != 0) {
                    break;
                }
            } else {
                if (!header) {
                    o.out().append("\tmetadata:");
                    plain = new JsonWriter(o.out());
                    dumper = new BtfDumper(btf, plain, true);
                    header = true;
                }
                o.out().append("\n\t\t").append(name.substring(BPF_METADATA_PREFIX.length())).append(" = ");
                plain.reset();
                if (dumper.dump(var.type(), value, v.offset()) != 0) {
                    break;
                }
            }
        }
        if (header) {
            if (o.json()) {
                o.jw().endObject();
            } else {
                plain.finish();
            }
        }
    }
}
