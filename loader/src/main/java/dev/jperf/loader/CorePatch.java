package dev.jperf.loader;

import dev.jperf.nativeshim.Errno;

/**
 * bpf_core_patch_insn: writes a relocation's new value into the instruction the compiler marked —
 * an ALU immediate, a load/store offset (and its memory size when the field's size differs), or
 * an ld_imm64 — after checking that the instruction holds the local value; or poisons it.
 */
final class CorePatch {
    /** 0xbad2310 ("bad relo"): the helper a poisoned instruction calls, so the verifier names it. */
    static final int POISON_IMM = 0xbad2310;

    private CorePatch() {
    }

    static void apply(byte[] in, int i, CoreResult res) throws CoreError {
        if (res.poison()) {
            poison(in, i);
            return;
        }
        long origVal = res.origVal();
        long newVal = res.newVal();
        switch (Insns.cls(Insns.code(in, i))) {
            case Insns.BPF_ALU: case Insns.BPF_ALU64:
                if ((Insns.code(in, i) & 0x08) != Insns.BPF_K) {
                    throw new CoreError(Errno.EINVAL, "insn #" + i + " is not an immediate ALU");
                }
                if (res.validate() && (long) Insns.imm(in, i) != origVal) {
                    throw new CoreError(Errno.EINVAL, "unexpected insn #" + i + " (ALU/ALU64) value: got "
                            + Integer.toUnsignedString(Insns.imm(in, i)) + ", exp " + origVal + " -> " + newVal);
                }
                Insns.setImm(in, i, (int) newVal);
                break;
            case Insns.BPF_LDX: case Insns.BPF_ST: case Insns.BPF_STX:
                if (res.validate() && Insns.off(in, i) != origVal) {
                    throw new CoreError(Errno.EINVAL, "unexpected insn #" + i + " (LDX/ST/STX) value: got "
                            + Insns.off(in, i) + ", exp " + origVal + " -> " + newVal);
                }
                if (newVal > Short.MAX_VALUE) {
                    throw new CoreError(Errno.ERANGE, "insn #" + i + " (LDX/ST/STX) value too big: " + newVal);
                }
                if (res.failMemszAdjust()) {
                    poison(in, i);
                    return;
                }
                Insns.setOff(in, i, (int) newVal);
                if (res.newSz() != res.origSz()) {
                    resize(in, i, res);
                }
                break;
            case Insns.BPF_LD: {
                if (!Insns.isLdImm64(in, i) || i + 1 >= in.length / 8 || Insns.src(in, i) != 0 || Insns.off(in, i) != 0
                        || Insns.code(in, i + 1) != 0 || Insns.dst(in, i + 1) != 0 || Insns.src(in, i + 1) != 0
                        || Insns.off(in, i + 1) != 0) {
                    throw new CoreError(Errno.EINVAL, "insn #" + i + " (LDIMM64) has unexpected form");
                }
                long imm = Integer.toUnsignedLong(Insns.imm(in, i)) | ((long) Insns.imm(in, i + 1) << 32);
                if (res.validate() && imm != origVal) {
                    throw new CoreError(Errno.EINVAL, "unexpected insn #" + i + " (LDIMM64) value: got " + imm + ", exp "
                            + origVal + " -> " + newVal);
                }
                Insns.setImm(in, i, (int) newVal);
                Insns.setImm(in, i + 1, (int) (newVal >>> 32));
                break;
            }
            default:
                throw new CoreError(Errno.EINVAL, "trying to relocate unrecognized insn #" + i + ", code:0x"
                        + Integer.toHexString(Insns.code(in, i)));
        }
    }

    /** A load or store of a field whose size differs in the kernel gets the kernel's size. */
    private static void resize(byte[] in, int i, CoreResult res) throws CoreError {
        int code = Insns.code(in, i);
        int bytes = switch (code & 0x18) {
            case Insns.BPF_DW -> 8;
            case Insns.BPF_W -> 4;
            case Insns.BPF_H -> 2;
            default -> 1;
        };
        if (bytes != res.origSz()) {
            throw new CoreError(Errno.EINVAL, "insn #" + i + " (LDX/ST/STX) unexpected mem size: got " + bytes + ", exp "
                    + res.origSz());
        }
        int size;
        if (res.newSz() == 8) {
            size = Insns.BPF_DW;
        } else if (res.newSz() == 4) {
            size = Insns.BPF_W;
        } else if (res.newSz() == 2) {
            size = Insns.BPF_H;
        } else if (res.newSz() == 1) {
            size = Insns.BPF_B;
        } else {
            throw new CoreError(Errno.EINVAL, "insn #" + i + " (LDX/ST/STX) invalid new mem size: " + res.newSz());
        }
        Insns.setCode(in, i, (code & 0xe0) | size | (code & 0x07));
    }

    private static void poison(byte[] in, int i) {
        if (Insns.isLdImm64(in, i) && i + 1 < in.length / 8) {
            Insns.setCall(in, i + 1, POISON_IMM);
        }
        Insns.setCall(in, i, POISON_IMM);
    }
}
