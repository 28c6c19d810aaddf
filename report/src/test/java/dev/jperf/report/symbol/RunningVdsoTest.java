package dev.jperf.report.symbol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.format.elf.ElfFile;
import dev.jperf.format.elf.RunningVdso;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RunningVdsoTest {
    @Test
    void readsThisKernelsVdsoWithItsSymbols() throws Exception {
        assumeTrue(Files.readString(Path.of("/proc/self/maps")).contains("[vdso]"), "this process has no [vdso] mapping");
        Optional<ElfFile> vdso = RunningVdso.read();
        assertTrue(vdso.isPresent(), "the running vdso could not be read from /proc/self/mem");
        SymbolTable syms = ElfSymbols.load(vdso.get(), vdso.get(), Demangler.PERF);
        assertTrue(vdso.get().buildId().isPresent(), "a vdso carries a GNU build-id note");
        assertTrue(syms.symbols().stream().anyMatch(s -> s.name().equals("__vdso_clock_gettime")),
                "__vdso_clock_gettime not among the vdso's symbols: " + syms.symbols());
        assertEquals(vdso.get().buildId().get().length, RunningVdso.read().get().buildId().get().length);
    }
}
