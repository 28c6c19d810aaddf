package dev.jperf.format.dwarf;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code addr2line -i -f -e FILE} answers for an address of one ELF file, read from its DWARF
 * in pure Java: {@link #frames} is the list of records addr2line prints, innermost first: the
 * function the address is in and its file and line (from {@code .debug_line}), then for each
 * inlined call the function it was inlined into and the call's file and line ({@code .debug_info}'s
 * inlined subroutines). The line tables are read once into one sorted array of address ranges
 * (a binary search per address); a unit's functions are read when an address first falls in it.
 *
 * <p>Damaged debug information never throws: what cannot be read is left out and named, one line
 * each, in {@link #warnings()}. Not thread-safe.
 */
public final class Addr2Line {
    /**
     * One record of {@code addr2line -i -f}: function, file (null for "??"), line (0 unknown). The
     * function is null where binutils names it by the ELF symbol around the address instead (outside
     * every DWARF function, or a name that is not a linkage name of a language that mangles).
     */
    public record Frame(String function, String file, long line) {}

    private final DebugInfo info;
    private final List<String> warnings = new ArrayList<>();
    /** Line tables by their offset in .debug_line, for the units' call files. */
    private final Map<Long, LineTable> tablesByOffset = new HashMap<>();
    /** Sorted address ranges [start[i], end[i]) with their file (into {@link #files}) and line. */
    private long[] start = new long[0];
    private long[] end = new long[0];
    private int[] fileOf = new int[0];
    private long[] lineOf = new long[0];
    private long[] discOf = new long[0];
    private final List<String> files = new ArrayList<>();
    /** The units' ranges, sorted: [lo, hi) and the unit's index. */
    private long[] unitLo = new long[0];
    private long[] unitHi = new long[0];
    private int[] unitOf = new int[0];

    private Addr2Line(DebugInfo info) {
        this.info = info;
    }

    /** The debug information of an ELF file's sections; never throws (see {@link #warnings()}). */
    public static Addr2Line of(DebugSections sections) {
        List<String> w = new ArrayList<>();
        byte[] line = section(sections, ".debug_line", w);
        byte[] lineStr = section(sections, ".debug_line_str", w);
        byte[] str = section(sections, ".debug_str", w);
        byte[] infoBytes = section(sections, ".debug_info", w);
        DebugInfo info = infoBytes == null ? null
                : new DebugInfo(infoBytes, section(sections, ".debug_abbrev", w), str, lineStr,
                        section(sections, ".debug_str_offsets", w), section(sections, ".debug_addr", w),
                        section(sections, ".debug_ranges", w), section(sections, ".debug_rnglists", w), sections.order(), w);
        Addr2Line a = new Addr2Line(info);
        a.warnings.addAll(w);
        if (line != null) {
            Map<Long, String> compDirs = new HashMap<>();
            if (info != null) {
                for (DebugInfo.Unit u : info.units()) {
                    if (u.stmtList >= 0 && u.compDir != null) {
                        compDirs.put(u.stmtList, u.compDir);
                    }
                }
            }
            a.indexLines(line, lineStr, str, sections, compDirs);
        }
        if (info != null) {
            a.indexUnits();
        }
        return a;
    }

    private static byte[] section(DebugSections s, String name, List<String> warnings) {
        try {
            return s.section(name).orElse(null);
        } catch (DwarfException e) {
            warnings.add(e.getMessage());
            return null;
        }
    }

    /** Problems met reading the debug information, one line each. */
    public List<String> warnings() {
        return warnings;
    }

    /** Whether the file has line tables at all. */
    public boolean hasLines() {
        return start.length > 0;
    }

    private void indexLines(byte[] line, byte[] lineStr, byte[] str, DebugSections s, Map<Long, String> compDirs) {
        DwarfInput in = new DwarfInput(line, s.order(), ".debug_line");
        List<LineTable> tables = new ArrayList<>();
        List<String> dirs = new ArrayList<>();
        while (!in.atEnd()) {
            long at = in.position();
            try {
                LineTable t = LineTable.read(in, lineStr, str);
                tables.add(t);
                dirs.add(compDirs.get(at));
                tablesByOffset.put(at, t);
            } catch (DwarfException e) {
                // a unit's damage leaves its length unknown: the units after it cannot be found
                warnings.add(e.getMessage());
                break;
            }
        }
        int n = 0;
        for (LineTable t : tables) {
            n += t.rows().size();
        }
        long[] st = new long[n];
        long[] en = new long[n];
        int[] fi = new int[n];
        long[] li = new long[n];
        long[] di = new long[n];
        int k = 0;
        Map<String, Integer> fileIds = new HashMap<>();
        for (int ti = 0; ti < tables.size(); ti++) {
            LineTable t = tables.get(ti);
            String compDir = dirs.get(ti);
            List<LineRow> rows = t.rows();
            for (int i = 0; i + 1 < rows.size(); i++) {
                LineRow r = rows.get(i);
                LineRow next = rows.get(i + 1);
                // rows at the same address: the last one holds (binutils' add_line_info keeps it)
                if (r.endSequence() || Long.compareUnsigned(r.address(), next.address()) >= 0) {
                    continue;
                }
                // binutils (2.40) starts a DWARF 5 sequence's file register at entry 0, not 1: its
                // addr2line, which perf runs, names the unit's primary file until set_file
                String f = inCompDir(compDir, t.version() >= 5 && !r.fileSet() ? t.file(0) : t.file(r));
                Integer id = fileIds.get(f);
                if (id == null) {
                    id = files.size();
                    files.add(f);
                    fileIds.put(f, id);
                }
                st[k] = r.address();
                en[k] = next.address();
                fi[k] = id;
                di[k] = r.discriminator();
                li[k++] = r.line();
            }
        }
        Integer[] order = new Integer[k];
        for (int i = 0; i < k; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Long.compareUnsigned(st[a], st[b]));
        start = new long[k];
        end = new long[k];
        fileOf = new int[k];
        lineOf = new long[k];
        discOf = new long[k];
        for (int i = 0; i < k; i++) {
            int j = order[i];
            discOf[i] = di[j];
            start[i] = st[j];
            end[i] = en[j];
            fileOf[i] = fi[j];
            lineOf[i] = li[j];
        }
    }

    /** A relative path as binutils completes it: under the unit's compilation directory. */
    private static String inCompDir(String compDir, String f) {
        if (f == null || compDir == null || f.startsWith("/")) {
            return f;
        }
        return compDir.endsWith("/") ? compDir + f : compDir + "/" + f;
    }

    private void indexUnits() {
        List<DebugInfo.Unit> units = info.units();
        int n = 0;
        for (DebugInfo.Unit u : units) {
            n += u.ranges.length / 2;
        }
        long[] lo = new long[n];
        long[] hi = new long[n];
        int[] of = new int[n];
        int k = 0;
        for (int i = 0; i < units.size(); i++) {
            long[] r = units.get(i).ranges;
            for (int j = 0; j + 1 < r.length; j += 2) {
                lo[k] = r[j];
                hi[k] = r[j + 1];
                of[k++] = i;
            }
        }
        Integer[] order = new Integer[k];
        for (int i = 0; i < k; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Long.compareUnsigned(lo[a], lo[b]));
        unitLo = new long[k];
        unitHi = new long[k];
        unitOf = new int[k];
        for (int i = 0; i < k; i++) {
            unitLo[i] = lo[order[i]];
            unitHi[i] = hi[order[i]];
            unitOf[i] = of[order[i]];
        }
    }

    /** The index of the last range starting at or before {@code a}, or -1. */
    private static int floor(long[] starts, long a) {
        int lo = 0;
        int hi = starts.length - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(starts[mid], a) <= 0) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

    /** The file and line of {@code address} from the line tables, as a frame without function; null when none. */
    public Frame line(long address) {
        int i = floor(start, address);
        if (i < 0 || Long.compareUnsigned(address, end[i]) >= 0) {
            return null;
        }
        return new Frame(null, files.get(fileOf[i]), lineOf[i]);
    }

    /** The discriminator of the line-table row covering {@code address} (objdump -l prints it), 0 when none. */
    public long discriminator(long address) {
        int i = floor(start, address);
        return i < 0 || Long.compareUnsigned(address, end[i]) >= 0 ? 0 : discOf[i];
    }

    /**
     * addr2line's records for {@code address} (an address of the file, as its symbols have them),
     * innermost first; empty when the line tables do not cover it.
     */
    public List<Frame> frames(long address) {
        Frame line = line(address);
        if (line == null) {
            return List.of();
        }
        List<Frame> out = new ArrayList<>(2);
        DebugInfo.Unit u = unitFor(address);
        DebugInfo.Scopes s = null;
        if (u != null) {
            try {
                s = info.scopes(u);
            } catch (DwarfException e) {
                warnings.add(e.getMessage());
                u.error = e.getMessage();
            }
        }
        int f = s == null ? -1 : innermost(s, address);
        try {
            out.add(new Frame(f < 0 ? null : info.name(s.nameDie[f], true), line.file(), line.line()));
            for (int guard = 0; f >= 0 && s.caller[f] >= 0 && guard < s.count; guard++) {
                int c = s.caller[f];
                out.add(new Frame(info.name(s.nameDie[c]), callFile(u, s.callFile[f]), s.callLine[f]));
                f = c;
            }
        } catch (DwarfException e) {
            warnings.add(e.getMessage());
        }
        return out;
    }

    private DebugInfo.Unit unitFor(long address) {
        if (info == null) {
            return null;
        }
        // unit ranges may nest or overlap (rarely): look back over the ranges that start before
        int last = floor(unitLo, address);
        for (int i = last; i >= 0 && i > last - 64; i--) {
            if (Long.compareUnsigned(address, unitHi[i]) < 0 && Long.compareUnsigned(address, unitLo[i]) >= 0) {
                return info.units().get(unitOf[i]);
            }
        }
        return null;
    }

    /**
     * The function whose range piece around the address is smallest (binutils' best fit); on a
     * tie the one read last (binutils compares the funcinfo pointers: a nested function and the
     * later of aliases gas writes at one address).
     */
    private static int innermost(DebugInfo.Scopes s, long address) {
        int best = -1;
        long bestLen = 0;
        for (int i = 0; i < s.pieces; i++) {
            if (Long.compareUnsigned(address, s.lo[i]) < 0 || Long.compareUnsigned(address, s.hi[i]) >= 0) {
                continue;
            }
            long len = s.hi[i] - s.lo[i];
            int f = s.of[i];
            // of equal ranges binutils keeps the function read last (lookup_address_in_function_table's funcinfo > best_fit)
            if (best < 0 || Long.compareUnsigned(len, bestLen) < 0 || len == bestLen && f > best) {
                best = f;
                bestLen = len;
            }
        }
        return best;
    }

    /** A call's file: an index into its unit's line table's files. */
    private String callFile(DebugInfo.Unit u, long index) {
        LineTable t = tablesByOffset.get(u.stmtList);
        if (t == null || index < 0 || index > Integer.MAX_VALUE) {
            return null;
        }
        return inCompDir(u.compDir, t.file((int) index));
    }
}
