package dev.jperf.report.script;

import dev.jperf.format.record.Regs;

/**
 * Register names as perf prints sampled registers (perf_reg_name with the recording's arch):
 * x86's PERF_REG_X86_* (arch/x86/include/uapi/asm/perf_regs.h) and arm64's PERF_REG_ARM64_*;
 * perf writes "unknown" for a bit it has no name for.
 */
final class PerfRegs {
    private static final String[] X86 = {"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS",
        "DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15"};
    private static final int PERF_REG_X86_XMM0 = 32;
    private static final int PERF_REG_X86_XMM_MAX = 64;
    private static final int PERF_REG_ARM64_LR = 30;
    private static final int PERF_REG_ARM64_SP = 31;
    private static final int PERF_REG_ARM64_PC = 32;
    private static final int PERF_REG_ARM64_VG = 46;

    /** perf_reg_name of each sample_regs mask bit, named once: printing a sample only looks them up. */
    private final String[] names = new String[64];

    /** @param arch the file's HEADER_ARCH (uname -m of the recording machine) */
    PerfRegs(String arch) {
        String a = normalize(arch);
        for (int id = 0; id < names.length; id++) {
            String n = switch (a) {
                case "x86" -> x86(id);
                case "arm64" -> arm64(id);
                default -> null;
            };
            names[id] = n == null ? "unknown" : n;
        }
    }

    /** perf_env__arch's normalize_arch for the arches named here. */
    static String normalize(String machine) {
        if (machine.equals("x86_64") || machine.equals("amd64") || machine.matches("i[3-6]86")) {
            return "x86";
        }
        if (machine.equals("aarch64") || machine.equals("arm64")) {
            return "arm64";
        }
        return machine;
    }

    String name(int id) {
        return names[id];
    }

    private static String x86(int id) {
        if (id < X86.length) {
            return X86[id];
        }
        // XMMn takes two bits; perf names the first
        if (id >= PERF_REG_X86_XMM0 && id < PERF_REG_X86_XMM_MAX && id % 2 == 0) {
            return "XMM" + (id - PERF_REG_X86_XMM0) / 2;
        }
        return null;
    }

    private static String arm64(int id) {
        if (id < PERF_REG_ARM64_LR) {
            return "x" + id;
        }
        return switch (id) {
            case PERF_REG_ARM64_LR -> "lr";
            case PERF_REG_ARM64_SP -> "sp";
            case PERF_REG_ARM64_PC -> "pc";
            case PERF_REG_ARM64_VG -> "vg";
            default -> null;
        };
    }

    /** The names of the sampled registers, in the order of {@code regs.regs()} (mask bits, lowest first). */
    String[] names(Regs regs) {
        long[] values = regs.regs();
        String[] out = new String[Math.min(values.length, Long.bitCount(regs.mask()))];
        int i = 0;
        for (int r = 0; r < 64 && i < out.length; r++) {
            if ((regs.mask() & (1L << r)) != 0) {
                out[i++] = name(r);
            }
        }
        return out;
    }

    /** perf_sample__fprintf_regs: {@code  ABI:n } then {@code %5s:0x%lx } per register; nothing without registers. */
    void print(LineWriter w, Regs regs) {
        if (regs == null || regs.abi() == 0) {
            return;
        }
        w.str(" ABI:").udec(regs.abi()).ch(' ');
        long[] values = regs.regs();
        long mask = regs.mask();
        // the values are in mask-bit order, lowest first
        for (int i = 0; i < values.length && mask != 0; i++, mask &= mask - 1) {
            w.strRight(names[Long.numberOfTrailingZeros(mask)], 5).str(":0x").hexRight(values[i], 0).ch(' ');
        }
    }
}
