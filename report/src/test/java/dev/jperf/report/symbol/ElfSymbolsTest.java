package dev.jperf.report.symbol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.jperf.format.elf.ElfFile;
import dev.jperf.report.CorpusFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class ElfSymbolsTest {
    static final Path SRC = CorpusFixture.CORPUS.resolve("src");

    @Test
    void symtabSymbolsAreFileOffsets() throws Exception {
        ElfFile f = ElfFile.open(SRC.resolve("workload"));
        SymbolTable t = ElfSymbols.load(f, f, null);
        assertEquals("crunch_primes", t.find(0x1440).name());
        assertEquals("crunch_primes", t.find(0x1440 + 76).name());
        assertEquals("scramble.constprop.0", t.find(0x1400).name());
        assertEquals("getppid@plt", t.find(0x1020 + 16 * pltIndex(f, "getppid") + 16 + 4).name());
    }

    @Test
    void strippedBinaryResolvesGlobalsAndPltButNotStatics() throws Exception {
        ElfFile f = ElfFile.open(SRC.resolve("workload-stripped"));
        SymbolTable t = ElfSymbols.load(f, f, null);
        Symbol s = t.find(t.symbols().stream().filter(x -> x.name().equals("syscall_burst")).findFirst().orElseThrow().start());
        assertEquals("syscall_burst", s.name());
        assertEquals("getppid@plt", t.find(0x1020 + 16 * pltIndex(f, "getppid") + 16).name());
        assertNull(t.find(0x10));
    }

    @Test
    void libcLocalNamesComeFromTheDebugFileFoundByBuildId() throws Exception {
        Path libc = Path.of("/usr/lib/x86_64-linux-gnu/libc.so.6");
        Assumptions.assumeTrue(Files.isRegularFile(libc), "no glibc");
        ElfFile rt = ElfFile.open(libc);
        String bid = HexFormat.of().formatHex(rt.buildId().orElseThrow());
        Path dbg = Path.of("/usr/lib/debug/.build-id", bid.substring(0, 2), bid.substring(2) + ".debug");
        Assumptions.assumeTrue(Files.isRegularFile(dbg), "libc6-dbg is not installed (apt-get install libc6-dbg)");
        SymbolResolver r = new SymbolResolver(new SymbolResolver.Options(null, null, Path.of("/nonexistent"),
                Path.of("/usr/lib/debug"), Path.of("/nonexistent"), Path.of("/nonexistent"), Path.of("/tmp")));
        Dso d = r.dso(libc.toString(), Dso.Kind.USER);
        d.setBuildId(rt.buildId().get());
        SymbolTable t = r.load(d);
        Symbol getppid = t.symbols().stream().filter(x -> x.name().equals("__GI___getppid")).findFirst().orElseThrow();
        assertEquals("__GI___getppid", t.find(getppid.start()).name());
    }

    /** NAME's entry in .rela.plt (its PLT entry's number). */
    static int pltIndex(ElfFile f, String name) throws Exception {
        var dyn = f.symbols(f.section(".dynsym").orElseThrow());
        int[] idx = f.relocationSymbols(f.section(".rela.plt").orElseThrow());
        for (int i = 0; i < idx.length; i++) {
            if (dyn.get(idx[i]).name().equals(name)) {
                return i;
            }
        }
        throw new AssertionError(name + " not in .rela.plt");
    }
}
