package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.jperf.report.CorpusFixture;
import dev.jperf.report.PerfOracle;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * script's --stop-bt and -d/--debug-mode: status, stdout and stderr against perf 6.1's on the
 * same file, byte for byte.
 */
class ScriptOptionsTest {
    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
        "b-callchains-bpf | --stop-bt do_syscall_64",
        "b-callchains-bpf | --stop-bt do_syscall_64,cpuidle_enter,main -F comm,tid,ip,sym,dso",
        "a-system-wide-bpf | --stop-bt do_syscall_64",
        "a-system-wide-bpf | -d",
        "a-system-wide-bpf | --debug-mode --show-task-events",
        "a-system-wide-bpf | -d --show-round-events --show-mmap-events",
        "g-two-events | -d --show-round-events",
    })
    void asPerf(String kase, String options) throws Exception {
        PerfOracle.assumeInstalled();
        CorpusFixture.installBinaries();
        List<String> args = new ArrayList<>(List.of("script", "-i", CorpusFixture.data(kase).toString(),
                "--kallsyms", CorpusFixture.kallsyms().toString()));
        args.addAll(List.of(options.split(" ")));
        String[] theirs = ScriptFiltersTest.perf(args.toArray(String[]::new));
        args.addAll(0, List.of("--buildid-dir", CorpusFixture.buildIdDir().toString()));
        Run ours = Run.of(args.toArray(String[]::new));
        assertEquals(Integer.parseInt(theirs[0]), ours.rc(), ours.err());
        assertNotEquals("", theirs[1] + theirs[2], "perf printed nothing");
        assertEquals(theirs[1], ours.out());
        assertEquals(theirs[2], ours.err());
    }
}
