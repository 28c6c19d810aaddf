package dev.jperf.format.unwind;

/**
 * One row of a call frame information table (DWARF 5 §6.4.1): how to find the CFA and the caller's
 * registers at one address. Reused (the unwinder's scratch, the module's cache slots): every field
 * is a primitive, copied with {@link #copyFrom}.
 */
public final class CfiRow {
    /** Registers with a rule kept (DWARF x86-64 numbers 0..16; 16 is the return address column). */
    public static final int REGS = 17;

    public static final byte UNSPECIFIED = 0;
    public static final byte UNDEFINED = 1;
    public static final byte SAME_VALUE = 2;
    /** Saved at CFA + value. */
    public static final byte OFFSET = 3;
    /** The value is CFA + value. */
    public static final byte VAL_OFFSET = 4;
    /** In register value. */
    public static final byte REGISTER = 5;
    /** Saved at the address the expression (at value, length {@link #exprLength}) computes. */
    public static final byte EXPRESSION = 6;
    /** The value is what the expression computes. */
    public static final byte VAL_EXPRESSION = 7;

    /** CFA = register {@link #cfaReg} + {@link #cfaOffset}, or, when {@link #cfaExpr} >= 0, an expression. */
    public int cfaReg = -1;
    public long cfaOffset;
    /** Where the CFA's expression starts in {@link #section}, or -1. */
    public int cfaExpr = -1;
    public int cfaExprLength;
    public final byte[] rule = new byte[REGS];
    public final long[] value = new long[REGS];
    public final int[] exprLength = new int[REGS];
    /** The section the expressions are in: {@link Cfi#EH_FRAME} or {@link Cfi#DEBUG_FRAME}. */
    public int section;
    /** The return address column of the CIE. */
    public int raReg = 16;
    /** The FDE's CIE has the 'S' augmentation: a signal trampoline's frame. */
    public boolean signalFrame;
    /** The FDE's range: [pcBegin, pcEnd) in the module's addresses. */
    public long pcBegin;
    public long pcEnd;
    /** Where this row starts and where the next begins (in the module's addresses). */
    public long rowBegin;
    public long rowEnd;

    void clear() {
        cfaReg = -1;
        cfaOffset = 0;
        cfaExpr = -1;
        cfaExprLength = 0;
        java.util.Arrays.fill(rule, UNSPECIFIED);
        java.util.Arrays.fill(value, 0);
        java.util.Arrays.fill(exprLength, 0);
        section = 0;
        raReg = 16;
        signalFrame = false;
    }

    public void copyFrom(CfiRow o) {
        cfaReg = o.cfaReg;
        cfaOffset = o.cfaOffset;
        cfaExpr = o.cfaExpr;
        cfaExprLength = o.cfaExprLength;
        System.arraycopy(o.rule, 0, rule, 0, REGS);
        System.arraycopy(o.value, 0, value, 0, REGS);
        System.arraycopy(o.exprLength, 0, exprLength, 0, REGS);
        section = o.section;
        raReg = o.raReg;
        signalFrame = o.signalFrame;
        pcBegin = o.pcBegin;
        pcEnd = o.pcEnd;
        rowBegin = o.rowBegin;
        rowEnd = o.rowEnd;
    }

    /** The register rules and CFA only (what remember_state saves). */
    void copyRules(CfiRow o) {
        cfaReg = o.cfaReg;
        cfaOffset = o.cfaOffset;
        cfaExpr = o.cfaExpr;
        cfaExprLength = o.cfaExprLength;
        System.arraycopy(o.rule, 0, rule, 0, REGS);
        System.arraycopy(o.value, 0, value, 0, REGS);
        System.arraycopy(o.exprLength, 0, exprLength, 0, REGS);
    }
}
