package dev.jperf.report.symbol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.format.PerfDataFile;
import dev.jperf.format.elf.ElfFile;
import dev.jperf.format.elf.ElfSection;
import dev.jperf.report.CorpusFixture;
import dev.jperf.report.PerfOracle;
import dev.jperf.report.script.Script;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * name@plt against perf 6.1 run live: a C program calling strcmp in a loop, built here by gcc as a
 * stripped PIE several ways, and Debian's stripped addr2line, recorded by perf with execute
 * breakpoints ({@code -e mem:ADDR:x}) on PLT entries, ASLR off (setarch -R) so the address is known
 * beforehand: every sample is in the PLT (timer samples almost never are: they skid past the stub).
 * perf script's ip, sym and dso against jperf's on the same file. perf 6.1 names PLT entries only
 * when the symbol table gave a symbol (a stripped PIE whose .dynsym holds imports alone: none) and
 * only in .plt (not .plt.sec).
 */
class PltSymbolsTest {
    static final Path DIR = Path.of("target", "plt-test").toAbsolutePath();
    static final String SRC = """
            #include <stdio.h>
            #include <stdlib.h>
            #include <string.h>
            int main(int argc, char **argv) {
                volatile int n = 0;
                const char *a = argc > 2 ? argv[2] : "abcdefgh", *b = "abcdefgx";
                for (long i = 0, end = atol(argv[1]); i < end; i++)
                    n += strcmp(a, b) < 0;
                printf("%d\\n", n);
                return 0;
            }
            """;
    /** Where the kernel maps a PIE without ASLR (ELF_ET_DYN_BASE), read from setarch -R cat's maps. */
    static long pieBase;

    @BeforeAll
    static void compiler() throws Exception {
        PerfOracle.assumeInstalled();
        Files.createDirectories(DIR);
        Files.writeString(DIR.resolve("loop.c"), SRC);
        String maps = run(List.of("setarch", "-R", "cat", "/proc/self/maps"));
        pieBase = Long.parseUnsignedLong(maps.substring(0, maps.indexOf('-')), 16);
    }

    /** Only imports in .dynsym: dso__load_sym keeps nothing, so perf synthesizes no PLT names. */
    @Test
    void strippedPieWithImportsOnlyHasNoPltNames() throws Exception {
        Path bin = build("imports", "-O2", "-fPIE", "-pie");
        String want = compare(bin, ".plt", "strcmp", "2000");
        assertTrue(want.contains(" [unknown] ") && !want.contains("@plt"), want);
    }

    /** main exported (-rdynamic): a symbol is kept, so the PLT entries are named. */
    @Test
    void strippedPieWithAnExportNamesThePlt() throws Exception {
        Path bin = build("export", "-O2", "-fPIE", "-pie", "-rdynamic");
        assertTrue(compare(bin, ".plt", "strcmp", "2000").contains(" strcmp@plt "));
    }

    /** -z now too: the same .plt, the same names. */
    @Test
    void bindNowNamesThePltAlike() throws Exception {
        Path bin = build("now", "-O2", "-fPIE", "-pie", "-rdynamic", "-Wl,-z,now");
        assertTrue(compare(bin, ".plt", "strcmp", "2000").contains(" strcmp@plt "));
    }

    /** IBT's .plt.sec, where the calls land: perf 6.1 names .plt's entries only, so these are unknown. */
    @Test
    void pltSecIsLeftUnnamed() throws Exception {
        Path bin = build("ibt", "-O2", "-fPIE", "-pie", "-rdynamic", "-fcf-protection", "-Wl,-z,ibtplt");
        String want = compare(bin, ".plt.sec", "strcmp", "2000");
        assertTrue(want.contains(" [unknown] ") && !want.contains("@plt"), want);
    }

    /** The CI failure: Debian's addr2line (stripped PIE, imports alone in .dynsym), free's stub. */
    @Test
    void systemAddr2line() throws Exception {
        Path bin = Path.of("/usr/bin/x86_64-linux-gnu-addr2line");
        assumeTrue(Files.isRegularFile(bin), "binutils' addr2line is not installed");
        ElfFile elf = ElfFile.open(bin);
        assumeTrue(elf.section(".symtab").isEmpty() && elf.section(".plt.sec").isEmpty(), "not Debian's stripped build");
        String want = compare(bin, ".plt", "free", "-f", "-e", bin.toString(), "0x2040", "0x2210");
        assertTrue(want.contains(" [unknown] ") && !want.contains("@plt"), want);
    }

    /**
     * BIN ARGS recorded with an execute breakpoint on the PLT entry (in section PLT) of function FN;
     * perf script's ip, sym, dso lines against jperf's: equal, perf's returned.
     */
    private static String compare(Path bin, String plt, String fn, String... args) throws Exception {
        ElfFile elf = ElfFile.open(bin);
        ElfSection sec = elf.section(plt).orElseThrow();
        // .plt starts with a header entry (PLT0), .plt.sec does not
        long entry = sec.addr() + 16L * (ElfSymbolsTest.pltIndex(elf, fn) + (plt.equals(".plt") ? 1 : 0));
        String name = bin.getFileName().toString();
        List<String> rec = new ArrayList<>(List.of("-e", "mem:0x" + Long.toHexString(pieBase + entry) + ":x", "-c", "1",
                "--", "setarch", "-R", bin.toString()));
        rec.addAll(List.of(args));
        Path data = PerfOracle.record(DIR, name + ".data", rec.toArray(String[]::new));
        String fields = "ip,sym,dso";
        String want = PerfOracle.run("script", "-i", data.toString(), "-F", fields);
        assertTrue(want.contains(String.format("%x", pieBase + entry)), "no sample at the breakpoint: " + want);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PerfDataFile f = PerfDataFile.open(data)) {
            // perf's build-id directory, PerfOracle.run's: both read the program at its path
            Script.run(f, Script.Options.defaults().withBuildIdDir(CorpusFixture.buildIdDir()).withFields(fields), out);
        }
        assertEquals(want, out.toString(StandardCharsets.UTF_8), name);
        return want;
    }

    /** gcc ARGS into DIR/NAME, then stripped (no .symtab: the names come from .dynsym and the PLT). */
    private static Path build(String name, String... args) throws Exception {
        Path full = DIR.resolve(name + ".full");
        Path bin = DIR.resolve(name);
        List<String> cc = new ArrayList<>(List.of("gcc"));
        cc.addAll(List.of(args));
        cc.addAll(List.of("-o", full.toString(), DIR.resolve("loop.c").toString()));
        run(cc);
        run(List.of("strip", "-o", bin.toString(), full.toString()));
        return bin;
    }

    /** CMD's output; the test fails unless it exits 0, is skipped when the tool is missing. */
    private static String run(List<String> cmd) throws Exception {
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, cmd.get(0) + " is not installed: the test needs it");
            throw e;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), String.join(" ", cmd));
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + ": " + out);
        return out;
    }
}
