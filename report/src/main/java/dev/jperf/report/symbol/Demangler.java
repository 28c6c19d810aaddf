package dev.jperf.report.symbol;

/**
 * Turns mangled C++ (Itanium ABI) and Rust (legacy and v0) symbol names into source names, with
 * the same text libiberty's {@code cplus_demangle} gives perf and c++filt: Rust is tried first,
 * then C++. A name that is not mangled, or that this demangler cannot read, is returned unchanged;
 * bad input never throws and never loops (depth, work and output are bounded).
 *
 * <p>{@link #PERF} is what perf 6.1 prints by default (no parameters, {@code std::string} rather
 * than its full expansion, no Rust hash); {@link #CXXFILT} is what {@code c++filt} prints
 * (DMGL_PARAMS | DMGL_ANSI | DMGL_VERBOSE) and what {@code perf -v} prints except for the verbose
 * expansions. Instances are immutable and thread-safe.
 */
public final class Demangler {
    /** perf report/script/annotate by default: {@code cplus_demangle(name, DMGL_NO_OPTS)}. */
    public static final Demangler PERF = new Demangler(false, false);
    /** perf with {@code -v}: {@code DMGL_PARAMS | DMGL_ANSI}. */
    public static final Demangler PERF_VERBOSE = new Demangler(true, false);
    /** c++filt's default: {@code DMGL_PARAMS | DMGL_ANSI | DMGL_VERBOSE}. */
    public static final Demangler CXXFILT = new Demangler(true, true);

    private final boolean params;
    private final boolean verbose;

    private Demangler(boolean params, boolean verbose) {
        this.params = params;
        this.verbose = verbose;
    }

    /** The demangled name, or {@code name} itself when it is not a name this demangler reads. */
    public String demangle(String name) {
        if (name.length() < 3 || name.charAt(0) != '_') {
            return name;
        }
        char c = name.charAt(1);
        if (c != 'Z' && c != 'R' && c != 'G') {
            return name;
        }
        String r = RustDemangler.demangle(name, verbose);
        if (r == null) {
            r = ItaniumDemangler.demangle(name,
                    (params ? ItaniumDemangler.PARAMS : 0) | (verbose ? ItaniumDemangler.VERBOSE : 0));
        }
        return r == null ? name : r;
    }
}
