package dev.jperf.loader;

import static dev.jperf.format.bpf.Uapi.BPF_PSEUDO_CALL;
import static dev.jperf.format.bpf.Uapi.BPF_PSEUDO_FUNC;

/**
 * struct bpf_insn fields read and written in place in an array of 8-byte little-endian
 * instructions: code, dst_reg (low nibble), src_reg (high nibble), off (s16), imm (s32).
 */
final class Insns {
    static final int BPF_INSN_SZ = 8;
    // classes, sizes, modes, ops (uapi linux/bpf_common.h, linux/bpf.h)
    static final int BPF_LD = 0x00;
    static final int BPF_LDX = 0x01;
    static final int BPF_ST = 0x02;
    static final int BPF_STX = 0x03;
    static final int BPF_ALU = 0x04;
    static final int BPF_JMP = 0x05;
    static final int BPF_ALU64 = 0x07;
    static final int BPF_W = 0x00;
    static final int BPF_H = 0x08;
    static final int BPF_B = 0x10;
    static final int BPF_DW = 0x18;
    static final int BPF_IMM = 0x00;
    static final int BPF_K = 0x00;
    static final int BPF_CALL = 0x80;
    static final int BPF_LD_IMM64 = BPF_LD | BPF_IMM | BPF_DW;
    static final int BPF_CALL_INSN = BPF_JMP | BPF_CALL;

    private Insns() {
    }

    static int code(byte[] b, int i) {
        return b[i * 8] & 0xff;
    }

    static void setCode(byte[] b, int i, int code) {
        b[i * 8] = (byte) code;
    }

    static int dst(byte[] b, int i) {
        return b[i * 8 + 1] & 0x0f;
    }

    static int src(byte[] b, int i) {
        return (b[i * 8 + 1] >> 4) & 0x0f;
    }

    static void setSrc(byte[] b, int i, int src) {
        b[i * 8 + 1] = (byte) ((b[i * 8 + 1] & 0x0f) | (src << 4));
    }

    static void setRegs(byte[] b, int i, int dst, int src) {
        b[i * 8 + 1] = (byte) ((dst & 0x0f) | (src << 4));
    }

    static int off(byte[] b, int i) {
        return (short) ((b[i * 8 + 2] & 0xff) | (b[i * 8 + 3] << 8));
    }

    static void setOff(byte[] b, int i, int off) {
        b[i * 8 + 2] = (byte) off;
        b[i * 8 + 3] = (byte) (off >> 8);
    }

    static int imm(byte[] b, int i) {
        int p = i * 8 + 4;
        return (b[p] & 0xff) | (b[p + 1] & 0xff) << 8 | (b[p + 2] & 0xff) << 16 | b[p + 3] << 24;
    }

    static void setImm(byte[] b, int i, int imm) {
        int p = i * 8 + 4;
        b[p] = (byte) imm;
        b[p + 1] = (byte) (imm >> 8);
        b[p + 2] = (byte) (imm >> 16);
        b[p + 3] = (byte) (imm >> 24);
    }

    static int cls(int code) {
        return code & 0x07;
    }

    static boolean isLdImm64(byte[] b, int i) {
        return code(b, i) == BPF_LD_IMM64;
    }

    static boolean isCall(byte[] b, int i) {
        return code(b, i) == BPF_CALL_INSN;
    }

    /** A bpf-to-bpf call: call with src_reg BPF_PSEUDO_CALL, dst 0, off 0. */
    static boolean isSubprogCall(byte[] b, int i) {
        return isCall(b, i) && src(b, i) == BPF_PSEUDO_CALL && dst(b, i) == 0 && off(b, i) == 0;
    }

    static boolean isPseudoFunc(byte[] b, int i) {
        return isLdImm64(b, i) && src(b, i) == BPF_PSEUDO_FUNC;
    }

    /** Turns instruction {@code i} into {@code call imm} with all else zero (libbpf's poisoning). */
    static void setCall(byte[] b, int i, int imm) {
        setCode(b, i, BPF_CALL_INSN);
        setRegs(b, i, 0, 0);
        setOff(b, i, 0);
        setImm(b, i, imm);
    }
}
