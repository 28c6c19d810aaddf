package dev.jperf.bpf;

import dev.jperf.format.btf.Btf;
import dev.jperf.format.btf.BtfCDump;
import dev.jperf.format.btf.BtfKind;
import dev.jperf.format.btf.BtfType;
import dev.jperf.loader.BpfMap;
import dev.jperf.loader.BpfObject;
import dev.jperf.loader.BpfObjectException;
import dev.jperf.loader.BpfProgram;
import dev.jperf.loader.BtfTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * bpftool 7.1's {@code gen skeleton FILE [name NAME]}: gen.c's do_skeleton, the C header over
 * libbpf's bpf_object_skeleton, byte for byte (its codegen templates with their baseline tabs and
 * trailing blanks removed, the object as print_hex escapes it, the global data sections as
 * btf_dump declares their variables, bpftool's 32-bit padding rule and its size asserts).
 */
public final class CSkeleton {
    private static final String[] MAP_SUFFIXES = {".data", ".rodata", ".bss", ".kconfig"};

    private final BpfObject obj;
    private final Btf btf;
    private final String name;
    private final StringBuilder out = new StringBuilder();
    private final StringBuilder err;

    private CSkeleton(BpfObject obj, String name, StringBuilder err) {
        this.obj = obj;
        this.btf = obj.btf();
        this.name = name;
        this.err = err;
    }

    /**
     * The header for {@code image} under object name {@code name}; bpftool's p_err lines for maps
     * it ignores go to {@code err} (without "Error: ").
     */
    public static String generate(byte[] image, String name, List<String> errors) throws BpfObjectException {
        BpfObject o = BpfObject.open(name, image);
        if (hasLegacyMaps(name, image)) {
            o.close();
            throw new BpfObjectException(LEGACY_MAPS, EOPNOTSUPP);
        }
        try {
            StringBuilder e = new StringBuilder();
            String s = new CSkeleton(o, name, e).source(image);
            e.toString().lines().forEach(errors::add);
            return s;
        } finally {
            o.close();
        }
    }

    static final int EOPNOTSUPP = 95;
    /** What libbpf 1.x says of an object with a {@code maps} section (jperf's loader takes them, as perf's objects need). */
    static final String LEGACY_MAPS = "libbpf: elf: legacy map definitions in 'maps' section are not supported by libbpf v1.0+";

    private static boolean hasLegacyMaps(String name, byte[] image) {
        try {
            return dev.jperf.format.elf.ElfFile.of(name, image).section("maps").isPresent();
        } catch (dev.jperf.format.elf.ElfException e) {
            return false;
        }
    }

    /** sanitize_identifier: characters other than letters, digits and '_' as '_'. */
    static String sanitize(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            b.append(c < 128 && (Character.isLetterOrDigit(c) || c == '_') ? c : '_');
        }
        return b.toString();
    }

    /** get_map_ident: a map's own name, an internal map's from its section suffix on; null when neither. */
    static String mapIdent(BpfMap m) {
        if (m.internal() == BpfMap.Internal.NONE) {
            return m.name();
        }
        for (String sfx : MAP_SUFFIXES) {
            int p = m.name().indexOf(sfx);
            if (p >= 0) {
                return sanitize(m.name().substring(p + 1));
            }
        }
        return null;
    }

    /** get_datasec_ident. */
    private static String datasecIdent(String secName) {
        for (String pfx : MAP_SUFFIXES) {
            if (secName.startsWith(pfx)) {
                return sanitize(secName.substring(1));
            }
        }
        return null;
    }

    /**
     * is_internal_mmapable_map under libbpf 1.1, which bpftool 7.1 carries: every internal map is
     * created BPF_F_MMAPABLE there (later libbpf, and jperf's loader, only those with a non-static
     * variable), so every one gets a section struct, empty or not.
     */
    private static boolean internalMmapable(BpfMap m) {
        return m.internal() != BpfMap.Internal.NONE && mapIdent(m) != null;
    }

    private BtfType.DataSec findTypeForMap(String ident) {
        for (int id = 1; id <= btf.lastId(); id++) {
            if (btf.kind(id) != BtfKind.DATASEC) {
                continue;
            }
            String si = datasecIdent(btf.name(id));
            if (si != null && si.equals(ident)) {
                return (BtfType.DataSec) btf.type(id);
            }
        }
        return null;
    }

    private String source(byte[] image) {
        List<BpfMap> maps = new ArrayList<>();
        for (BpfMap m : obj.maps()) {
            if (mapIdent(m) == null) {
                err.append("ignoring unrecognized internal map '").append(m.name()).append("'...\n");
                continue;
            }
            maps.add(m);
        }
        List<BpfProgram> progs = obj.programs();
        String guard = ("__" + name + "_SKEL_H__").toUpperCase(Locale.ROOT);
        String n = name;
        out.append("/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */\n\n/* THIS FILE IS AUTOGENERATED BY BPFTOOL! */\n")
                .append("#ifndef ").append(guard).append("\n#define ").append(guard).append("\n\n")
                .append("#include <errno.h>\n#include <stdlib.h>\n#include <bpf/libbpf.h>\n\n")
                .append("struct ").append(n).append(" {\n\tstruct bpf_object_skeleton *skeleton;\n\tstruct bpf_object *obj;\n");
        if (!maps.isEmpty()) {
            out.append("\tstruct {\n");
            for (BpfMap m : maps) {
                out.append("\t\tstruct bpf_map *").append(mapIdent(m)).append(";\n");
            }
            out.append("\t} maps;\n");
        }
        if (!progs.isEmpty()) {
            out.append("\tstruct {\n");
            for (BpfProgram p : progs) {
                out.append("\t\tstruct bpf_program *").append(p.name()).append(";\n");
            }
            out.append("\t} progs;\n\tstruct {\n");
            for (BpfProgram p : progs) {
                out.append("\t\tstruct bpf_link *").append(p.name()).append(";\n");
            }
            out.append("\t} links;\n");
        }
        if (btf != null) {
            datasecs();
        }
        out.append(String.join("\n",
                "",
                "#ifdef __cplusplus",
                "\tstatic inline struct %1$s *open(const struct bpf_object_open_opts *opts = nullptr);",
                "\tstatic inline struct %1$s *open_and_load();",
                "\tstatic inline int load(struct %1$s *skel);",
                "\tstatic inline int attach(struct %1$s *skel);",
                "\tstatic inline void detach(struct %1$s *skel);",
                "\tstatic inline void destroy(struct %1$s *skel);",
                "\tstatic inline const void *elf_bytes(size_t *sz);",
                "#endif /* __cplusplus */",
                "};",
                "",
                "static void",
                "%1$s__destroy(struct %1$s *obj)",
                "{",
                "\tif (!obj)",
                "\t\treturn;",
                "\tif (obj->skeleton)",
                "\t\tbpf_object__destroy_skeleton(obj->skeleton);",
                "\tfree(obj);",
                "}",
                "",
                "static inline int",
                "%1$s__create_skeleton(struct %1$s *obj);",
                "",
                "static inline struct %1$s *",
                "%1$s__open_opts(const struct bpf_object_open_opts *opts)",
                "{",
                "\tstruct %1$s *obj;",
                "\tint err;",
                "",
                "\tobj = (struct %1$s *)calloc(1, sizeof(*obj));",
                "\tif (!obj) {",
                "\t\terrno = ENOMEM;",
                "\t\treturn NULL;",
                "\t}",
                "",
                "\terr = %1$s__create_skeleton(obj);",
                "\tif (err)",
                "\t\tgoto err_out;",
                "",
                "\terr = bpf_object__open_skeleton(obj->skeleton, opts);",
                "\tif (err)",
                "\t\tgoto err_out;",
                "",
                "\treturn obj;",
                "err_out:",
                "\t%1$s__destroy(obj);",
                "\terrno = -err;",
                "\treturn NULL;",
                "}",
                "",
                "static inline struct %1$s *",
                "%1$s__open(void)",
                "{",
                "\treturn %1$s__open_opts(NULL);",
                "}",
                "",
                "static inline int",
                "%1$s__load(struct %1$s *obj)",
                "{",
                "\treturn bpf_object__load_skeleton(obj->skeleton);",
                "}",
                "",
                "static inline struct %1$s *",
                "%1$s__open_and_load(void)",
                "{",
                "\tstruct %1$s *obj;",
                "\tint err;",
                "",
                "\tobj = %1$s__open();",
                "\tif (!obj)",
                "\t\treturn NULL;",
                "\terr = %1$s__load(obj);",
                "\tif (err) {",
                "\t\t%1$s__destroy(obj);",
                "\t\terrno = -err;",
                "\t\treturn NULL;",
                "\t}",
                "\treturn obj;",
                "}",
                "",
                "static inline int",
                "%1$s__attach(struct %1$s *obj)",
                "{",
                "\treturn bpf_object__attach_skeleton(obj->skeleton);",
                "}",
                "",
                "static inline void",
                "%1$s__detach(struct %1$s *obj)",
                "{",
                "\tbpf_object__detach_skeleton(obj->skeleton);",
                "}",
                "",
                "static inline const void *%1$s__elf_bytes(size_t *sz);",
                "",
                "static inline int",
                "%1$s__create_skeleton(struct %1$s *obj)",
                "{",
                "\tstruct bpf_object_skeleton *s;",
                "\tint err;",
                "",
                "\ts = (struct bpf_object_skeleton *)calloc(1, sizeof(*s));",
                "\tif (!s)\t{",
                "\t\terr = -ENOMEM;",
                "\t\tgoto err;",
                "\t}",
                "",
                "\ts->sz = sizeof(*s);",
                "\ts->name = \"%1$s\";",
                "\ts->obj = &obj->obj;",
                "").replace("%1$s", n));
        if (!maps.isEmpty()) {
            out.append("\n\t/* maps */\n\ts->map_cnt = ").append(maps.size()).append(";\n")
                    .append("\ts->map_skel_sz = sizeof(*s->maps);\n")
                    .append("\ts->maps = (struct bpf_map_skeleton *)calloc(s->map_cnt, s->map_skel_sz);\n")
                    .append("\tif (!s->maps) {\n\t\terr = -ENOMEM;\n\t\tgoto err;\n\t}\n");
            for (int i = 0; i < maps.size(); i++) {
                BpfMap m = maps.get(i);
                out.append("\n\ts->maps[").append(i).append("].name = \"").append(m.name()).append("\";\n")
                        .append("\ts->maps[").append(i).append("].map = &obj->maps.").append(mapIdent(m)).append(";\n");
                if (internalMmapable(m)) {
                    out.append("\ts->maps[").append(i).append("].mmaped = (void **)&obj->").append(mapIdent(m)).append(";\n");
                }
            }
        }
        if (!progs.isEmpty()) {
            out.append("\n\t/* programs */\n\ts->prog_cnt = ").append(progs.size()).append(";\n")
                    .append("\ts->prog_skel_sz = sizeof(*s->progs);\n")
                    .append("\ts->progs = (struct bpf_prog_skeleton *)calloc(s->prog_cnt, s->prog_skel_sz);\n")
                    .append("\tif (!s->progs) {\n\t\terr = -ENOMEM;\n\t\tgoto err;\n\t}\n");
            for (int i = 0; i < progs.size(); i++) {
                String p = progs.get(i).name();
                out.append("\n\ts->progs[").append(i).append("].name = \"").append(p).append("\";\n")
                        .append("\ts->progs[").append(i).append("].prog = &obj->progs.").append(p).append(";\n")
                        .append("\ts->progs[").append(i).append("].link = &obj->links.").append(p).append(";\n");
            }
        }
        out.append("\n\ts->data = (void *)").append(n).append("__elf_bytes(&s->data_sz);\n\n")
                .append("\tobj->skeleton = s;\n\treturn 0;\nerr:\n\tbpf_object__destroy_skeleton(s);\n\treturn err;\n}\n\n")
                .append("static inline const void *").append(n).append("__elf_bytes(size_t *sz)\n{\n")
                .append("\t*sz = ").append(image.length).append(";\n\treturn (const void *)\"\\\n");
        printHex(image);
        out.append(String.join("\n",
                "\";",
                "}",
                "",
                "#ifdef __cplusplus",
                "struct %1$s *%1$s::open(const struct bpf_object_open_opts *opts) { return %1$s__open_opts(opts); }",
                "struct %1$s *%1$s::open_and_load() { return %1$s__open_and_load(); }",
                "int %1$s::load(struct %1$s *skel) { return %1$s__load(skel); }",
                "int %1$s::attach(struct %1$s *skel) { return %1$s__attach(skel); }",
                "void %1$s::detach(struct %1$s *skel) { %1$s__detach(skel); }",
                "void %1$s::destroy(struct %1$s *skel) { %1$s__destroy(skel); }",
                "const void *%1$s::elf_bytes(size_t *sz) { return %1$s__elf_bytes(sz); }",
                "#endif /* __cplusplus */",
                "",
                "").replace("%1$s", n));
        if (btf != null) {
            asserts();
        }
        out.append("\n#endif /* ").append(guard).append(" */\n");
        return out.toString();
    }

    /** print_hex: every byte as {@code \0} or {@code \xNN}, a line continued before it would pass 78 columns. */
    private void printHex(byte[] data) {
        int len = 0;
        for (byte b : data) {
            int w = b != 0 ? 4 : 2;
            len += w;
            if (len > 78) {
                out.append("\\\n");
                len = w;
            }
            if (b == 0) {
                out.append("\\0");
            } else {
                out.append("\\x").append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
            }
        }
    }

    // ---- codegen_datasecs ----

    private void datasecs() {
        BtfCDump d = new BtfCDump(btf, out);
        for (BpfMap m : obj.maps()) {
            if (!internalMmapable(m)) {
                continue;
            }
            String ident = mapIdent(m);
            BtfType.DataSec sec = findTypeForMap(ident);
            if (sec == null) {
                out.append("\tstruct ").append(name).append("__").append(ident).append(" {\n\t} *").append(ident).append(";\n");
            } else {
                datasecDef(d, sec);
            }
        }
    }

    private void datasecDef(BtfCDump d, BtfType.DataSec sec) {
        String secIdent = datasecIdent(sec.name());
        if (secIdent == null) {
            return;
        }
        boolean stripMods = !sec.name().equals(".kconfig");
        out.append("\tstruct ").append(name).append("__").append(secIdent).append(" {\n");
        int off = 0;
        int pad = 0;
        for (BtfType.VarSecInfo v : sec.vars()) {
            BtfType.Var var = (BtfType.Var) btf.type(v.type());
            if (var.linkage() == 0) {
                continue; // static variables are not exposed through a skeleton
            }
            int align = Math.min(BtfTypes.alignOf(btf, var.type()), 4);
            int alignOff = align <= 0 ? off : (off + align - 1) / align * align;
            if (alignOff != v.offset()) {
                out.append("\t\tchar __pad").append(pad++).append('[').append(v.offset() - off).append("];\n");
            }
            out.append("\t\t");
            d.emitTypeDecl(var.type(), sanitize(var.name()), 2, stripMods);
            out.append(";\n");
            off = v.offset() + v.size();
        }
        out.append("\t} *").append(secIdent).append(";\n");
    }

    /** codegen_asserts: the size of every exposed variable, checked by the C compiler. */
    private void asserts() {
        out.append("__attribute__((unused)) static void\n").append(name).append("__assert(struct ").append(name)
                .append(" *s __attribute__((unused)))\n{\n#ifdef __cplusplus\n#define _Static_assert static_assert\n#endif\n");
        for (BpfMap m : obj.maps()) {
            if (!internalMmapable(m)) {
                continue;
            }
            String ident = mapIdent(m);
            BtfType.DataSec sec = findTypeForMap(ident);
            if (sec == null) {
                continue;
            }
            for (BtfType.VarSecInfo v : sec.vars()) {
                BtfType.Var var = (BtfType.Var) btf.type(v.type());
                if (var.linkage() == 0) {
                    continue;
                }
                long size = BtfTypes.resolveSize(btf, var.type());
                if (size < 0) {
                    continue;
                }
                String vi = sanitize(var.name());
                out.append("\t_Static_assert(sizeof(s->").append(ident).append("->").append(vi).append(") == ").append(size)
                        .append(", \"unexpected size of '").append(vi).append("'\");\n");
            }
        }
        out.append("#ifdef __cplusplus\n#undef _Static_assert\n#endif\n}\n");
    }
}
