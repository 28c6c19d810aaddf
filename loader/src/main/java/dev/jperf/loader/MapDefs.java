package dev.jperf.loader;

import dev.jperf.format.bpf.Uapi;
import dev.jperf.format.btf.Btf;
import dev.jperf.format.btf.BtfKind;
import dev.jperf.format.btf.BtfType;
import dev.jperf.format.elf.ElfException;
import dev.jperf.format.elf.ElfSection;
import dev.jperf.format.elf.ElfSymbol;
import dev.jperf.nativeshim.Mman;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Map definitions of an object: BTF-defined maps of {@code .maps} (libbpf's parse_btf_map_def)
 * and legacy {@code struct bpf_map_def} entries of a {@code maps} section, whose key and value
 * BTF come from perf's {@code ____btf_map_<name>} marker structs where present.
 */
final class MapDefs {
    private MapDefs() {
    }

    static void initBtfMaps(BpfObject o) throws ElfException {
        if (o.btfMapsShndx < 0) {
            return;
        }
        Btf b = o.btf.btf();
        ElfSection sec = o.sections.get(o.btfMapsShndx);
        int dsId = -1;
        for (int id = 1; id <= b.lastId(); id++) {
            if (b.kind(id) == BtfKind.DATASEC && b.name(id).equals(".maps")) {
                dsId = id;
                break;
            }
        }
        if (dsId < 0) {
            throw new ElfException(o.path + ": DATASEC '.maps' not found");
        }
        BtfType.DataSec ds = (BtfType.DataSec) b.type(dsId);
        for (int i = 0; i < ds.vars().size(); i++) {
            BtfType.VarSecInfo vi = ds.vars().get(i);
            if (!BtfTypes.valid(b, vi.type()) || b.kind(vi.type()) != BtfKind.VAR) {
                throw new ElfException(o.path + ": map #" + i + ": unexpected var kind");
            }
            BtfType.Var var = (BtfType.Var) b.type(vi.type());
            String mapName = var.name();
            if (mapName.isEmpty()) {
                throw new ElfException(o.path + ": map #" + i + ": empty name");
            }
            if (Integer.toUnsignedLong(vi.offset()) + Integer.toUnsignedLong(vi.size()) > sec.size()) {
                throw new ElfException(o.path + ": map '" + mapName + "' BTF data is corrupted");
            }
            if (var.linkage() != BtfTypes.BTF_VAR_GLOBAL_ALLOCATED) {
                throw new ElfException(o.path + ": map '" + mapName + "': unsupported map linkage " + var.linkage());
            }
            int defId = BtfTypes.skipModsAndTypedefs(b, var.type());
            if (defId <= 0 || b.kind(defId) != BtfKind.STRUCT) {
                throw new ElfException(o.path + ": map '" + mapName + "': unexpected def kind");
            }
            BtfType.Composite def = (BtfType.Composite) b.type(defId);
            if (Integer.toUnsignedLong(def.size()) > Integer.toUnsignedLong(vi.size())) {
                throw new ElfException(o.path + ": map '" + mapName + "': invalid def size");
            }
            BpfMap m = new BpfMap(mapName, mapName, BpfMap.Internal.NONE, o.btfMapsShndx, Integer.toUnsignedLong(vi.offset()));
            m.btfVarIdx = i;
            parseDef(o, b, mapName, def, m, false);
            o.maps.add(m);
        }
    }

    private static void parseDef(BpfObject o, Btf b, String mapName, BtfType.Composite def, BpfMap m, boolean inner)
            throws ElfException {
        String where = o.path + ": map '" + mapName + "': ";
        List<BtfType.Member> ms = def.members();
        for (int i = 0; i < ms.size(); i++) {
            BtfType.Member mem = ms.get(i);
            switch (mem.name()) {
                case "type" -> m.type = fieldInt(b, mem, where);
                case "max_entries" -> m.maxEntries = fieldInt(b, mem, where);
                case "map_flags" -> m.flags = fieldInt(b, mem, where);
                case "numa_node" -> fieldInt(b, mem, where);
                case "key_size" -> {
                    int sz = fieldInt(b, mem, where);
                    if (m.keySize != 0 && m.keySize != sz) {
                        throw new ElfException(where + "conflicting key size " + m.keySize + " != " + sz);
                    }
                    m.keySize = sz;
                }
                case "key", "value" -> {
                    boolean key = mem.name().equals("key");
                    if (!BtfTypes.valid(b, mem.type()) || b.kind(mem.type()) != BtfKind.PTR) {
                        throw new ElfException(where + mem.name() + " spec is not PTR");
                    }
                    int target = ((BtfType.Ref) b.type(mem.type())).type();
                    long sz = BtfTypes.resolveSize(b, target);
                    if (sz < 0) {
                        throw new ElfException(where + "can't determine " + mem.name() + " size for type [" + target + "]: " + sz);
                    }
                    int have = key ? m.keySize : m.valueSize;
                    if (have != 0 && have != sz) {
                        throw new ElfException(where + "conflicting " + mem.name() + " size " + have + " != " + sz);
                    }
                    if (key) {
                        m.keySize = (int) sz;
                        m.btfKeyTypeId = target;
                    } else {
                        m.valueSize = (int) sz;
                        m.btfValueTypeId = target;
                    }
                }
                case "value_size" -> {
                    int sz = fieldInt(b, mem, where);
                    if (m.valueSize != 0 && m.valueSize != sz) {
                        throw new ElfException(where + "conflicting value size " + m.valueSize + " != " + sz);
                    }
                    m.valueSize = sz;
                }
                case "values" -> {
                    if (inner) {
                        throw new ElfException(where + "multi-level inner maps not supported");
                    }
                    if (i != ms.size() - 1) {
                        throw new ElfException(where + "'values' member should be last");
                    }
                    boolean mapInMap = m.type == Uapi.BPF_MAP_TYPE_ARRAY_OF_MAPS || m.type == Uapi.BPF_MAP_TYPE_HASH_OF_MAPS;
                    if (!mapInMap && m.type != Uapi.BPF_MAP_TYPE_PROG_ARRAY) {
                        throw new ElfException(where + "should be map-in-map or prog-array");
                    }
                    if (m.valueSize != 0 && m.valueSize != 4) {
                        throw new ElfException(where + "conflicting value size " + m.valueSize + " != 4");
                    }
                    m.valueSize = 4;
                    if (!BtfTypes.valid(b, mem.type()) || !(b.type(mem.type()) instanceof BtfType.Array arr)
                            || arr.nelems() != 0) {
                        throw new ElfException(where + (mapInMap ? "map-in-map inner" : "prog-array value")
                                + " spec is not a zero-sized array");
                    }
                    int ptr = BtfTypes.skipModsAndTypedefs(b, arr.elemType());
                    if (ptr <= 0 || b.kind(ptr) != BtfKind.PTR) {
                        throw new ElfException(where + "values def is of unexpected kind");
                    }
                    int t = BtfTypes.skipModsAndTypedefs(b, ((BtfType.Ref) b.type(ptr)).type());
                    if (!mapInMap) {
                        if (t <= 0 || b.kind(t) != BtfKind.FUNC_PROTO) {
                            throw new ElfException(where + "prog-array value def is of unexpected kind");
                        }
                        continue;
                    }
                    if (t <= 0 || b.kind(t) != BtfKind.STRUCT) {
                        throw new ElfException(where + "map-in-map inner def is of unexpected kind");
                    }
                    BpfMap innerMap = new BpfMap(mapName + ".inner", mapName + ".inner", BpfMap.Internal.NONE, m.secIdx, -1);
                    parseDef(o, b, mapName + ".inner", (BtfType.Composite) b.type(t), innerMap, true);
                    m.inner = innerMap;
                }
                case "pinning" -> {
                    int v = fieldInt(b, mem, where);
                    if (v != 0) {
                        throw new ElfException(where + "pinning is not supported by this loader");
                    }
                }
                case "map_extra" -> m.mapExtra = Integer.toUnsignedLong(fieldInt(b, mem, where));
                default -> throw new ElfException(where + "unknown field '" + mem.name() + "'");
            }
        }
        if (m.type == 0) {
            throw new ElfException(where + "map type isn't specified");
        }
        if (m.type == Uapi.BPF_MAP_TYPE_RINGBUF || m.type == Uapi.BPF_MAP_TYPE_USER_RINGBUF) {
            m.maxEntries = adjustRingbufSize(m.maxEntries);
        }
    }

    /** get_map_field_int: the member is a pointer to an array whose element count is the value. */
    private static int fieldInt(Btf b, BtfType.Member mem, String where) throws ElfException {
        int t = BtfTypes.skipModsAndTypedefs(b, mem.type());
        if (t <= 0 || b.kind(t) != BtfKind.PTR) {
            throw new ElfException(where + "attr '" + mem.name() + "': expected PTR");
        }
        int arr = ((BtfType.Ref) b.type(t)).type();
        if (!BtfTypes.valid(b, arr) || b.kind(arr) != BtfKind.ARRAY) {
            throw new ElfException(where + "attr '" + mem.name() + "': expected ARRAY");
        }
        return ((BtfType.Array) b.type(arr)).nelems();
    }

    /** adjust_ringbuf_sz: the closest page size times a power of 2 that is at least {@code sz}. */
    static int adjustRingbufSize(int sz) {
        long pageSz = Mman.pageSize();
        long s = Integer.toUnsignedLong(sz);
        if (s == 0) {
            return 0;
        }
        if (s % pageSz == 0 && Long.bitCount(s / pageSz) == 1) {
            return sz;
        }
        for (long mul = 1; mul <= 0xffffffffL / pageSz; mul <<= 1) {
            if (mul * pageSz > s) {
                return (int) (mul * pageSz);
            }
        }
        return sz;
    }

    /**
     * Legacy maps: every symbol in the {@code maps} section is a struct bpf_map_def of equal size
     * (section size / symbol count, as libbpf 0.x read them); key/value BTF from a
     * {@code struct ____btf_map_<name>} with members key and value, when the object has one.
     */
    static void initLegacyMaps(BpfObject o) throws ElfException {
        if (o.legacyMapsShndx < 0) {
            return;
        }
        ElfSection sec = o.sections.get(o.legacyMapsShndx);
        byte[] data = o.elf.sectionBytes(sec);
        List<ElfSymbol> syms = new ArrayList<>();
        for (ElfSymbol s : o.symbols) {
            if (s.shndx() == o.legacyMapsShndx && s.type() != ElfSymbol.STT_SECTION && !s.name().isEmpty()) {
                syms.add(s);
            }
        }
        if (syms.isEmpty()) {
            return;
        }
        int defSize = data.length / syms.size();
        if (defSize < BpfObject.BPF_MAP_DEF_MIN || data.length % syms.size() != 0) {
            throw new ElfException(o.path + ": unable to determine legacy map definition size: section " + data.length
                    + " bytes, " + syms.size() + " maps");
        }
        for (ElfSymbol s : syms) {
            if (s.value() < 0 || s.value() + defSize > data.length) {
                throw new ElfException(o.path + ": map '" + s.name() + "' definition past the maps section");
            }
            ByteBuffer d = ByteBuffer.wrap(data, (int) s.value(), BpfObject.BPF_MAP_DEF_MIN).order(ByteOrder.LITTLE_ENDIAN);
            BpfMap m = new BpfMap(s.name(), s.name(), BpfMap.Internal.NONE, o.legacyMapsShndx, s.value());
            m.type = d.getInt();
            m.keySize = d.getInt();
            m.valueSize = d.getInt();
            m.maxEntries = d.getInt();
            m.flags = d.getInt();
            if (o.btf != null) {
                legacyBtf(o.btf.btf(), m);
            }
            o.maps.add(m);
        }
    }

    /** perf's bpf_map() marker: struct ____btf_map_NAME { KEY key; VALUE value; } of matching sizes. */
    private static void legacyBtf(Btf b, BpfMap m) {
        int id = b.findByName("____btf_map_" + m.name, BtfKind.STRUCT);
        if (id < 0) {
            return;
        }
        BtfType.Composite c = (BtfType.Composite) b.type(id);
        int key = 0;
        int value = 0;
        for (BtfType.Member mem : c.members()) {
            if (mem.name().equals("key")) {
                key = mem.type();
            } else if (mem.name().equals("value")) {
                value = mem.type();
            }
        }
        if (key > 0 && value > 0 && BtfTypes.resolveSize(b, key) == m.keySize
                && BtfTypes.resolveSize(b, value) == m.valueSize) {
            m.btfKeyTypeId = key;
            m.btfValueTypeId = value;
        }
    }
}
