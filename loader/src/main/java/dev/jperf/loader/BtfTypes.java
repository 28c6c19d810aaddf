package dev.jperf.loader;

import dev.jperf.nativeshim.Errno;
import dev.jperf.format.btf.Btf;
import dev.jperf.format.btf.BtfException;
import dev.jperf.format.btf.BtfKind;
import dev.jperf.format.btf.BtfType;

/**
 * libbpf's BTF walks (btf.c, libbpf_internal.h) over format's {@link Btf}: every walk is bounded,
 * so BTF with reference loops or ids out of range ends in an error, never a hang. Pointers are a
 * BPF object's, 8 bytes. {@link #resolveSize} and {@link #alignOf} serve other modules too (bpf's
 * skeletons).
 */
public final class BtfTypes {
    /** libbpf's MAX_RESOLVE_DEPTH. */
    static final int MAX_RESOLVE_DEPTH = 32;
    static final int BTF_INT_SIGNED = 1;
    static final int BTF_INT_BOOL = 4;
    // BTF_VAR_* and BTF_FUNC_* linkage
    static final int BTF_VAR_STATIC = 0;
    static final int BTF_VAR_GLOBAL_ALLOCATED = 1;
    static final int BTF_VAR_GLOBAL_EXTERN = 2;
    static final int BTF_FUNC_STATIC = 0;
    static final int BTF_FUNC_GLOBAL = 1;
    static final int BTF_FUNC_EXTERN = 2;

    private BtfTypes() {
    }

    static boolean valid(Btf btf, int id) {
        return id >= 0 && id <= btf.lastId();
    }

    static BtfKind kind(Btf btf, int id) {
        if (!valid(btf, id)) {
            throw new BtfException("BTF type id " + id + " out of range (last id " + btf.lastId() + ")");
        }
        return btf.kind(id);
    }

    static boolean isModifierOrTypedef(BtfKind k) {
        return k == BtfKind.TYPEDEF || k == BtfKind.VOLATILE || k == BtfKind.CONST || k == BtfKind.RESTRICT
                || k == BtfKind.TYPE_TAG;
    }

    /** skip_mods_and_typedefs: the id reached past CONST/VOLATILE/RESTRICT/TYPEDEF/TYPE_TAG, or -1 for a loop or bad id. */
    static int skipModsAndTypedefs(Btf btf, int id) {
        for (int depth = 0; depth <= MAX_RESOLVE_DEPTH; depth++) {
            if (!valid(btf, id)) {
                return -1;
            }
            if (id == 0 || !isModifierOrTypedef(btf.kind(id))) {
                return id;
            }
            id = ((BtfType.Ref) btf.type(id)).type();
        }
        return -1;
    }

    static boolean isComposite(BtfKind k) {
        return k == BtfKind.STRUCT || k == BtfKind.UNION;
    }

    static boolean isAnyEnum(BtfKind k) {
        return k == BtfKind.ENUM || k == BtfKind.ENUM64;
    }

    /**
     * btf__resolve_size: the byte size of type {@code id} (modifiers, typedefs and variables
     * followed, arrays multiplied out), or a negative errno.
     */
    public static long resolveSize(Btf btf, int id) {
        long nelems = 1;
        long size = -1;
        for (int i = 0; i < MAX_RESOLVE_DEPTH && id != 0; i++) {
            if (!valid(btf, id)) {
                return -Errno.EINVAL;
            }
            BtfType t = btf.type(id);
            switch (t.kind()) {
                case INT: case STRUCT: case UNION: case ENUM: case ENUM64: case DATASEC: case FLOAT:
                    size = sizeOf(t);
                    return finish(size, nelems);
                case PTR:
                    return finish(8, nelems);
                case TYPEDEF: case VOLATILE: case CONST: case RESTRICT: case TYPE_TAG:
                    id = ((BtfType.Ref) t).type();
                    break;
                case VAR:
                    id = ((BtfType.Var) t).type();
                    break;
                case DECL_TAG:
                    id = ((BtfType.DeclTag) t).type();
                    break;
                case ARRAY: {
                    long n = Integer.toUnsignedLong(((BtfType.Array) t).nelems());
                    if (nelems != 0 && n > 0xffffffffL / nelems) {
                        return -Errno.E2BIG;
                    }
                    nelems *= n;
                    id = ((BtfType.Array) t).elemType();
                    break;
                }
                default:
                    return -Errno.EINVAL;
            }
        }
        return -Errno.EINVAL;
    }

    private static long finish(long size, long nelems) {
        if (size < 0) {
            return -Errno.EINVAL;
        }
        if (nelems != 0 && size > 0xffffffffL / nelems) {
            return -Errno.E2BIG;
        }
        return nelems * size;
    }

    /** struct btf_type's size field of a sized kind (INT, STRUCT, UNION, ENUM, ENUM64, DATASEC, FLOAT). */
    static long sizeOf(BtfType t) {
        int size = 0;
        if (t instanceof BtfType.Int i) {
            size = i.size();
        } else if (t instanceof BtfType.Composite c) {
            size = c.size();
        } else if (t instanceof BtfType.Enum e) {
            size = e.size();
        } else if (t instanceof BtfType.DataSec d) {
            size = d.size();
        } else if (t instanceof BtfType.Float f) {
            size = f.size();
        }
        return Integer.toUnsignedLong(size);
    }

    /**
     * btf__align_of: the alignment of type {@code id} (1 for a struct or union laid out packed), or
     * a negative errno for a type without one.
     */
    public static int alignOf(Btf btf, int id) {
        for (int depth = 0; depth < MAX_RESOLVE_DEPTH; depth++) {
            if (!valid(btf, id) || id == 0) {
                return -Errno.EINVAL;
            }
            BtfType t = btf.type(id);
            switch (t.kind()) {
                case INT: case ENUM: case ENUM64: case FLOAT:
                    return (int) Math.min(8, sizeOf(t));
                case PTR:
                    return 8;
                case TYPEDEF: case VOLATILE: case CONST: case RESTRICT: case TYPE_TAG:
                    id = ((BtfType.Ref) t).type();
                    break;
                case ARRAY:
                    id = ((BtfType.Array) t).elemType();
                    break;
                case STRUCT: case UNION: {
                    BtfType.Composite c = (BtfType.Composite) t;
                    int max = 1;
                    for (BtfType.Member m : c.members()) {
                        int a = alignOf(btf, m.type());
                        if (a < 0) {
                            return a;
                        }
                        max = Math.max(max, a);
                        // a member off its type's alignment: the struct is packed
                        if (m.bitfieldSize() == 0 && m.bitOffset() % (8L * a) != 0) {
                            return 1;
                        }
                    }
                    return sizeOf(t) % max != 0 ? 1 : max;
                }
                default:
                    return -Errno.EINVAL;
            }
        }
        return -Errno.EINVAL;
    }

    /** libbpf's bpf_core_essential_name_len: the length before a "___flavor" suffix. */
    static int essentialNameLen(String name) {
        int n = name.length();
        for (int i = n - 5; i >= 0; i--) {
            if (name.charAt(i) != '_' && name.charAt(i + 1) == '_' && name.charAt(i + 2) == '_'
                    && name.charAt(i + 3) == '_' && name.charAt(i + 4) != '_') {
                return i + 1;
            }
        }
        return n;
    }

    /** btf_kind_core_compat: same kind, or both enums. */
    static boolean kindCoreCompat(BtfKind a, BtfKind b) {
        return a == b || (isAnyEnum(a) && isAnyEnum(b));
    }
}
