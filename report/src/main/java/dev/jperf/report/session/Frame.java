package dev.jperf.report.session;

import dev.jperf.report.symbol.Dso;
import dev.jperf.report.symbol.Symbol;

/**
 * One resolved address (perf's addr_location): where {@code ip} fell, in which mapping and DSO,
 * which symbol, and {@code addr}, the address in the DSO's space (the ip itself when no mapping
 * holds it). Immutable and shared: every sample at the same address in the same mapping gets the
 * same frame.
 *
 * @param level perf's level character for this address: {@code 'k'} kernel, {@code '.'} user,
 *     {@code 'H'} hypervisor, {@code 'g'} guest kernel, {@code 'u'} guest user
 */
public record Frame(long ip, long addr, Mapping map, Symbol symbol, char level) {
    /** The DSO, or null when no mapping holds the address. */
    public Dso dso() {
        return map == null ? null : map.dso();
    }

    public boolean kernelSpace() {
        return map != null && map.kernelSpace();
    }
}
