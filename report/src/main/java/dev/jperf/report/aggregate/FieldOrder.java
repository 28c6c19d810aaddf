package dev.jperf.report.aggregate;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * perf report's columns and output sort order from {@code -F/--fields} and {@code -s/--sort}, by
 * perf's setup_sorting: the sort list is --sort's (prefixed by overhead, and overhead_children
 * when cumulating, unless -F is strict), or perf's default unless a strict -F replaces it; the
 * columns are -F's (after the default columns unless strict), then every sort-list field not among
 * them (perf_hpp__setup_output_field); then every column not in the sort list joins its end
 * (perf_hpp__append_sort_keys). Entries are told apart by the sort list's keys alone.
 *
 * @param columns the columns, in order
 * @param sortList the output order: each field's comparison in turn
 * @param selfHeader perf's "Self" for the overhead column (cumulating, default columns)
 * @param sorted how many of the sort list's fields came from --sort or the default order: perf
 *     adds those through sort_dimension__add, which alone notes a comm key's collapse pass and
 *     the dso key sort__sym_cmp defers to (need_collapse, hists__has(dso)); keys -F adds do not
 */
public record FieldOrder(List<Field> columns, List<Field> sortList, boolean selfHeader, int sorted) {
    public FieldOrder {
        columns = List.copyOf(columns);
        sortList = List.copyOf(sortList);
    }

    /**
     * @param sort --sort as given, or null
     * @param defaultSort perf's default sort order of the mode ("comm,dso,symbol")
     * @param fields -F as given, or null
     * @param children perf's cumulate_callchain (--children on a file with callchains)
     * @param showSamples -n (a default column)
     * @param showPeriod --show-total-period (a default column)
     * @param cpuUtilization --show-cpu-utilization: sys and usr default columns
     */
    public static FieldOrder of(String sort, String defaultSort, String fields, boolean children, boolean showSamples,
            boolean showPeriod, boolean cpuUtilization) {
        boolean strict = fields != null && !fields.startsWith("+");
        if (fields != null && !strict && fields.length() == 1) {
            throw new IllegalArgumentException("Invalid --fields key: `+'");
        }
        if (sort != null && sort.startsWith("+")) {
            if (sort.length() == 1) {
                throw new IllegalArgumentException("Invalid --sort key: `+'");
            }
            sort = defaultSort + "," + sort.substring(1);
        }
        List<Field> sortList = new ArrayList<>();
        String keys = sort != null ? sort : strict ? null : defaultSort;
        if (keys != null) {
            if (!strict) {
                // setup_overhead's prefix_if_not_in: a test of the text, not of the keys
                if (!keys.contains("overhead")) {
                    keys = "overhead," + keys;
                }
                if (children && !keys.contains("overhead_children")) {
                    keys = "overhead_children," + keys;
                }
            }
            sortList.addAll(Field.parse(keys, "--sort"));
        }
        List<Field> columns = new ArrayList<>();
        if (!strict) {
            // perf_hpp__init's default columns
            if (children) {
                columns.add(Field.of(Field.Hpp.OVERHEAD_CHILDREN));
            }
            columns.add(Field.of(Field.Hpp.OVERHEAD));
            if (cpuUtilization) {
                // perf_guest is false in report: the guest columns are -F's alone
                columns.add(Field.of(Field.Hpp.OVERHEAD_SYS));
                columns.add(Field.of(Field.Hpp.OVERHEAD_US));
            }
            if (showSamples) {
                columns.add(Field.of(Field.Hpp.SAMPLE));
            }
            if (showPeriod) {
                columns.add(Field.of(Field.Hpp.PERIOD));
            }
        }
        if (fields != null) {
            for (Field f : Field.parse(strict ? fields : fields.substring(1), "--fields")) {
                if (!columns.contains(f)) {
                    columns.add(f);
                }
            }
        }
        for (Field f : sortList) {
            if (!columns.contains(f)) {
                columns.add(f);
            }
        }
        int sorted = sortList.size();
        for (Field f : columns) {
            if (!sortList.contains(f)) {
                sortList.add(f);
            }
        }
        return new FieldOrder(columns, sortList, children && !strict, sorted);
    }

    /** The sort keys of the sort list, in its order: what tells entries apart (hist_entry__cmp). */
    public List<SortKey> keys() {
        List<SortKey> keys = new ArrayList<>();
        for (Field f : sortList) {
            if (f.key() != null) {
                keys.add(f.key());
            }
        }
        return keys;
    }

    /** The keys perf's sort_dimension__add took (from --sort or the default order), see {@link #sorted}. */
    public Set<SortKey> sortDimensions() {
        Set<SortKey> keys = EnumSet.noneOf(SortKey.class);
        for (Field f : sortList.subList(0, sorted)) {
            if (f.key() != null) {
                keys.add(f.key());
            }
        }
        return keys;
    }

    /** Whether the fields are perf's default layout for these keys (no -F, --sort without hpp fields). */
    public static boolean isDefault(String sort, String fields) {
        if (fields != null) {
            return false;
        }
        if (sort == null) {
            return true;
        }
        if (sort.startsWith("+")) {
            return false;
        }
        for (Field f : Field.parse(sort, "--sort")) {
            if (f.hpp() != null) {
                return false;
            }
        }
        return true;
    }
}
