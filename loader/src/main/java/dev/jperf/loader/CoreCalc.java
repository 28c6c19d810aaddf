package dev.jperf.loader;

import dev.jperf.format.btf.BtfKind;
import dev.jperf.format.btf.BtfType;
import dev.jperf.nativeshim.Errno;

/**
 * bpf_core_calc_relo: the value a relocation stands for, computed once on the local spec (what
 * the compiler put in the instruction) and once on the matched target spec (what the kernel
 * needs). A target spec of null means no candidate matched: existence checks give 0, the rest
 * poison the instruction.
 */
final class CoreCalc {
    private CoreCalc() {
    }

    /** One side's value: for field offsets also the field's memory size and type (0 when not a plain load). */
    private record Value(long val, long size, int typeId, boolean validate) {
        static Value of(long val, boolean validate) {
            return new Value(val, 0, 0, validate);
        }
    }

    /** A refusal for which libbpf poisons instead of failing the load. */
    private static final class Unsatisfied extends Exception {
        Unsatisfied() {
            super(null, null, false, false);
        }
    }

    static CoreResult calc(CoreRelo relo, CoreSpec local, CoreSpec targ) throws CoreError {
        try {
            if (relo.fieldBased()) {
                Value orig = field(relo, local);
                Value now = field(relo, targ);
                boolean failMemsz = false;
                if (orig.size() != now.size()) {
                    BtfType ot = local.btf.type(orig.typeId());
                    BtfType nt = targ.btf.type(now.typeId());
                    boolean ok = (ot.kind() == BtfKind.PTR && nt.kind() == BtfKind.PTR)
                            || (ot instanceof BtfType.Int oi && nt instanceof BtfType.Int ni
                                && oi.encoding() != BtfTypes.BTF_INT_SIGNED && ni.encoding() != BtfTypes.BTF_INT_SIGNED);
                    failMemsz = !ok;
                }
                return new CoreResult(orig.val(), now.val(), false, orig.validate(), failMemsz, orig.size(), now.size(),
                        orig.typeId(), now.typeId());
            }
            if (relo.typeBased()) {
                Value orig = type(relo, local);
                return new CoreResult(orig.val(), type(relo, targ).val(), false, orig.validate(), false, 0, 0, 0, 0);
            }
            if (relo.enumvalBased()) {
                return new CoreResult(enumValue(relo, local), enumValue(relo, targ), false, true, false, 0, 0, 0, 0);
            }
            throw new CoreError(Errno.EOPNOTSUPP);
        } catch (Unsatisfied e) {
            return CoreResult.poisoned();
        }
    }

    /** bpf_core_calc_field_relo */
    private static Value field(CoreRelo relo, CoreSpec spec) throws CoreError, Unsatisfied {
        if (relo.kind() == CoreRelo.BPF_CORE_FIELD_EXISTS) {
            return Value.of(spec != null ? 1 : 0, true);
        }
        if (spec == null) {
            throw new Unsatisfied();
        }
        CoreSpec.Accessor acc = spec.last();
        if (acc.name() == null) {
            long sz = BtfTypes.resolveSize(spec.btf, acc.typeId());
            if (sz < 0) {
                throw new CoreError(Errno.EINVAL);
            }
            return switch (relo.kind()) {
                case CoreRelo.BPF_CORE_FIELD_BYTE_OFFSET -> new Value(spec.bitOffset / 8, sz, acc.typeId(), true);
                case CoreRelo.BPF_CORE_FIELD_BYTE_SIZE -> Value.of(sz, true);
                default -> throw new CoreError(Errno.EINVAL);
            };
        }
        BtfType.Member m = ((BtfType.Composite) spec.btf.type(acc.typeId())).members().get(acc.idx());
        int fieldTypeId = BtfTypes.skipModsAndTypedefs(spec.btf, m.type());
        if (fieldTypeId < 0) {
            throw new CoreError(Errno.EINVAL);
        }
        BtfType mt = spec.btf.type(fieldTypeId);
        long bitOff = spec.bitOffset;
        long bitSz = m.bitfieldSize();
        boolean bitfield = bitSz > 0;
        long byteSz;
        long byteOff;
        if (bitfield) {
            // the smallest naturally aligned load of the field's type size or larger that covers it
            byteSz = BtfTypes.sizeOf(mt);
            if (byteSz == 0) {
                throw new CoreError(Errno.EINVAL);
            }
            byteOff = bitOff / 8 / byteSz * byteSz;
            while (bitOff + bitSz - byteOff * 8 > byteSz * 8) {
                if (byteSz >= 8) {
                    throw new CoreError(Errno.E2BIG);
                }
                byteSz *= 2;
                byteOff = bitOff / 8 / byteSz * byteSz;
            }
        } else {
            long sz = BtfTypes.resolveSize(spec.btf, fieldTypeId);
            if (sz < 0) {
                throw new CoreError(Errno.EINVAL);
            }
            byteSz = sz;
            byteOff = spec.bitOffset / 8;
            bitSz = byteSz * 8;
        }
        boolean validate = !bitfield;
        return switch (relo.kind()) {
            case CoreRelo.BPF_CORE_FIELD_BYTE_OFFSET -> bitfield ? Value.of(byteOff, validate)
                    : new Value(byteOff, byteSz, fieldTypeId, validate);
            case CoreRelo.BPF_CORE_FIELD_BYTE_SIZE -> Value.of(byteSz, validate);
            case CoreRelo.BPF_CORE_FIELD_SIGNED -> Value.of((mt instanceof BtfType.Enum e && e.signed())
                    || (mt instanceof BtfType.Int i && (i.encoding() & BtfTypes.BTF_INT_SIGNED) != 0) ? 1 : 0, true);
            case CoreRelo.BPF_CORE_FIELD_LSHIFT_U64 -> Value.of(64 - (bitOff + bitSz - byteOff * 8), validate);
            case CoreRelo.BPF_CORE_FIELD_RSHIFT_U64 -> Value.of(64 - bitSz, true);
            default -> throw new CoreError(Errno.EOPNOTSUPP);
        };
    }

    /** bpf_core_calc_type_relo */
    private static Value type(CoreRelo relo, CoreSpec spec) throws CoreError {
        if (spec == null) {
            return Value.of(0, true);
        }
        return switch (relo.kind()) {
            case CoreRelo.BPF_CORE_TYPE_ID_TARGET -> Value.of(spec.rootTypeId, false);
            case CoreRelo.BPF_CORE_TYPE_EXISTS, CoreRelo.BPF_CORE_TYPE_MATCHES -> Value.of(1, true);
            case CoreRelo.BPF_CORE_TYPE_SIZE -> {
                long sz = BtfTypes.resolveSize(spec.btf, spec.rootTypeId);
                if (sz < 0) {
                    throw new CoreError(Errno.EINVAL);
                }
                yield Value.of(sz, true);
            }
            default -> throw new CoreError(Errno.EOPNOTSUPP);
        };
    }

    /** bpf_core_calc_enumval_relo */
    private static long enumValue(CoreRelo relo, CoreSpec spec) throws CoreError, Unsatisfied {
        switch (relo.kind()) {
            case CoreRelo.BPF_CORE_ENUMVAL_EXISTS:
                return spec != null ? 1 : 0;
            case CoreRelo.BPF_CORE_ENUMVAL_VALUE: {
                if (spec == null) {
                    throw new Unsatisfied();
                }
                BtfType.Enum e = (BtfType.Enum) spec.btf.type(spec.accessors[0].typeId());
                long v = e.values().get(spec.accessors[0].idx()).value();
                // btf_enum's val is __s32: assigned to the u64 result it sign-extends
                return e.kind() == BtfKind.ENUM ? (long) (int) v : v;
            }
            default:
                throw new CoreError(Errno.EOPNOTSUPP);
        }
    }
}
