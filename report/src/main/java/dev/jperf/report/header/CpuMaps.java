package dev.jperf.report.header;

import java.util.TreeSet;

/** CPU lists and bitmaps printed the way perf prints them (cpu_map__snprint, bitmap_scnprintf). */
final class CpuMaps {
    private CpuMaps() {
    }

    /** Parses a sysfs-style cpu list ("0-3,8,10-11") and prints it back as perf does (sorted, merged ranges). */
    static String normalize(String list) {
        TreeSet<Integer> cpus = new TreeSet<>();
        for (String part : list.trim().split(",")) {
            if (part.isEmpty()) {
                continue;
            }
            try {
                int dash = part.indexOf('-');
                int lo = Integer.parseInt(part.substring(0, dash < 0 ? part.length() : dash).trim());
                int hi = dash < 0 ? lo : Integer.parseInt(part.substring(dash + 1).trim());
                for (int c = lo; c <= hi && c - lo < 1 << 16; c++) {
                    cpus.add(c);
                }
            } catch (NumberFormatException e) {
                return list; // not a cpu list: show it as stored
            }
        }
        StringBuilder sb = new StringBuilder();
        Integer start = null;
        Integer prev = null;
        for (int c : cpus) {
            if (start != null && c == prev + 1) {
                prev = c;
                continue;
            }
            range(sb, start, prev);
            start = c;
            prev = c;
        }
        range(sb, start, prev);
        return sb.toString();
    }

    private static void range(StringBuilder sb, Integer start, Integer end) {
        if (start == null) {
            return;
        }
        if (sb.length() > 0) {
            sb.append(',');
        }
        sb.append(start);
        if (!start.equals(end)) {
            sb.append('-').append(end);
        }
    }

    /** bitmap_scnprintf of the first {@code nbits} bits of {@code words}: "0-23,32-199". */
    static String bitmap(long[] words, long nbits) {
        StringBuilder sb = new StringBuilder();
        long limit = Math.min(nbits, 64L * words.length);
        long start = -1;
        for (long b = 0; b <= limit; b++) {
            boolean set = b < limit && (words[(int) (b >>> 6)] >>> (b & 63) & 1) != 0;
            if (set && start < 0) {
                start = b;
            } else if (!set && start >= 0) {
                if (sb.length() > 0) {
                    sb.append(',');
                }
                sb.append(start);
                if (b - 1 > start) {
                    sb.append('-').append(b - 1);
                }
                start = -1;
            }
        }
        return sb.toString();
    }

    /** bitmap_weight of the first {@code nbits} bits. */
    static long weight(long[] words, long nbits) {
        long n = 0;
        long limit = Math.min(nbits, 64L * words.length);
        for (int i = 0; (long) i * 64 < limit; i++) {
            long w = words[i];
            long remaining = limit - (long) i * 64;
            if (remaining < 64) {
                w &= (1L << remaining) - 1;
            }
            n += Long.bitCount(w);
        }
        return n;
    }

    /** unit_number__scnprintf: divide by 1024 while the quotient is > 1, suffix B/K/M/G. */
    static String unitNumber(long n) {
        String units = "BKMG";
        int i = 0;
        while (Long.divideUnsigned(n, 1024) > 1 && i < 3) {
            n = Long.divideUnsigned(n, 1024);
            i++;
        }
        return Long.toUnsignedString(n) + units.charAt(i);
    }
}
