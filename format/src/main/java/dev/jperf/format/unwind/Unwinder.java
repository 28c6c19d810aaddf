package dev.jperf.format.unwind;

import dev.jperf.format.io.ByteSource;

/**
 * Offline DWARF unwinding of an x86-64 user stack, as perf's libunwind post-unwinder does it: from
 * a sample's PERF_SAMPLE_REGS_USER and its PERF_SAMPLE_STACK_USER copy, frame by frame through each
 * module's {@link Cfi} (the return address, the callee-saved registers and the stack pointer
 * restored from the copy), by frame pointer in a module whose CFI does not cover the address
 * (libunwind's x86-64 fallback). Memory is the stack copy only: perf's access_mem reads the words
 * [sp, sp + size - 8).
 *
 * <p>The chain ends where perf's does (the return address column undefined, as at {@code _start};
 * a return address of 0; an address no module maps) and where a hostile input would make it go on:
 * memory outside the copy, a stack pointer that does not grow, the frame budget. One instance per
 * thread, reused: no allocation per sample.
 */
public final class Unwinder {
    /** The modules of one address space. */
    public interface Modules {
        /**
         * The CFI of the module that maps {@code pc} ({@link Cfi#EMPTY} when its file has none),
         * with the module address of {@code pc} in {@code vaddr[0]}; null when nothing maps it or
         * its file cannot be found.
         */
        Cfi find(long pc, long[] vaddr);
    }

    /** DWARF register numbers (x86-64 psABI). */
    static final int RBX = 3;
    static final int RBP = 6;
    static final int RSP = 7;
    static final int RIP = 16;
    /** perf's x86 register numbers (arch/x86/include/uapi/asm/perf_regs.h) to DWARF's; -1: none. */
    private static final int[] PERF_TO_DWARF = {0, 3, 2, 1, 4, 5, 6, 7, 16, -1, -1, -1, -1, -1, -1, -1,
        8, 9, 10, 11, 12, 13, 14, 15};
    /** DW_OPs one expression may execute (DW_OP_skip/bra can loop). */
    private static final int MAX_OPS = 256;
    private static final int EXPR_STACK = 64;

    private final long[] regs = new long[CfiRow.REGS];
    private final long[] next = new long[CfiRow.REGS];
    private int valid;
    private int nextValid;
    private final CfiRow row = new CfiRow();
    private final long[] vaddr = new long[1];
    private final long[] exprStack = new long[EXPR_STACK];
    private final long[] exprAt = new long[1];
    private ByteSource stack;
    private long stackAt;
    private long stackStart;
    private long stackEnd;
    private boolean memFault;
    /** The last step could not read the return address: it lies outside the stack copy. */
    private boolean raLost;

    /**
     * Unwinds one sample. The registers are the u64s at {@code regsAt} in {@code src}, one per bit
     * of perf's x86 {@code mask}; the stack copy is {@code stackSize} bytes at {@code stackAt} (its
     * dyn_size). Writes the frames' addresses innermost first into {@code out}: the interrupted pc,
     * then each caller's return address minus one (perf's, for a caller's line; the signal
     * trampoline's too), except the frame a signal interrupted, whose address is where it stopped
     * (perf's libunwind says so of the frame after a signal frame), which is also where its FDE is
     * looked up; returns how many, at most {@code max}.
     */
    public int unwind(ByteSource src, long regsAt, long mask, long stackAt, long stackSize, Modules modules,
            long[] out, int max) {
        valid = 0;
        int k = 0;
        for (int b = 0; b < 64; b++) {
            if ((mask & (1L << b)) == 0) {
                continue;
            }
            long v = src.u64(regsAt + 8L * k++);
            int r = b < PERF_TO_DWARF.length ? PERF_TO_DWARF[b] : -1;
            if (r >= 0) {
                regs[r] = v;
                valid |= 1 << r;
            }
        }
        return unwind(src, stackAt, stackSize, modules, out, max);
    }

    /** As {@link #unwind(ByteSource, long, long, long, long, Modules, long[], int)}, registers given as an array. */
    public int unwind(long[] perfRegs, long mask, ByteSource src, long stackAt, long stackSize, Modules modules,
            long[] out, int max) {
        valid = 0;
        int k = 0;
        for (int b = 0; b < 64 && k < perfRegs.length; b++) {
            if ((mask & (1L << b)) == 0) {
                continue;
            }
            long v = perfRegs[k++];
            int r = b < PERF_TO_DWARF.length ? PERF_TO_DWARF[b] : -1;
            if (r >= 0) {
                regs[r] = v;
                valid |= 1 << r;
            }
        }
        return unwind(src, stackAt, stackSize, modules, out, max);
    }

    private int unwind(ByteSource src, long at, long size, Modules modules, long[] out, int max) {
        if (max <= 0 || (valid & (1 << RIP)) == 0) {
            return 0;
        }
        stack = src;
        stackAt = at;
        stackStart = regs[RSP];
        stackEnd = (valid & (1 << RSP)) != 0 ? stackStart + size : stackStart;
        long pc = regs[RIP];
        out[0] = pc;
        int n = 1;
        boolean exact = true;
        while (n < max) {
            Cfi cfi = modules.find(exact ? pc : pc - 1, vaddr);
            if (cfi == null) {
                break;
            }
            boolean haveRow = cfi.row(vaddr[0], row);
            memFault = false;
            raLost = false;
            if (haveRow ? !step(cfi) : !framePointerStep()) {
                if (raLost) {
                    out[n++] = -1L;
                }
                break;
            }
            long newPc = next[RIP];
            long oldSp = regs[RSP];
            long newSp = next[RSP];
            boolean signal = haveRow && row.signalFrame;
            if (newPc == 0 || (nextValid & (1 << RSP)) == 0
                    || (signal ? newSp == oldSp && newPc == pc : Long.compareUnsigned(newSp, oldSp) <= 0)) {
                break;
            }
            System.arraycopy(next, 0, regs, 0, CfiRow.REGS);
            valid = nextValid;
            pc = newPc;
            exact = signal;
            out[n++] = exact ? pc : pc - 1;
        }
        stack = null;
        return n;
    }

    /** One step through the row: the caller's registers into {@link #next}; false when the chain ends. */
    private boolean step(Cfi cfi) {
        long cfa;
        byte[] d = cfi.section(row.section);
        if (row.cfaExpr >= 0) {
            cfa = evaluate(d, row.cfaExpr, row.cfaExprLength, false, 0);
        } else if (row.cfaReg >= 0 && row.cfaReg < CfiRow.REGS && (valid & (1 << row.cfaReg)) != 0) {
            cfa = regs[row.cfaReg] + row.cfaOffset;
        } else {
            return false;
        }
        if (memFault) {
            return false;
        }
        int ra = row.raReg;
        if (ra < 0 || ra >= CfiRow.REGS || row.rule[ra] == CfiRow.UNDEFINED) {
            // the outermost frame (_start, clone's thread start): the end of the chain
            return false;
        }
        nextValid = 0;
        for (int r = 0; r < CfiRow.REGS; r++) {
            long v = 0;
            boolean ok = true;
            long value = row.value[r];
            switch (row.rule[r]) {
                case CfiRow.UNSPECIFIED, CfiRow.SAME_VALUE -> {
                    v = regs[r];
                    ok = (valid & (1 << r)) != 0;
                }
                case CfiRow.UNDEFINED -> ok = false;
                case CfiRow.OFFSET -> v = read(cfa + value);
                case CfiRow.VAL_OFFSET -> v = cfa + value;
                case CfiRow.REGISTER -> {
                    ok = value >= 0 && value < CfiRow.REGS && (valid & (1 << value)) != 0;
                    v = ok ? regs[(int) value] : 0;
                }
                case CfiRow.EXPRESSION -> v = read(evaluate(d, (int) value, row.exprLength[r], true, cfa));
                case CfiRow.VAL_EXPRESSION -> v = evaluate(d, (int) value, row.exprLength[r], true, cfa);
                default -> ok = false;
            }
            if (memFault) {
                // as libunwind, which reads a saved register only when it is used: one popped
                // already (below the stack pointer, outside the copy) is lost, not the chain
                memFault = false;
                ok = false;
                if (r == ra) {
                    // the return address beyond the copy: perf's access_mem answers 0 with its
                    // error, libunwind steps to pc 0 (perf shows -1) and ends there
                    raLost = true;
                }
            }
            next[r] = v;
            if (ok) {
                nextValid |= 1 << r;
            }
        }
        if (row.rule[RSP] == CfiRow.UNSPECIFIED || row.rule[RSP] == CfiRow.SAME_VALUE) {
            // the CFA is the caller's stack pointer
            next[RSP] = cfa;
            nextValid |= 1 << RSP;
        }
        if (ra != RIP) {
            next[RIP] = next[ra];
        }
        return (nextValid & (1 << RIP)) != 0;
    }

    /** libunwind's x86-64 fallback: rbp is the frame, [rbp] the caller's rbp, [rbp+8] the return address. */
    private boolean framePointerStep() {
        if ((valid & (1 << RBP)) == 0 || regs[RBP] == 0) {
            return false;
        }
        long rbp = regs[RBP];
        long ra = read(rbp + 8);
        long callerRbp = read(rbp);
        if (memFault) {
            return false;
        }
        System.arraycopy(regs, 0, next, 0, CfiRow.REGS);
        nextValid = valid;
        next[RBP] = callerRbp;
        next[RSP] = rbp + 16;
        next[RIP] = ra;
        nextValid |= 1 << RSP | 1 << RIP;
        return true;
    }

    /** A word of the stack copy; outside it, 0 and {@link #memFault}. */
    private long read(long addr) {
        if (Long.compareUnsigned(addr, stackStart) < 0 || Long.compareUnsigned(addr + 8, stackEnd) >= 0
                || Long.compareUnsigned(addr + 8, addr) < 0) {
            memFault = true;
            return 0;
        }
        return stack.u64(stackAt + (addr - stackStart));
    }

    /**
     * A DWARF expression of CFI (DWARF 5 §2.5: the operations compilers emit there, registers from
     * the current frame, memory from the stack copy); the CFA pushed first for DW_CFA_expression
     * and val_expression. A malformed or endless expression sets {@link #memFault}.
     */
    long evaluate(byte[] d, int from, int length, boolean pushCfa, long cfa) {
        long[] s = exprStack;
        int sp = 0;
        if (pushCfa) {
            s[sp++] = cfa;
        }
        long[] at = exprAt;
        at[0] = from;
        int end = from + length;
        int ops = 0;
        try {
            while (at[0] < end) {
                if (++ops > MAX_OPS || sp >= EXPR_STACK - 1) {
                    memFault = true;
                    return 0;
                }
                int op = Cfi.u8(d, (int) at[0]++);
                if (op >= 0x30 && op <= 0x4f) {
                    s[sp++] = op - 0x30;
                    continue;
                }
                if (op >= 0x50 && op <= 0x6f) {
                    s[sp++] = reg(op - 0x50);
                    continue;
                }
                if (op >= 0x70 && op <= 0x8f) {
                    s[sp++] = reg(op - 0x70) + Cfi.sleb(d, at);
                    continue;
                }
                long a;
                long b;
                switch (op) {
                    case 0x03 -> { // addr
                        s[sp++] = Cfi.u64(d, (int) at[0]);
                        at[0] += 8;
                    }
                    case 0x06 -> {
                        need(sp, 1);
                        s[sp - 1] = read(s[sp - 1]);
                    }
                    case 0x08 -> s[sp++] = Cfi.u8(d, (int) at[0]++);
                    case 0x09 -> s[sp++] = (byte) Cfi.u8(d, (int) at[0]++);
                    case 0x0a -> {
                        s[sp++] = Cfi.u16(d, (int) at[0]);
                        at[0] += 2;
                    }
                    case 0x0b -> {
                        s[sp++] = (short) Cfi.u16(d, (int) at[0]);
                        at[0] += 2;
                    }
                    case 0x0c -> {
                        s[sp++] = Cfi.u32(d, (int) at[0]);
                        at[0] += 4;
                    }
                    case 0x0d -> {
                        s[sp++] = (int) Cfi.u32(d, (int) at[0]);
                        at[0] += 4;
                    }
                    case 0x0e, 0x0f -> {
                        s[sp++] = Cfi.u64(d, (int) at[0]);
                        at[0] += 8;
                    }
                    case 0x10 -> s[sp++] = Cfi.uleb(d, at);
                    case 0x11 -> s[sp++] = Cfi.sleb(d, at);
                    case 0x12 -> {
                        need(sp, 1);
                        s[sp] = s[sp - 1];
                        sp++;
                    }
                    case 0x13 -> {
                        need(sp, 1);
                        sp--;
                    }
                    case 0x14 -> {
                        need(sp, 2);
                        s[sp] = s[sp - 2];
                        sp++;
                    }
                    case 0x15 -> {
                        int i = Cfi.u8(d, (int) at[0]++);
                        need(sp, i + 1);
                        s[sp] = s[sp - 1 - i];
                        sp++;
                    }
                    case 0x16 -> {
                        need(sp, 2);
                        a = s[sp - 1];
                        s[sp - 1] = s[sp - 2];
                        s[sp - 2] = a;
                    }
                    case 0x17 -> {
                        need(sp, 3);
                        a = s[sp - 1];
                        s[sp - 1] = s[sp - 2];
                        s[sp - 2] = s[sp - 3];
                        s[sp - 3] = a;
                    }
                    case 0x19 -> {
                        need(sp, 1);
                        s[sp - 1] = Math.abs(s[sp - 1]);
                    }
                    case 0x1f -> {
                        need(sp, 1);
                        s[sp - 1] = -s[sp - 1];
                    }
                    case 0x20 -> {
                        need(sp, 1);
                        s[sp - 1] = ~s[sp - 1];
                    }
                    case 0x23 -> {
                        need(sp, 1);
                        s[sp - 1] += Cfi.uleb(d, at);
                    }
                    case 0x94 -> { // deref_size
                        need(sp, 1);
                        int n = Cfi.u8(d, (int) at[0]++);
                        long v = read(s[sp - 1]);
                        s[sp - 1] = n >= 8 ? v : v & ((1L << (8 * n)) - 1);
                    }
                    case 0x2f, 0x28 -> { // skip, bra
                        int off = (short) Cfi.u16(d, (int) at[0]);
                        at[0] += 2;
                        boolean jump = true;
                        if (op == 0x28) {
                            need(sp, 1);
                            jump = s[--sp] != 0;
                        }
                        if (jump) {
                            at[0] += off;
                            if (at[0] < from || at[0] > end) {
                                memFault = true;
                                return 0;
                            }
                        }
                    }
                    case 0x90 -> s[sp++] = reg((int) Cfi.uleb(d, at));
                    case 0x92 -> {
                        int r = (int) Cfi.uleb(d, at);
                        s[sp++] = reg(r) + Cfi.sleb(d, at);
                    }
                    case 0x96 -> { }
                    default -> {
                        if (op < 0x1a || op > 0x2e) {
                            memFault = true;
                            return 0;
                        }
                        need(sp, 2);
                        a = s[--sp];
                        b = s[sp - 1];
                        s[sp - 1] = binary(op, b, a);
                    }
                }
            }
        } catch (Cfi.Bad e) {
            memFault = true;
            return 0;
        }
        if (sp == 0) {
            memFault = true;
            return 0;
        }
        return s[sp - 1];
    }

    private static long binary(int op, long b, long a) {
        return switch (op) {
            case 0x1a -> b & a;
            case 0x1b -> a == 0 ? 0 : b / a;
            case 0x1c -> b - a;
            case 0x1d -> a == 0 ? 0 : Long.remainderUnsigned(b, a);
            case 0x1e -> b * a;
            case 0x21 -> b | a;
            case 0x22 -> b + a;
            case 0x24 -> a >= 64 || a < 0 ? 0 : b << a;
            case 0x25 -> a >= 64 || a < 0 ? 0 : b >>> a;
            case 0x26 -> a >= 64 || a < 0 ? (b < 0 ? -1 : 0) : b >> a;
            case 0x27 -> b ^ a;
            case 0x29 -> b == a ? 1 : 0;
            case 0x2a -> b >= a ? 1 : 0;
            case 0x2b -> b > a ? 1 : 0;
            case 0x2c -> b <= a ? 1 : 0;
            case 0x2d -> b < a ? 1 : 0;
            case 0x2e -> b != a ? 1 : 0;
            default -> throw Cfi.Bad.INSTANCE;
        };
    }

    private static void need(int sp, int n) {
        if (sp < n) {
            throw Cfi.Bad.INSTANCE;
        }
    }

    private long reg(int r) {
        if (r < 0 || r >= CfiRow.REGS || (valid & (1 << r)) == 0) {
            memFault = true;
            return 0;
        }
        return regs[r];
    }

    /** For tests: set DWARF register {@code r} of the current frame. */
    void setRegister(int r, long v) {
        regs[r] = v;
        valid |= 1 << r;
    }
}
