package dev.jperf.format.btf;

import dev.jperf.format.json.JsonWriter;

/**
 * bpftool's {@code btf dump ... format raw} (btf.c's dump_btf_raw/dump_btf_type): every type of
 * a BTF, or some roots, a line per type and a tab-indented line per member, value, parameter or
 * variable; with JSON, {@code {"types": [...]}}. Values are printed with bpftool's C types, e.g.
 * an enum's signed 32-bit value widened to an unsigned 64-bit JSON number when the enum is
 * unsigned, as bpftool's {@code jsonw_uint_field} call does.
 */
public final class BtfRawDump {
    private final Btf btf;
    private final JsonWriter jw;
    private final boolean json;
    private final StringBuilder out;

    public BtfRawDump(Btf btf, JsonWriter jw, boolean json) {
        this.btf = btf;
        this.jw = jw;
        this.json = json;
        this.out = jw.out();
    }

    /** dump_btf_raw: {@code roots}, or (none given) every type of this BTF without its base's; {@code between} runs after each type. */
    public void dump(int[] roots, Runnable between) {
        if (json) {
            jw.startObject();
            jw.name("types");
            jw.startArray();
        }
        if (roots.length > 0) {
            for (int id : roots) {
                type(id);
                between.run();
            }
        } else {
            for (int id = btf.firstId(); id <= btf.lastId(); id++) {
                type(id);
                between.run();
            }
        }
        if (json) {
            jw.endArray();
            jw.endObject();
        }
    }

    private static final String[] KIND = {"UNKNOWN", "INT", "PTR", "ARRAY", "STRUCT", "UNION", "ENUM", "FWD", "TYPEDEF",
        "VOLATILE", "CONST", "RESTRICT", "FUNC", "FUNC_PROTO", "VAR", "DATASEC", "FLOAT", "DECL_TAG", "TYPE_TAG", "ENUM64"};

    /** btf_str: "(anon)" for offset 0. */
    private String str(int off) {
        if (off == 0) {
            return "(anon)";
        }
        try {
            return btf.string(off);
        } catch (BtfException e) {
            return "(invalid)";
        }
    }

    private int w(int id, int i) {
        return btf.word(id, i);
    }

    private static String u(int v) {
        return Integer.toUnsignedString(v);
    }

    private void type(int id) {
        if (id < 0 || id > btf.lastId()) {
            throw new BtfException("BTF type id " + Integer.toUnsignedString(id) + " out of range (last id " + btf.lastId() + ")");
        }
        BtfKind kind = btf.kind(id);
        String name = id == 0 ? "(anon)" : str(w(id, 0));
        int info = id == 0 ? 0 : w(id, 1);
        int vlen = info & 0xffff;
        boolean kflag = info < 0;
        String kindStr = KIND[kind.number()];
        if (json) {
            jw.startObject();
            jw.uintField("id", Integer.toUnsignedLong(id));
            jw.stringField("kind", kindStr);
            jw.stringField("name", name);
        } else {
            out.append('[').append(u(id)).append("] ").append(kindStr).append(" '").append(name).append('\'');
        }
        switch (kind) {
            case INT: {
                int v = w(id, 3);
                int encBits = (v & 0x0f000000) >>> 24;
                String enc = encBits == 0 ? "(none)" : encBits == 1 ? "SIGNED" : encBits == 2 ? "CHAR" : encBits == 4 ? "BOOL" : "UNKN";
                if (json) {
                    jw.uintField("size", Integer.toUnsignedLong(w(id, 2)));
                    jw.uintField("bits_offset", (v >>> 16) & 0xff);
                    jw.uintField("nr_bits", v & 0xff);
                    jw.stringField("encoding", enc);
                } else {
                    out.append(" size=").append(u(w(id, 2))).append(" bits_offset=").append((v >>> 16) & 0xff)
                            .append(" nr_bits=").append(v & 0xff).append(" encoding=").append(enc);
                }
                break;
            }
            case PTR, CONST, VOLATILE, RESTRICT, TYPEDEF, TYPE_TAG:
                if (json) {
                    jw.uintField("type_id", Integer.toUnsignedLong(w(id, 2)));
                } else {
                    out.append(" type_id=").append(u(w(id, 2)));
                }
                break;
            case ARRAY:
                if (json) {
                    jw.uintField("type_id", Integer.toUnsignedLong(w(id, 3)));
                    jw.uintField("index_type_id", Integer.toUnsignedLong(w(id, 4)));
                    jw.uintField("nr_elems", Integer.toUnsignedLong(w(id, 5)));
                } else {
                    out.append(" type_id=").append(u(w(id, 3))).append(" index_type_id=").append(u(w(id, 4)))
                            .append(" nr_elems=").append(u(w(id, 5)));
                }
                break;
            case STRUCT, UNION: {
                if (json) {
                    jw.uintField("size", Integer.toUnsignedLong(w(id, 2)));
                    jw.uintField("vlen", vlen);
                    jw.name("members");
                    jw.startArray();
                } else {
                    out.append(" size=").append(u(w(id, 2))).append(" vlen=").append(vlen);
                }
                for (int i = 0; i < vlen; i++) {
                    String m = str(w(id, 3 + 3 * i));
                    int type = w(id, 4 + 3 * i);
                    int off = w(id, 5 + 3 * i);
                    int bitOff = kflag ? off & 0xffffff : off;
                    int bitSz = kflag ? off >>> 24 : 0;
                    if (json) {
                        jw.startObject();
                        jw.stringField("name", m);
                        jw.uintField("type_id", Integer.toUnsignedLong(type));
                        jw.uintField("bits_offset", Integer.toUnsignedLong(bitOff));
                        if (bitSz != 0) {
                            jw.uintField("bitfield_size", bitSz);
                        }
                        jw.endObject();
                    } else {
                        out.append("\n\t'").append(m).append("' type_id=").append(u(type)).append(" bits_offset=").append(u(bitOff));
                        if (bitSz != 0) {
                            out.append(" bitfield_size=").append(bitSz);
                        }
                    }
                }
                if (json) {
                    jw.endArray();
                }
                break;
            }
            case ENUM, ENUM64: {
                boolean is64 = kind == BtfKind.ENUM64;
                String encoding = kflag ? "SIGNED" : "UNSIGNED";
                if (json) {
                    jw.stringField("encoding", encoding);
                    jw.uintField("size", Integer.toUnsignedLong(w(id, 2)));
                    jw.uintField("vlen", vlen);
                    jw.name("values");
                    jw.startArray();
                } else {
                    out.append(" encoding=").append(encoding).append(" size=").append(u(w(id, 2))).append(" vlen=").append(vlen);
                }
                for (int i = 0; i < vlen; i++) {
                    String v = str(w(id, 3 + (is64 ? 3 : 2) * i));
                    // btf_enum's val is a __s32, widened as C widens it: sign-extended into the u64 JSON field
                    long val = is64 ? Integer.toUnsignedLong(w(id, 4 + 3 * i)) | ((long) w(id, 5 + 3 * i) << 32)
                            : w(id, 4 + 2 * i);
                    if (json) {
                        jw.startObject();
                        jw.stringField("name", v);
                        if (kflag) {
                            jw.intField("val", val);
                        } else {
                            jw.uintField("val", val);
                        }
                        jw.endObject();
                    } else {
                        out.append("\n\t'").append(v).append("' val=");
                        if (is64) {
                            out.append(kflag ? Long.toString(val) + "LL" : Long.toUnsignedString(val) + "ULL");
                        } else {
                            out.append(kflag ? Long.toString(val) : Integer.toUnsignedString((int) val));
                        }
                    }
                }
                if (json) {
                    jw.endArray();
                }
                break;
            }
            case FWD: {
                String fwd = kflag ? "union" : "struct";
                if (json) {
                    jw.stringField("fwd_kind", fwd);
                } else {
                    out.append(" fwd_kind=").append(fwd);
                }
                break;
            }
            case FUNC: {
                String linkage = vlen == 0 ? "static" : vlen == 1 ? "global" : vlen == 2 ? "extern" : "(unknown)";
                if (json) {
                    jw.uintField("type_id", Integer.toUnsignedLong(w(id, 2)));
                    jw.stringField("linkage", linkage);
                } else {
                    out.append(" type_id=").append(u(w(id, 2))).append(" linkage=").append(linkage);
                }
                break;
            }
            case FUNC_PROTO: {
                if (json) {
                    jw.uintField("ret_type_id", Integer.toUnsignedLong(w(id, 2)));
                    jw.uintField("vlen", vlen);
                    jw.name("params");
                    jw.startArray();
                } else {
                    out.append(" ret_type_id=").append(u(w(id, 2))).append(" vlen=").append(vlen);
                }
                for (int i = 0; i < vlen; i++) {
                    String p = str(w(id, 3 + 2 * i));
                    int type = w(id, 4 + 2 * i);
                    if (json) {
                        jw.startObject();
                        jw.stringField("name", p);
                        jw.uintField("type_id", Integer.toUnsignedLong(type));
                        jw.endObject();
                    } else {
                        out.append("\n\t'").append(p).append("' type_id=").append(u(type));
                    }
                }
                if (json) {
                    jw.endArray();
                }
                break;
            }
            case VAR: {
                int l = w(id, 3);
                String linkage = l == 0 ? "static" : l == 1 ? "global" : l == 2 ? "extern" : "(unknown)";
                if (json) {
                    jw.uintField("type_id", Integer.toUnsignedLong(w(id, 2)));
                    jw.stringField("linkage", linkage);
                } else {
                    out.append(" type_id=").append(u(w(id, 2))).append(", linkage=").append(linkage);
                }
                break;
            }
            case DATASEC: {
                if (json) {
                    jw.uintField("size", Integer.toUnsignedLong(w(id, 2)));
                    jw.uintField("vlen", vlen);
                    jw.name("vars");
                    jw.startArray();
                } else {
                    out.append(" size=").append(u(w(id, 2))).append(" vlen=").append(vlen);
                }
                for (int i = 0; i < vlen; i++) {
                    int type = w(id, 3 + 3 * i);
                    int offset = w(id, 4 + 3 * i);
                    int size = w(id, 5 + 3 * i);
                    if (json) {
                        jw.startObject();
                        jw.uintField("type_id", Integer.toUnsignedLong(type));
                        jw.uintField("offset", Integer.toUnsignedLong(offset));
                        jw.uintField("size", Integer.toUnsignedLong(size));
                        jw.endObject();
                    } else {
                        out.append("\n\ttype_id=").append(u(type)).append(" offset=").append(u(offset)).append(" size=").append(u(size));
                        if (Integer.compareUnsigned(type, btf.lastId() + 1) < 0) {
                            out.append(" (").append(KIND[btf.kind(type).number()]).append(" '")
                                    .append(type == 0 ? "(anon)" : str(w(type, 0))).append("')");
                        }
                    }
                }
                if (json) {
                    jw.endArray();
                }
                break;
            }
            case FLOAT:
                if (json) {
                    jw.uintField("size", Integer.toUnsignedLong(w(id, 2)));
                } else {
                    out.append(" size=").append(u(w(id, 2)));
                }
                break;
            case DECL_TAG:
                if (json) {
                    jw.uintField("type_id", Integer.toUnsignedLong(w(id, 2)));
                    jw.intField("component_idx", w(id, 3));
                } else {
                    out.append(" type_id=").append(u(w(id, 2))).append(" component_idx=").append(w(id, 3));
                }
                break;
            default:
                break;
        }
        if (json) {
            jw.endObject();
        } else {
            out.append('\n');
        }
    }
}
