package dev.jperf.report.symbol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.format.elf.ElfFile;
import dev.jperf.format.elf.ElfSection;
import dev.jperf.format.elf.ElfSymbol;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * perf 6.1's srcline of addresses where the DWARF has no line, only the symbol table names a
 * function: the dynamic loader with libc6-dbg's debug file, whose assembly entry ({@code _start},
 * a size-0 NOTYPE symbol after an STT_FILE with an empty name) addr2line answers {@code _start} and
 * {@code :?} for every address up to the next symbol, which perf turns into {@code :0}. Expected
 * values are binutils' addr2line run live on the file perf gives it (the debug file, perf's symsrc),
 * read with perf's rules (filename_split: {@code ??:0} is no answer; the file's base name and the line).
 * And binutils' choice among symbols that share an address.
 */
class SymbolTableSrclineTest {
    @Test
    void dynamicLoaderAsAddr2lineAnswersPerf(@TempDir Path dir) throws Exception {
        Path ldso = Path.of("/lib64/ld-linux-x86-64.so.2").toRealPath();
        ElfFile rt = ElfFile.open(ldso);
        String bid = HexFormat.of().formatHex(rt.buildId().orElseThrow());
        Path dbg = Path.of("/usr/lib/debug/.build-id", bid.substring(0, 2), bid.substring(2) + ".debug");
        assumeTrue(Files.isRegularFile(dbg), "libc6-dbg is not installed (apt-get install libc6-dbg)");
        assumeTrue(runs("addr2line", "--version"), "no addr2line to compare with");
        // every address around each symbol of .text (the starts, ends and what lies between), and a stride over the rest
        ElfFile debug = ElfFile.open(dbg);
        ElfSection text = rt.section(".text").orElseThrow();
        TreeSet<Long> addrs = new TreeSet<>();
        for (ElfSymbol s : debug.symbols(debug.section(".symtab").orElseThrow())) {
            if (Long.compareUnsigned(s.value() - text.addr(), text.size()) < 0) {
                for (long a = s.value() - 4; a < s.value() + Math.max(s.size(), 1) + 12; a++) {
                    addrs.add(a);
                }
            }
        }
        for (long a = text.addr(); a < text.addr() + text.size(); a += 97) {
            addrs.add(a);
        }
        addrs.removeIf(a -> Long.compareUnsigned(a - text.addr(), text.size()) >= 0);
        List<Long> list = new ArrayList<>(addrs);
        List<Addr2line> want = addr2line(dir, dbg, list);

        SymbolResolver r = new SymbolResolver(new SymbolResolver.Options(null, null, dir.resolve("no-cache"),
                Path.of("/usr/lib/debug"), Path.of("/nonexistent"), Path.of("/nonexistent"), dir));
        Dso d = r.dso(ldso.toString(), Dso.Kind.USER);
        d.setBuildId(rt.buildId().get());
        r.load(d);
        List<String> diffs = new ArrayList<>();
        int symbolOnly = 0;
        for (int i = 0; i < list.size(); i++) {
            long a = list.get(i);
            long offset = a - text.addr() + text.offset();
            String w = want.get(i).srcline();
            String expect = w.equals("??:0") ? SourceLines.fallback(d, offset, null, true, true, offset)
                    : w.substring(w.lastIndexOf('/', w.lastIndexOf(':')) + 1).replaceFirst(":\\?$", ":0")
                            .replaceFirst(" \\(discriminator \\d+\\)$", "");
            symbolOnly += w.startsWith(":") ? 1 : 0;
            String got = r.sourceLines().srcline(d, offset, null, true, true, offset, false);
            if (!got.equals(expect)) {
                diffs.add("0x" + Long.toHexString(a) + ": addr2line " + w + ", want " + expect + ", got " + got);
            }
        }
        assertTrue(symbolOnly > 0, "no address answered by the symbol table alone");
        assertEquals(List.of(), diffs.subList(0, Math.min(20, diffs.size())), diffs.size() + " of " + list.size());
    }

    /** Functions that share an address (aliases, a hidden marker inside one): named as addr2line names them, with gas's DWARF and without. */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void tiedSymbolsAsAddr2line(boolean dwarf, @TempDir Path dir) throws Exception {
        assumeTrue(runs("gcc", "--version") && runs("addr2line", "--version"), "no gcc or addr2line");
        Path src = dir.resolve("ties.s");
        StringBuilder asm = new StringBuilder("\t.text\n\t.globl main\n\t.type main,@function\nmain:\n\tret\n\t.size main,1\n");
        // pairs at one address: big then small, small then big, equal, FUNC then NOTYPE
        String[][] pairs = {{"bigfirst", "32", "smallsecond", "4"}, {"smallfirst", "4", "bigsecond", "32"},
            {"eqa", "32", "eqb", "32"}, {"funcfirst", "32", "notypesecond", "32"}};
        for (String[] p : pairs) {
            asm.append("\t.p2align 4\n\t.type ").append(p[0]).append(",@function\n").append(p[0]).append(":\n");
            if (!p[2].startsWith("notype")) {
                asm.append("\t.type ").append(p[2]).append(",@function\n");
            }
            asm.append(p[2]).append(":\n\t.fill 32,1,0x90\n\t.size ").append(p[0]).append(',').append(p[1])
                    .append("\n\t.size ").append(p[2]).append(',').append(p[3]).append('\n');
        }
        asm.append("\t.type withmarker,@function\nwithmarker:\n\t.fill 8,1,0x90\nmarker:\n\t.hidden marker\n")
                .append("\t.fill 8,1,0x90\n\t.size withmarker,16\n\t.section .note.GNU-stack,\"\",@progbits\n");
        Files.writeString(src, asm);
        Path bin = dir.resolve("ties");
        List<String> cc = new ArrayList<>(List.of("gcc", "-nostdlib", "-Wl,-e,main", "-o", bin.toString(), src.toString()));
        if (dwarf) {
            cc.add(1, "-g");
        }
        Process p = new ProcessBuilder(cc).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        ElfFile elf = ElfFile.open(bin);
        ElfSection text = elf.section(".text").orElseThrow();
        List<Long> list = new ArrayList<>();
        for (long a = text.addr(); a < text.addr() + text.size(); a++) {
            list.add(a);
        }
        List<String> want = new ArrayList<>();
        for (Addr2line w : addr2line(dir, bin, list)) {
            want.add(w.function());
        }
        SymbolResolver r = new SymbolResolver(new SymbolResolver.Options(null, null, dir.resolve("no-cache"),
                dir.resolve("no-debug"), Path.of("/nonexistent"), Path.of("/nonexistent"), dir));
        Dso d = r.dso(bin.toString(), Dso.Kind.USER);
        d.setBuildId(elf.buildId().orElse(null));
        r.load(d);
        Symbol any = new Symbol(text.addr(), text.addr() + text.size(), "any", 2, 0);
        List<String> got = new ArrayList<>();
        for (long a : list) {
            SourceLines.Inlines in = r.sourceLines().inlines(d, a - text.addr() + text.offset(), any);
            got.add(in == null ? "??" : in.symbols()[0].name());
        }
        assertEquals(want, got);
    }

    private static boolean runs(String... cmd) {
        try {
            return new ProcessBuilder(cmd).redirectErrorStream(true).start().waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /** What addr2line -f answers for one address: the function and the file:line. */
    private record Addr2line(String function, String srcline) {
    }

    /** addr2line -f run once on {@code elf} for every address, its two output lines per address. */
    private static List<Addr2line> addr2line(Path dir, Path elf, List<Long> addrs) throws Exception {
        Path in = dir.resolve("addrs");
        StringBuilder b = new StringBuilder();
        for (long a : addrs) {
            b.append("0x").append(Long.toHexString(a)).append('\n');
        }
        Files.writeString(in, b);
        Process p = new ProcessBuilder("addr2line", "-f", "-e", elf.toString()).redirectInput(in.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        List<String> lines = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        assertTrue(p.waitFor(300, TimeUnit.SECONDS));
        assertEquals(2 * addrs.size(), lines.size(), "addr2line's lines");
        List<Addr2line> out = new ArrayList<>();
        for (int i = 0; i + 1 < lines.size(); i += 2) {
            out.add(new Addr2line(lines.get(i), lines.get(i + 1)));
        }
        return out;
    }
}
