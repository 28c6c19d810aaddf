package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.report.CorpusFixture;
import dev.jperf.report.PerfOracle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * --demangle-kernel on report and script: with a kallsyms naming a kernel function by a C++
 * mangled name, perf leaves it as it is (it demangles only ELF symbols, of a vmlinux or a
 * module), and so does jperf, which reads kernel symbols from kallsyms alone. Against perf 6.1.
 */
class DemangleKernelTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "report --stdio --demangle-kernel",
        "report --stdio --demangle-kernel --no-demangle",
        "script --demangle-kernel",
        "script --demangle-kernel -F comm,ip,sym,symoff,dso",
    })
    void kallsymsNamesStayAsPerfLeavesThem(String command) throws Exception {
        PerfOracle.assumeInstalled();
        CorpusFixture.installBinaries();
        Path kallsyms = dir.resolve("kallsyms");
        String text = Files.readString(CorpusFixture.kallsyms());
        assertTrue(text.contains(" T do_syscall_64\n"));
        Files.writeString(kallsyms, text.replace(" T do_syscall_64\n", " T _ZN3foo3barEv\n"));
        List<String> args = new ArrayList<>(List.of(command.split(" ")));
        args.addAll(List.of("-i", CorpusFixture.data("c-process").toString(), "--kallsyms", kallsyms.toString()));
        String theirs = PerfOracle.run(args.toArray(String[]::new));
        assertTrue(theirs.contains("_ZN3foo3barEv"), "perf demangled the kallsyms name");
        args.addAll(0, List.of("--buildid-dir", CorpusFixture.buildIdDir().toString()));
        Run ours = Run.of(args.toArray(String[]::new));
        assertEquals(0, ours.rc(), ours.err());
        assertEquals(PerfOracle.withoutTip(theirs), PerfOracle.withoutTip(ours.out()));
    }
}
