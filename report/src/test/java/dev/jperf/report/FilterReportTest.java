package dev.jperf.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.report.aggregate.SortKey;
import dev.jperf.report.session.SampleFilter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * perf report's sample filters, --comms, --dsos and --symbols (and --cpu), with perf 6.1 as the
 * oracle on corpus files, every line compared: which samples count, which entries print, the totals,
 * and a filter of one value printed once above the table with its column left out (perf's
 * sort__setup_elide; all columns stay when every one would go).
 */
class FilterReportTest {
    static Stream<Arguments> cases() {
        List<Arguments> a = new ArrayList<>();
        for (String kase : List.of("a-system-wide-bpf", "b-callchains-bpf")) {
            a.add(Arguments.of(kase, "sym", "-d", "[kernel.kallsyms]", false));
            a.add(Arguments.of(kase, "comm,dso,sym", "-d", "workload,[kernel.kallsyms]", false));
            a.add(Arguments.of(kase, "dso,sym", "-d", "workload", false));
            a.add(Arguments.of(kase, "dso", "-d", "workload", true));
            a.add(Arguments.of(kase, "sym", "-S", "do_syscall_64", false));
            a.add(Arguments.of(kase, "comm,sym", "-S", "do_syscall_64,pv_native_safe_halt", true));
            a.add(Arguments.of(kase, "comm,sym", "-c", "workload", false));
            a.add(Arguments.of(kase, "dso,sym", "-S", "bpf_prog_904d8356ffe3e4ed_mix_a", true));
        }
        return a.stream();
    }

    @ParameterizedTest(name = "{0} --sort {1} {2} {3} relative={4}")
    @MethodSource("cases")
    void linesEqualPerfs(String kase, String sort, String option, String list, boolean relative) throws Exception {
        PerfOracle.assumeInstalled();
        Path data = CorpusFixture.data(kase);
        Path kallsyms = CorpusFixture.kallsyms();
        List<String> args = new ArrayList<>(List.of("report", "-i", data.toString(), "--stdio", "--sort", sort,
                option, list, "--kallsyms", kallsyms.toString()));
        if (relative) {
            args.add("--percentage");
            args.add("relative");
        }
        List<String> theirs = PerfOracle.withoutTip(PerfOracle.run(args.toArray(String[]::new)));
        Set<String> values = Set.of(list.split(","));
        SampleFilter f = switch (option) {
            case "-d" -> SampleFilter.NONE.withDsos(values);
            case "-S" -> SampleFilter.NONE.withSymbols(values);
            default -> SampleFilter.tasks(values, null, null);
        };
        Report.Options o = Report.Options.builder(data).buildIdDir(CorpusFixture.buildIdDir()).sort(SortKey.parse(sort)).filter(f)
                .percent(0, relative).symbols(kallsyms, null).build();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Report.run(o, new PrintStream(out, true, StandardCharsets.UTF_8));
        List<String> ours = PerfOracle.withoutTip(out.toString(StandardCharsets.UTF_8));
        assertTrue(theirs.size() > 12, "perf printed no rows: " + theirs);
        assertEquals(theirs, ours);
    }
}
