package dev.jperf.format.feature;

/**
 * perf's clock names (util/clockid.c's clockids table): {@code record -k/--clockid} parses them,
 * the header's CLOCK_DATA is printed with them.
 */
public final class ClockIds {
    /** perf's table, in its order: the full names first, then the short ones. */
    private static final String[] NAMES = {"monotonic", "monotonic_raw", "realtime", "boottime", "tai", "mono", "raw",
        "real", "boot"};
    private static final int[] IDS = {1, 4, 0, 7, 11, 1, 4, 0, 7};

    private ClockIds() {
    }

    /** perf's clockid_name: the first name of the table for {@code clockid}, else {@code (not found)}. */
    public static String name(int clockid) {
        for (int i = 0; i < NAMES.length; i++) {
            if (IDS[i] == clockid) {
                return NAMES[i];
            }
        }
        return "(not found)";
    }

    /**
     * perf's parse_clockid: a number (as sscanf's %d reads one: blanks, a sign, the leading digits),
     * else a name of the table, any case, with or without {@code CLOCK_}; anything else throws
     * IllegalArgumentException.
     */
    public static int parse(String text) {
        int i = 0;
        int n = text.length();
        while (i < n && Character.isWhitespace(text.charAt(i))) {
            i++;
        }
        int sign = 1;
        if (i < n && (text.charAt(i) == '-' || text.charAt(i) == '+')) {
            sign = text.charAt(i++) == '-' ? -1 : 1;
        }
        int digits = i;
        long v = 0;
        while (i < n && text.charAt(i) >= '0' && text.charAt(i) <= '9') {
            v = v * 10 + (text.charAt(i++) - '0');
            if (v > 1L << 32) {
                v = 1L << 32; // C's int overflows here; the kernel refuses such a clock either way
            }
        }
        if (i > digits) {
            return (int) (sign * v);
        }
        String name = text.regionMatches(true, 0, "CLOCK_", 0, 6) ? text.substring(6) : text;
        for (int k = 0; k < NAMES.length; k++) {
            if (NAMES[k].equalsIgnoreCase(name)) {
                return IDS[k];
            }
        }
        throw new IllegalArgumentException("unknown clockid " + text + ", check man page");
    }
}
