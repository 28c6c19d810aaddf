package dev.jperf.format.header;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** CPU lists as the kernel and perf spell them ({@code 0-3,5}): sysfs files, -C/--cpu options. */
public final class CpuList {
    /** Highest CPU number accepted: a range cannot make a list of billions. */
    public static final int MAX_CPU = 65535;

    private CpuList() {
    }

    /** The CPUs of {@code list}, ascending, each once. */
    public static List<Integer> parse(String list) {
        TreeSet<Integer> out = new TreeSet<>();
        for (String part : list.strip().split(",")) {
            String p = part.strip();
            if (p.isEmpty()) {
                continue;
            }
            try {
                int dash = p.indexOf('-');
                int lo = Integer.parseInt(dash < 0 ? p : p.substring(0, dash).strip());
                int hi = dash < 0 ? lo : Integer.parseInt(p.substring(dash + 1).strip());
                if (lo < 0 || hi < lo || hi > MAX_CPU) {
                    throw new NumberFormatException();
                }
                for (int c = lo; c <= hi; c++) {
                    out.add(c);
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad CPU list '" + list + "'");
            }
        }
        return new ArrayList<>(out);
    }
}
