package dev.jperf.report.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.perftools.profiles.ProfileProto.Profile;
import dev.jperf.format.PerfDataFile;
import dev.jperf.report.CorpusFixture;
import dev.jperf.report.Report;
import dev.jperf.report.aggregate.CallchainParams;
import dev.jperf.report.aggregate.SortKey;
import dev.jperf.report.annotate.Annotate;
import dev.jperf.report.annotate.BpfAnnotation;
import dev.jperf.report.session.SampleFilter;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code report --pprof} read back by google/pprof itself: its {@code -top} gives the functions and
 * sample counts of {@code jperf report --no-children --sort sym -n}, its {@code -lines} the BPF
 * source lines and counts of {@code jperf annotate}, its {@code -traces} the callchains through BPF
 * code; and by protobuf-java: sample types per event, mappings with build-ids.
 */
class PprofExportTest {
    @TempDir
    static Path tmp;
    static Path cache;
    static PprofTool pprof;
    static Path profile;

    @BeforeAll
    static void setUp() throws Exception {
        CorpusFixture.installBinaries();
        cache = CorpusFixture.buildIdDir();
        profile = export("b-callchains-bpf", SampleFilter.NONE, "b.pb.gz");
        pprof = PprofTool.build(tmp);
    }

    static Report.Options options(String kase) {
        return Report.Options.builder(CorpusFixture.data(kase)).symbols(CorpusFixture.kallsyms(), null).buildIdDir(cache).build();
    }

    static Path export(String kase, SampleFilter filter, String name) {
        Path out = tmp.resolve(name);
        try (PerfDataFile f = PerfDataFile.open(CorpusFixture.data(kase))) {
            Exports.pprof(f, options(kase).toBuilder().filter(filter).build(), out.toString(), System.out, System.err);
        }
        return out;
    }

    /** jperf report --no-children --sort sym -n: samples per symbol name (rows without symbol left out). */
    static Map<String, Long> reportSamples(String kase) {
        Report.Options o = options(kase).toBuilder().sort(SortKey.parse("sym")).children(false)
                .callGraph(CallchainParams.NO_GRAPH).showSamples(true).build();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Report.run(o, new PrintStream(out, true, StandardCharsets.UTF_8));
        Map<String, Long> rows = new TreeMap<>();
        Pattern row = Pattern.compile("^\\s+[\\d.]+%\\s+(\\d+)\\s+\\[.\\] (.+?)\\s*$");
        for (String l : out.toString(StandardCharsets.UTF_8).lines().toList()) {
            Matcher m = row.matcher(l);
            if (m.matches() && !m.group(2).startsWith("0x")) {
                rows.merge(m.group(2), Long.parseLong(m.group(1)), Long::sum);
            }
        }
        return rows;
    }

    /** pprof -top (every node): flat per name (mapping-only nodes, "[dso]", left out), and the total. */
    static Map<String, Long> pprofFlat(String top, long[] total) {
        Map<String, Long> rows = new TreeMap<>();
        Pattern row = Pattern.compile("^\\s*(\\d+)\\s+\\S+%\\s+\\S+%\\s+(\\d+)\\s+\\S+%\\s+(.+?)\\s*$");
        Pattern showing = Pattern.compile("Showing nodes accounting for (\\d+), [\\d.]+% of (\\d+) total");
        for (String l : top.lines().toList()) {
            Matcher s = showing.matcher(l);
            if (s.find()) {
                total[0] = Long.parseLong(s.group(2));
            }
            Matcher m = row.matcher(l);
            if (m.matches() && !m.group(3).startsWith("[") && !m.group(3).startsWith("0x")) {
                long flat = Long.parseLong(m.group(1));
                if (flat > 0) {
                    rows.merge(m.group(3), flat, Long::sum);
                }
            }
        }
        return rows;
    }

    @Test
    void topIsReportsSelfPerSymbol() throws Exception {
        String top = pprof.run("-top", "-sample_index=samples", "-nodefraction=0", "-edgefraction=0",
                "-nodecount=1000000", profile.toString());
        long[] total = new long[1];
        Map<String, Long> flat = pprofFlat(top, total);
        assertEquals(14694, total[0], top.lines().limit(8).toList().toString());
        Map<String, Long> report = reportSamples("b-callchains-bpf");
        assertEquals(2166L, report.get("bpf_prog_904d8356ffe3e4ed_mix_a"));
        assertEquals(report, flat);
        // the period in the event's unit, the default value
        String ns = pprof.run("-top", "-unit=ns", "-nodecount=1", profile.toString());
        assertTrue(ns.contains("of 3673500000ns total"), ns);
    }

    @Test
    void linesAreAnnotatesBpfSourceLines() throws Exception {
        String lines = pprof.run("-top", "-lines", "-sample_index=samples", "-nodefraction=0", "-edgefraction=0",
                "-nodecount=1000000", "-focus=^bpf_prog_", profile.toString());
        Map<String, Long> pprofLines = new TreeMap<>();
        Pattern row = Pattern.compile("^\\s*(\\d+)\\s+\\S+%\\s+\\S+%\\s+\\d+\\s+\\S+%\\s+(bpf_prog_\\S+) (\\S+):(\\d+)\\s*$");
        for (String l : lines.lines().toList()) {
            Matcher m = row.matcher(l);
            if (m.matches() && Long.parseLong(m.group(1)) > 0) {
                pprofLines.merge(m.group(2) + " " + m.group(3) + ":" + m.group(4), Long.parseLong(m.group(1)), Long::sum);
            }
        }
        Map<String, Long> annotate = new TreeMap<>();
        try (PerfDataFile f = PerfDataFile.open(CorpusFixture.data("b-callchains-bpf"))) {
            BpfAnnotation a = Annotate.annotate(f, CorpusFixture.kallsyms(), cache);
            for (BpfAnnotation.EventHist e : a.events()) {
                for (BpfAnnotation.ProgramHist p : e.programs()) {
                    for (BpfAnnotation.FunctionHist fh : p.functions()) {
                        for (BpfAnnotation.SourceLineCount c : fh.bySourceLine()) {
                            if (c.samples() > 0) {
                                // pprof trims the "./" the compiler recorded
                                annotate.merge(fh.function().kernelName() + " " + c.file().replaceFirst("^\\./", "")
                                        + ":" + c.line(), c.samples(), Long::sum);
                            }
                        }
                    }
                }
            }
        }
        assertEquals(1774L, annotate.get("bpf_prog_904d8356ffe3e4ed_mix_a subprogs.bpf.c:22"), annotate.toString());
        assertEquals(annotate, pprofLines);
    }

    @Test
    void tracesRunThroughBpfSubprograms() throws Exception {
        String traces = pprof.run("-traces", "-lines", "-focus=mix_a", profile.toString());
        // a trace: leaf first, one frame per line; the subprogram at its line under its program
        Pattern bpf = Pattern.compile("bpf_prog_904d8356ffe3e4ed_mix_a subprogs\\.bpf\\.c:22\\n\\s+"
                + "bpf_prog_b6a1b5bdb8a35599_subprogs_main subprogs\\.bpf\\.c:\\d+\\n\\s+bpf_trace_run2 ");
        assertTrue(bpf.matcher(traces).find(), traces.substring(0, Math.min(3000, traces.length())));
        assertTrue(traces.contains("comm:  workload"), "no comm label");
    }

    @Test
    void sampleTypesPerEventAndMappingsWithBuildIds() throws Exception {
        Path two = export("g-two-events", SampleFilter.NONE, "g.pb.gz");
        Profile p;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(two))) {
            p = Profile.parseFrom(in);
        }
        StringBuilder types = new StringBuilder();
        for (var t : p.getSampleTypeList()) {
            types.append(p.getStringTable((int) t.getType())).append('/').append(p.getStringTable((int) t.getUnit())).append(' ');
        }
        assertEquals("cpu-clock samples/count cpu-clock/nanoseconds task-clock samples/count task-clock/nanoseconds ",
                types.toString());
        long[] sums = new long[4];
        for (var s : p.getSampleList()) {
            for (int i = 0; i < 4; i++) {
                sums[i] += s.getValue(i);
            }
        }
        assertEquals(23982, sums[0] + sums[2]);
        // from the first to the last sample: perf script -F time prints 5539.233073 and 5541.179099
        assertTrue(Math.abs(p.getDurationNanos() - 1_946_026_000L) < 1000, "duration " + p.getDurationNanos());
        assertTrue(sums[0] > 0 && sums[2] > 0 && sums[1] > 0 && sums[3] > 0, java.util.Arrays.toString(sums));
        Set<String> withBuildId = new java.util.TreeSet<>();
        for (var m : p.getMappingList()) {
            if (m.getBuildId() != 0) {
                withBuildId.add(p.getStringTable((int) m.getFilename()));
            }
        }
        assertTrue(withBuildId.contains("[kernel.kallsyms]"), withBuildId.toString());
        assertTrue(withBuildId.stream().anyMatch(n -> n.endsWith("/libc.so.6")), withBuildId.toString());
    }

    @Test
    void filtersAreReports() throws Exception {
        Path onlyWorkload = export("b-callchains-bpf", SampleFilter.tasks(Set.of("workload"), null, null), "w.pb.gz");
        String top = pprof.run("-top", "-sample_index=samples", "-nodecount=5", onlyWorkload.toString());
        assertFalse(top.contains("pv_native_safe_halt"), top);
        String tags = pprof.run("-tags", onlyWorkload.toString());
        assertTrue(tags.contains("workload") && !tags.contains("swapper"), tags);
    }
}
