package dev.jperf.report.annotate;

/** The SYMBOL argument of annotate: which functions to show (all when none given). */
final class Selection {
    private final String symbol;
    private boolean matched;

    Selection(String symbol) {
        this.symbol = symbol;
    }

    /** Whether function {@code f} is selected: by its KSYMBOL or perf name, BTF name, or its program's name. */
    boolean function(BpfFunction f, String programName) {
        return hit(symbol == null || symbol.equals(f.kernelName()) || symbol.equals(f.perfName())
                || symbol.equals(f.funcName()) || symbol.equals(programName) || symbol.equals(f.prog().name()));
    }

    /** Whether a BPF ksymbol without prog info is selected. */
    boolean ksym(String ksym) {
        return hit(symbol == null || symbol.equals(ksym));
    }

    private boolean hit(boolean h) {
        matched |= h;
        return h;
    }

    boolean matchedAny() {
        return matched;
    }
}
