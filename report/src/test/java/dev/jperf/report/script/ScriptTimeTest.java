package dev.jperf.report.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.report.CorpusFixture;
import dev.jperf.report.PerfOracle;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** script's time field with --reltime, --deltatime and --ns (side-band lines count too), perf 6.1 as the oracle, byte for byte. */
class ScriptTimeTest {
    @ParameterizedTest(name = "{0} {1} --ns={2} side-band={3}")
    @CsvSource({
        "c-process, FIRST, false, false",
        "c-process, PREVIOUS, true, true",
        "a-system-wide-bpf, PREVIOUS, false, true",
        "f-pipe, FIRST, true, true",
        "b-callchains-bpf, BOOT, true, false",
    })
    void timesAsPerfs(String kase, Script.TimeBase base, boolean ns, boolean sideBand) throws Exception {
        PerfOracle.assumeInstalled();
        CorpusFixture.installBinaries();
        String fields = "comm,tid,time,event,ip,sym";
        List<String> perf = new ArrayList<>(List.of("script", "-i", CorpusFixture.data(kase).toString(), "-F", fields,
                "--kallsyms", CorpusFixture.kallsyms().toString()));
        switch (base) {
            case FIRST -> perf.add("--reltime");
            case PREVIOUS -> perf.add("--deltatime");
            case BOOT -> { }
        }
        if (ns) {
            perf.add("--ns");
        }
        Script.Options o = Script.Options.defaults().withBuildIdDir(CorpusFixture.buildIdDir())
                .withSymbols(CorpusFixture.kallsyms(), null).withFields(fields).withTime(base).withNanoseconds(ns);
        if (sideBand) {
            perf.addAll(List.of("--show-task-events", "--show-mmap-events"));
            o = o.withShow(Script.Show.TASK, true).withShow(Script.Show.MMAP, true);
        }
        String theirs = PerfOracle.run(perf.toArray(String[]::new));
        String ours = ScriptCorpusTest.run(CorpusFixture.CORPUS.resolve(kase), o);
        assertTrue(theirs.lines().count() > 1000, "perf printed " + theirs.lines().count() + " lines");
        assertEquals(theirs, ours);
    }
}
