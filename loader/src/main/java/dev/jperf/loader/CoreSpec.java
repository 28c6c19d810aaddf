package dev.jperf.loader;

import dev.jperf.format.btf.Btf;
import dev.jperf.format.btf.BtfType;
import dev.jperf.nativeshim.Errno;

/**
 * struct bpf_core_spec: a relocation's access path resolved in one BTF — the raw indices of the
 * access string ("0:1:3"), the named accessors along it (anonymous members skipped) and the bit
 * offset it reaches. The local spec is parsed from the object's BTF ({@link #parse}); a target
 * spec is built by {@link CoreMatch} while it matches a candidate.
 */
final class CoreSpec {
    static final int BPF_CORE_SPEC_MAX_LEN = 64;

    /** struct bpf_core_accessor: a member (named), an array element or enum value (name null for elements). */
    record Accessor(int typeId, int idx, String name) {
    }

    final Btf btf;
    final int rootTypeId;
    final int kind;
    final int[] raw = new int[BPF_CORE_SPEC_MAX_LEN];
    int rawLen;
    final Accessor[] accessors = new Accessor[BPF_CORE_SPEC_MAX_LEN];
    int len;
    long bitOffset;

    CoreSpec(Btf btf, int rootTypeId, int kind) {
        this.btf = btf;
        this.rootTypeId = rootTypeId;
        this.kind = kind;
    }

    Accessor last() {
        return accessors[len - 1];
    }

    void addRaw(int idx) throws CoreError {
        if (rawLen == BPF_CORE_SPEC_MAX_LEN) {
            throw new CoreError(Errno.E2BIG);
        }
        raw[rawLen++] = idx;
    }

    void add(Accessor a) throws CoreError {
        if (len == BPF_CORE_SPEC_MAX_LEN) {
            throw new CoreError(Errno.E2BIG);
        }
        accessors[len++] = a;
    }

    /** bpf_core_parse_spec: the access string of {@code relo} resolved in the object's BTF {@code local}. */
    static CoreSpec parse(Btf local, CoreRelo relo, String access) throws CoreError {
        if (access.isEmpty() || access.charAt(0) == ':') {
            throw new CoreError(Errno.EINVAL);
        }
        CoreSpec spec = new CoreSpec(local, relo.typeId(), relo.kind());
        if (relo.typeBased()) {
            if (!access.equals("0")) {
                throw new CoreError(Errno.EINVAL);
            }
            return spec;
        }
        parseIndices(access, spec);
        int id = BtfTypes.skipModsAndTypedefs(local, relo.typeId());
        if (id < 0) {
            throw new CoreError(Errno.EINVAL);
        }
        int accessIdx = spec.raw[0];
        BtfType t = local.type(id);
        spec.add(new Accessor(id, accessIdx, null));
        if (relo.enumvalBased()) {
            if (!(t instanceof BtfType.Enum e) || spec.rawLen > 1 || accessIdx < 0 || accessIdx >= e.values().size()) {
                throw new CoreError(Errno.EINVAL);
            }
            spec.accessors[0] = new Accessor(id, accessIdx, e.values().get(accessIdx).name());
            return spec;
        }
        if (!relo.fieldBased()) {
            throw new CoreError(Errno.EINVAL);
        }
        long sz = size(local, id);
        spec.bitOffset = accessIdx * sz * 8;
        for (int i = 1; i < spec.rawLen; i++) {
            id = BtfTypes.skipModsAndTypedefs(local, id);
            if (id <= 0) {
                throw new CoreError(Errno.EINVAL);
            }
            t = local.type(id);
            accessIdx = spec.raw[i];
            if (t instanceof BtfType.Composite c) {
                if (accessIdx < 0 || accessIdx >= c.members().size()) {
                    throw new CoreError(Errno.EINVAL);
                }
                BtfType.Member m = c.members().get(accessIdx);
                spec.bitOffset += Integer.toUnsignedLong(m.bitOffset());
                if (!m.name().isEmpty()) {
                    spec.add(new Accessor(id, accessIdx, m.name()));
                }
                id = m.type();
            } else if (t instanceof BtfType.Array a) {
                int elem = BtfTypes.skipModsAndTypedefs(local, a.elemType());
                if (elem < 0) {
                    throw new CoreError(Errno.EINVAL);
                }
                id = elem;
                boolean flex = isFlexArray(local, spec.last(), a);
                if (accessIdx < 0 || (!flex && Integer.toUnsignedLong(accessIdx) >= Integer.toUnsignedLong(a.nelems()))) {
                    throw new CoreError(Errno.EINVAL);
                }
                spec.add(new Accessor(id, accessIdx, null));
                spec.bitOffset += accessIdx * size(local, id) * 8;
            } else {
                throw new CoreError(Errno.EINVAL);
            }
        }
        return spec;
    }

    /** The access string's indices: decimal, optionally signed, ':'-separated, at most 10 characters each. */
    private static void parseIndices(String s, CoreSpec spec) throws CoreError {
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
                throw new CoreError(Errno.EINVAL);
            }
            spec.addRaw((int) Long.parseLong(s.substring(start, p)));
        }
        if (spec.rawLen == 0) {
            throw new CoreError(Errno.EINVAL);
        }
    }

    /** btf__resolve_size, its failure a CO-RE error. */
    static long size(Btf btf, int id) throws CoreError {
        long sz = BtfTypes.resolveSize(btf, id);
        if (sz < 0) {
            throw new CoreError((int) -sz);
        }
        return sz;
    }

    /** A flexible array: the zero-length last member of a struct, indexable past its bound. */
    static boolean isFlexArray(Btf btf, Accessor acc, BtfType.Array arr) {
        if (acc.name() == null || arr.nelems() > 0) {
            return false;
        }
        BtfType t = btf.type(acc.typeId());
        return t instanceof BtfType.Composite c && acc.idx() == c.members().size() - 1;
    }
}
