package dev.jperf.loader;

import dev.jperf.format.bpf.Uapi;
import dev.jperf.nativeshim.Errno;
import dev.jperf.format.btf.Btf;
import dev.jperf.format.btf.BtfException;
import dev.jperf.format.btf.BtfKind;
import dev.jperf.format.btf.BtfType;
import dev.jperf.format.elf.ElfException;
import dev.jperf.format.elf.ElfFile;
import dev.jperf.format.elf.ElfSection;
import dev.jperf.format.elf.ElfSymbol;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * A BPF ELF object, opened as libbpf 1.1's bpf_object__open does and loaded as its
 * bpf_object__load does. {@link #open} makes no system call: it reads the programs (by section
 * name), license, version, maps (BTF-defined, legacy, global data) and relocations. Between open
 * and {@link #load} a caller may pick the programs to load, resize maps and change .rodata; close
 * unloads everything.
 */
public final class BpfObject implements AutoCloseable {
    static final int EM_BPF = 247;
    static final int SHT_LLVM_ADDRSIG = 0x6fff4c03;
    static final int STV_HIDDEN = 2;
    static final int STV_INTERNAL = 1;
    static final int SHN_LORESERVE = 0xff00;
    /** A legacy map definition: struct bpf_map_def's first five u32 (type, key, value, max_entries, flags). */
    static final int BPF_MAP_DEF_MIN = 20;

    /** Largest object file read (the largest of the 36 external objects is under 100 KB). */
    static final long MAX_OBJECT_SIZE = 256L << 20;
    /** Largest global data section held as a map value (an array map's value is kmalloc'ed: a few MiB at most). */
    static final long MAX_GLOBAL_DATA = 64L << 20;

    enum SecType { NONE, DATA, RODATA, BSS, RELO }

    final String path;
    final String name;
    final ElfFile elf;
    final List<ElfSection> sections;
    final List<ElfSymbol> symbols;
    final SecType[] secTypes;
    int symtabIdx = -1;
    int textShndx = -1;
    int btfMapsShndx = -1;
    int legacyMapsShndx = -1;
    /** The .rel.maps section: map-in-map and prog-array slots initialised by the definitions' values. */
    int mapsRelIdx = -1;
    String license = "";
    /** The version section's value; without one libbpf passes the running kernel's version. */
    int kernVersion;
    boolean hasVersion;
    ObjectBtf btf;
    BtfExt btfExt;
    final List<BpfProgram> programs = new ArrayList<>();
    final List<BpfMap> maps = new ArrayList<>();
    final List<Extern> externs = new ArrayList<>();
    int kconfigMapIdx = -1;
    /** What the load went on without (libbpf's warnings), one line each. */
    final List<String> warnings = new ArrayList<>();
    /** Set by the load phase: the fds to close. */
    ObjectLoader loaded;

    private BpfObject(String path, ElfFile elf) throws ElfException {
        this.path = path;
        this.elf = elf;
        String base = Path.of(path).getFileName().toString();
        base = base.length() > 15 ? base.substring(0, 15) : base;
        int dot = base.indexOf('.');
        this.name = dot >= 0 ? base.substring(0, dot) : base;
        this.sections = elf.sections();
        this.secTypes = new SecType[sections.size()];
        java.util.Arrays.fill(secTypes, SecType.NONE);
        ElfSection symtab = null;
        for (ElfSection s : sections) {
            if (s.type() == ElfSection.SHT_SYMTAB) {
                if (symtab != null) {
                    throw new ElfException(path + ": multiple symbol tables");
                }
                symtab = s;
            }
        }
        if (symtab == null) {
            throw new ElfException(path + ": no symbol table, stripped object file?");
        }
        this.symtabIdx = symtab.index();
        this.symbols = elf.symbols(symtab);
    }

    /** Opens {@code file}: parses it whole, no system call. One line on failure. */
    public static BpfObject open(Path file) throws BpfObjectException {
        byte[] image;
        try {
            long size = Files.size(file);
            if (size > MAX_OBJECT_SIZE) {
                throw new BpfObjectException(file + ": " + size + " bytes is too large for a BPF object (at most "
                        + MAX_OBJECT_SIZE + ")", Errno.E2BIG);
            }
            image = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new BpfObjectException(file + ": no such file", Errno.ENOENT);
        } catch (IOException | OutOfMemoryError e) {
            throw new BpfObjectException(file + ": " + e.getMessage());
        }
        return open(file.toString(), image);
    }

    /** Opens an object held in memory; {@code path} names it (its base name up to the first '.' names the object). */
    public static BpfObject open(String path, byte[] image) throws BpfObjectException {
        try {
            ElfFile elf = ElfFile.of(path, image);
            BpfObject o = new BpfObject(path, elf);
            o.collect();
            Externs.collect(o);
            o.fixupBtf();
            o.initMaps();
            Relocations.collect(o);
            o.adopt();
            return o;
        } catch (ElfException e) {
            throw new BpfObjectException(e.getMessage());
        } catch (BtfException e) {
            throw new BpfObjectException(path + ": BTF: " + e.getMessage());
        } catch (IndexOutOfBoundsException | IllegalArgumentException | java.nio.BufferUnderflowException e) {
            throw new BpfObjectException(path + ": malformed object (" + e + ")");
        }
    }

    /** libbpf's object life: programs and maps are configured while OPENED, and only then. */
    public enum State {
        /** Parsed, configurable, nothing in the kernel. */
        OPENED,
        /** Loaded (or a load was tried): its maps and programs are the kernel's. */
        LOADED,
        /** Closed: everything it loaded is gone. */
        CLOSED
    }

    private State state = State.OPENED;

    /** Where the object is in its life. */
    public State state() {
        return state;
    }

    /** Programs and maps ask their object whether they may still be configured. */
    private void adopt() {
        for (BpfProgram p : programs) {
            p.owner = this;
        }
        for (BpfMap m : maps) {
            m.owner = this;
            if (m.inner != null) {
                m.inner.owner = this;
            }
        }
    }

    /** libbpf's -EBUSY for a setter called after load: the kernel has what was configured. */
    void requireOpened(String what) {
        if (state != State.OPENED) {
            throw new IllegalStateException(what + ": the object is " + state.name().toLowerCase(java.util.Locale.ROOT)
                    + "; configure before load");
        }
    }

    /** The object's name: its file's base name up to the first '.', at most 15 characters (libbpf's). */
    public String name() {
        return name;
    }

    /** The {@code license} section's string (what PROG_LOAD gets; GPL-only helpers need a GPL-compatible one). */
    public String license() {
        return license;
    }

    /** The {@code version} section's value, else the running kernel's version (what PROG_LOAD gets, as libbpf). */
    public int kernVersion() {
        return hasVersion ? kernVersion : Probes.kernelVersion();
    }

    /** The programs, subprograms of .text excluded, in section and offset order. */
    public List<BpfProgram> programs() {
        List<BpfProgram> out = new ArrayList<>();
        for (BpfProgram p : programs) {
            if (!isSubprog(p)) {
                out.add(p);
            }
        }
        return Collections.unmodifiableList(out);
    }

    /** The program of that (function) name, null when none. */
    public BpfProgram program(String progName) {
        for (BpfProgram p : programs()) {
            if (p.name.equals(progName)) {
                return p;
            }
        }
        return null;
    }

    /** The maps: the object's own, then its global data sections' (libbpf's order). */
    public List<BpfMap> maps() {
        return Collections.unmodifiableList(maps);
    }

    /** The map of that name, or of that ELF section for global data ({@code .rodata}); null when none. */
    public BpfMap map(String mapName) {
        for (BpfMap m : maps) {
            if (m.name.equals(mapName) || m.realName.equals(mapName)) {
                return m;
            }
        }
        return null;
    }

    /** What the load went on without, as libbpf warns (the kernel refusing the object's BTF), one line each. */
    public List<String> warnings() {
        return List.copyOf(warnings);
    }

    /** The object's BTF as the loader changed it (null when it has none). */
    public Btf btf() {
        return btf == null ? null : btf.btf();
    }

    /** prog_is_subprog: a .text function when the object has more than one function. */
    boolean isSubprog(BpfProgram p) {
        return p.secIdx == textShndx && programs.size() > 1;
    }

    /**
     * Loads what was opened: BTF, maps, then every autoload program (libbpf's
     * bpf_object__load). A program the kernel refuses does not stop the others here: its
     * {@link BpfProgram#error()} says why; {@code logLevel} is the verifier log level for a
     * refused program's retry (1 by default).
     */
    public void load(LoadOptions options) throws BpfObjectException {
        if (state != State.OPENED) {
            throw new BpfObjectException(path + ": already " + state.name().toLowerCase(java.util.Locale.ROOT), Errno.EINVAL);
        }
        // as libbpf, a load that fails part-way leaves the object loaded: what it created is closed with it
        state = State.LOADED;
        loaded = new ObjectLoader(this, options);
        loaded.load();
    }

    /** Unloads programs and maps (closes every fd the load opened). */
    @Override
    public void close() {
        state = State.CLOSED;
        if (loaded != null) {
            loaded.close();
        }
    }

    String secName(int idx) {
        return idx >= 0 && idx < sections.size() ? sections.get(idx).name() : "<?>";
    }

    // ---- elf_collect ----

    private static boolean ignoreSection(ElfSection s) {
        String n = s.name();
        if (s.type() == ElfSection.SHT_STRTAB || s.type() == SHT_LLVM_ADDRSIG) {
            return true;
        }
        if (s.type() == ElfSection.SHT_PROGBITS && s.size() == 0 && n.equals(".text")) {
            return true;
        }
        if (n.startsWith(".debug_")) {
            return true;
        }
        if (n.startsWith(".rel")) {
            String t = n.substring(4);
            return t.startsWith(".debug_") || t.equals(".BTF") || t.equals(".BTF.ext");
        }
        return false;
    }

    private void collect() throws ElfException {
        if (!elf.is64() || elf.type() != ElfFile.ET_REL || (elf.machine() != EM_BPF && elf.machine() != 0)) {
            throw new ElfException(path + ": not a BPF object (ELF type " + elf.type() + ", machine " + elf.machine()
                    + "; expected a 64-bit relocatable EM_BPF file)");
        }
        byte[] btfData = null;
        byte[] btfExtData = null;
        for (ElfSection s : sections) {
            if (s.index() == 0 || ignoreSection(s)) {
                continue;
            }
            String n = s.name();
            if (n.equals("license")) {
                byte[] d = elf.sectionBytes(s);
                int len = 0;
                while (len < d.length && len < 127 && d[len] != 0) {
                    len++;
                }
                license = new String(d, 0, len, StandardCharsets.UTF_8);
            } else if (n.equals("version")) {
                byte[] d = elf.sectionBytes(s);
                if (d.length != 4) {
                    throw new ElfException(path + ": invalid kver section");
                }
                kernVersion = ByteBuffer.wrap(d).order(ByteOrder.LITTLE_ENDIAN).getInt();
                hasVersion = true;
            } else if (n.equals("maps")) {
                legacyMapsShndx = s.index();
            } else if (n.equals(".maps")) {
                btfMapsShndx = s.index();
            } else if (n.equals(".BTF")) {
                if (s.type() != ElfSection.SHT_PROGBITS) {
                    throw new ElfException(path + ": .BTF is not PROGBITS");
                }
                btfData = elf.sectionBytes(s);
            } else if (n.equals(".BTF.ext")) {
                if (s.type() != ElfSection.SHT_PROGBITS) {
                    throw new ElfException(path + ": .BTF.ext is not PROGBITS");
                }
                btfExtData = elf.sectionBytes(s);
            } else if (s.type() == ElfSection.SHT_SYMTAB) {
                // read by the constructor
            } else if (s.type() == ElfSection.SHT_PROGBITS && s.size() > 0) {
                if ((s.flags() & ElfSection.SHF_EXECINSTR) != 0) {
                    if (n.equals(".text")) {
                        textShndx = s.index();
                    }
                    addPrograms(s);
                } else if (n.equals(".data") || n.startsWith(".data.")) {
                    secTypes[s.index()] = SecType.DATA;
                } else if (n.equals(".rodata") || n.startsWith(".rodata.")) {
                    secTypes[s.index()] = SecType.RODATA;
                }
            } else if (s.type() == ElfSection.SHT_REL) {
                int target = s.info();
                if (s.entsize() != 16 || target < 0 || target >= sections.size()) {
                    throw new ElfException(path + ": bad relocation section " + n);
                }
                ElfSection t = sections.get(target);
                if ((t.flags() & ElfSection.SHF_EXECINSTR) != 0 && t.type() == ElfSection.SHT_PROGBITS) {
                    secTypes[s.index()] = SecType.RELO;
                } else if (n.equals(".rel.maps")) {
                    mapsRelIdx = s.index();
                }
            } else if (s.type() == ElfSection.SHT_NOBITS && (n.equals(".bss") || n.startsWith(".bss."))) {
                secTypes[s.index()] = SecType.BSS;
            }
        }
        programs.sort(Comparator.comparingInt((BpfProgram p) -> p.secIdx).thenComparingInt(p -> p.secInsnOff));
        if (btfData != null) {
            try {
                btf = new ObjectBtf(btfData);
            } catch (BtfException e) {
                if (btfMapsShndx >= 0) {
                    throw new ElfException(path + ": .BTF: " + e.getMessage());
                }
                btf = null; // libbpf goes on without BTF when nothing needs it
            }
        }
        if (btf != null && btfExtData != null) {
            try {
                btfExt = new BtfExt(btfExtData, path);
            } catch (BpfObjectException e) {
                btfExt = null; // as libbpf: .BTF.ext that fails to parse is ignored
            }
        }
        if (btfMapsShndx >= 0 && btf == null) {
            throw new ElfException(path + ": .maps section needs .BTF, which is missing");
        }
    }

    private void addPrograms(ElfSection s) throws ElfException {
        byte[] data = elf.sectionBytes(s);
        String secName = s.name();
        boolean autoload = true;
        if (secName.startsWith("?")) {
            autoload = false;
            secName = secName.substring(1);
        }
        for (ElfSymbol sym : symbols) {
            if (sym.shndx() != s.index() || sym.type() != ElfSymbol.STT_FUNC) {
                continue;
            }
            long off = sym.value();
            long size = sym.size();
            if (off < 0 || size < 0 || off + size > data.length || size == 0 || size % 8 != 0 || off % 8 != 0) {
                throw new ElfException(path + ": sec '" + s.name() + "': corrupted program '" + sym.name() + "', offset "
                        + off + ", size " + size);
            }
            if (s.index() != textShndx && sym.bind() == ElfSymbol.STB_LOCAL) {
                throw new ElfException(path + ": sec '" + s.name() + "': program '" + sym.name()
                        + "' is static and not supported");
            }
            int vis = sym.other() & 3;
            boolean hidden = sym.bind() != ElfSymbol.STB_LOCAL && (vis == STV_HIDDEN || vis == STV_INTERNAL);
            byte[] code = java.util.Arrays.copyOfRange(data, (int) off, (int) (off + size));
            programs.add(new BpfProgram(sym.name(), secName, s.index(), (int) (off / 8), code, autoload, hidden));
        }
    }

    Extern extern(String extName) {
        for (Extern e : externs) {
            if (e.name.equals(extName)) {
                return e;
            }
        }
        return null;
    }

    // ---- bpf_object_fixup_btf ----

    private void fixupBtf() throws ElfException {
        if (btf == null) {
            return;
        }
        Btf b = btf.btf();
        for (int id = 1; id <= b.lastId(); id++) {
            if (b.kind(id) != BtfKind.DATASEC) {
                continue;
            }
            BtfType.DataSec ds = (BtfType.DataSec) b.type(id);
            String secName = ds.name();
            if (!secName.equals(".kconfig") && !secName.equals(".ksyms")) {
                boolean fixOffsets = false;
                if (ds.size() == 0) {
                    ElfSection s = elf.section(secName).orElse(null);
                    if (s == null || s.size() == 0) {
                        throw new ElfException(path + ": sec '" + secName + "': failed to determine size from ELF");
                    }
                    btf.setSizeOrType(id, (int) s.size());
                    fixOffsets = true;
                }
                for (int i = 0; i < ds.vars().size(); i++) {
                    int[] vs = btf.vsi(id, i);
                    if (!BtfTypes.valid(b, vs[0]) || b.kind(vs[0]) != BtfKind.VAR) {
                        throw new ElfException(path + ": sec '" + secName + "': unexpected non-VAR type found");
                    }
                    BtfType.Var v = (BtfType.Var) b.type(vs[0]);
                    if (v.linkage() == BtfTypes.BTF_VAR_STATIC || v.linkage() == BtfTypes.BTF_VAR_GLOBAL_EXTERN) {
                        continue;
                    }
                    ElfSymbol sym = findVarSym(v.name());
                    if (sym == null) {
                        throw new ElfException(path + ": sec '" + secName + "': failed to find ELF symbol for VAR '"
                                + v.name() + "'");
                    }
                    if (fixOffsets) {
                        btf.setVsi(id, i, vs[0], (int) sym.value(), vs[2]);
                    }
                    int vis = sym.other() & 3;
                    if (vis == STV_HIDDEN || vis == STV_INTERNAL) {
                        btf.setVarLinkage(vs[0], BtfTypes.BTF_VAR_STATIC);
                    }
                }
            }
            btf.sortVsi(id);
        }
    }

    /** find_elf_var_sym: the global STT_OBJECT symbol of that name. */
    private ElfSymbol findVarSym(String varName) {
        for (ElfSymbol s : symbols) {
            if (s.type() != ElfSymbol.STT_OBJECT) {
                continue;
            }
            if (s.bind() != ElfSymbol.STB_GLOBAL && s.bind() != ElfSymbol.STB_WEAK) {
                continue;
            }
            if (s.name().equals(varName)) {
                return s;
            }
        }
        return null;
    }

    // ---- maps (bpf_object__init_maps) ----

    private void initMaps() throws ElfException {
        MapDefs.initLegacyMaps(this);
        MapDefs.initBtfMaps(this);
        initGlobalDataMaps();
        initKconfigMap();
    }

    private void initGlobalDataMaps() throws ElfException {
        for (ElfSection s : sections) {
            SecType t = secTypes[s.index()];
            if (s.size() == 0 || (t != SecType.DATA && t != SecType.RODATA && t != SecType.BSS)) {
                continue;
            }
            BpfMap.Internal kind = t == SecType.DATA ? BpfMap.Internal.DATA
                    : t == SecType.RODATA ? BpfMap.Internal.RODATA : BpfMap.Internal.BSS;
            byte[] data = t == SecType.BSS ? null : elf.sectionBytes(s);
            addInternalMap(kind, s.name(), s.index(), data, s.size());
        }
    }

    private void initKconfigMap() throws ElfException {
        Extern last = null;
        for (Extern e : externs) {
            if (e.type == Extern.Type.KCFG) {
                last = e;
            }
        }
        if (last == null) {
            return;
        }
        addInternalMap(BpfMap.Internal.KCONFIG, ".kconfig", symtabIdx, null, last.kcfgDataOff + last.kcfgSize);
        kconfigMapIdx = maps.size() - 1;
    }

    private void addInternalMap(BpfMap.Internal kind, String realName, int secIdx, byte[] data, long size)
            throws ElfException {
        if (size > MAX_GLOBAL_DATA) {
            throw new ElfException(path + ": section " + realName + " of " + size + " bytes is too large for a map (at most "
                    + MAX_GLOBAL_DATA + ")");
        }
        BpfMap m = new BpfMap(internalMapName(realName), realName, kind, secIdx, 0);
        m.type = Uapi.BPF_MAP_TYPE_ARRAY;
        m.keySize = 4;
        m.valueSize = (int) size;
        m.maxEntries = 1;
        m.flags = kind == BpfMap.Internal.RODATA || kind == BpfMap.Internal.KCONFIG ? BpfMap.BPF_F_RDONLY_PROG : 0;
        if (btf != null) {
            int id = findByName(btf.btf(), realName);
            if (id > 0) {
                m.btfValueTypeId = id;
            }
        }
        if (mmapable(m)) {
            m.flags |= BpfMap.BPF_F_MMAPABLE;
        }
        m.data = new byte[(int) size];
        if (data != null) {
            System.arraycopy(data, 0, m.data, 0, Math.min(data.length, m.data.length));
        }
        maps.add(m);
    }

    /** btf__find_by_name: the first type of any kind with that name, or -1. */
    static int findByName(Btf b, String typeName) {
        for (int id = 1; id <= b.lastId(); id++) {
            if (b.name(id).equals(typeName)) {
                return id;
            }
        }
        return -1;
    }

    private boolean mmapable(BpfMap m) {
        if (m.btfValueTypeId == 0) {
            return false;
        }
        Btf b = btf.btf();
        if (b.kind(m.btfValueTypeId) != BtfKind.DATASEC) {
            return false;
        }
        for (BtfType.VarSecInfo v : ((BtfType.DataSec) b.type(m.btfValueTypeId)).vars()) {
            if (BtfTypes.valid(b, v.type()) && b.kind(v.type()) == BtfKind.VAR
                    && ((BtfType.Var) b.type(v.type())).linkage() != BtfTypes.BTF_VAR_STATIC) {
                return true;
            }
        }
        return false;
    }

    /** internal_map_name: as much of the object name as fits before the section name, 15 characters in all. */
    String internalMapName(String realName) {
        int sfxLen = Math.max(7, realName.length());
        if (sfxLen >= 16) {
            sfxLen = 15;
        }
        int pfxLen = realName.indexOf('.', 1) >= 0 ? 0 : Math.min(16 - sfxLen - 1, name.length());
        String s = name.substring(0, pfxLen) + realName.substring(0, Math.min(sfxLen, realName.length()));
        StringBuilder b = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            b.append(Character.isLetterOrDigit(c) && c < 128 || c == '_' || c == '.' ? c : '_');
        }
        return b.toString();
    }

    BpfProgram findProg(int secIdx, int insnIdx) {
        for (BpfProgram p : programs) {
            if (p.contains(secIdx, insnIdx)) {
                return p;
            }
        }
        return null;
    }
}
