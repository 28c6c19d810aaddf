package dev.jperf.bpf;

import dev.jperf.format.btf.Btf;
import dev.jperf.format.btf.BtfKind;
import dev.jperf.format.btf.BtfType;
import dev.jperf.loader.BpfMap;
import dev.jperf.loader.BpfObject;
import dev.jperf.loader.BpfObjectException;
import dev.jperf.loader.BpfProgram;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code jperf bpf gen skeleton OBJ --java}: a Java source file for one BPF object, what bpftool's
 * gen.c writes as a C header (and libbpf-cargo for Rust, bpf2go for Go). One class named after the
 * object with its bytes embedded, over the loader's {@link dev.jperf.loader.BpfSkeleton}: {@code
 * open()}, {@code load()}, {@code attach()}, {@code close()}; {@code progs()} (each program's
 * {@link BpfProgram}); {@code maps()} (each map, typed lookups where its BTF types its key and value);
 * a class per global data section ({@code .rodata}, {@code .data}, {@code .bss}, libbpf's
 * mmapable internal maps) with a getter and setter per non-static variable. Java types follow the
 * BTF: integers by width (signed Java types, the bits as C stores them), {@code _Bool} boolean,
 * {@code char} arrays String, other arrays Java arrays, structs and unions records (a union reads
 * every member and writes its first), pointers long.
 */
public final class JavaSkeleton {
    /** The characters of one embedded chunk: a class file's string constant holds at most 65,535 bytes. */
    static final int CHUNK = 76 * 700;
    private static final Set<String> KEYWORDS = Set.of("abstract", "assert", "boolean", "break", "byte", "case", "catch",
            "char", "class", "const", "continue", "default", "do", "double", "else", "enum", "extends", "final", "finally",
            "float", "for", "goto", "if", "implements", "import", "instanceof", "int", "interface", "long", "native", "new",
            "package", "private", "protected", "public", "return", "short", "static", "strictfp", "super", "switch",
            "synchronized", "this", "throw", "throws", "transient", "try", "void", "volatile", "while", "true", "false",
            "null", "var", "record", "yield", "sealed", "permits", "_");
    /** Methods every class has: a member of that name would override or clash with them. */
    private static final Set<String> OBJECT_METHODS = Set.of("hashCode", "equals", "toString", "getClass", "notify",
            "notifyAll", "wait", "clone", "finalize", "read", "write", "map", "skeleton", "object");
    /** Class names the generated code uses unqualified. */
    private static final Set<String> TYPE_NAMES = Set.of("String", "Integer", "Long", "Short", "Byte", "Boolean",
            "Float", "Double", "Object", "Override", "Math", "System", "Character", "Progs", "Maps", "BpfSkeleton",
            "BpfMap", "BpfProgram", "BpfObject", "BpfObjectException", "LoadOptions", "Deprecated", "Record", "Void");
    /** Map types whose elements are read and written by key. */
    private static final Set<Integer> KEYED = Set.of(1, 2, 5, 6, 7, 9, 10, 11);

    private final BpfObject object;
    private final byte[] image;
    private final String objName;
    private final String fileName;
    private final String className;
    private final String pkg;
    private final Btf btf;
    private final StringBuilder out = new StringBuilder();
    /** Nested type declarations (records, array codecs), written after the members. */
    private final StringBuilder types = new StringBuilder();
    private final Map<Integer, String> recordNames = new HashMap<>();
    private final Set<String> classNames = new HashSet<>();
    private final Set<Integer> arrayCodecs = new HashSet<>();

    private JavaSkeleton(BpfObject object, byte[] image, String fileName, String objName, String className, String pkg) {
        this.object = object;
        this.fileName = fileName;
        this.image = image;
        this.objName = objName;
        this.className = className;
        this.pkg = pkg;
        this.btf = object.btf();
        classNames.add(className);
        classNames.addAll(TYPE_NAMES);
    }

    /**
     * The source for {@code file}'s bytes. {@code objName}: the object's name (bpftool's: the
     * file's base name up to ".o", other characters than letters and digits made '_', or the
     * {@code name} given); the class is its camel case. {@code pkg} may be null.
     */
    public static String generate(String file, byte[] image, String objName, String pkg) throws BpfObjectException {
        BpfObject o = BpfObject.open(objName, image);
        try {
            String cls = typeName(objName);
            return new JavaSkeleton(o, image, file.substring(file.lastIndexOf('/') + 1), objName, cls, pkg).source();
        } finally {
            o.close();
        }
    }

    /** bpftool's get_obj_name: the base name without ".o", characters other than letters and digits as '_'. */
    public static String objectName(String file) {
        String base = file.substring(file.lastIndexOf('/') + 1);
        if (base.endsWith(".o")) {
            base = base.substring(0, base.length() - 2);
        }
        StringBuilder b = new StringBuilder();
        for (char c : base.toCharArray()) {
            b.append(c < 128 && Character.isLetterOrDigit(c) ? c : '_');
        }
        return b.toString();
    }

    /** The Java class name of the object name {@code n}: its words capitalised, '_' dropped. */
    public static String typeName(String n) {
        String c = camel(n);
        c = c.isEmpty() ? "Skel" : Character.toUpperCase(c.charAt(0)) + c.substring(1);
        return Character.isJavaIdentifierStart(c.charAt(0)) ? c : "Skel" + c;
    }

    /** snake_case to camelCase, the characters Java does not take as '_'. */
    static String camel(String n) {
        StringBuilder b = new StringBuilder();
        boolean up = false;
        for (char c : n.toCharArray()) {
            if (c == '_' || c == '.' || !(c < 128 && Character.isLetterOrDigit(c))) {
                up = b.length() > 0;
                continue;
            }
            b.append(up ? Character.toUpperCase(c) : c);
            up = false;
        }
        return b.toString();
    }

    /** A member name: camel case, never a keyword, an Object method or a clash within its scope. */
    private static String member(String n, Set<String> scope) {
        String c = camel(n);
        if (c.isEmpty() || !Character.isJavaIdentifierStart(c.charAt(0))) {
            c = "m" + c;
        }
        if (KEYWORDS.contains(c) || OBJECT_METHODS.contains(c)) {
            c = c + "_";
        }
        String u = c;
        for (int i = 2; !scope.add(u); i++) {
            u = c + i;
        }
        return u;
    }

    private String newClassName(String base) {
        String c = typeName(base);
        if (KEYWORDS.contains(c.toLowerCase(Locale.ROOT)) && c.equals(c.toLowerCase(Locale.ROOT))) {
            c = c + "_";
        }
        String u = c;
        for (int i = 2; !classNames.add(u); i++) {
            u = c + i;
        }
        return u;
    }

    // ---- the source ----

    private String source() throws BpfObjectException {
        out.append("// Generated by jperf bpf gen skeleton --java from ").append(fileName)
                .append(": do not edit; generate it again from the object.\n");
        if (pkg != null && !pkg.isEmpty()) {
            out.append("package ").append(pkg).append(";\n");
        }
        out.append("\nimport dev.jperf.loader.BpfMap;\n");
        out.append("import dev.jperf.loader.BpfObject;\n");
        out.append("import dev.jperf.loader.BpfObjectException;\n");
        out.append("import dev.jperf.loader.BpfProgram;\n");
        out.append("import dev.jperf.loader.BpfSkeleton;\n");
        out.append("import dev.jperf.loader.LoadOptions;\n\n");
        out.append("/**\n * The BPF object {@code ").append(objName).append("} (").append(image.length)
                .append(" bytes, embedded), over jperf's loader: {@link #open()}, set\n")
                .append(" * {@code .rodata} and map sizes, {@link #load()}, {@link #attach()}; {@link #close()} detaches and unloads.\n */\n");
        out.append("public final class ").append(className).append(" implements AutoCloseable {\n");
        embed();
        out.append("    private final BpfSkeleton skel;\n");
        out.append("    private final Progs progs = new Progs();\n");
        out.append("    private final Maps maps = new Maps();\n");
        List<BpfMap> sections = new ArrayList<>();
        List<String> sectionClasses = new ArrayList<>();
        Set<String> topScope = new HashSet<>(Set.of("open", "openAndLoad", "load", "attach", "detach", "close",
                "progs", "maps", "elfBytes", "skel", "OBJECT", "NAME"));
        List<String> sectionGetters = new ArrayList<>();
        for (BpfMap m : object.maps()) {
            if (dataSection(m) != null) {
                sections.add(m);
                String ident = sectionIdent(m);
                sectionClasses.add(newClassName(ident));
                sectionGetters.add(member(ident, topScope));
            }
        }
        for (int i = 0; i < sections.size(); i++) {
            out.append("    private final ").append(sectionClasses.get(i)).append(' ').append(sectionGetters.get(i))
                    .append(" = new ").append(sectionClasses.get(i)).append("();\n");
        }
        out.append("\n    private ").append(className).append("(BpfSkeleton skel) {\n        this.skel = skel;\n    }\n\n");
        out.append("    /** The object's bytes as embedded (a copy). */\n");
        out.append("    public static byte[] elfBytes() {\n        return BpfSkeleton.decode(OBJECT);\n    }\n\n");
        out.append("    /** Opens the embedded object (no system call): configure it, then {@link #load()}. */\n");
        out.append("    public static ").append(className).append(" open() throws BpfObjectException {\n");
        out.append("        return new ").append(className).append("(BpfSkeleton.open(NAME, elfBytes()));\n    }\n\n");
        out.append("    /** {@link #open()} then {@link #load()}. */\n");
        out.append("    public static ").append(className).append(" openAndLoad() throws BpfObjectException {\n");
        out.append("        ").append(className).append(" s = open();\n        try {\n            s.load();\n")
                .append("            return s;\n        } catch (BpfObjectException | RuntimeException e) {\n")
                .append("            s.close();\n            throw e;\n        }\n    }\n\n");
        out.append("    /** Loads maps and programs into the kernel; every autoload program must load. */\n");
        out.append("    public void load() throws BpfObjectException {\n        skel.load();\n    }\n\n");
        out.append("    /** Loads with {@code options} (kernel BTF, verifier log level). */\n");
        out.append("    public void load(LoadOptions options) throws BpfObjectException {\n        skel.load(options);\n    }\n\n");
        out.append("    /** Attaches every program whose section says where it runs (BpfSkeleton.attach). */\n");
        out.append("    public void attach() throws BpfObjectException {\n        skel.attach();\n    }\n\n");
        out.append("    /** Detaches what {@link #attach()} attached. */\n");
        out.append("    public void detach() {\n        skel.detach();\n    }\n\n");
        out.append("    /** Detaches and unloads; the global data views must not be used after. */\n");
        out.append("    @Override\n    public void close() {\n        skel.close();\n    }\n\n");
        out.append("    /** The loader's skeleton and object, for what this class does not wrap. */\n");
        out.append("    public BpfSkeleton skeleton() {\n        return skel;\n    }\n\n");
        out.append("    public BpfObject object() {\n        return skel.object();\n    }\n\n");
        out.append("    /** The programs. */\n    public Progs progs() {\n        return progs;\n    }\n\n");
        out.append("    /** The maps. */\n    public Maps maps() {\n        return maps;\n    }\n");
        for (int i = 0; i < sections.size(); i++) {
            out.append("\n    /** The variables of {@code ").append(sectionName(sections.get(i))).append("}. */\n");
            out.append("    public ").append(sectionClasses.get(i)).append(' ').append(sectionGetters.get(i))
                    .append("() {\n        return ").append(sectionGetters.get(i)).append(";\n    }\n");
        }
        progs();
        maps();
        for (int i = 0; i < sections.size(); i++) {
            section(sections.get(i), sectionClasses.get(i));
        }
        out.append(types);
        out.append("}\n");
        return out.toString();
    }

    private void embed() {
        String b64 = Base64.getEncoder().encodeToString(image);
        out.append("    private static final String NAME = \"").append(objName).append("\";\n");
        out.append("    /** The object file, base64. */\n");
        out.append("    private static final String[] OBJECT = {\n");
        for (int c = 0; c < b64.length(); c += CHUNK) {
            String chunk = b64.substring(c, Math.min(b64.length(), c + CHUNK));
            for (int l = 0; l < chunk.length(); l += 76) {
                out.append(l == 0 ? "        \"" : "            + \"").append(chunk, l, Math.min(chunk.length(), l + 76))
                        .append("\"\n");
            }
            out.append(c + CHUNK < b64.length() ? "        ,\n" : "");
        }
        out.append("    };\n\n");
    }

    private void progs() {
        out.append("\n    /** The object's programs, by name. */\n    public final class Progs {\n");
        Set<String> scope = new HashSet<>();
        for (BpfProgram p : object.programs()) {
            String m = member(p.name(), scope);
            out.append("        /** {@code ").append(p.name()).append("}, section {@code ").append(p.sectionName())
                    .append("}. */\n");
            out.append("        public BpfProgram ").append(m).append("() {\n            return skel.program(\"")
                    .append(p.name()).append("\");\n        }\n\n");
        }
        trimBlank();
        out.append("    }\n");
    }

    private void maps() throws BpfObjectException {
        out.append("\n    /** The object's maps, by name (global data sections by their section). */\n");
        out.append("    public final class Maps {\n");
        Set<String> scope = new HashSet<>();
        for (BpfMap m : object.maps()) {
            String ident = m.internal() == BpfMap.Internal.NONE ? m.name() : sectionIdent(m);
            String meth = member(ident, scope);
            String lookupName = m.internal() == BpfMap.Internal.NONE ? m.name() : sectionName(m);
            if (keyed(m)) {
                String cls = newClassName(ident + "_map");
                out.append("        /** Map {@code ").append(m.name()).append("}, its elements typed. */\n");
                out.append("        public ").append(cls).append(' ').append(meth).append("() {\n            return new ")
                        .append(cls).append("(skel.map(\"").append(lookupName).append("\"));\n        }\n\n");
                keyedMap(m, cls);
            } else {
                out.append("        /** Map {@code ").append(m.name()).append("}. */\n");
                out.append("        public BpfMap ").append(meth).append("() {\n            return skel.map(\"")
                        .append(lookupName).append("\");\n        }\n\n");
            }
        }
        trimBlank();
        out.append("    }\n");
    }

    private void trimBlank() {
        while (out.length() > 2 && out.charAt(out.length() - 1) == '\n' && out.charAt(out.length() - 2) == '\n') {
            out.setLength(out.length() - 1);
        }
    }

    private boolean keyed(BpfMap m) {
        return m.internal() == BpfMap.Internal.NONE && KEYED.contains(m.type()) && m.keySize() > 0 && m.valueSize() > 0;
    }

    /** A map's typed element class: its key and value through their BTF types, else as bytes. */
    private void keyedMap(BpfMap m, String cls) {
        JType k = jtype(m.btfKeyTypeId(), m.keySize());
        JType v = jtype(m.btfValueTypeId(), m.valueSize());
        boolean perCpu = m.perCpu();
        String vt = perCpu ? "java.util.List<" + v.boxed + ">" : v.boxed;
        StringBuilder t = types;
        t.append("\n    /** Map {@code ").append(m.name()).append("}: ").append(k.java).append(" keys, ")
                .append(perCpu ? "a " + v.java + " value per possible CPU" : v.java + " values").append(". */\n");
        t.append("    public static final class ").append(cls).append(" {\n");
        t.append("        private final BpfMap map;\n\n");
        t.append("        ").append(cls).append("(BpfMap map) {\n            this.map = map;\n        }\n\n");
        t.append("        /** The loader's map (fd, sizes, raw lookups). */\n");
        t.append("        public BpfMap map() {\n            return map;\n        }\n\n");
        t.append("        private static byte[] encodeKey(").append(k.java).append(" k) {\n");
        t.append("            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(").append(m.keySize())
                .append(").order(java.nio.ByteOrder.LITTLE_ENDIAN);\n");
        t.append("            ").append(k.write("b", "0", "k")).append(";\n            return b.array();\n        }\n\n");
        t.append("        private static ").append(k.java).append(" decodeKey(byte[] raw) {\n");
        t.append("            java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(raw).order(java.nio.ByteOrder.LITTLE_ENDIAN);\n");
        t.append("            return ").append(k.read("b", "0")).append(";\n        }\n\n");
        String stride = perCpu ? String.valueOf((m.valueSize() + 7) & ~7) : String.valueOf(m.valueSize());
        t.append("        private ").append(vt).append(" decodeValue(byte[] raw) {\n");
        t.append("            java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(raw).order(java.nio.ByteOrder.LITTLE_ENDIAN);\n");
        if (perCpu) {
            t.append("            java.util.List<").append(v.boxed).append("> l = new java.util.ArrayList<>();\n");
            t.append("            for (int o = 0; o + ").append(stride).append(" <= raw.length; o += ").append(stride)
                    .append(") {\n                l.add(").append(v.read("b", "o")).append(");\n            }\n");
            t.append("            return l;\n        }\n\n");
        } else {
            t.append("            return ").append(v.read("b", "0")).append(";\n        }\n\n");
        }
        t.append("        private byte[] encodeValue(").append(vt).append(" v) {\n");
        t.append("            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(map.elementValueSize())"
                + ".order(java.nio.ByteOrder.LITTLE_ENDIAN);\n");
        if (perCpu) {
            t.append("            if (v.size() * ").append(stride).append(" != b.capacity()) {\n")
                    .append("                throw new IllegalArgumentException(\"map '").append(m.name())
                    .append("': one value per possible CPU (\" + b.capacity() / ").append(stride)
                    .append(" + \"), not \" + v.size());\n            }\n");
            t.append("            int o = 0;\n            for (").append(v.boxed).append(" e : v) {\n                ")
                    .append(v.write("b", "o", "e")).append(";\n                o += ").append(stride)
                    .append(";\n            }\n");
        } else {
            t.append("            ").append(v.write("b", "0", "v")).append(";\n");
        }
        t.append("            return b.array();\n        }\n\n");
        t.append("        /** The value of {@code k}, null when the map has none. */\n");
        t.append("        public ").append(vt).append(" lookup(").append(k.java).append(" k) throws BpfObjectException {\n");
        t.append("            byte[] raw = map.lookup(encodeKey(k));\n            return raw == null ? null : decodeValue(raw);\n        }\n\n");
        t.append("        /** Sets {@code k} to {@code v} (BPF_ANY). */\n");
        t.append("        public void update(").append(k.java).append(" k, ").append(vt)
                .append(" v) throws BpfObjectException {\n");
        t.append("            map.update(encodeKey(k), encodeValue(v), BpfMap.BPF_ANY);\n        }\n\n");
        t.append("        /** Deletes {@code k}: false when there was none (an array's elements cannot be deleted). */\n");
        t.append("        public boolean delete(").append(k.java).append(" k) throws BpfObjectException {\n");
        t.append("            return map.delete(encodeKey(k));\n        }\n\n");
        t.append("        /** Every element, in the kernel's key order (a key deleted meanwhile is skipped). */\n");
        t.append("        public java.util.Map<").append(k.boxed).append(", ").append(vt)
                .append("> entries() throws BpfObjectException {\n");
        t.append("            java.util.Map<").append(k.boxed).append(", ").append(vt)
                .append("> all = new java.util.LinkedHashMap<>();\n");
        t.append("            for (byte[] raw = map.nextKey(null); raw != null; raw = map.nextKey(raw)) {\n");
        t.append("                byte[] v = map.lookup(raw);\n                if (v != null) {\n")
                .append("                    all.put(decodeKey(raw), decodeValue(v));\n                }\n            }\n");
        t.append("            return all;\n        }\n    }\n");
    }

    // ---- global data sections ----

    /** The DATASEC of a global data map the skeleton exposes (mmapable, as bpftool's codegen_datasecs), else null. */
    private BtfType.DataSec dataSection(BpfMap m) {
        BpfMap.Internal i = m.internal();
        if (btf == null || !m.mmapable() || (i != BpfMap.Internal.DATA && i != BpfMap.Internal.RODATA
                && i != BpfMap.Internal.BSS)) {
            return null;
        }
        int id = m.btfValueTypeId();
        return id > 0 && btf.kind(id) == BtfKind.DATASEC ? (BtfType.DataSec) btf.type(id) : null;
    }

    private String sectionName(BpfMap m) {
        BtfType.DataSec ds = m.btfValueTypeId() > 0 && btf != null && btf.kind(m.btfValueTypeId()) == BtfKind.DATASEC
                ? (BtfType.DataSec) btf.type(m.btfValueTypeId()) : null;
        if (ds != null) {
            return ds.name();
        }
        switch (m.internal()) {
            case DATA: return ".data";
            case RODATA: return ".rodata";
            case BSS: return ".bss";
            case KCONFIG: return ".kconfig";
            default: return m.name();
        }
    }

    /** bpftool's get_map_ident of an internal map: its section without the leading '.', other dots '_'. */
    private String sectionIdent(BpfMap m) {
        String s = sectionName(m);
        return (s.startsWith(".") ? s.substring(1) : s).replace('.', '_');
    }

    private void section(BpfMap m, String cls) {
        BtfType.DataSec ds = dataSection(m);
        String sec = ds.name();
        boolean ro = m.internal() == BpfMap.Internal.RODATA;
        StringBuilder t = types;
        t.append("\n    /**\n     * The variables of {@code ").append(sec).append("}: ")
                .append(ro ? "set them between open() and load(); read-only after load."
                        : "before load the initial values, after load the kernel's map itself (mapped).")
                .append("\n     */\n");
        t.append("    public final class ").append(cls).append(" {\n");
        t.append("        private java.nio.ByteBuffer b() {\n            try {\n                return skel.map(\"")
                .append(sec).append("\").globalData();\n            } catch (BpfObjectException e) {\n")
                .append("                throw new IllegalStateException(e.getMessage(), e);\n            }\n        }\n");
        Set<String> scope = new HashSet<>(Set.of("b"));
        for (BtfType.VarSecInfo vsi : ds.vars()) {
            if (!(btf.type(vsi.type()) instanceof BtfType.Var var) || var.linkage() == 0) {
                continue; // static variables are not in a skeleton, as bpftool's
            }
            JType jt = jtype(var.type(), vsi.size());
            String getter = member(var.name(), scope);
            String setter = "set" + Character.toUpperCase(getter.charAt(0)) + getter.substring(1);
            scope.add(setter);
            String off = String.valueOf(vsi.offset());
            t.append("\n        /** {@code ").append(var.name()).append("} at offset ").append(vsi.offset()).append(" (").append(vsi.size())
                    .append(" bytes). */\n");
            t.append("        public ").append(jt.java).append(' ').append(getter).append("() {\n            return ")
                    .append(jt.read("b()", off)).append(";\n        }\n\n");
            t.append("        /** Sets {@code ").append(var.name()).append("}").append(ro ? " (before load only)" : "")
                    .append(". */\n");
            t.append("        public void ").append(setter).append('(').append(jt.java).append(" v) {\n            ")
                    .append(jt.write("b()", off, "v")).append(";\n        }\n");
        }
        t.append("    }\n");
    }

    // ---- types ----

    /** How a BTF type is held in Java: its type, boxed type, and how it is read and written at an offset. */
    private abstract static class JType {
        final String java;
        final String boxed;

        JType(String java, String boxed) {
            this.java = java;
            this.boxed = boxed;
        }

        abstract String read(String buf, String off);

        abstract String write(String buf, String off, String value);
    }

    private static JType simple(String java, String boxed, String getter, String putter) {
        return new JType(java, boxed) {
            String read(String b, String o) {
                return b + "." + getter + "(" + o + ")";
            }

            String write(String b, String o, String v) {
                return b + "." + putter + "(" + o + ", " + v + ")";
            }
        };
    }

    private static JType bytes(int n) {
        return new JType("byte[]", "byte[]") {
            String read(String b, String o) {
                return "BpfSkeleton.bytes(" + b + ", " + o + ", " + n + ")";
            }

            String write(String b, String o, String v) {
                return "BpfSkeleton.putBytes(" + b + ", " + o + ", " + n + ", " + v + ")";
            }
        };
    }

    private static JType integer(int size, boolean bool) {
        if (bool && size == 1) {
            return new JType("boolean", "Boolean") {
                String read(String b, String o) {
                    return "(" + b + ".get(" + o + ") != 0)";
                }

                String write(String b, String o, String v) {
                    return b + ".put(" + o + ", (byte) (" + v + " ? 1 : 0))";
                }
            };
        }
        switch (size) {
            case 1: return simple("byte", "Byte", "get", "put");
            case 2: return simple("short", "Short", "getShort", "putShort");
            case 4: return simple("int", "Integer", "getInt", "putInt");
            case 8: return simple("long", "Long", "getLong", "putLong");
            default: return bytes(size);
        }
    }

    /** Through typedefs and modifiers to the type that has a layout (0: void). */
    private int resolve(int id) {
        for (int i = 0; i < 64 && id > 0; i++) {
            BtfKind k = btf.kind(id);
            if (k == BtfKind.TYPEDEF || k == BtfKind.VOLATILE || k == BtfKind.CONST || k == BtfKind.RESTRICT
                    || k == BtfKind.TYPE_TAG || k == BtfKind.VAR || k == BtfKind.DECL_TAG) {
                BtfType t = btf.type(id);
                id = t instanceof BtfType.Ref r ? r.type() : t instanceof BtfType.Var v ? v.type()
                        : t instanceof BtfType.DeclTag d ? d.type() : 0;
            } else {
                return id;
            }
        }
        return id;
    }

    /** Through modifiers only (a typedef such as __u8 says bytes, not characters). */
    private int unqualified(int id) {
        for (int i = 0; i < 64 && id > 0; i++) {
            BtfKind k = btf.kind(id);
            if (k == BtfKind.VOLATILE || k == BtfKind.CONST || k == BtfKind.RESTRICT || k == BtfKind.TYPE_TAG) {
                id = ((BtfType.Ref) btf.type(id)).type();
            } else {
                return id;
            }
        }
        return id;
    }

    private long size(int id) {
        id = resolve(id);
        if (id <= 0) {
            return 0;
        }
        BtfType t = btf.type(id);
        if (t instanceof BtfType.Int i) {
            return i.size();
        } else if (t instanceof BtfType.Composite c) {
            return c.size();
        } else if (t instanceof BtfType.Enum e) {
            return e.size();
        } else if (t instanceof BtfType.Float f) {
            return f.size();
        } else if (t instanceof BtfType.Array a) {
            return (long) a.nelems() * size(a.elemType());
        } else if (t.kind() == BtfKind.PTR) {
            return 8;
        }
        return 0;
    }

    /** The Java type of BTF type {@code id} of {@code size} bytes (bytes when there is no BTF or no layout). */
    private JType jtype(int id, long size) {
        if (btf == null || id <= 0) {
            return bytes((int) size);
        }
        int r = resolve(id);
        BtfType t = r > 0 ? btf.type(r) : null;
        if (t instanceof BtfType.Int i) {
            return integer(i.size(), (i.encoding() & BtfType.Int.BOOL) != 0);
        } else if (t instanceof BtfType.Enum e) {
            return integer(e.size(), false);
        } else if (t instanceof BtfType.Float f) {
            return f.size() == 4 ? simple("float", "Float", "getFloat", "putFloat")
                    : f.size() == 8 ? simple("double", "Double", "getDouble", "putDouble") : bytes(f.size());
        } else if (t != null && t.kind() == BtfKind.PTR) {
            return simple("long", "Long", "getLong", "putLong");
        } else if (t instanceof BtfType.Array a) {
            return array(r, a);
        } else if (t instanceof BtfType.Composite c) {
            String rec = record(r, c);
            return new JType(rec, rec) {
                String read(String b, String o) {
                    return rec + ".read(" + b + ", " + o + ")";
                }

                String write(String b, String o, String v) {
                    return v + ".write(" + b + ", " + o + ")";
                }
            };
        }
        return bytes((int) size);
    }

    private JType array(int id, BtfType.Array a) {
        int n = a.nelems();
        long elemSize = size(a.elemType());
        int e = unqualified(a.elemType());
        if (e > 0 && btf.type(e) instanceof BtfType.Int ei && ei.size() == 1
                && ((ei.encoding() & BtfType.Int.CHAR) != 0 || ei.name().equals("char"))) {
            return new JType("String", "String") {
                String read(String b, String o) {
                    return "BpfSkeleton.string(" + b + ", " + o + ", " + n + ")";
                }

                String write(String b, String o, String v) {
                    return "BpfSkeleton.putString(" + b + ", " + o + ", " + n + ", " + v + ")";
                }
            };
        }
        JType elem = jtype(a.elemType(), elemSize);
        if (elem.java.equals("byte") || elemSize == 0) {
            return bytes((int) (n * elemSize));
        }
        String java = elem.java + "[]";
        String codec = "array" + id;
        if (arrayCodecs.add(id)) {
            StringBuilder t = types;
            String base = elem.java.contains("[") ? elem.java.substring(0, elem.java.indexOf('[')) + "[" + n + "]"
                    + elem.java.substring(elem.java.indexOf('[')) : elem.java + "[" + n + "]";
            t.append("\n    private static ").append(java).append(" read").append(codec)
                    .append("(java.nio.ByteBuffer b, int o) {\n");
            t.append("        ").append(java).append(" a = new ").append(base).append(";\n");
            t.append("        for (int i = 0; i < ").append(n).append("; i++) {\n            a[i] = ")
                    .append(elem.read("b", "o + i * " + elemSize)).append(";\n        }\n        return a;\n    }\n");
            t.append("\n    private static void write").append(codec).append("(java.nio.ByteBuffer b, int o, ").append(java)
                    .append(" a) {\n");
            t.append("        if (a.length != ").append(n).append(") {\n")
                    .append("            throw new IllegalArgumentException(\"an array of ").append(n)
                    .append(" elements, not \" + a.length);\n        }\n");
            t.append("        for (int i = 0; i < ").append(n).append("; i++) {\n            ")
                    .append(elem.write("b", "o + i * " + elemSize, "a[i]")).append(";\n        }\n    }\n");
        }
        return new JType(java, java) {
            String read(String b, String o) {
                return "read" + codec + "(" + b + ", " + o + ")";
            }

            String write(String b, String o, String v) {
                return "write" + codec + "(" + b + ", " + o + ", " + v + ")";
            }
        };
    }

    /** A record for a struct or union, declared once per BTF id. */
    private String record(int id, BtfType.Composite c) {
        String name = recordNames.get(id);
        if (name != null) {
            return name;
        }
        name = newClassName(c.name().isEmpty() ? (c.kind() == BtfKind.UNION ? "union" : "struct") + id : c.name());
        recordNames.put(id, name);
        boolean union = c.kind() == BtfKind.UNION;
        Set<String> scope = new HashSet<>();
        List<String> fields = new ArrayList<>();
        List<String> reads = new ArrayList<>();
        List<String> writes = new ArrayList<>();
        List<String> javaTypes = new ArrayList<>();
        Map<String, String> docs = new LinkedHashMap<>();
        int anon = 0;
        for (BtfType.Member mem : c.members()) {
            String f = member(mem.name().isEmpty() ? "anon" + anon++ : mem.name(), scope);
            if (mem.bitfieldSize() > 0) {
                JType jt = integer((int) Math.max(1, size(mem.type())), false);
                String prim = jt.java.equals("byte[]") ? "long" : jt.java;
                boolean signed = signedInt(mem.type());
                reads.add("(" + prim + ") BpfSkeleton.bits(b, o * 8 + " + mem.bitOffset() + ", " + mem.bitfieldSize()
                        + ", " + signed + ")");
                writes.add("BpfSkeleton.putBits(b, o * 8 + " + mem.bitOffset() + ", " + mem.bitfieldSize() + ", " + f + ")");
                javaTypes.add(prim);
            } else {
                long off = mem.bitOffset() / 8;
                JType jt = jtype(mem.type(), size(mem.type()));
                reads.add(jt.read("b", "o + " + off));
                writes.add(jt.write("b", "o + " + off, f));
                javaTypes.add(jt.java);
            }
            fields.add(f);
            docs.put(f, mem.name());
        }
        StringBuilder t = new StringBuilder();
        t.append("\n    /** {@code ").append(union ? "union " : "struct ").append(c.name().isEmpty() ? "(anonymous)" : c.name())
                .append("} (").append(c.size()).append(" bytes)")
                .append(union ? ": reads every member, writes the first" : "").append(". */\n");
        t.append("    public record ").append(name).append('(');
        for (int i = 0; i < fields.size(); i++) {
            t.append(i == 0 ? "" : ", ").append(javaTypes.get(i)).append(' ').append(fields.get(i));
        }
        t.append(") {\n");
        t.append("        /** The size in bytes. */\n        public static final int SIZE = ").append(c.size()).append(";\n\n");
        t.append("        /** Reads one at {@code o}. */\n");
        t.append("        public static ").append(name).append(" read(java.nio.ByteBuffer b, int o) {\n");
        t.append("            return new ").append(name).append('(');
        for (int i = 0; i < reads.size(); i++) {
            t.append(i == 0 ? "" : ",\n                    ").append(reads.get(i));
        }
        t.append(");\n        }\n\n");
        t.append("        /** Writes this at {@code o}. */\n");
        t.append("        public void write(java.nio.ByteBuffer b, int o) {\n");
        for (int i = 0; i < writes.size() && (!union || i < 1); i++) {
            t.append("            ").append(writes.get(i)).append(";\n");
        }
        t.append("        }\n    }\n");
        types.append(t);
        return name;
    }

    private boolean signedInt(int id) {
        int r = resolve(id);
        BtfType t = r > 0 ? btf.type(r) : null;
        return t instanceof BtfType.Int i ? (i.encoding() & BtfType.Int.SIGNED) != 0
                : t instanceof BtfType.Enum e && e.signed();
    }
}
