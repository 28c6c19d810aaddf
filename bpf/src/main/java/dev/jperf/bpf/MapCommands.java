package dev.jperf.bpf;

import dev.jperf.format.bpf.BpfTypeNames;

import com.sun.jna.Memory;
import dev.jperf.format.bpf.Uapi;
import dev.jperf.format.btf.Btf;
import dev.jperf.format.btf.BtfDumper;
import dev.jperf.format.btf.BtfException;
import dev.jperf.format.json.JsonWriter;
import dev.jperf.format.bpf.BpfMapInfoLayout;
import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.NativeException;
import java.util.List;

/**
 * {@code bpftool map show|list|dump} (map.c of bpftool 7.1): the same lines, the same JSON, the
 * same order of syscalls where it shows in the output. Output accumulates in {@link Output}.
 */
public final class MapCommands {
    /** A map value larger than this is refused rather than allocated. */
    private static final long MAX_VALUE_BYTES = 256L << 20;

    private final KernelObjects kernel = new KernelObjects();
    private final Output o;

    /** bpftool's {@code -f}: pinned paths shown, from a walk of every bpf file system. */
    private final boolean bpffs;
    /** The pins, once a show or list starts; null without {@code -f}. */
    private PinnedPaths pins;

    public MapCommands(Output output) {
        this(output, false);
    }

    /** {@code bpffs}: bpftool's {@code -f}, the paths where each object is pinned. */
    public MapCommands(Output output, boolean bpffs) {
        this.o = output;
        this.bpffs = bpffs;
    }

    private void buildPins() {
        if (bpffs && pins == null) {
            pins = PinnedPaths.build(kernel, "map");
        }
    }

    /** The object's pins when bpftool shows them (-f and a pin anywhere), else null. */
    private List<String> pinsOf(int id) {
        return pins == null || pins.isEmpty() ? null : pins.paths(id);
    }

    /** {@code bpftool map list}. */
    public void list() {
        buildPins();
        // one bpf_map_info for the whole walk, never cleared, as bpftool's do_show: this kernel writes
        // only the fields a map has, so a map shows what the previous one left (bpftool's output)
        Memory info = new Memory(BpfMapInfoLayout.SIZE);
        info.clear();
        o.all(new IdWalk(kernel, IdWalk.Kind.MAP, true), (i, fd) -> show(fd, infoOf(fd, info, false)));
    }

    /** {@code bpftool map show id ID}. */
    public void show(int id) {
        show(BpfHandle.id(id));
    }

    /** {@code bpftool map show HANDLE}: several maps (a name) in a JSON array. */
    public void show(BpfHandle h) {
        buildPins();
        int[] fds = open(h);
        // one bpf_map_info for all, as do_show_subset
        Memory info = new Memory(BpfMapInfoLayout.SIZE);
        info.clear();
        o.each(fds, "no map matches " + h, (i, fd) -> show(fd, infoOf(fd, info, false)));
    }

    /** map_parse_fds: the maps {@code h} names, maybe several (a name), maybe none. */
    int[] open(BpfHandle h) {
        switch (h.kind()) {
            case ID:
                return new int[] {open(h.id())};
            case PINNED:
                return new int[] {kernel.pinned(h.text(), "map")};
            case NAME:
                if (h.text().length() > BpfMapInfoLayout.BPF_OBJ_NAME_LEN - 1) {
                    throw new BpftoolException("can't parse name");
                }
                return byName(h.text());
            default:
                throw new BpftoolException("expected 'id', 'name' or 'pinned', got: '" + h.kind().name().toLowerCase()
                        + "'?");
        }
    }

    /** map_fd_by_name. */
    private int[] byName(String name) {
        return IdWalk.matching(kernel, IdWalk.Kind.MAP, (walk, fd) -> BpfMapInfo.decode(walk.info(fd)).name().equals(name));
    }

    /** map_parse_fds for {@code id ID}. */
    private int open(int id) {
        try {
            return kernel.bpf.mapGetFdById(id);
        } catch (NativeException e) {
            throw new BpftoolException("get map by id (" + Integer.toUnsignedString(id) + "): " + KernelObjects.strerror(e));
        }
    }

    private BpfMapInfo infoOf(int fd, Memory info, boolean clear) {
        try {
            return BpfMapInfo.decode(kernel.info(fd, info, BpfMapInfoLayout.SIZE, clear));
        } catch (NativeException e) {
            throw new BpftoolException("can't get map info: " + KernelObjects.strerror(e));
        }
    }

    private void show(int fd, BpfMapInfo info) {
        FdInfo fdinfo = FdInfo.of(fd);
        if (o.json()) {
            showJson(info, fdinfo);
        } else {
            showPlain(info, fdinfo);
        }
    }

    private static void headerJson(JsonWriter jw, BpfMapInfo info) {
        jw.uintField("id", Integer.toUnsignedLong(info.id()));
        String type = BpfTypeNames.mapType(info.type());
        if (type != null) {
            jw.stringField("type", type);
        } else {
            jw.uintField("type", Integer.toUnsignedLong(info.type()));
        }
        if (!info.name().isEmpty()) {
            jw.stringField("name", info.name());
        }
        jw.name("flags");
        jw.raw(Integer.toString(info.mapFlags()));
    }

    private void showJson(BpfMapInfo info, FdInfo fdinfo) {
        JsonWriter jw = o.jw();
        String memlock = fdinfo.get("memlock");
        String frozen = fdinfo.get("frozen");
        jw.startObject();
        headerJson(jw, info);
        Device.json(jw, info.ifindex(), info.netnsDev(), info.netnsIno());
        jw.uintField("bytes_key", Integer.toUnsignedLong(info.keySize()));
        jw.uintField("bytes_value", Integer.toUnsignedLong(info.valueSize()));
        jw.uintField("max_entries", Integer.toUnsignedLong(info.maxEntries()));
        if (memlock != null) {
            jw.intField("bytes_memlock", FdInfo.atol(memlock));
        }
        if (info.type() == Uapi.BPF_MAP_TYPE_PROG_ARRAY) {
            String ownerType = fdinfo.get("owner_prog_type");
            String ownerJited = fdinfo.get("owner_jited");
            if (ownerType != null) {
                int t = (int) FdInfo.atol(ownerType);
                String name = BpfTypeNames.progType(t);
                if (name != null) {
                    jw.stringField("owner_prog_type", name);
                } else {
                    jw.uintField("owner_prog_type", Integer.toUnsignedLong(t));
                }
            }
            if (ownerJited != null) {
                jw.boolField("owner_jited", FdInfo.atol(ownerJited) != 0);
            }
        }
        jw.intField("frozen", frozen == null ? 0 : (int) FdInfo.atol(frozen));
        if (info.btfId() != 0) {
            jw.intField("btf_id", Integer.toUnsignedLong(info.btfId()));
        }
        PinnedPaths.json(jw, pinsOf(info.id()));
        jw.endObject();
    }

    private void headerPlain(BpfMapInfo info) {
        StringBuilder out = o.out();
        out.append(Integer.toUnsignedString(info.id())).append(": ");
        String type = BpfTypeNames.mapType(info.type());
        out.append(type != null ? type : "type " + Integer.toUnsignedString(info.type())).append("  ");
        if (!info.name().isEmpty()) {
            out.append("name ").append(info.name()).append("  ");
        }
        out.append("flags 0x").append(Integer.toHexString(info.mapFlags()));
        Device.plain(out, info.ifindex(), info.netnsDev(), info.netnsIno());
        out.append('\n');
    }

    private void showPlain(BpfMapInfo info, FdInfo fdinfo) {
        StringBuilder out = o.out();
        String memlock = fdinfo.get("memlock");
        String frozenText = fdinfo.get("frozen");
        headerPlain(info);
        out.append("\tkey ").append(Integer.toUnsignedString(info.keySize())).append("B  value ")
                .append(Integer.toUnsignedString(info.valueSize())).append("B  max_entries ")
                .append(Integer.toUnsignedString(info.maxEntries()));
        if (memlock != null) {
            out.append("  memlock ").append(memlock).append('B');
        }
        if (info.type() == Uapi.BPF_MAP_TYPE_PROG_ARRAY) {
            String ownerType = fdinfo.get("owner_prog_type");
            String ownerJited = fdinfo.get("owner_jited");
            if (ownerType != null || ownerJited != null) {
                out.append("\n\t");
            }
            if (ownerType != null) {
                int t = (int) FdInfo.atol(ownerType);
                String name = BpfTypeNames.progType(t);
                out.append("owner_prog_type ").append(name != null ? name : Integer.toString(t)).append("  ");
            }
            if (ownerJited != null) {
                out.append("owner").append(FdInfo.atol(ownerJited) != 0 ? "" : " not").append(" jited");
            }
        }
        PinnedPaths.plain(out, pinsOf(info.id()));
        int frozen = frozenText == null ? 0 : (int) FdInfo.atol(frozenText);
        if (info.btfId() != 0 || frozen != 0) {
            out.append("\n\t");
        }
        if (info.btfId() != 0) {
            out.append("btf_id ").append(info.btfId());
        }
        if (frozen != 0) {
            out.append(info.btfId() != 0 ? "  " : "").append("frozen");
        }
        out.append('\n');
    }

    /** {@code bpftool map dump id ID}. */
    public void dump(int id) {
        dump(BpfHandle.id(id));
    }

    /**
     * {@code bpftool map dump HANDLE}. Plain output of maps that all have BTF is bpftool's pretty
     * JSON of the typed entries; otherwise hex lines and "Found N elements". Several maps (a name)
     * each come with their header. When a map's keys cannot be walked (ring buffers: ENOTSUPP),
     * what bpftool prints, then a {@link BpftoolException}.
     */
    public void dump(BpfHandle h) {
        int[] fds = open(h);
        boolean several = fds.length > 1;
        JsonWriter wtr = null;
        boolean plainBtf = false;
        try {
            if (fds.length == 0) {
                throw new BpftoolException("no map matches " + h, true); // bpftool prints nothing
            }
            if (o.json()) {
                wtr = o.jw();
            } else if (allHaveBtf(fds)) {
                wtr = new JsonWriter(o.out()).pretty(true); // bpftool's get_btf_writer
                plainBtf = true;
            }
            if (wtr != null && several) {
                wtr.startArray();
            }
            // one bpf_map_info for all, as do_dump
            Memory infoMem = new Memory(BpfMapInfoLayout.SIZE);
            infoMem.clear();
            for (int i = 0; i < fds.length; i++) {
                BpfMapInfo info = infoOf(fds[i], infoMem, false);
                int err = dump(fds[i], info, wtr, several);
                if (wtr == null && i != fds.length - 1) {
                    o.out().append('\n');
                }
                if (err != 0) {
                    // bpftool prints nothing more and exits non-zero; jperf says why on stderr
                    throw new BpftoolException("can't walk the keys of map " + Integer.toUnsignedString(info.id())
                            + ": " + Errno.text(err), true);
                }
            }
        } finally {
            if (wtr != null && several) {
                wtr.endArray();
            }
            if (plainBtf) {
                wtr.finish();
            }
            for (int fd : fds) {
                Fd.close(fd);
            }
        }
    }

    /** maps_have_btf. */
    private boolean allHaveBtf(int[] fds) {
        Memory info = new Memory(BpfMapInfoLayout.SIZE);
        info.clear();
        for (int fd : fds) {
            if (infoOf(fd, info, false).btfId() == 0) {
                return false;
            }
        }
        return true;
    }

    /** map_dump: every element; 0, or the errno that ended the walk of the keys. */
    private int dump(int fd, BpfMapInfo info, JsonWriter wtr, boolean showHeader) {
        boolean perCpu = BpfTypeNames.isPerCpu(info.type());
        int cpus = perCpu ? PossibleCpus.count() : 1;
        long step = (Integer.toUnsignedLong(info.valueSize()) + 7) & ~7L;
        long valueBytes = perCpu ? step * cpus : Integer.toUnsignedLong(info.valueSize());
        long keyBytes = Integer.toUnsignedLong(info.keySize());
        if (valueBytes > MAX_VALUE_BYTES || keyBytes > MAX_VALUE_BYTES) {
            throw new BpftoolException("map " + Integer.toUnsignedString(info.id()) + ": key of " + keyBytes
                    + " bytes, value of " + valueBytes + " bytes: too large to dump");
        }
        Memory key = new Memory(Math.max(1, keyBytes));
        Memory value = new Memory(Math.max(1, valueBytes));
        Btf btf = null;
        if (wtr != null) {
            btf = keyValueBtf(info);
            if (showHeader) {
                wtr.startObject();
                headerJson(wtr, info);
                wtr.name("elements");
            }
            wtr.startArray();
        } else if (showHeader) {
            headerPlain(info);
        }
        int count = 0;
        int err = 0;
        boolean first = true;
        while (true) {
            int e = -kernel.bpf.mapGetNextKey(fd, first ? null : key, key);
            if (e != 0) {
                err = e == Errno.ENOENT ? 0 : e;
                break;
            }
            first = false;
            o.flushSome();
            if (element(fd, info, key, value, (int) keyBytes, (int) valueBytes, cpus, (int) step, btf, wtr)) {
                count++;
            }
        }
        if (wtr != null) {
            wtr.endArray();
            if (showHeader) {
                wtr.endObject();
            }
        } else {
            o.out().append("Found ").append(count).append(" element").append(count != 1 ? "s" : "").append('\n');
        }
        return err;
    }

    /** get_map_kv_btf: the kernel's BTF for struct_ops values, the map's BTF when it has a value type, else none. */
    private Btf keyValueBtf(BpfMapInfo info) {
        if (info.btfVmlinuxValueTypeId() != 0) {
            return KernelObjects.vmlinuxBtf();
        }
        if (info.btfValueTypeId() == 0) {
            return null;
        }
        try {
            return kernel.btf(info.btfId());
        } catch (NativeException | BtfException e) {
            throw new BpftoolException("failed to get btf: " + e.getMessage());
        }
    }

    /** do_lookup once the key is parsed: the element, or bpftool's "Not found". */
    void lookup(int fd, BpfMapInfo info, byte[] key) {
        element(fd, info, key, false);
    }

    /** do_pop_dequeue: the element taken out of a queue or stack, or bpftool's "empty map". */
    void pop(int fd, BpfMapInfo info) {
        element(fd, info, new byte[info.keySize()], true);
    }

    /**
     * The element of {@code key} looked up (or taken out, {@code pop}) and printed as
     * print_key_value prints it. A map without keys (queue, stack) is given no key pointer, as
     * bpftool gives NULL: the kernel refuses a key there.
     */
    private void element(int fd, BpfMapInfo info, byte[] key, boolean pop) {
        boolean perCpu = BpfTypeNames.isPerCpu(info.type());
        int cpus = perCpu ? PossibleCpus.count() : 1;
        long step = (Integer.toUnsignedLong(info.valueSize()) + 7) & ~7L;
        long valueBytes = perCpu ? step * cpus : Integer.toUnsignedLong(info.valueSize());
        if (valueBytes > MAX_VALUE_BYTES) {
            throw new BpftoolException("map " + Integer.toUnsignedString(info.id()) + ": value of " + valueBytes
                    + " bytes: too large to look up");
        }
        Memory keyMem = null;
        if (key.length != 0) {
            keyMem = new Memory(key.length);
            keyMem.write(0, key, 0, key.length);
        }
        Memory valueMem = new Memory(Math.max(1, valueBytes));
        int e = -(pop ? kernel.bpf.mapLookupAndDeleteElem(fd, keyMem, valueMem) : kernel.bpf.mapLookupElem(fd, keyMem, valueMem));
        if (e == Errno.ENOENT) {
            // the command returns -ENOENT: bpftool exits 254, its message on stdout
            o.exitCode(-Errno.ENOENT & 0xff);
            if (o.json()) {
                o.jw().nul();
            } else if (pop) {
                o.out().append("Error: empty map\n");
            } else {
                o.out().append("key:\n");
                Hex.plain(o.out(), key, 0, key.length, " ");
                o.out().append("\n\nNot found\n");
            }
            return;
        }
        if (e != 0) {
            throw new BpftoolException((pop ? "pop failed: " : "lookup failed: ") + Errno.text(e), false, -e & 0xff);
        }
        byte[] value = valueMem.getByteArray(0, (int) valueBytes);
        Btf btf = keyValueBtf(info);
        if (o.json()) {
            entryJson(info, key, value, cpus, (int) step, btf);
        } else if (btf != null) {
            JsonWriter wtr = new JsonWriter(o.out()).pretty(true); // bpftool's get_btf_writer
            typed(new BtfDumper(btf, wtr, true), wtr, info, key, value, cpus, (int) step);
            wtr.finish();
        } else {
            entryPlain(info, key, value, cpus, (int) step);
        }
    }

    /** dump_map_elem: true when the element was printed (looked up). */
    private boolean element(int fd, BpfMapInfo info, Memory keyMem, Memory valueMem, int keySize, int valueBytes,
            int cpus, int step, Btf btf, JsonWriter wtr) {
        int e = -kernel.bpf.mapLookupElem(fd, keyMem, valueMem);
        byte[] key = keyMem.getByteArray(0, keySize);
        if (e != 0) {
            entryError(info, key, e);
            return false;
        }
        byte[] value = valueMem.getByteArray(0, valueBytes);
        if (o.json()) {
            entryJson(info, key, value, cpus, step, btf);
        } else if (btf != null) {
            typed(new BtfDumper(btf, wtr, true), wtr, info, key, value, cpus, step);
        } else {
            entryPlain(info, key, value, cpus, step);
        }
        return true;
    }

    /** do_dump_btf: {"key": typed, "value": typed} or, per-CPU, "values": [{"cpu", "value"}]. */
    private static void typed(BtfDumper d, JsonWriter jw, BpfMapInfo info, byte[] key, byte[] value, int cpus,
            int step) {
        jw.startObject();
        int ret = 0;
        if (info.btfKeyTypeId() != 0) {
            jw.name("key");
            ret = d.dump(info.btfKeyTypeId(), key, 0);
        }
        if (ret == 0) {
            int valueId = info.btfVmlinuxValueTypeId() != 0 ? info.btfVmlinuxValueTypeId() : info.btfValueTypeId();
            if (!BpfTypeNames.isPerCpu(info.type())) {
                jw.name("value");
                d.dump(valueId, value, 0);
            } else {
                jw.name("values");
                jw.startArray();
                for (int i = 0; i < cpus; i++) {
                    jw.startObject();
                    jw.intField("cpu", i);
                    jw.name("value");
                    ret = d.dump(valueId, value, i * step);
                    jw.endObject();
                    if (ret != 0) {
                        break;
                    }
                }
                jw.endArray();
            }
        }
        jw.endObject();
    }

    /** print_entry_json. */
    private void entryJson(BpfMapInfo info, byte[] key, byte[] value, int cpus, int step, Btf btf) {
        JsonWriter jw = o.jw();
        jw.startObject();
        jw.name("key");
        Hex.json(jw, key, 0, key.length);
        if (!BpfTypeNames.isPerCpu(info.type())) {
            jw.name("value");
            Hex.json(jw, value, 0, info.valueSize());
        } else {
            jw.name("values");
            jw.startArray();
            for (int i = 0; i < cpus; i++) {
                jw.startObject();
                jw.intField("cpu", i);
                jw.name("value");
                Hex.json(jw, value, i * step, info.valueSize());
                jw.endObject();
            }
            jw.endArray();
        }
        if (btf != null) {
            jw.name("formatted");
            typed(new BtfDumper(btf, jw, false), jw, info, key, value, cpus, step);
        }
        jw.endObject();
    }

    /** print_entry_error: the lookup failed (no error for an empty slot of a prog or map array). */
    private void entryError(BpfMapInfo info, byte[] key, int errno) {
        int t = info.type();
        boolean fdArray = t == Uapi.BPF_MAP_TYPE_ARRAY_OF_MAPS || t == Uapi.BPF_MAP_TYPE_HASH_OF_MAPS
                || t == Uapi.BPF_MAP_TYPE_PROG_ARRAY;
        if (fdArray && errno == Errno.ENOENT) {
            return;
        }
        if (o.json()) {
            JsonWriter jw = o.jw();
            jw.startObject();
            jw.name("key");
            Hex.json(jw, key, 0, key.length);
            jw.name("value");
            jw.startObject();
            jw.stringField("error", Errno.text(errno));
            jw.endObject();
            jw.endObject();
            return;
        }
        String msg;
        if (errno == Errno.ENOENT) {
            msg = "<no entry>";
        } else if (errno == Errno.ENOSPC && t == Uapi.BPF_MAP_TYPE_REUSEPORT_SOCKARRAY) {
            msg = "<cannot read>";
        } else {
            msg = Errno.text(errno);
        }
        StringBuilder out = o.out();
        boolean breakNames = key.length > 16 || msg.length() > 16;
        boolean singleLine = key.length + msg.length() <= 24 && !breakNames;
        out.append("key:").append(breakNames ? '\n' : ' ');
        Hex.plain(out, key, 0, key.length, " ");
        out.append(singleLine ? "  " : "\n");
        out.append("value:").append(breakNames ? '\n' : ' ').append(msg).append('\n');
    }

    /** print_entry_plain: hex key and value. */
    private void entryPlain(BpfMapInfo info, byte[] key, byte[] value, int cpus, int step) {
        StringBuilder out = o.out();
        int valueSize = info.valueSize();
        if (!BpfTypeNames.isPerCpu(info.type())) {
            boolean breakNames = key.length > 16 || valueSize > 16;
            boolean singleLine = key.length + valueSize <= 24 && !breakNames;
            if (key.length != 0) {
                out.append("key:").append(breakNames ? '\n' : ' ');
                Hex.plain(out, key, 0, key.length, " ");
                out.append(singleLine ? "  " : "\n");
            }
            if (valueSize != 0) {
                out.append("value:").append(breakNames ? '\n' : ' ');
                Hex.plain(out, value, 0, valueSize, " ");
            }
            out.append('\n');
            return;
        }
        if (key.length != 0) {
            out.append("key:\n");
            Hex.plain(out, key, 0, key.length, " ");
            out.append('\n');
        }
        if (valueSize != 0) {
            for (int i = 0; i < cpus; i++) {
                out.append(String.format("value (CPU %02d):%c", i, valueSize > 16 ? '\n' : ' '));
                Hex.plain(out, value, i * step, valueSize, " ");
                out.append('\n');
            }
        }
    }
}
