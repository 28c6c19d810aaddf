package dev.jperf.report.symbol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.format.elf.ElfFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.io.TempDir;

/**
 * DSOs prefetched on the ELF thread: the table the session thread gets is the one it would read
 * itself, whether the ELF thread read it first or the session thread claimed it before the ELF
 * thread started it (the last of several queued, asked for at once, is usually the latter).
 */
class PrefetchedSymbolsTest {
    private static final List<String> FILES = List.of("/usr/bin/bash", "/usr/lib/x86_64-linux-gnu/libc.so.6",
            "/usr/lib/x86_64-linux-gnu/libm.so.6");

    @TempDir
    Path buildIds;

    @RepeatedTest(3)
    void prefetchedTablesAreTheTablesReadDirectly() throws Exception {
        List<Path> elfs = new ArrayList<>();
        List<byte[]> ids = new ArrayList<>();
        for (String f : FILES) {
            Path p = Path.of(f);
            Optional<byte[]> id = Files.isRegularFile(p) ? ElfFile.open(p).buildId() : Optional.empty();
            if (id.isPresent()) {
                elfs.add(p);
                ids.add(id.get());
            }
        }
        assumeTrue(elfs.size() >= 2, "fewer than two system ELF files with a build-id here");
        SymbolResolver prefetching = resolver();
        SymbolResolver direct = resolver();
        List<Dso> queued = dsos(prefetching, elfs, ids);
        List<Dso> plain = dsos(direct, elfs, ids);
        prefetching.prefetchUserSymbols();
        for (int i = queued.size() - 1; i >= 0; i--) {
            SymbolTable got = prefetching.load(queued.get(i));
            SymbolTable want = direct.load(plain.get(i));
            assertTrue(want.size() > 0, elfs.get(i) + " has no symbols");
            assertEquals(names(want), names(got), elfs.get(i).toString());
        }
        assertEquals(direct.warnings(), prefetching.warnings());
    }

    private SymbolResolver resolver() {
        return new SymbolResolver(SymbolResolver.Options.defaults(null, null, buildIds));
    }

    private static List<Dso> dsos(SymbolResolver r, List<Path> elfs, List<byte[]> ids) {
        List<Dso> out = new ArrayList<>();
        for (int i = 0; i < elfs.size(); i++) {
            Dso d = r.dso(elfs.get(i).toString(), Dso.Kind.USER);
            d.setBuildId(ids.get(i));
            out.add(d);
        }
        return out;
    }

    private static List<String> names(SymbolTable t) {
        List<String> out = new ArrayList<>();
        for (Symbol s : t.symbols()) {
            out.add(Long.toHexString(s.start()) + " " + s.name());
        }
        return out;
    }
}
