package com.sun.jna;

/**
 * Calls a native {@link Function} whose arguments are all {@code Integer}s and {@code Long}s and
 * whose result is an int or a long, straight through JNA's dispatch ({@code Native.invokeInt} /
 * {@code invokeLong}, package-private, hence this package). {@link Function#invokeInt(Object[])}
 * gets there through {@code Function.invoke}'s generic path (argument conversion, type mappers,
 * structure write-back), ~2 KB of bytecode that C1 compiled for ~9 ms in every recording (the
 * drain's poll and the pin path's bpf(2) are on record's JIT list) and that every call walks; for
 * these arguments that path hands the same array and flags to the same native call
 * (bench/README.md). errno is kept by the dispatch as before ({@link Native#getLastError()}).
 */
public final class PrimitiveCall {
    private PrimitiveCall() {}

    /** {@code f(args...)} returning a C int. */
    public static int invokeInt(Function f, Object[] args) {
        return Native.invokeInt(f, f.peer, f.callFlags, args);
    }

    /** {@code f(args...)} returning a C long (or a pointer as its address). */
    public static long invokeLong(Function f, Object[] args) {
        return Native.invokeLong(f, f.peer, f.callFlags, args);
    }
}
