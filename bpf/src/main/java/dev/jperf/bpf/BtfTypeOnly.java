package dev.jperf.bpf;

import dev.jperf.format.btf.Btf;
import dev.jperf.format.btf.BtfException;
import dev.jperf.format.btf.BtfType;

/**
 * bpftool's btf_dumper_type_only: a type as bpftool writes a C declaration of it
 * ({@code int handle_exec(struct trace_event_raw_sched_process_exec * ctx)}), spaces and all;
 * empty when bpftool's 1024-byte buffer would not hold it or a type cannot be printed.
 */
final class BtfTypeOnly {
    private static final int SIZE = 1024;
    private static final int MAX_DEPTH = 64;

    private final Btf btf;
    private final StringBuilder sb = new StringBuilder();

    private BtfTypeOnly(Btf btf) {
        this.btf = btf;
    }

    static String of(Btf btf, int typeId) {
        if (btf == null) {
            return "";
        }
        BtfTypeOnly t = new BtfTypeOnly(btf);
        try {
            return t.type(typeId, 0) ? t.sb.toString() : "";
        } catch (BtfException e) {
            return ""; // an id or string out of range: nothing, as bpftool prints for its errors
        }
    }

    /** BTF_PRINT_ARG: false once the text would not fit bpftool's buffer. */
    private boolean arg(String s) {
        sb.append(s);
        return sb.length() < SIZE;
    }

    private boolean type(int id, int depth) {
        if (id == 0) {
            return arg("void ");
        }
        if (depth > MAX_DEPTH || id < 0 || id > btf.lastId()) {
            return false;
        }
        BtfType t = btf.type(id);
        switch (t.kind()) {
            case INT:
            case TYPEDEF:
            case FLOAT:
                return arg(t.name() + " ");
            case STRUCT:
                return arg("struct " + t.name() + " ");
            case UNION:
                return arg("union " + t.name() + " ");
            case ENUM:
            case ENUM64:
                return arg("enum " + t.name() + " ");
            case ARRAY: {
                BtfType.Array a = (BtfType.Array) t;
                return type(a.elemType(), depth + 1) && arg("[" + a.nelems() + "]");
            }
            case PTR:
                return type(((BtfType.Ref) t).type(), depth + 1) && arg("* ");
            case FWD:
                return arg((((BtfType.Fwd) t).union() ? "union" : "struct") + " " + t.name() + " ");
            case VOLATILE:
                return arg("volatile ") && type(((BtfType.Ref) t).type(), depth + 1);
            case CONST:
                return arg("const ") && type(((BtfType.Ref) t).type(), depth + 1);
            case RESTRICT:
                return arg("restrict ") && type(((BtfType.Ref) t).type(), depth + 1);
            case FUNC_PROTO:
                return func((BtfType.FuncProto) t, null, depth);
            case FUNC: {
                int proto = ((BtfType.Func) t).type();
                if (proto <= 0 || proto > btf.lastId() || !(btf.type(proto) instanceof BtfType.FuncProto p)) {
                    return false;
                }
                return func(p, t.name(), depth);
            }
            case VAR: {
                BtfType.Var v = (BtfType.Var) t;
                return (v.linkage() != 0 || arg("static ")) && type(v.type(), depth + 1) && arg(" " + t.name());
            }
            case DATASEC:
                return arg("section (\"" + t.name() + "\") ");
            default:
                return false;
        }
    }

    /** btf_dump_func. */
    private boolean func(BtfType.FuncProto proto, String name, int depth) {
        if (!type(proto.returnType(), depth + 1) || !arg(name != null ? name + "(" : "(")) {
            return false;
        }
        for (int i = 0; i < proto.params().size(); i++) {
            BtfType.Param p = proto.params().get(i);
            if (i > 0 && !arg(", ")) {
                return false;
            }
            if (p.type() != 0) {
                if (!type(p.type(), depth + 1)) {
                    return false;
                }
                if (!p.name().isEmpty()) {
                    if (!arg(p.name())) {
                        return false;
                    }
                } else if (sb.length() > 0 && sb.charAt(sb.length() - 1) == ' ') {
                    sb.setLength(sb.length() - 1); // no space before a ',' or ')' of an unnamed parameter
                }
            } else if (!arg("...")) {
                return false;
            }
        }
        return arg(")");
    }
}
