package dev.jperf.cli;

import dev.jperf.cli.options.UsageException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** perf's comma-separated option values ({@code --comms a,b}, {@code -p 1,2}); null when the option was not given. */
final class CommaList {
    private CommaList() {
    }

    /** The values, stripped, blanks dropped, each once in the order given. */
    static Set<String> strings(String list) {
        if (list == null) {
            return null;
        }
        Set<String> out = new LinkedHashSet<>();
        for (String s : list.split(",")) {
            if (!s.isBlank()) {
                out.add(s.strip());
            }
        }
        return out;
    }

    /** The values as numbers (ids), or a usage error naming {@code option}. */
    static List<Integer> ints(String option, String list) {
        Set<String> s = strings(list);
        if (s == null) {
            return null;
        }
        List<Integer> out = new ArrayList<>();
        for (String v : s) {
            try {
                out.add(Integer.parseInt(v));
            } catch (NumberFormatException e) {
                throw new UsageException("option '" + option + "' expects numbers, not '" + v + "'");
            }
        }
        return out;
    }
}
