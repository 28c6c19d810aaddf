package dev.jperf.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.report.aggregate.SortKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A kallsyms read while other BPF programs run lists them as the pseudo-module [bpf] (here an XDP
 * dispatcher just below where the recording's programs were JITed). That is no module: the
 * recording's KSYMBOL records name the JITed code there, as in perf, whose modules come from
 * /proc/modules. Before, a module map made of [bpf] hid the programs' KSYMBOL maps.
 */
class BpfPseudoModuleTest {
    @TempDir
    Path dir;

    @Test
    void liveBpfSymbolsInKallsymsDoNotHideTheRecordedPrograms() throws Exception {
        Path withBpf = dir.resolve("kallsyms");
        List<String> lines = new ArrayList<>(Files.readAllLines(CorpusFixture.kallsyms()));
        // case a's programs were JITed from 0xffffffffc0025b98 (subprogs_main) on
        lines.add("ffffffffc0025a00 t bpf_dispatcher_xdp\t[bpf]");
        Files.write(withBpf, lines);
        Report.Options plain = Report.Options.builder(CorpusFixture.data("a-system-wide-bpf"))
                .buildIdDir(CorpusFixture.buildIdDir()).sort(SortKey.parse("sym"))
                .symbols(CorpusFixture.kallsyms(), null).build();
        List<String> expected = CorpusReportTest.report(plain);
        List<String> got = CorpusReportTest.report(plain.toBuilder().symbols(withBpf, null).build());
        assertTrue(expected.stream().anyMatch(l -> l.endsWith("[k] bpf_prog_b6a1b5bdb8a35599_subprogs_main")), "golden");
        assertEquals(PerfOracle.withoutTip(String.join("\n", expected)), PerfOracle.withoutTip(String.join("\n", got)));
    }
}
