package dev.jperf.loader;

import dev.jperf.format.btf.Btf;
import dev.jperf.format.btf.BtfKind;
import dev.jperf.format.btf.BtfType;
import dev.jperf.nativeshim.Errno;
import java.util.List;

/**
 * Whether a candidate type satisfies a local spec, as libbpf's relo_core matches them: the
 * access path followed by member name (through anonymous members) and array index for field
 * relocations, the enumerator by essential name for enum values, and type compatibility
 * ({@code bpf_core_types_are_compat}) or shape ({@code bpf_core_types_match}) for type relocations.
 * "No match" is {@code false}; BTF that cannot be followed is a {@link CoreError}.
 */
final class CoreMatch {
    private static final int MAX_TYPE_DEPTH = 32;

    private CoreMatch() {
    }

    /** bpf_core_spec_match: fills {@code targ} (a fresh spec on the candidate) when the candidate matches. */
    static boolean spec(CoreSpec local, CoreSpec targ) throws CoreError {
        Btf tb = targ.btf;
        if (CoreRelo.typeBased(local.kind)) {
            if (local.kind == CoreRelo.BPF_CORE_TYPE_MATCHES) {
                return typesMatch(local.btf, local.rootTypeId, tb, targ.rootTypeId, false, MAX_TYPE_DEPTH);
            }
            return typesAreCompat(local.btf, local.rootTypeId, tb, targ.rootTypeId, MAX_TYPE_DEPTH);
        }
        CoreSpec.Accessor localAcc = local.accessors[0];
        if (CoreRelo.enumvalBased(local.kind)) {
            return enumValue(localAcc, targ);
        }
        if (!CoreRelo.fieldBased(local.kind)) {
            throw new CoreError(Errno.EINVAL);
        }
        int targId = targ.rootTypeId;
        for (int i = 0; i < local.len; i++) {
            localAcc = local.accessors[i];
            int tid = skip(tb, targId);
            if (localAcc.name() != null) {
                int next = member(local.btf, localAcc, tb, tid, targ, 0);
                if (next < 0) {
                    return false;
                }
                targId = next;
                continue;
            }
            targId = tid;
            if (i > 0) {
                if (!(tb.type(tid) instanceof BtfType.Array a)) {
                    return false;
                }
                boolean flex = CoreSpec.isFlexArray(tb, targ.last(), a);
                if (!flex && Integer.toUnsignedLong(localAcc.idx()) >= Integer.toUnsignedLong(a.nelems())) {
                    return false;
                }
                targId = skip(tb, a.elemType());
            }
            targ.addRaw(localAcc.idx());
            targ.add(new CoreSpec.Accessor(targId, localAcc.idx(), null));
            targ.bitOffset += localAcc.idx() * CoreSpec.size(tb, targId) * 8;
        }
        return true;
    }

    private static boolean enumValue(CoreSpec.Accessor localAcc, CoreSpec targ) throws CoreError {
        Btf tb = targ.btf;
        int tid = BtfTypes.skipModsAndTypedefs(tb, targ.rootTypeId);
        if (tid <= 0 || !(tb.type(tid) instanceof BtfType.Enum e)) {
            return false;
        }
        int localLen = BtfTypes.essentialNameLen(localAcc.name());
        for (int i = 0; i < e.values().size(); i++) {
            String tn = e.values().get(i).name();
            if (BtfTypes.essentialNameLen(tn) == localLen && localAcc.name().regionMatches(0, tn, 0, localLen)) {
                targ.add(new CoreSpec.Accessor(tid, i, tn));
                targ.addRaw(i);
                return true;
            }
        }
        return false;
    }

    /**
     * bpf_core_match_member: the local member found by name in target type {@code targId}, through
     * anonymous members; its accessor and raw indices added to {@code spec}. Returns the member's
     * type id (the next step's target), or -1 when there is no compatible member of that name (a
     * same-named member of an incompatible type leaves its raw index behind, as libbpf's does).
     */
    private static int member(Btf local, CoreSpec.Accessor localAcc, Btf tb, int targId, CoreSpec spec, int depth)
            throws CoreError {
        if (depth > CoreSpec.BPF_CORE_SPEC_MAX_LEN) {
            throw new CoreError(Errno.E2BIG);
        }
        int tid = skip(tb, targId);
        if (!(tb.type(tid) instanceof BtfType.Composite tc)) {
            return -1;
        }
        BtfType.Member localMember = ((BtfType.Composite) local.type(localAcc.typeId())).members().get(localAcc.idx());
        String localName = localMember.name();
        List<BtfType.Member> ms = tc.members();
        for (int i = 0; i < ms.size(); i++) {
            BtfType.Member m = ms.get(i);
            long bitOff = Integer.toUnsignedLong(m.bitOffset());
            spec.addRaw(i);
            spec.bitOffset += bitOff;
            if (m.name().isEmpty()) {
                int found = member(local, localAcc, tb, m.type(), spec, depth + 1);
                if (found >= 0) {
                    return found;
                }
            } else if (localName.equals(m.name())) {
                if (!fieldsAreCompat(local, localMember.type(), tb, m.type())) {
                    return -1;
                }
                spec.add(new CoreSpec.Accessor(tid, i, m.name()));
                return m.type();
            }
            spec.bitOffset -= bitOff;
            spec.rawLen--;
        }
        return -1;
    }

    /** bpf_core_fields_are_compat: a member's type in the target can stand for the local one. */
    static boolean fieldsAreCompat(Btf lb, int lid, Btf tb, int tid) throws CoreError {
        for (int depth = 0; depth < BtfTypes.MAX_RESOLVE_DEPTH; depth++) {
            lid = skip(lb, lid);
            tid = skip(tb, tid);
            BtfKind lk = lb.kind(lid);
            BtfKind tk = tb.kind(tid);
            if (BtfTypes.isComposite(lk) && BtfTypes.isComposite(tk)) {
                return true;
            }
            if (!BtfTypes.kindCoreCompat(lk, tk)) {
                return false;
            }
            switch (lk) {
                case PTR: case FLOAT:
                    return true;
                case FWD: case ENUM64: case ENUM: {
                    String ln = lb.name(lid);
                    String tn = tb.name(tid);
                    int ll = BtfTypes.essentialNameLen(ln);
                    int tl = BtfTypes.essentialNameLen(tn);
                    return ll == 0 || tl == 0 || (ll == tl && ln.regionMatches(0, tn, 0, ll));
                }
                case INT:
                    return ((BtfType.Int) lb.type(lid)).bitOffset() == 0 && ((BtfType.Int) tb.type(tid)).bitOffset() == 0;
                case ARRAY:
                    lid = ((BtfType.Array) lb.type(lid)).elemType();
                    tid = ((BtfType.Array) tb.type(tid)).elemType();
                    break;
                default:
                    return false;
            }
        }
        throw new CoreError(Errno.EINVAL);
    }

    /** __bpf_core_types_are_compat: also how a func ksym's prototype is checked against the kernel's. */
    static boolean typesAreCompat(Btf lb, int lid, Btf tb, int tid, int level) throws CoreError {
        if (!BtfTypes.valid(lb, lid) || !BtfTypes.valid(tb, tid)) {
            throw new CoreError(Errno.EINVAL);
        }
        if (!BtfTypes.kindCoreCompat(lb.kind(lid), tb.kind(tid))) {
            return false;
        }
        for (int depth = MAX_TYPE_DEPTH; ; ) {
            if (--depth < 0) {
                throw new CoreError(Errno.EINVAL);
            }
            lid = skip(lb, lid);
            tid = skip(tb, tid);
            BtfKind lk = lb.kind(lid);
            if (!BtfTypes.kindCoreCompat(lk, tb.kind(tid))) {
                return false;
            }
            switch (lk) {
                case UNKN: case STRUCT: case UNION: case ENUM: case FWD: case ENUM64:
                    return true;
                case INT:
                    return ((BtfType.Int) lb.type(lid)).bitOffset() == 0 && ((BtfType.Int) tb.type(tid)).bitOffset() == 0;
                case PTR:
                    lid = ((BtfType.Ref) lb.type(lid)).type();
                    tid = ((BtfType.Ref) tb.type(tid)).type();
                    break;
                case ARRAY:
                    lid = ((BtfType.Array) lb.type(lid)).elemType();
                    tid = ((BtfType.Array) tb.type(tid)).elemType();
                    break;
                case FUNC_PROTO: {
                    BtfType.FuncProto lp = (BtfType.FuncProto) lb.type(lid);
                    BtfType.FuncProto tp = (BtfType.FuncProto) tb.type(tid);
                    if (lp.params().size() != tp.params().size()) {
                        return false;
                    }
                    for (int i = 0; i < lp.params().size(); i++) {
                        if (level <= 0) {
                            throw new CoreError(Errno.EINVAL);
                        }
                        int a = skip(lb, lp.params().get(i).type());
                        int b = skip(tb, tp.params().get(i).type());
                        if (!typesAreCompat(lb, a, tb, b, level - 1)) {
                            return false;
                        }
                    }
                    lid = skip(lb, lp.returnType());
                    tid = skip(tb, tp.returnType());
                    break;
                }
                default:
                    return false;
            }
        }
    }

    /** bpf_core_names_match: essential names equal; an anonymous target matches only an anonymous local. */
    private static boolean namesMatch(String local, String targ) {
        if (targ.isEmpty()) {
            return local.isEmpty();
        }
        int tl = BtfTypes.essentialNameLen(targ);
        return tl == BtfTypes.essentialNameLen(local) && local.regionMatches(0, targ, 0, tl);
    }

    /** __bpf_core_types_match (BPF_CORE_TYPE_MATCHES): the local type's shape is found in the target's. */
    static boolean typesMatch(Btf lb, int lid, Btf tb, int tid, boolean behindPtr, int level) throws CoreError {
        if (level <= 0) {
            throw new CoreError(Errno.EINVAL);
        }
        for (int depth = MAX_TYPE_DEPTH; ; ) {
            if (--depth < 0) {
                throw new CoreError(Errno.EINVAL);
            }
            lid = skip(lb, lid);
            tid = skip(tb, tid);
            if (!namesMatch(lb.name(lid), tb.name(tid))) {
                return false;
            }
            BtfKind lk = lb.kind(lid);
            BtfKind tk = tb.kind(tid);
            switch (lk) {
                case UNKN:
                    return lk == tk;
                case FWD: {
                    boolean lf = ((BtfType.Fwd) lb.type(lid)).union();
                    if (behindPtr) {
                        if (lk == tk) {
                            return lf == ((BtfType.Fwd) tb.type(tid)).union();
                        }
                        return (tk == BtfKind.STRUCT && !lf) || (tk == BtfKind.UNION && lf);
                    }
                    return lk == tk && lf == ((BtfType.Fwd) tb.type(tid)).union();
                }
                case ENUM: case ENUM64:
                    return BtfTypes.isAnyEnum(tk) && enumsMatch((BtfType.Enum) lb.type(lid), (BtfType.Enum) tb.type(tid));
                case STRUCT: case UNION: {
                    if (behindPtr) {
                        if (lk == tk) {
                            return true;
                        }
                        return tk == BtfKind.FWD && (lk == BtfKind.UNION) == ((BtfType.Fwd) tb.type(tid)).union();
                    }
                    return lk == tk && membersMatch(lb, (BtfType.Composite) lb.type(lid), tb,
                            (BtfType.Composite) tb.type(tid), behindPtr, level);
                }
                case INT: {
                    if (lk != tk) {
                        return false;
                    }
                    BtfType.Int li = (BtfType.Int) lb.type(lid);
                    BtfType.Int ti = (BtfType.Int) tb.type(tid);
                    return li.size() == ti.size()
                            && (li.encoding() & BtfTypes.BTF_INT_SIGNED) == (ti.encoding() & BtfTypes.BTF_INT_SIGNED);
                }
                case PTR:
                    if (lk != tk) {
                        return false;
                    }
                    behindPtr = true;
                    lid = ((BtfType.Ref) lb.type(lid)).type();
                    tid = ((BtfType.Ref) tb.type(tid)).type();
                    break;
                case ARRAY: {
                    if (lk != tk) {
                        return false;
                    }
                    BtfType.Array la = (BtfType.Array) lb.type(lid);
                    BtfType.Array ta = (BtfType.Array) tb.type(tid);
                    if (la.nelems() != ta.nelems()) {
                        return false;
                    }
                    lid = la.elemType();
                    tid = ta.elemType();
                    break;
                }
                case FUNC_PROTO: {
                    if (lk != tk) {
                        return false;
                    }
                    BtfType.FuncProto lp = (BtfType.FuncProto) lb.type(lid);
                    BtfType.FuncProto tp = (BtfType.FuncProto) tb.type(tid);
                    if (lp.params().size() != tp.params().size()) {
                        return false;
                    }
                    for (int i = 0; i < lp.params().size(); i++) {
                        if (!typesMatch(lb, lp.params().get(i).type(), tb, tp.params().get(i).type(), behindPtr, level - 1)) {
                            return false;
                        }
                    }
                    lid = lp.returnType();
                    tid = tp.returnType();
                    break;
                }
                default:
                    return false;
            }
        }
    }

    /** Every local enumerator's name is among the target's, and the sizes agree. */
    private static boolean enumsMatch(BtfType.Enum le, BtfType.Enum te) {
        if (le.size() != te.size() || le.values().size() > te.values().size()) {
            return false;
        }
        for (BtfType.EnumValue lv : le.values()) {
            boolean matched = false;
            for (BtfType.EnumValue tv : te.values()) {
                if (namesMatch(lv.name(), tv.name())) {
                    matched = true;
                    break;
                }
            }
            if (!matched) {
                return false;
            }
        }
        return true;
    }

    /** Every local member has a target member of the same name whose type matches. */
    private static boolean membersMatch(Btf lb, BtfType.Composite lc, Btf tb, BtfType.Composite tc, boolean behindPtr,
            int level) throws CoreError {
        List<BtfType.Member> lms = lc.members();
        List<BtfType.Member> tms = tc.members();
        if (lms.size() > tms.size()) {
            return false;
        }
        for (BtfType.Member lm : lms) {
            boolean matched = false;
            for (BtfType.Member tm : tms) {
                if (namesMatch(lm.name(), tm.name()) && typesMatch(lb, lm.type(), tb, tm.type(), behindPtr, level - 1)) {
                    matched = true;
                    break;
                }
            }
            if (!matched) {
                return false;
            }
        }
        return true;
    }

    /** skip_mods_and_typedefs, a chain it cannot follow a CO-RE error. */
    private static int skip(Btf btf, int id) throws CoreError {
        int r = BtfTypes.skipModsAndTypedefs(btf, id);
        if (r < 0) {
            throw new CoreError(Errno.EINVAL);
        }
        return r;
    }
}
