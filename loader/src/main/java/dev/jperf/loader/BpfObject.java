package dev.jperf.loader;

import dev.jperf.format.btf.Btf;
import dev.jperf.format.btf.BtfException;
import dev.jperf.format.btf.BtfKind;
import dev.jperf.format.btf.BtfType;
import dev.jperf.format.elf.ElfException;
import dev.jperf.format.elf.ElfFile;
import dev.jperf.format.elf.ElfRelocation;
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
                        + MAX_OBJECT_SIZE + ")", Errnos.E2BIG);
            }
            image = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new BpfObjectException(file + ": no such file", Errnos.ENOENT);
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
            o.collectExterns();
            o.fixupBtf();
            o.initMaps();
            o.collectRelos();
            return o;
        } catch (ElfException e) {
            throw new BpfObjectException(e.getMessage());
        } catch (BtfException e) {
            throw new BpfObjectException(path + ": BTF: " + e.getMessage());
        } catch (IndexOutOfBoundsException | IllegalArgumentException | java.nio.BufferUnderflowException e) {
            throw new BpfObjectException(path + ": malformed object (" + e + ")");
        }
    }

    /** The object's name: its file's base name up to the first '.', at most 15 characters (libbpf's). */
    public String name() {
        return name;
    }

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

    public BpfProgram program(String progName) {
        for (BpfProgram p : programs()) {
            if (p.name.equals(progName)) {
                return p;
            }
        }
        return null;
    }

    public List<BpfMap> maps() {
        return Collections.unmodifiableList(maps);
    }

    public BpfMap map(String mapName) {
        for (BpfMap m : maps) {
            if (m.name.equals(mapName) || m.realName.equals(mapName)) {
                return m;
            }
        }
        return null;
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
        if (loaded != null) {
            throw new BpfObjectException(path + ": already loaded", Errnos.EINVAL);
        }
        loaded = new ObjectLoader(this, options);
        loaded.load();
    }

    /** Unloads programs and maps (closes every fd the load opened). */
    @Override
    public void close() {
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

    // ---- externs (bpf_object__collect_externs) ----

    private static boolean symIsExtern(ElfSymbol s) {
        return s.shndx() == ElfSymbol.SHN_UNDEF && (s.bind() == ElfSymbol.STB_GLOBAL || s.bind() == ElfSymbol.STB_WEAK)
                && s.type() == ElfSymbol.STT_NOTYPE;
    }

    private void collectExterns() throws ElfException {
        Btf b = btf == null ? null : btf.btf();
        int dummyVar = addDummyKsymVar();
        b = btf == null ? null : btf.btf();
        int kcfgSec = -1;
        int ksymSec = -1;
        for (int i = 0; i < symbols.size(); i++) {
            ElfSymbol sym = symbols.get(i);
            if (!symIsExtern(sym) || sym.name().isEmpty()) {
                continue;
            }
            if (b == null) {
                throw new ElfException(path + ": failed to find BTF for extern '" + sym.name() + "': no .BTF");
            }
            int id = findExternBtfId(b, sym.name());
            int secId = findExternSecBtfId(b, id);
            String secName = b.name(secId);
            if (secName.equals(".kconfig")) {
                if (b.kind(id) == BtfKind.FUNC) {
                    throw new ElfException(path + ": extern function " + sym.name() + " is unsupported under .kconfig");
                }
                Extern e = new Extern(sym.name(), Extern.Type.KCFG, i, id, sym.bind() == ElfSymbol.STB_WEAK);
                int t = ((BtfType.Var) b.type(id)).type();
                long sz = BtfTypes.resolveSize(b, t);
                int align = BtfTypes.alignOf(b, t);
                if (sz <= 0 || align <= 0) {
                    throw new ElfException(path + ": failed to resolve size of extern (kcfg) '" + sym.name() + "'");
                }
                e.kcfgSize = (int) sz;
                e.kcfgAlign = align;
                e.kcfgType = kcfgType(b, t, e);
                if (e.kcfgType == Extern.KcfgType.UNKNOWN) {
                    throw new ElfException(path + ": extern (kcfg) '" + sym.name() + "': type is unsupported");
                }
                kcfgSec = secId;
                externs.add(e);
            } else if (secName.equals(".ksyms")) {
                Extern e = new Extern(sym.name(), Extern.Type.KSYM, i, id, sym.bind() == ElfSymbol.STB_WEAK);
                int t = b.kind(id) == BtfKind.FUNC ? ((BtfType.Func) b.type(id)).type() : ((BtfType.Var) b.type(id)).type();
                e.ksymTypeId = BtfTypes.skipModsAndTypedefs(b, t);
                e.isFunc = b.kind(id) == BtfKind.FUNC;
                ksymSec = secId;
                externs.add(e);
            } else {
                throw new ElfException(path + ": unrecognized extern section '" + secName + "'");
            }
        }
        if (externs.isEmpty()) {
            return;
        }
        // sort by type, kcfg ones by alignment (descending), size, then name (cmp_externs)
        externs.sort((x, y) -> {
            if (x.type != y.type) {
                return x.type.compareTo(y.type);
            }
            if (x.type == Extern.Type.KCFG) {
                if (x.kcfgAlign != y.kcfgAlign) {
                    return Integer.compare(y.kcfgAlign, x.kcfgAlign);
                }
                if (x.kcfgSize != y.kcfgSize) {
                    return Integer.compare(x.kcfgSize, y.kcfgSize);
                }
            }
            return x.name.compareTo(y.name);
        });
        if (ksymSec >= 0) {
            int intId = findIntBtfId(b);
            int n = b.type(ksymSec) instanceof BtfType.DataSec d ? d.vars().size() : 0;
            int off = 0;
            for (int i = 0; i < n; i++, off += 4) {
                int[] vs = btf.vsi(ksymSec, i);
                String extName = btf.btf().name(vs[0]);
                Extern e = extern(extName);
                if (e == null) {
                    throw new ElfException(path + ": failed to find extern definition for BTF '" + extName + "'");
                }
                int vtype = vs[0];
                if (btf.btf().kind(vtype) == BtfKind.FUNC) {
                    int proto = ((BtfType.Func) btf.btf().type(vtype)).type();
                    if (BtfTypes.kind(btf.btf(), proto) == BtfKind.FUNC_PROTO) {
                        BtfType.FuncProto fp = (BtfType.FuncProto) btf.btf().type(proto);
                        for (int j = 0; j < fp.params().size(); j++) {
                            if (fp.params().get(j).type() != 0 && btf.paramNameOff(proto, j) == 0) {
                                btf.setParamNameOff(proto, j, btf.nameOff(dummyVar));
                            }
                        }
                    }
                    vs[0] = dummyVar;
                    btf.setInfo(vtype, BtfKind.FUNC.number(), BtfTypes.BTF_FUNC_GLOBAL, false);
                } else {
                    btf.setVarLinkage(vtype, BtfTypes.BTF_VAR_GLOBAL_ALLOCATED);
                    btf.setSizeOrType(vtype, intId);
                }
                btf.setVsi(ksymSec, i, vs[0], off, 4);
            }
            btf.setSizeOrType(ksymSec, off);
        }
        if (kcfgSec >= 0) {
            int off = 0;
            for (Extern e : externs) {
                if (e.type != Extern.Type.KCFG) {
                    continue;
                }
                e.kcfgDataOff = (off + e.kcfgAlign - 1) / e.kcfgAlign * e.kcfgAlign;
                off = e.kcfgDataOff + e.kcfgSize;
            }
            btf.setSizeOrType(kcfgSec, off);
            int n = ((BtfType.DataSec) b.type(kcfgSec)).vars().size();
            for (int i = 0; i < n; i++) {
                int[] vs = btf.vsi(kcfgSec, i);
                String extName = btf.btf().name(vs[0]);
                Extern e = extern(extName);
                if (e == null) {
                    throw new ElfException(path + ": failed to find extern definition for BTF var '" + extName + "'");
                }
                btf.setVarLinkage(vs[0], BtfTypes.BTF_VAR_GLOBAL_ALLOCATED);
                btf.setVsi(kcfgSec, i, vs[0], e.kcfgDataOff, vs[2]);
            }
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

    private int addDummyKsymVar() {
        if (btf == null) {
            return 0;
        }
        Btf b = btf.btf();
        int sec = b.findByName(".ksyms", BtfKind.DATASEC);
        if (sec < 0) {
            return 0;
        }
        boolean hasFunc = false;
        for (BtfType.VarSecInfo v : ((BtfType.DataSec) b.type(sec)).vars()) {
            if (BtfTypes.valid(b, v.type()) && b.kind(v.type()) == BtfKind.FUNC) {
                hasFunc = true;
            }
        }
        return hasFunc ? btf.addVar("dummy_ksym", BtfTypes.BTF_VAR_GLOBAL_ALLOCATED, findIntBtfId(b)) : 0;
    }

    private static int findIntBtfId(Btf b) {
        for (int id = 1; id <= b.lastId(); id++) {
            if (b.kind(id) == BtfKind.INT && ((BtfType.Int) b.type(id)).bits() == 32) {
                return id;
            }
        }
        return 0;
    }

    private int findExternBtfId(Btf b, String extName) throws ElfException {
        for (int id = 1; id <= b.lastId(); id++) {
            BtfKind k = b.kind(id);
            if ((k != BtfKind.VAR && k != BtfKind.FUNC) || !b.name(id).equals(extName)) {
                continue;
            }
            boolean ok = k == BtfKind.VAR ? ((BtfType.Var) b.type(id)).linkage() == BtfTypes.BTF_VAR_GLOBAL_EXTERN
                    : ((BtfType.Func) b.type(id)).linkage() == BtfTypes.BTF_FUNC_EXTERN;
            if (!ok) {
                throw new ElfException(path + ": failed to find BTF for extern '" + extName + "': -22");
            }
            return id;
        }
        throw new ElfException(path + ": failed to find BTF for extern '" + extName + "': -2");
    }

    private int findExternSecBtfId(Btf b, int extId) throws ElfException {
        for (int id = 1; id <= b.lastId(); id++) {
            if (b.kind(id) != BtfKind.DATASEC) {
                continue;
            }
            for (BtfType.VarSecInfo v : ((BtfType.DataSec) b.type(id)).vars()) {
                if (v.type() == extId) {
                    return id;
                }
            }
        }
        throw new ElfException(path + ": failed to find BTF for extern [" + extId + "] section");
    }

    private static Extern.KcfgType kcfgType(Btf b, int id, Extern e) {
        int t = BtfTypes.skipModsAndTypedefs(b, id);
        if (t <= 0) {
            return Extern.KcfgType.UNKNOWN;
        }
        BtfType ty = b.type(t);
        if (ty instanceof BtfType.Int i) {
            if ((i.encoding() & BtfTypes.BTF_INT_BOOL) != 0) {
                return i.size() == 1 ? Extern.KcfgType.BOOL : Extern.KcfgType.UNKNOWN;
            }
            if (e != null) {
                e.kcfgSigned = (i.encoding() & BtfTypes.BTF_INT_SIGNED) != 0;
            }
            if (i.size() == 1) {
                return Extern.KcfgType.CHAR;
            }
            if (i.size() < 1 || i.size() > 8 || (i.size() & (i.size() - 1)) != 0) {
                return Extern.KcfgType.UNKNOWN;
            }
            return Extern.KcfgType.INT;
        }
        if (ty instanceof BtfType.Enum en) {
            if ((en.kind() == BtfKind.ENUM && en.size() != 4) || !en.name().equals("libbpf_tristate")) {
                return Extern.KcfgType.UNKNOWN;
            }
            return Extern.KcfgType.TRISTATE;
        }
        if (ty instanceof BtfType.Array a) {
            if (a.nelems() == 0 || kcfgType(b, a.elemType(), null) != Extern.KcfgType.CHAR) {
                return Extern.KcfgType.UNKNOWN;
            }
            return Extern.KcfgType.CHAR_ARR;
        }
        return Extern.KcfgType.UNKNOWN;
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

    // ---- relocations (bpf_object__collect_relos) ----

    /** bpf_object__collect_map_relos: each .rel.maps entry fills one slot of a map's {@code values}. */
    private void collectMapRelos() throws ElfException {
        if (mapsRelIdx < 0) {
            return;
        }
        if (btfMapsShndx < 0 || btf == null) {
            throw new ElfException(path + ": .rel.maps without BTF-defined maps");
        }
        Btf b = btf.btf();
        int dsId = -1;
        for (int id = 1; id <= b.lastId(); id++) {
            if (b.kind(id) == BtfKind.DATASEC && b.name(id).equals(".maps")) {
                dsId = id;
                break;
            }
        }
        BtfType.DataSec ds = (BtfType.DataSec) b.type(dsId);
        List<ElfRelocation> rels = elf.relocations(sections.get(mapsRelIdx));
        for (int i = 0; i < rels.size(); i++) {
            ElfRelocation r = rels.get(i);
            if (r.symbol() < 0 || r.symbol() >= symbols.size()) {
                throw new ElfException(path + ": .maps relo #" + i + ": symbol " + r.symbol() + " not found");
            }
            ElfSymbol sym = symbols.get(r.symbol());
            BpfMap map = null;
            BtfType.VarSecInfo vi = null;
            for (BpfMap m : maps) {
                if (m.secIdx != btfMapsShndx || m.btfVarIdx < 0) {
                    continue;
                }
                BtfType.VarSecInfo v = ds.vars().get(m.btfVarIdx);
                if (Integer.toUnsignedLong(v.offset()) <= r.offset()
                        && r.offset() + 8 <= Integer.toUnsignedLong(v.offset()) + Integer.toUnsignedLong(v.size())) {
                    map = m;
                    vi = v;
                    break;
                }
            }
            if (map == null) {
                throw new ElfException(path + ": .maps relo #" + i + ": cannot find map '" + sym.name() + "' at offset "
                        + r.offset());
            }
            Object target;
            boolean mapInMap = map.type == Uapi.BPF_MAP_TYPE_ARRAY_OF_MAPS || map.type == Uapi.BPF_MAP_TYPE_HASH_OF_MAPS;
            if (mapInMap) {
                if (sym.shndx() != btfMapsShndx) {
                    throw new ElfException(path + ": .maps relo #" + i + ": '" + sym.name() + "' isn't a BTF-defined map");
                }
                if (map.type == Uapi.BPF_MAP_TYPE_HASH_OF_MAPS && map.keySize != 4) {
                    throw new ElfException(path + ": .maps relo #" + i + ": hash-of-maps '" + map.name
                            + "' should have key size 4");
                }
                target = map(sym.name());
                if (target == null) {
                    throw new ElfException(path + ": .maps relo #" + i + ": '" + sym.name() + "' isn't a valid map reference");
                }
            } else if (map.type == Uapi.BPF_MAP_TYPE_PROG_ARRAY) {
                BpfProgram p = null;
                for (BpfProgram q : programs) {
                    if (q.name.equals(sym.name())) {
                        p = q;
                        break;
                    }
                }
                if (p == null || p.secIdx != sym.shndx() || p.secInsnOff * 8L != sym.value() || isSubprog(p)) {
                    throw new ElfException(path + ": .maps relo #" + i + ": '" + sym.name() + "' isn't an entry-point program");
                }
                target = p;
            } else {
                throw new ElfException(path + ": .maps relo #" + i + ": map '" + map.name + "' has no slots to fill");
            }
            BtfType.Composite def = (BtfType.Composite) b.type(BtfTypes.skipModsAndTypedefs(b,
                    ((BtfType.Var) b.type(vi.type())).type()));
            BtfType.Member last = def.members().get(def.members().size() - 1);
            long moff = Integer.toUnsignedLong(last.bitOffset()) / 8;
            long rel = r.offset() - Integer.toUnsignedLong(vi.offset());
            if (!last.name().equals("values") || rel < moff || (rel - moff) % 8 != 0) {
                throw new ElfException(path + ": .maps relo #" + i + ": not in map '" + map.name + "''s values");
            }
            int slot = (int) ((rel - moff) / 8);
            if (slot >= map.initSlots.length) {
                map.initSlots = java.util.Arrays.copyOf(map.initSlots, slot + 1);
            }
            map.initSlots[slot] = target;
        }
    }

    private void collectRelos() throws ElfException {
        collectMapRelos();
        for (ElfSection s : sections) {
            if (secTypes[s.index()] != SecType.RELO) {
                continue;
            }
            int target = s.info();
            ElfSection ts = sections.get(target);
            List<ElfRelocation> rels = elf.relocations(s);
            for (int i = 0; i < rels.size(); i++) {
                ElfRelocation r = rels.get(i);
                if (r.symbol() < 0 || r.symbol() >= symbols.size()) {
                    throw new ElfException(path + ": sec '" + s.name() + "': symbol #" + r.symbol() + " not found for relo #" + i);
                }
                ElfSymbol sym = symbols.get(r.symbol());
                if (sym.shndx() >= sections.size()) {
                    throw new ElfException(path + ": sec '" + s.name() + "': corrupted symbol #" + r.symbol()
                            + " pointing to invalid section #" + sym.shndx() + " for relo #" + i);
                }
                if (r.offset() % 8 != 0 || r.offset() < 0 || r.offset() >= ts.size()) {
                    throw new ElfException(path + ": sec '" + s.name() + "': invalid offset 0x"
                            + Long.toHexString(r.offset()) + " for relo #" + i);
                }
                int insnIdx = (int) (r.offset() / 8);
                String symName = sym.type() == ElfSymbol.STT_SECTION && sym.name().isEmpty() ? secName(sym.shndx()) : sym.name();
                BpfProgram p = findProg(target, insnIdx);
                if (p == null) {
                    continue; // relocation in code no program owns (an eliminated __weak subprogram)
                }
                p.relocs.add(recordReloc(p, insnIdx - p.secInsnOff, symName, sym, r.symbol()));
            }
        }
    }

    BpfProgram findProg(int secIdx, int insnIdx) {
        for (BpfProgram p : programs) {
            if (p.contains(secIdx, insnIdx)) {
                return p;
            }
        }
        return null;
    }

    private Reloc recordReloc(BpfProgram p, int insnIdx, String symName, ElfSymbol sym, int symIdx) throws ElfException {
        byte[] in = p.insns;
        String where = path + ": prog '" + p.name + "': ";
        if (!Insns.isCall(in, insnIdx) && !Insns.isLdImm64(in, insnIdx)) {
            throw new ElfException(where + "invalid relo against '" + symName + "' for insns[" + insnIdx + "].code 0x"
                    + Integer.toHexString(Insns.code(in, insnIdx)));
        }
        if (Insns.isLdImm64(in, insnIdx) && insnIdx + 1 >= p.secInsnCnt) {
            throw new ElfException(where + "ld_imm64 at the program's last instruction " + insnIdx);
        }
        if (symIsExtern(sym)) {
            for (int i = 0; i < externs.size(); i++) {
                if (externs.get(i).symIdx == symIdx) {
                    return new Reloc(Insns.isCall(in, insnIdx) ? Reloc.Type.EXTERN_FUNC : Reloc.Type.EXTERN_VAR, insnIdx, -1,
                            i, null);
                }
            }
            throw new ElfException(where + "extern relo failed to find extern for '" + symName + "' (" + symIdx + ")");
        }
        int shndx = sym.shndx();
        if (Insns.isCall(in, insnIdx)) {
            if (Insns.src(in, insnIdx) != Insns.BPF_PSEUDO_CALL) {
                throw new ElfException(where + "incorrect bpf_call opcode");
            }
            if (shndx == 0 || shndx != textShndx) {
                throw new ElfException(where + "bad call relo against '" + symName + "' in section '" + secName(shndx) + "'");
            }
            if (sym.value() % 8 != 0) {
                throw new ElfException(where + "bad call relo against '" + symName + "' at offset " + sym.value());
            }
            return new Reloc(Reloc.Type.CALL, insnIdx, -1, (int) sym.value(), null);
        }
        if (shndx == 0 || shndx >= SHN_LORESERVE) {
            throw new ElfException(where + "invalid relo against '" + symName + "' in special section 0x"
                    + Integer.toHexString(shndx) + "; forgot to initialize global var?..");
        }
        boolean subprog = shndx == textShndx && ((sym.bind() == ElfSymbol.STB_LOCAL && sym.type() == ElfSymbol.STT_SECTION)
                || (sym.bind() == ElfSymbol.STB_GLOBAL && sym.type() == ElfSymbol.STT_FUNC));
        if (subprog) {
            if (sym.value() % 8 != 0 || Insns.imm(in, insnIdx) % 8 != 0) {
                throw new ElfException(where + "bad subprog addr relo against '" + symName + "'");
            }
            return new Reloc(Reloc.Type.SUBPROG_ADDR, insnIdx, -1, (int) sym.value(), null);
        }
        SecType st = secTypes[shndx];
        if (st != SecType.DATA && st != SecType.RODATA && st != SecType.BSS) {
            if (shndx != btfMapsShndx && shndx != legacyMapsShndx) {
                throw new ElfException(where + "bad map relo against '" + symName + "' in section '" + secName(shndx) + "'");
            }
            for (int i = 0; i < maps.size(); i++) {
                BpfMap m = maps.get(i);
                if (m.internal == BpfMap.Internal.NONE && m.secIdx == shndx && m.secOffset == sym.value()) {
                    return new Reloc(Reloc.Type.LD64, insnIdx, i, 0, null);
                }
            }
            throw new ElfException(where + "map relo failed to find map for section '" + secName(shndx) + "', off "
                    + sym.value());
        }
        for (int i = 0; i < maps.size(); i++) {
            BpfMap m = maps.get(i);
            if (m.internal != BpfMap.Internal.NONE && m.internal != BpfMap.Internal.KCONFIG && m.secIdx == shndx) {
                return new Reloc(Reloc.Type.DATA, insnIdx, i, (int) sym.value(), null);
            }
        }
        throw new ElfException(where + "data relo failed to find map for section '" + secName(shndx) + "'");
    }
}
