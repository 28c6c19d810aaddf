package dev.jperf.report.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.jperf.format.PerfDataFile;
import dev.jperf.report.CorpusFixture;
import dev.jperf.report.symbol.SymbolResolver;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kernel maps from a file recorded elsewhere (perf_data_converter's branch_stack_spec: KASLR
 * kernel with _text at 0xffffffff9da00000, module MMAP records) with a kallsyms file from another
 * boot (_text at 0xffffffff81000000): kernel symbols are found shifted by the difference, as perf's
 * kallsyms__delta does, and a module's MMAP record decides its map over one guessed from kallsyms.
 */
class KernelMapsTest {
    static final Path FILE = CorpusFixture.EXTERNAL.resolve("perf_data_converter/perf.data.branch_stack_spec");
    private static final int KERNEL = 1;

    @TempDir
    Path tmp;

    @Test
    void kaslrShiftAndModuleMmaps() throws Exception {
        Assumptions.assumeTrue(Files.isRegularFile(FILE), "no " + FILE);
        Path ks = tmp.resolve("kallsyms");
        Files.writeString(ks, String.join("\n",
                "ffffffff81000000 T _text",
                "ffffffff81000000 T _stext",
                "ffffffff810fb600 T other_func",
                "ffffffff810fb700 T after_other",
                "ffffffff81302200 T sampled_func",
                "ffffffff81302400 T next_func",
                "ffffffff81400000 T _etext",
                // a module kallsyms places where the recording had i2c_piix4: the MMAP record wins
                "ffffffffc0216000 t guessed_func\t[guessed_mod]",
                "ffffffffc0216100 t piix4_probe\t[i2c_piix4]",
                "ffffffffc0216200 t piix4_remove\t[i2c_piix4]",
                "ffffffffc0219000 t guessed_end\t[guessed_mod]", ""));
        SymbolResolver r = new SymbolResolver(new SymbolResolver.Options(ks, null, tmp, tmp, tmp.resolve("none"),
                tmp.resolve("none"), tmp));
        try (PerfDataFile f = PerfDataFile.open(FILE)) {
            Session s = new Session(f, r, new Session.Options(false, SampleFilter.NONE));
            int[] named = {0};
            s.run(x -> {
                // the file's samples are at _text + 0x3022bd and _text + 0xfb601
                long ip = x.record().ip();
                assertNotNull(x.frame().symbol(), Long.toHexString(ip));
                assertEquals(ip == 0xffffffff9dd022bdL ? "sampled_func" : "other_func", x.frame().symbol().name());
                assertEquals("[kernel.kallsyms]", x.frame().dso().shortName());
                named[0]++;
            });
            assertEquals(8, named[0]);
            Machine m = s.machine();
            Frame mod = m.resolve(m.thread(0), KERNEL, 0xffffffffc0216150L);
            assertEquals("[i2c_piix4]", mod.dso().shortName());
            assertEquals("piix4_probe", mod.symbol().name());
            // a module with an MMAP record but no kallsyms symbols still has its map and name
            Frame idpf = m.resolve(m.thread(0), KERNEL, 0xffffffffc01e5010L);
            assertEquals("[idpf]", idpf.dso().shortName());
        }
    }
}
