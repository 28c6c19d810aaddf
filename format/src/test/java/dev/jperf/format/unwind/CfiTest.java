package dev.jperf.format.unwind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.format.elf.ElfFile;
import dev.jperf.format.elf.ElfSection;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The rows of {@link Cfi}'s tables, at every location {@code readelf --debug-dump=frames-interp}
 * (run live as oracle) prints one, rendered in readelf's notation and compared: on the system's
 * libc, a C program built here with {@code gcc -O2 -fomit-frame-pointer} (.eh_frame through
 * .eh_frame_hdr, and .debug_frame), and a C++ program with exceptions (CIEs "zPLR").
 */
class CfiTest {
    static final Path DIR = Path.of("target", "unwind-test");
    private static final Pattern FDE = Pattern.compile(
            "^[0-9a-f]+ [0-9a-f]+ [0-9a-f]+ FDE cie=[0-9a-f]+ pc=([0-9a-f]+)\\.\\.([0-9a-f]+)");
    private static final Pattern ROW = Pattern.compile("^([0-9a-f]{8,16}) (.*)$");
    private static final String[] NAMES = {"rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp", "rsp", "r8", "r9", "r10",
        "r11", "r12", "r13", "r14", "r15", "ra"};

    /** {@code cmd}'s stdout, or null when it failed; the test is skipped when the tool is missing. */
    static String run(String... cmd) throws Exception {
        return run(false, cmd);
    }

    /** With {@code anyExit}, the output whatever the exit status (readelf exits 1 on libc with no message). */
    static String run(boolean anyExit, String... cmd) throws Exception {
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            assumeTrue(false, cmd[0] + " is not installed (apt-get install gcc g++ binutils): it builds and checks the test binaries");
            throw e;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        return p.exitValue() == 0 || anyExit ? out : null;
    }

    /** {@code source} (a test resource) compiled by {@code compiler} with {@code flags} into target/. */
    static Path build(String compiler, String source, String name, String... flags) throws Exception {
        Files.createDirectories(DIR);
        Path bin = DIR.resolve(name);
        List<String> cmd = new ArrayList<>(List.of(compiler));
        cmd.addAll(List.of(flags));
        cmd.addAll(List.of("-o", bin.toString(), Path.of("src/test/resources/unwind", source).toString()));
        assumeTrue(run(cmd.toArray(String[]::new)) != null, compiler + " cannot build " + source + " with " + List.of(flags));
        return bin;
    }

    @Test
    void libcRowsAreReadelfs() throws Exception {
        Path libc = Path.of("/lib/x86_64-linux-gnu/libc.so.6");
        assumeTrue(Files.isRegularFile(libc), "no " + libc);
        assertEquals(List.of(), compare(libc, 3000));
    }

    @Test
    void gccOmitFramePointerRowsAreReadelfs() throws Exception {
        Path bin = build("gcc", "frames.c", "frames", "-O2", "-fomit-frame-pointer");
        assertEquals(List.of(), compare(bin, 10));
    }

    @Test
    void debugFrameRowsAreReadelfs() throws Exception {
        Path bin = build("gcc", "frames.c", "frames-debug-frame", "-O2", "-fomit-frame-pointer", "-g",
                "-fno-asynchronous-unwind-tables", "-fno-exceptions");
        assertTrue(readelf(bin).contains(".debug_frame"), "gcc wrote no .debug_frame");
        assertEquals(List.of(), compare(bin, 5));
    }

    @Test
    void cxxWithExceptionsRowsAreReadelfs() throws Exception {
        Path bin = build("g++", "throws.cc", "throws", "-O2");
        assertTrue(readelf(bin).contains("\"zPLR\""), "no personality and LSDA in the CIEs");
        assertEquals(List.of(), compare(bin, 5));
    }

    /** The PLT's CFA: rsp + 8, plus 8 from the 11th byte of each 16-byte entry on (its push). */
    @Test
    void pltCfaExpression() throws Exception {
        Path bin = build("gcc", "frames.c", "frames-plt", "-O2", "-fomit-frame-pointer", "-Wl,-z,lazy");
        ElfFile elf = ElfFile.open(bin);
        ElfSection plt = elf.section(".plt").orElseThrow();
        Cfi cfi = Cfi.of(elf);
        CfiRow row = new CfiRow();
        Unwinder u = new Unwinder();
        int checked = 0;
        for (long pc = plt.addr() + 16; pc < plt.addr() + plt.size(); pc++) {
            assertTrue(cfi.row(pc, row), "no row at " + Long.toHexString(pc));
            assertTrue(row.cfaExpr >= 0, "the PLT's CFA is an expression");
            long rsp = 0x7ffc00001000L;
            u.setRegister(Unwinder.RSP, rsp);
            u.setRegister(Unwinder.RIP, pc);
            long cfa = u.evaluate(cfi.section(row.section), row.cfaExpr, row.cfaExprLength, false, 0);
            assertEquals(rsp + 8 + ((pc & 15) >= 11 ? 8 : 0), cfa, "at " + Long.toHexString(pc));
            checked++;
        }
        assertTrue(checked >= 16, "a PLT entry at least");
    }

    private static String readelf(Path bin) throws Exception {
        String out = run(true, "readelf", "--debug-dump=frames-interp", bin.toString());
        assumeTrue(out.contains("Contents of the"), "readelf cannot read " + bin);
        return out;
    }

    /**
     * Every row readelf prints for {@code bin}, against ours at its location (the last row printed
     * for a location: readelf prints one at each advance, even of 0); the differences, at most 20.
     */
    private static List<String> compare(Path bin, int minFdes) throws Exception {
        String out = readelf(bin);
        Cfi cfi = Cfi.of(ElfFile.open(bin));
        CfiRow row = new CfiRow();
        List<String> diffs = new ArrayList<>();
        long pcBegin = -1;
        long pcEnd = -1;
        String[] columns = null;
        Map<Long, String[]> rows = new LinkedHashMap<>();
        int fdes = 0;
        int compared = 0;
        for (String line : (out + "\n").split("\n")) {
            Matcher f = FDE.matcher(line);
            if (line.isEmpty() || f.find()) {
                compared += check(cfi, row, pcBegin, pcEnd, columns, rows, diffs);
                rows.clear();
                columns = null;
                if (!line.isEmpty()) {
                    pcBegin = Long.parseUnsignedLong(f.group(1), 16);
                    pcEnd = Long.parseUnsignedLong(f.group(2), 16);
                    fdes++;
                } else {
                    pcBegin = -1;
                }
                continue;
            }
            if (line.startsWith("   LOC")) {
                columns = line.trim().split("\\s+");
                continue;
            }
            Matcher r = ROW.matcher(line);
            if (pcBegin != -1 && columns != null && r.matches()) {
                // DW_CFA_register's "r9 (r9)": one token
                String rules = r.group(2).trim().replaceAll("(r\\d+) \\((\\w+)\\)", "$1($2)");
                rows.put(Long.parseUnsignedLong(r.group(1), 16), rules.split("\\s+"));
            }
        }
        assertTrue(fdes >= minFdes, bin + ": readelf printed " + fdes + " FDEs");
        assertTrue(compared > fdes / 2, bin + ": " + compared + " rows compared");
        assertTrue(cfi.fdeCount() >= fdes, bin + ": " + cfi.fdeCount() + " FDEs indexed, readelf " + fdes);
        return diffs.size() > 20 ? diffs.subList(0, 20) : diffs;
    }

    private static int check(Cfi cfi, CfiRow row, long pcBegin, long pcEnd, String[] columns, Map<Long, String[]> rows,
            List<String> diffs) {
        if (pcBegin == -1 || columns == null) {
            return 0;
        }
        int n = 0;
        for (Map.Entry<Long, String[]> e : rows.entrySet()) {
            long loc = e.getKey();
            if (loc >= pcEnd) {
                continue;
            }
            String where = Long.toHexString(pcBegin) + "@" + Long.toHexString(loc);
            if (!cfi.row(loc, row)) {
                diffs.add(where + ": no row");
                continue;
            }
            if (row.pcBegin != pcBegin || row.pcEnd != pcEnd) {
                diffs.add(where + ": FDE " + Long.toHexString(row.pcBegin) + ".." + Long.toHexString(row.pcEnd));
                continue;
            }
            String[] theirs = e.getValue();
            StringBuilder mine = new StringBuilder(cfa(row));
            StringBuilder expected = new StringBuilder(theirs[0]);
            for (int c = 2; c < columns.length && c - 1 < theirs.length; c++) {
                int reg = List.of(NAMES).indexOf(columns[c]);
                if (reg < 0) {
                    continue;
                }
                mine.append(' ').append(rule(row, reg));
                expected.append(' ').append(theirs[c - 1]);
            }
            if (!mine.toString().equals(expected.toString())) {
                diffs.add(where + ": readelf " + expected + ", jperf " + mine);
            }
            n++;
        }
        return n;
    }

    /** The CFA as readelf prints it. */
    static String cfa(CfiRow row) {
        if (row.cfaExpr >= 0) {
            return "exp";
        }
        return name(row.cfaReg) + (row.cfaOffset >= 0 ? "+" : "") + row.cfaOffset;
    }

    private static String name(long reg) {
        return reg >= 0 && reg < NAMES.length - 1 ? NAMES[(int) reg] : reg == 16 ? "rip" : "r" + reg;
    }

    /** A register's rule as readelf prints it. */
    static String rule(CfiRow row, int reg) {
        long v = row.value[reg];
        return switch (row.rule[reg]) {
            case CfiRow.UNSPECIFIED, CfiRow.UNDEFINED -> "u";
            case CfiRow.SAME_VALUE -> "s";
            case CfiRow.OFFSET -> "c" + (v >= 0 ? "+" : "") + v;
            case CfiRow.VAL_OFFSET -> "v" + (v >= 0 ? "+" : "") + v;
            case CfiRow.REGISTER -> "r" + v + "(" + name(v) + ")";
            case CfiRow.EXPRESSION -> "exp";
            case CfiRow.VAL_EXPRESSION -> "vexp";
            default -> "?";
        };
    }
}
