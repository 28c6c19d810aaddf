package dev.jperf.report.aggregate;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** perf report's --sort keys jperf knows, with perf's column headers. */
public enum SortKey {
    COMM("Command"),
    DSO("Shared Object"),
    SYM("Symbol"),
    /** perf's "pid": one row per thread, printed TID:COMM. */
    PID("    Pid:Command"),
    /** jperf's "tid": the same rows as pid (perf 6.1 has no tid key). */
    TID("    Tid:Command"),
    CPU("CPU");

    private final String header;

    SortKey(String header) {
        this.header = header;
    }

    public String header() {
        return header;
    }

    /** Parses a comma list ("comm,dso,sym"); an unknown key is an error naming it, as in perf. */
    public static List<SortKey> parse(String list) {
        List<SortKey> out = new ArrayList<>();
        for (String k : list.split(",")) {
            String t = k.trim();
            if (t.isEmpty()) {
                continue;
            }
            try {
                SortKey key = valueOf(t.toUpperCase(Locale.ROOT));
                if (!out.contains(key)) {
                    out.add(key);
                }
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("Unknown --sort key: `" + t + "'");
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no --sort key given");
        }
        return List.copyOf(out);
    }
}
