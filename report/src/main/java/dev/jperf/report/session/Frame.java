package dev.jperf.report.session;

import dev.jperf.report.symbol.Dso;
import dev.jperf.report.symbol.Symbol;

/**
 * One resolved address (perf's addr_location): where {@code ip} fell, in which mapping and DSO,
 * which symbol, and {@code addr}, the address in the DSO's space (the ip itself when no mapping
 * holds it). Immutable and shared: every sample at the same address in the same mapping gets the
 * same frame.
 *
 * <p>{@link #dsoKey()} and {@link #symbolKey()} are small numbers that are equal exactly when
 * perf's sort keys see the same DSO (short name) and the same symbol (DSO short name and range),
 * so that aggregation compares ints instead of strings.
 */
public final class Frame {
    private final long ip;
    private final long addr;
    private final Mapping map;
    private final Symbol symbol;
    private final char level;
    private final int dsoKey;
    private final int symbolKey;
    /** {@link #hash()}, computed once: identityHashCode is a call into the VM under C1. */
    private final int hash;
    /** The frames perf's append_inlines puts in this one's place once computed ({@link Machine}); null before. */
    Frame[] inlines;
    /** The srcline perf's callchain cursor keeps for an inline record's frame; null for other frames. */
    private final String srcline;

    /**
     * @param level perf's level character for this address: {@code 'k'} kernel, {@code '.'} user,
     *     {@code 'H'} hypervisor, {@code 'g'} guest kernel, {@code 'u'} guest user
     */
    public Frame(long ip, long addr, Mapping map, Symbol symbol, char level) {
        this(ip, addr, map, symbol, level, -1, -1);
    }

    Frame(long ip, long addr, Mapping map, Symbol symbol, char level, int dsoKey, int symbolKey) {
        this(ip, addr, map, symbol, level, dsoKey, symbolKey, null);
    }

    Frame(long ip, long addr, Mapping map, Symbol symbol, char level, int dsoKey, int symbolKey, String srcline) {
        this.srcline = srcline;
        this.ip = ip;
        this.addr = addr;
        this.map = map;
        this.symbol = symbol;
        this.level = level;
        this.dsoKey = dsoKey;
        this.symbolKey = symbolKey;
        long h = (ip ^ addr * 31) * 0x9E3779B97F4A7C15L;
        this.hash = (int) (h ^ (h >>> 32));
    }

    /**
     * A hash for tables keyed by frame identity (equal frames are the same object): a function of
     * the addresses, so equal for the same frame.
     */
    public int hash() {
        return hash;
    }

    /** A hash of {@code chain[0..n)} by {@link #hash()}: equal for chains of the same frames. */
    public static int hashOf(Frame[] chain, int n) {
        int h = 0;
        for (int i = 0; i < n; i++) {
            h = hashOf(h, chain[i]);
        }
        return h;
    }

    /** {@link #hashOf(Frame[], int)} one frame further: {@code h} the hash of the frames before {@code f}. */
    static int hashOf(int h, Frame f) {
        return h * 31 + f.hash;
    }

    public long ip() {
        return ip;
    }

    public long addr() {
        return addr;
    }

    public Mapping map() {
        return map;
    }

    public Symbol symbol() {
        return symbol;
    }

    public char level() {
        return level;
    }

    /**
     * The srcline of the inline record this frame stands for (perf's callchain node srcline, which
     * script's -F srcline prints for a callchain entry); null when the frame is not one.
     */
    public String srcline() {
        return srcline;
    }

    /** The DSO, or null when no mapping holds the address. */
    public Dso dso() {
        return map == null ? null : map.dso();
    }

    public boolean kernelSpace() {
        return map != null && map.kernelSpace();
    }

    /** Equal for frames whose DSOs have the same short name; -1 without DSO. */
    public int dsoKey() {
        return dsoKey;
    }

    /** Equal for frames whose symbols have the same DSO short name, start and end; -1 without symbol. */
    public int symbolKey() {
        return symbolKey;
    }

    @Override
    public String toString() {
        return "Frame[" + Long.toHexString(ip) + " " + (symbol == null ? "?" : symbol.name()) + " " + map + "]";
    }
}
