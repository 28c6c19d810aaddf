package dev.jperf.loader;

import dev.jperf.nativeshim.Errno;
import dev.jperf.format.btf.Btf;
import dev.jperf.format.btf.BtfKind;
import dev.jperf.format.btf.BtfType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * CO-RE relocations against the kernel's BTF, as libbpf 1.1's relo_core.c computes them: the
 * local access spec is matched against every candidate type of the same essential name; all
 * matching candidates must agree; the instruction's offset, immediate or load size is rewritten,
 * or the instruction poisoned (call 0xbad2310) when nothing matches.
 */
final class CoreRelocator {
    static final int BPF_CORE_SPEC_MAX_LEN = 64;
    /** 0xbad2310: "bad relo", what a poisoned instruction calls. */
    static final int POISON_IMM = 195896080;

    private final Btf local;
    private final KernelBtf target;
    private final Map<Integer, List<Cand>> candCache = new HashMap<>();

    /** struct bpf_core_cand: a target type, in vmlinux's BTF or a module's. */
    record Cand(Btf btf, int id) {
    }

    CoreRelocator(Btf local, KernelBtf target) {
        this.local = local;
        this.target = target;
    }

    /** A failure that fails the whole load, as libbpf's relocate_core does. */
    static final class CoreException extends Exception {
        final int errno;

        CoreException(String msg, int errno) {
            super(msg);
            this.errno = errno;
        }
    }

    record Acc(int typeId, int idx, String name) {
    }

    static final class Spec {
        Btf btf;
        int rootTypeId;
        int kind;
        final int[] rawSpec = new int[BPF_CORE_SPEC_MAX_LEN];
        int rawLen;
        final Acc[] spec = new Acc[BPF_CORE_SPEC_MAX_LEN];
        int len;
        long bitOffset;
    }

    static final class Res {
        long origVal;
        long newVal;
        boolean poison;
        boolean validate;
        boolean failMemszAdjust;
        long origSz;
        long newSz;
        int origTypeId;
        int newTypeId;
    }

    /** Computes and applies relocation {@code r} (#{@code idx}) at instruction {@code insnIdx} of {@code insns}. */
    void relocate(String progName, CoreRelo r, int idx, byte[] insns, int insnIdx) throws CoreException {
        try {
            Res res = calcRelo(progName, r, idx);
            patch(progName, insns, insnIdx, r, idx, res);
        } catch (dev.jperf.format.btf.BtfException | ClassCastException | IndexOutOfBoundsException e) {
            // the object's BTF does not describe what the relocation says it does
            throw fail(progName, idx, "malformed relocation: " + e.getMessage(), Errno.EINVAL);
        }
    }

    private CoreException fail(String progName, int idx, String what, int errno) {
        return new CoreException("prog '" + progName + "': relo #" + idx + ": " + what, errno);
    }

    private Res calcRelo(String progName, CoreRelo relo, int idx) throws CoreException {
        if (!BtfTypes.valid(local, relo.typeId()) || relo.typeId() == 0) {
            throw fail(progName, idx, "bad type id " + relo.typeId(), Errno.EINVAL);
        }
        String localName = local.name(relo.typeId());
        Spec localSpec = new Spec();
        int err = parseSpec(progName, relo, localSpec);
        if (err != 0) {
            throw fail(progName, idx, "parsing [" + relo.typeId() + "] " + local.kind(relo.typeId()) + " "
                    + (localName.isEmpty() ? "<anon>" : localName) + " + " + accessStr(relo) + " failed: " + err, Errno.EINVAL);
        }
        if (relo.kind() == CoreRelo.BPF_CORE_TYPE_ID_LOCAL) {
            Res r = new Res();
            r.validate = false;
            r.origVal = localSpec.rootTypeId;
            r.newVal = localSpec.rootTypeId;
            return r;
        }
        if (localName.isEmpty()) {
            throw fail(progName, idx, "relocation kind " + relo.kind() + " doesn't support anonymous types",
                    Errno.EOPNOTSUPP);
        }
        List<Cand> cands = candidates(relo.typeId());
        Res targRes = null;
        Spec targSpec = null;
        List<Cand> kept = new ArrayList<>();
        for (Cand cand : cands) {
            Spec candSpec = new Spec();
            int m = specMatch(localSpec, cand.btf(), cand.id(), candSpec);
            if (m < 0) {
                throw fail(progName, idx, "error matching candidate [" + cand.id() + "]: " + m, -m);
            }
            if (m == 0) {
                continue;
            }
            Res candRes = calc(progName, relo, idx, localSpec, candSpec);
            if (targRes == null) {
                targRes = candRes;
                targSpec = candSpec;
            } else if (candSpec.bitOffset != targSpec.bitOffset) {
                throw fail(progName, idx, "field offset ambiguity: " + candSpec.bitOffset + " != " + targSpec.bitOffset,
                        Errno.EINVAL);
            } else if (candRes.poison != targRes.poison || candRes.newVal != targRes.newVal) {
                throw fail(progName, idx, "relocation decision ambiguity: " + candRes.newVal + " != " + targRes.newVal,
                        Errno.EINVAL);
            }
            kept.add(cand);
        }
        if (!kept.isEmpty()) {
            candCache.put(relo.typeId(), kept);
        }
        if (targRes == null) {
            targRes = calc(progName, relo, idx, localSpec, null);
        }
        return targRes;
    }

    private String accessStr(CoreRelo r) {
        try {
            return local.string(r.accessStrOff());
        } catch (RuntimeException e) {
            return "<?>";
        }
    }

    /**
     * bpf_core_find_cands: kernel types of a compatible kind with the same essential name, in
     * vmlinux; only when vmlinux has none, in the modules' BTF.
     */
    private List<Cand> candidates(int localId) {
        List<Cand> c = candCache.get(localId);
        if (c != null) {
            return c;
        }
        String name = local.name(localId);
        String essential = name.substring(0, BtfTypes.essentialNameLen(name));
        BtfKind lk = local.kind(localId);
        List<Cand> out = new ArrayList<>();
        for (int id : target.byEssentialName(essential)) {
            if (BtfTypes.kindCoreCompat(target.btf.kind(id), lk)) {
                out.add(new Cand(target.btf, id));
            }
        }
        if (out.isEmpty()) {
            for (Btf mod : target.modules()) {
                for (int id = mod.firstId(); id <= mod.lastId(); id++) {
                    String n = mod.name(id);
                    if (!n.isEmpty() && BtfTypes.kindCoreCompat(mod.kind(id), lk)
                            && BtfTypes.essentialNameLen(n) == essential.length() && n.startsWith(essential)) {
                        out.add(new Cand(mod, id));
                    }
                }
            }
        }
        candCache.put(localId, out);
        return out;
    }

    // ---- bpf_core_parse_spec ----

    private int parseSpec(String progName, CoreRelo relo, Spec spec) {
        String s;
        try {
            s = local.string(relo.accessStrOff());
        } catch (RuntimeException e) {
            return -Errno.EINVAL;
        }
        if (s.isEmpty() || s.charAt(0) == ':') {
            return -Errno.EINVAL;
        }
        spec.btf = local;
        spec.rootTypeId = relo.typeId();
        spec.kind = relo.kind();
        if (relo.typeBased()) {
            return s.equals("0") ? 0 : -Errno.EINVAL;
        }
        int p = 0;
        while (p < s.length()) {
            if (s.charAt(p) == ':') {
                p++;
            }
            int start = p;
            if (p < s.length() && (s.charAt(p) == '-' || s.charAt(p) == '+')) {
                p++;
            }
            while (p < s.length() && Character.isDigit(s.charAt(p))) {
                p++;
            }
            if (start == p || p - start > 10) {
                return -Errno.EINVAL;
            }
            if (spec.rawLen == BPF_CORE_SPEC_MAX_LEN) {
                return -Errno.E2BIG;
            }
            long v = Long.parseLong(s.substring(start, p));
            spec.rawSpec[spec.rawLen++] = (int) v;
        }
        if (spec.rawLen == 0) {
            return -Errno.EINVAL;
        }
        int id = BtfTypes.skipModsAndTypedefs(local, relo.typeId());
        if (id < 0) {
            return -Errno.EINVAL;
        }
        int accessIdx = spec.rawSpec[0];
        BtfType t = local.type(id);
        spec.spec[0] = new Acc(id, accessIdx, null);
        spec.len++;
        if (relo.enumvalBased()) {
            if (!(t instanceof BtfType.Enum e) || spec.rawLen > 1 || accessIdx < 0 || accessIdx >= e.values().size()) {
                return -Errno.EINVAL;
            }
            spec.spec[0] = new Acc(id, accessIdx, e.values().get(accessIdx).name());
            return 0;
        }
        if (!relo.fieldBased()) {
            return -Errno.EINVAL;
        }
        long sz = BtfTypes.resolveSize(local, id);
        if (sz < 0) {
            return (int) sz;
        }
        spec.bitOffset = accessIdx * sz * 8;
        for (int i = 1; i < spec.rawLen; i++) {
            id = BtfTypes.skipModsAndTypedefs(local, id);
            if (id <= 0) {
                return -Errno.EINVAL;
            }
            t = local.type(id);
            accessIdx = spec.rawSpec[i];
            if (t instanceof BtfType.Composite c) {
                if (accessIdx < 0 || accessIdx >= c.members().size()) {
                    return -Errno.EINVAL;
                }
                BtfType.Member m = c.members().get(accessIdx);
                spec.bitOffset += Integer.toUnsignedLong(m.bitOffset());
                if (!m.name().isEmpty()) {
                    spec.spec[spec.len++] = new Acc(id, accessIdx, m.name());
                }
                id = m.type();
            } else if (t instanceof BtfType.Array a) {
                int elem = BtfTypes.skipModsAndTypedefs(local, a.elemType());
                if (elem < 0) {
                    return -Errno.EINVAL;
                }
                id = elem;
                boolean flex = isFlexArr(local, spec.spec[spec.len - 1], a);
                if (accessIdx < 0 || (!flex && Integer.toUnsignedLong(accessIdx) >= Integer.toUnsignedLong(a.nelems()))) {
                    return -Errno.EINVAL;
                }
                if (spec.len == BPF_CORE_SPEC_MAX_LEN) {
                    return -Errno.E2BIG;
                }
                spec.spec[spec.len++] = new Acc(id, accessIdx, null);
                sz = BtfTypes.resolveSize(local, id);
                if (sz < 0) {
                    return (int) sz;
                }
                spec.bitOffset += accessIdx * sz * 8;
            } else {
                return -Errno.EINVAL;
            }
        }
        return 0;
    }

    private static boolean isFlexArr(Btf btf, Acc acc, BtfType.Array arr) {
        if (acc.name() == null || arr.nelems() > 0) {
            return false;
        }
        BtfType t = btf.type(acc.typeId());
        return t instanceof BtfType.Composite c && acc.idx() == c.members().size() - 1;
    }

    // ---- matching ----

    private int specMatch(Spec localSpec, Btf tb, int targId, Spec targ) {
        targ.btf = tb;
        targ.rootTypeId = targId;
        targ.kind = localSpec.kind;
        if (isTypeBased(localSpec.kind)) {
            if (localSpec.kind == CoreRelo.BPF_CORE_TYPE_MATCHES) {
                return typesMatch(local, localSpec.rootTypeId, tb, targId, false, 32);
            }
            return typesAreCompat(local, localSpec.rootTypeId, tb, targId, 32);
        }
        Acc localAcc = localSpec.spec[0];
        if (isEnumvalBased(localSpec.kind)) {
            int tid = BtfTypes.skipModsAndTypedefs(tb, targId);
            if (tid <= 0 || !(tb.type(tid) instanceof BtfType.Enum e)) {
                return 0;
            }
            int localLen = BtfTypes.essentialNameLen(localAcc.name());
            for (int i = 0; i < e.values().size(); i++) {
                String tn = e.values().get(i).name();
                if (BtfTypes.essentialNameLen(tn) != localLen) {
                    continue;
                }
                if (localAcc.name().regionMatches(0, tn, 0, localLen)) {
                    targ.spec[targ.len++] = new Acc(tid, i, tn);
                    targ.rawSpec[targ.rawLen++] = i;
                    return 1;
                }
            }
            return 0;
        }
        if (!isFieldBased(localSpec.kind)) {
            return -Errno.EINVAL;
        }
        int[] targIdBox = {targId};
        for (int i = 0; i < localSpec.len; i++) {
            localAcc = localSpec.spec[i];
            int tid = BtfTypes.skipModsAndTypedefs(tb, targIdBox[0]);
            if (tid < 0) {
                return -Errno.EINVAL;
            }
            targIdBox[0] = tid;
            if (localAcc.name() != null) {
                int matched = matchMember(localAcc, tb, tid, targ, targIdBox, 0);
                if (matched <= 0) {
                    return matched;
                }
            } else {
                if (i > 0) {
                    if (!(tb.type(tid) instanceof BtfType.Array a)) {
                        return 0;
                    }
                    boolean flex = isFlexArr(tb, targ.spec[targ.len - 1], a);
                    if (!flex && Integer.toUnsignedLong(localAcc.idx()) >= Integer.toUnsignedLong(a.nelems())) {
                        return 0;
                    }
                    int e = BtfTypes.skipModsAndTypedefs(tb, a.elemType());
                    if (e < 0) {
                        return -Errno.EINVAL;
                    }
                    targIdBox[0] = e;
                }
                if (targ.rawLen == BPF_CORE_SPEC_MAX_LEN) {
                    return -Errno.E2BIG;
                }
                targ.spec[targ.len++] = new Acc(targIdBox[0], localAcc.idx(), null);
                targ.rawSpec[targ.rawLen++] = localAcc.idx();
                long sz = BtfTypes.resolveSize(tb, targIdBox[0]);
                if (sz < 0) {
                    return (int) sz;
                }
                targ.bitOffset += localAcc.idx() * sz * 8;
            }
        }
        return 1;
    }

    /** bpf_core_match_member: finds the local member by name in the target, through anonymous members. */
    private int matchMember(Acc localAcc, Btf tb, int targId, Spec spec, int[] nextTargId, int depth) {
        if (depth > BPF_CORE_SPEC_MAX_LEN) {
            return -Errno.E2BIG;
        }
        int tid = BtfTypes.skipModsAndTypedefs(tb, targId);
        if (tid < 0) {
            return -Errno.EINVAL;
        }
        if (!(tb.type(tid) instanceof BtfType.Composite tc)) {
            return 0;
        }
        BtfType.Composite lc = (BtfType.Composite) local.type(localAcc.typeId());
        BtfType.Member localMember = lc.members().get(localAcc.idx());
        String localName = localMember.name();
        List<BtfType.Member> ms = tc.members();
        for (int i = 0; i < ms.size(); i++) {
            BtfType.Member m = ms.get(i);
            long bitOff = Integer.toUnsignedLong(m.bitOffset());
            if (spec.rawLen == BPF_CORE_SPEC_MAX_LEN) {
                return -Errno.E2BIG;
            }
            spec.bitOffset += bitOff;
            spec.rawSpec[spec.rawLen++] = i;
            if (m.name().isEmpty()) {
                int found = matchMember(localAcc, tb, m.type(), spec, nextTargId, depth + 1);
                if (found != 0) {
                    return found;
                }
            } else if (localName.equals(m.name())) {
                spec.spec[spec.len++] = new Acc(tid, i, m.name());
                nextTargId[0] = m.type();
                int found = fieldsAreCompat(local, localMember.type(), tb, m.type());
                if (found == 0) {
                    spec.len--;
                }
                return found;
            }
            spec.bitOffset -= bitOff;
            spec.rawLen--;
        }
        return 0;
    }

    private static int fieldsAreCompat(Btf lb, int lid, Btf tb, int tid) {
        for (int depth = 0; depth < BtfTypes.MAX_RESOLVE_DEPTH; depth++) {
            lid = BtfTypes.skipModsAndTypedefs(lb, lid);
            tid = BtfTypes.skipModsAndTypedefs(tb, tid);
            if (lid < 0 || tid < 0) {
                return -Errno.EINVAL;
            }
            BtfKind lk = lb.kind(lid);
            BtfKind tk = tb.kind(tid);
            if (BtfTypes.isComposite(lk) && BtfTypes.isComposite(tk)) {
                return 1;
            }
            if (!BtfTypes.kindCoreCompat(lk, tk)) {
                return 0;
            }
            switch (lk) {
                case PTR: case FLOAT:
                    return 1;
                case FWD: case ENUM64: case ENUM: {
                    String ln = lb.name(lid);
                    String tn = tb.name(tid);
                    int ll = BtfTypes.essentialNameLen(ln);
                    int tl = BtfTypes.essentialNameLen(tn);
                    return ll == 0 || tl == 0 || (ll == tl && ln.regionMatches(0, tn, 0, ll)) ? 1 : 0;
                }
                case INT:
                    return ((BtfType.Int) lb.type(lid)).bitOffset() == 0 && ((BtfType.Int) tb.type(tid)).bitOffset() == 0 ? 1 : 0;
                case ARRAY:
                    lid = ((BtfType.Array) lb.type(lid)).elemType();
                    tid = ((BtfType.Array) tb.type(tid)).elemType();
                    break;
                default:
                    return 0;
            }
        }
        return -Errno.EINVAL;
    }

    /** __bpf_core_types_are_compat */
    static int typesAreCompat(Btf lb, int lid, Btf tb, int tid, int level) {
        if (!BtfTypes.valid(lb, lid) || !BtfTypes.valid(tb, tid)) {
            return -Errno.EINVAL;
        }
        if (!BtfTypes.kindCoreCompat(lb.kind(lid), tb.kind(tid))) {
            return 0;
        }
        for (int depth = 32; ; ) {
            if (--depth < 0) {
                return -Errno.EINVAL;
            }
            lid = BtfTypes.skipModsAndTypedefs(lb, lid);
            tid = BtfTypes.skipModsAndTypedefs(tb, tid);
            if (lid < 0 || tid < 0) {
                return -Errno.EINVAL;
            }
            BtfKind lk = lb.kind(lid);
            if (!BtfTypes.kindCoreCompat(lk, tb.kind(tid))) {
                return 0;
            }
            switch (lk) {
                case UNKN: case STRUCT: case UNION: case ENUM: case FWD: case ENUM64:
                    return 1;
                case INT:
                    return ((BtfType.Int) lb.type(lid)).bitOffset() == 0 && ((BtfType.Int) tb.type(tid)).bitOffset() == 0 ? 1 : 0;
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
                        return 0;
                    }
                    for (int i = 0; i < lp.params().size(); i++) {
                        if (level <= 0) {
                            return -Errno.EINVAL;
                        }
                        int a = BtfTypes.skipModsAndTypedefs(lb, lp.params().get(i).type());
                        int b = BtfTypes.skipModsAndTypedefs(tb, tp.params().get(i).type());
                        int err = typesAreCompat(lb, a, tb, b, level - 1);
                        if (err <= 0) {
                            return err;
                        }
                    }
                    lid = BtfTypes.skipModsAndTypedefs(lb, lp.returnType());
                    tid = BtfTypes.skipModsAndTypedefs(tb, tp.returnType());
                    break;
                }
                default:
                    return 0;
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
    static int typesMatch(Btf lb, int lid, Btf tb, int tid, boolean behindPtr, int level) {
        if (level <= 0) {
            return -Errno.EINVAL;
        }
        for (int depth = 32; ; ) {
            if (--depth < 0) {
                return -Errno.EINVAL;
            }
            lid = BtfTypes.skipModsAndTypedefs(lb, lid);
            tid = BtfTypes.skipModsAndTypedefs(tb, tid);
            if (lid < 0 || tid < 0) {
                return -Errno.EINVAL;
            }
            if (!namesMatch(lb.name(lid), tb.name(tid))) {
                return 0;
            }
            BtfKind lk = lb.kind(lid);
            BtfKind tk = tb.kind(tid);
            switch (lk) {
                case UNKN:
                    return lk == tk ? 1 : 0;
                case FWD: {
                    boolean lf = ((BtfType.Fwd) lb.type(lid)).union();
                    if (behindPtr) {
                        if (lk == tk) {
                            return lf == ((BtfType.Fwd) tb.type(tid)).union() ? 1 : 0;
                        }
                        return (tk == BtfKind.STRUCT && !lf) || (tk == BtfKind.UNION && lf) ? 1 : 0;
                    }
                    return lk == tk && lf == ((BtfType.Fwd) tb.type(tid)).union() ? 1 : 0;
                }
                case ENUM: case ENUM64: {
                    if (!BtfTypes.isAnyEnum(tk)) {
                        return 0;
                    }
                    BtfType.Enum le = (BtfType.Enum) lb.type(lid);
                    BtfType.Enum te = (BtfType.Enum) tb.type(tid);
                    if (le.size() != te.size() || le.values().size() > te.values().size()) {
                        return 0;
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
                            return 0;
                        }
                    }
                    return 1;
                }
                case STRUCT: case UNION: {
                    if (behindPtr) {
                        if (lk == tk) {
                            return 1;
                        }
                        if (tk != BtfKind.FWD) {
                            return 0;
                        }
                        return (lk == BtfKind.UNION) == ((BtfType.Fwd) tb.type(tid)).union() ? 1 : 0;
                    }
                    if (lk != tk) {
                        return 0;
                    }
                    List<BtfType.Member> lms = ((BtfType.Composite) lb.type(lid)).members();
                    List<BtfType.Member> tms = ((BtfType.Composite) tb.type(tid)).members();
                    if (lms.size() > tms.size()) {
                        return 0;
                    }
                    for (BtfType.Member lm : lms) {
                        boolean matched = false;
                        for (BtfType.Member tm : tms) {
                            if (!namesMatch(lm.name(), tm.name())) {
                                continue;
                            }
                            int err = typesMatch(lb, lm.type(), tb, tm.type(), behindPtr, level - 1);
                            if (err < 0) {
                                return err;
                            }
                            if (err > 0) {
                                matched = true;
                                break;
                            }
                        }
                        if (!matched) {
                            return 0;
                        }
                    }
                    return 1;
                }
                case INT: {
                    if (lk != tk) {
                        return 0;
                    }
                    BtfType.Int li = (BtfType.Int) lb.type(lid);
                    BtfType.Int ti = (BtfType.Int) tb.type(tid);
                    return li.size() == ti.size()
                            && (li.encoding() & BtfTypes.BTF_INT_SIGNED) == (ti.encoding() & BtfTypes.BTF_INT_SIGNED) ? 1 : 0;
                }
                case PTR:
                    if (lk != tk) {
                        return 0;
                    }
                    behindPtr = true;
                    lid = ((BtfType.Ref) lb.type(lid)).type();
                    tid = ((BtfType.Ref) tb.type(tid)).type();
                    break;
                case ARRAY: {
                    if (lk != tk) {
                        return 0;
                    }
                    BtfType.Array la = (BtfType.Array) lb.type(lid);
                    BtfType.Array ta = (BtfType.Array) tb.type(tid);
                    if (la.nelems() != ta.nelems()) {
                        return 0;
                    }
                    lid = la.elemType();
                    tid = ta.elemType();
                    break;
                }
                case FUNC_PROTO: {
                    if (lk != tk) {
                        return 0;
                    }
                    BtfType.FuncProto lp = (BtfType.FuncProto) lb.type(lid);
                    BtfType.FuncProto tp = (BtfType.FuncProto) tb.type(tid);
                    if (lp.params().size() != tp.params().size()) {
                        return 0;
                    }
                    for (int i = 0; i < lp.params().size(); i++) {
                        int err = typesMatch(lb, lp.params().get(i).type(), tb, tp.params().get(i).type(), behindPtr,
                                level - 1);
                        if (err <= 0) {
                            return err;
                        }
                    }
                    lid = lp.returnType();
                    tid = tp.returnType();
                    break;
                }
                default:
                    return 0;
            }
        }
    }

    private static boolean isFieldBased(int kind) {
        return kind >= CoreRelo.BPF_CORE_FIELD_BYTE_OFFSET && kind <= CoreRelo.BPF_CORE_FIELD_RSHIFT_U64;
    }

    private static boolean isTypeBased(int kind) {
        return (kind >= CoreRelo.BPF_CORE_TYPE_ID_LOCAL && kind <= CoreRelo.BPF_CORE_TYPE_SIZE)
                || kind == CoreRelo.BPF_CORE_TYPE_MATCHES;
    }

    private static boolean isEnumvalBased(int kind) {
        return kind == CoreRelo.BPF_CORE_ENUMVAL_EXISTS || kind == CoreRelo.BPF_CORE_ENUMVAL_VALUE;
    }

    // ---- bpf_core_calc_relo ----

    private static final int EUCLEAN = -Errno.EUCLEAN;

    private Res calc(String progName, CoreRelo relo, int idx, Spec localSpec, Spec targSpec) throws CoreException {
        Res res = new Res();
        res.validate = true;
        int err;
        long[] out = new long[4];
        if (relo.fieldBased()) {
            boolean[] validate = {true};
            err = calcField(relo, localSpec, out, validate);
            if (err == 0) {
                res.origVal = out[0];
                res.origSz = out[1];
                res.origTypeId = (int) out[2];
                res.validate = validate[0];
                out = new long[4];
                err = calcField(relo, targSpec, out, null);
                res.newVal = out[0];
                res.newSz = out[1];
                res.newTypeId = (int) out[2];
            }
            if (err == 0 && res.origSz != res.newSz) {
                BtfType ot = localSpec.btf.type(res.origTypeId);
                BtfType nt = targSpec.btf.type(res.newTypeId);
                boolean ok = (ot.kind() == BtfKind.PTR && nt.kind() == BtfKind.PTR)
                        || (ot instanceof BtfType.Int oi && nt instanceof BtfType.Int ni
                            && oi.encoding() != BtfTypes.BTF_INT_SIGNED && ni.encoding() != BtfTypes.BTF_INT_SIGNED);
                res.failMemszAdjust = !ok;
            }
        } else if (relo.typeBased()) {
            boolean[] validate = {true};
            err = calcType(relo, localSpec, out, validate);
            res.origVal = out[0];
            res.validate = validate[0];
            if (err == 0) {
                err = calcType(relo, targSpec, out, null);
                res.newVal = out[0];
            }
        } else if (relo.enumvalBased()) {
            err = calcEnumval(relo, localSpec, out);
            res.origVal = out[0];
            if (err == 0) {
                err = calcEnumval(relo, targSpec, out);
                res.newVal = out[0];
            }
        } else {
            err = -Errno.EOPNOTSUPP;
        }
        if (err == EUCLEAN) {
            res.poison = true;
            return res;
        }
        if (err == -Errno.EOPNOTSUPP) {
            throw fail(progName, idx, "unrecognized CO-RE relocation kind " + relo.kind() + " at insn #"
                    + relo.insnOff() / 8, Errno.EOPNOTSUPP);
        }
        if (err != 0) {
            throw fail(progName, idx, "relocation can't be satisfied: " + err, -err);
        }
        return res;
    }

    /** out: val, field size, field type id. */
    private static int calcField(CoreRelo relo, Spec spec, long[] out, boolean[] validate) {
        if (relo.kind() == CoreRelo.BPF_CORE_FIELD_EXISTS) {
            out[0] = spec != null ? 1 : 0;
            return 0;
        }
        if (spec == null) {
            return EUCLEAN;
        }
        Acc acc = spec.spec[spec.len - 1];
        if (acc.name() == null) {
            long sz = BtfTypes.resolveSize(spec.btf, acc.typeId());
            if (sz < 0) {
                return -Errno.EINVAL;
            }
            if (relo.kind() == CoreRelo.BPF_CORE_FIELD_BYTE_OFFSET) {
                out[0] = spec.bitOffset / 8;
                out[1] = sz;
                out[2] = acc.typeId();
            } else if (relo.kind() == CoreRelo.BPF_CORE_FIELD_BYTE_SIZE) {
                out[0] = sz;
            } else {
                return -Errno.EINVAL;
            }
            if (validate != null) {
                validate[0] = true;
            }
            return 0;
        }
        BtfType.Composite t = (BtfType.Composite) spec.btf.type(acc.typeId());
        BtfType.Member m = t.members().get(acc.idx());
        int fieldTypeId = BtfTypes.skipModsAndTypedefs(spec.btf, m.type());
        if (fieldTypeId < 0) {
            return -Errno.EINVAL;
        }
        BtfType mt = spec.btf.type(fieldTypeId);
        long bitOff = spec.bitOffset;
        long bitSz = m.bitfieldSize();
        boolean bitfield = bitSz > 0;
        long byteSz;
        long byteOff;
        if (bitfield) {
            byteSz = BtfTypes.sizeOf(mt);
            if (byteSz == 0) {
                return -Errno.EINVAL;
            }
            byteOff = bitOff / 8 / byteSz * byteSz;
            while (bitOff + bitSz - byteOff * 8 > byteSz * 8) {
                if (byteSz >= 8) {
                    return -Errno.E2BIG;
                }
                byteSz *= 2;
                byteOff = bitOff / 8 / byteSz * byteSz;
            }
        } else {
            long sz = BtfTypes.resolveSize(spec.btf, fieldTypeId);
            if (sz < 0) {
                return -Errno.EINVAL;
            }
            byteSz = sz;
            byteOff = spec.bitOffset / 8;
            bitSz = byteSz * 8;
        }
        if (validate != null) {
            validate[0] = !bitfield;
        }
        switch (relo.kind()) {
            case CoreRelo.BPF_CORE_FIELD_BYTE_OFFSET:
                out[0] = byteOff;
                if (!bitfield) {
                    out[1] = byteSz;
                    out[2] = fieldTypeId;
                }
                break;
            case CoreRelo.BPF_CORE_FIELD_BYTE_SIZE:
                out[0] = byteSz;
                break;
            case CoreRelo.BPF_CORE_FIELD_SIGNED: {
                boolean signed = (mt instanceof BtfType.Enum e && e.signed())
                        || (mt instanceof BtfType.Int i && (i.encoding() & BtfTypes.BTF_INT_SIGNED) != 0);
                out[0] = signed ? 1 : 0;
                if (validate != null) {
                    validate[0] = true;
                }
                break;
            }
            case CoreRelo.BPF_CORE_FIELD_LSHIFT_U64:
                out[0] = 64 - (bitOff + bitSz - byteOff * 8);
                break;
            case CoreRelo.BPF_CORE_FIELD_RSHIFT_U64:
                out[0] = 64 - bitSz;
                if (validate != null) {
                    validate[0] = true;
                }
                break;
            default:
                return -Errno.EOPNOTSUPP;
        }
        return 0;
    }

    private static int calcType(CoreRelo relo, Spec spec, long[] out, boolean[] validate) {
        if (validate != null) {
            validate[0] = true;
        }
        if (spec == null) {
            out[0] = 0;
            return 0;
        }
        switch (relo.kind()) {
            case CoreRelo.BPF_CORE_TYPE_ID_TARGET:
                out[0] = spec.rootTypeId;
                if (validate != null) {
                    validate[0] = false;
                }
                return 0;
            case CoreRelo.BPF_CORE_TYPE_EXISTS: case CoreRelo.BPF_CORE_TYPE_MATCHES:
                out[0] = 1;
                return 0;
            case CoreRelo.BPF_CORE_TYPE_SIZE: {
                long sz = BtfTypes.resolveSize(spec.btf, spec.rootTypeId);
                if (sz < 0) {
                    return -Errno.EINVAL;
                }
                out[0] = sz;
                return 0;
            }
            default:
                return -Errno.EOPNOTSUPP;
        }
    }

    private static int calcEnumval(CoreRelo relo, Spec spec, long[] out) {
        switch (relo.kind()) {
            case CoreRelo.BPF_CORE_ENUMVAL_EXISTS:
                out[0] = spec != null ? 1 : 0;
                return 0;
            case CoreRelo.BPF_CORE_ENUMVAL_VALUE: {
                if (spec == null) {
                    return EUCLEAN;
                }
                BtfType.Enum e = (BtfType.Enum) spec.btf.type(spec.spec[0].typeId());
                long v = e.values().get(spec.spec[0].idx()).value();
                // btf_enum's val is __s32: assigned to the u64 result it sign-extends
                out[0] = e.kind() == BtfKind.ENUM ? (long) (int) v : v;
                return 0;
            }
            default:
                return -Errno.EOPNOTSUPP;
        }
    }

    // ---- bpf_core_patch_insn ----

    private void patch(String progName, byte[] in, int i, CoreRelo relo, int idx, Res res) throws CoreException {
        int cls = Insns.cls(Insns.code(in, i));
        if (res.poison) {
            poison(in, i);
            return;
        }
        long origVal = res.origVal;
        long newVal = res.newVal;
        switch (cls) {
            case Insns.BPF_ALU: case Insns.BPF_ALU64:
                if ((Insns.code(in, i) & 0x08) != Insns.BPF_K) {
                    throw fail(progName, idx, "insn #" + i + " is not an immediate ALU", Errno.EINVAL);
                }
                if (res.validate && (long) Insns.imm(in, i) != origVal) {
                    throw fail(progName, idx, "unexpected insn #" + i + " (ALU/ALU64) value: got "
                            + Integer.toUnsignedString(Insns.imm(in, i)) + ", exp " + origVal + " -> " + newVal, Errno.EINVAL);
                }
                Insns.setImm(in, i, (int) newVal);
                break;
            case Insns.BPF_LDX: case Insns.BPF_ST: case Insns.BPF_STX:
                if (res.validate && Insns.off(in, i) != origVal) {
                    throw fail(progName, idx, "unexpected insn #" + i + " (LDX/ST/STX) value: got " + Insns.off(in, i)
                            + ", exp " + origVal + " -> " + newVal, Errno.EINVAL);
                }
                if (newVal > Short.MAX_VALUE) {
                    throw fail(progName, idx, "insn #" + i + " (LDX/ST/STX) value too big: " + newVal, Errno.ERANGE);
                }
                if (res.failMemszAdjust) {
                    poison(in, i);
                    return;
                }
                Insns.setOff(in, i, (int) newVal);
                if (res.newSz != res.origSz) {
                    int code = Insns.code(in, i);
                    int bytes = switch (code & 0x18) {
                        case Insns.BPF_DW -> 8;
                        case Insns.BPF_W -> 4;
                        case Insns.BPF_H -> 2;
                        default -> 1;
                    };
                    if (bytes != res.origSz) {
                        throw fail(progName, idx, "insn #" + i + " (LDX/ST/STX) unexpected mem size: got " + bytes + ", exp "
                                + res.origSz, Errno.EINVAL);
                    }
                    int size;
                    if (res.newSz == 8) {
                        size = Insns.BPF_DW;
                    } else if (res.newSz == 4) {
                        size = Insns.BPF_W;
                    } else if (res.newSz == 2) {
                        size = Insns.BPF_H;
                    } else if (res.newSz == 1) {
                        size = Insns.BPF_B;
                    } else {
                        throw fail(progName, idx, "insn #" + i + " (LDX/ST/STX) invalid new mem size: " + res.newSz,
                                Errno.EINVAL);
                    }
                    Insns.setCode(in, i, (code & 0xe0) | size | (code & 0x07));
                }
                break;
            case Insns.BPF_LD: {
                if (!Insns.isLdImm64(in, i) || i + 1 >= in.length / 8 || Insns.src(in, i) != 0 || Insns.off(in, i) != 0
                        || Insns.code(in, i + 1) != 0 || Insns.dst(in, i + 1) != 0 || Insns.src(in, i + 1) != 0
                        || Insns.off(in, i + 1) != 0) {
                    throw fail(progName, idx, "insn #" + i + " (LDIMM64) has unexpected form", Errno.EINVAL);
                }
                long imm = Integer.toUnsignedLong(Insns.imm(in, i)) | ((long) Insns.imm(in, i + 1) << 32);
                if (res.validate && imm != origVal) {
                    throw fail(progName, idx, "unexpected insn #" + i + " (LDIMM64) value: got " + imm + ", exp " + origVal
                            + " -> " + newVal, Errno.EINVAL);
                }
                Insns.setImm(in, i, (int) newVal);
                Insns.setImm(in, i + 1, (int) (newVal >>> 32));
                break;
            }
            default:
                throw fail(progName, idx, "trying to relocate unrecognized insn #" + i + ", code:0x"
                        + Integer.toHexString(Insns.code(in, i)), Errno.EINVAL);
        }
    }

    private static void poison(byte[] in, int i) {
        if (Insns.isLdImm64(in, i) && i + 1 < in.length / 8) {
            Insns.setCall(in, i + 1, POISON_IMM);
        }
        Insns.setCall(in, i, POISON_IMM);
    }
}
