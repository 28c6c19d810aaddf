package dev.jperf.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.Corpus;
import dev.jperf.format.PerfDataFile;
import dev.jperf.report.aggregate.SortKey;
import dev.jperf.report.stats.EventStats;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every file of testdata/external that perf 6.1 reports (other machines, kernels and perf versions:
 * event groups, branch stacks, modules and binaries that are not here), reported by jperf and by
 * perf run live: {@code --stdio --sort sym} and {@code --sort comm,dso,sym} (whole output, the tip
 * line aside) and {@code --stats}. perf's defaults decide the mode as jperf's do: group view on
 * files with HEADER_GROUP_DESC, branch mode on files with branch stacks. Both are given an empty
 * build-id cache of the test's own.
 */
class ExternalReportTest {
    /** Files jperf reports otherwise on purpose, with the reason it prints. */
    static final Map<String, String> DELIBERATE = Map.of(
            "perf.data.intel_pt-4.14", "bytes of AUX area trace not decoded");

    /** The build-id cache perf and jperf are given: the test's own, empty. */
    @TempDir
    static Path buildIds;

    private static Report.Options options(Path file) {
        return Report.Options.builder(file).buildIdDir(buildIds).build();
    }

    static Stream<Arguments> reports() {
        Assumptions.assumeTrue(Files.isDirectory(Corpus.EXTERNAL), "no external vectors at " + Corpus.EXTERNAL);
        List<Arguments> out = new ArrayList<>();
        for (Path f : Corpus.externalFiles()) {
            for (String sort : List.of("sym", "comm,dso,sym")) {
                out.add(Arguments.of(f.getFileName().toString(), f, sort));
            }
        }
        return out.stream();
    }

    static Stream<Arguments> files() {
        Assumptions.assumeTrue(Files.isDirectory(Corpus.EXTERNAL), "no external vectors at " + Corpus.EXTERNAL);
        return Corpus.externalFiles().stream().map(f -> Arguments.of(f.getFileName().toString(), f));
    }

    @ParameterizedTest(name = "{0} --sort {2}")
    @MethodSource("reports")
    void reportIsPerfs(String name, Path file, String sort) throws Exception {
        PerfOracle.assumeInstalled();
        Perf perf = perf("report", "-i", file.toString(), "--stdio", "--sort", sort);
        Assumptions.assumeTrue(perf.exit == 0 && perf.out.lines().anyMatch(l -> l.matches(" +[0-9.]+%.*")),
                "perf 6.1 does not report " + name);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Report.run(options(file).toBuilder().sort(SortKey.parse(sort)).build(),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String reason = DELIBERATE.get(name);
        if (reason != null) {
            assertTrue(err.toString(StandardCharsets.UTF_8).contains(reason),
                    name + ": jperf reports it otherwise on purpose and must say so: " + err);
            return;
        }
        assertEquals(PerfOracle.withoutTip(perf.out), PerfOracle.withoutTip(out.toString(StandardCharsets.UTF_8)));
    }

    /** The group and branch modes' options on the files that have groups or branch stacks. */
    static Stream<Arguments> modes() {
        Assumptions.assumeTrue(Files.isDirectory(Corpus.EXTERNAL), "no external vectors at " + Corpus.EXTERNAL);
        Path dir = Corpus.EXTERNAL.resolve("perf_data_converter");
        List<Arguments> out = new ArrayList<>();
        for (String f : List.of("perf.data.group_desc-4.14", "perf.data.lost_samples-4.4", "perf.data.hw_and_sw-3.4",
                "perf.data.piped.header_feautres_group_desc-6.8")) {
            out.add(Arguments.of(f, dir.resolve(f), "--group --sort sym"));
            out.add(Arguments.of(f, dir.resolve(f), "--no-group --sort sym"));
            out.add(Arguments.of(f, dir.resolve(f), "-n --sort comm,dso,sym"));
        }
        for (String f : List.of("perf.data.branch_stack_spec", "perf.data.callgraph_and_branch-3.8",
                "perf.data.raw_callgraph_branch-3.4", "perf.data.branch_stack_hw_index")) {
            out.add(Arguments.of(f, dir.resolve(f), ""));
            out.add(Arguments.of(f, dir.resolve(f), "--no-branch-stack --sort sym"));
            out.add(Arguments.of(f, dir.resolve(f), "--sort dso_from,dso_to"));
            out.add(Arguments.of(f, dir.resolve(f), "--sort symbol_from,symbol_to"));
            out.add(Arguments.of(f, dir.resolve(f), "--sort comm,symbol_to,cycles"));
        }
        // srcline_*: where addr2line has nothing to read (kernel addresses) perf prints the same
        // fallbacks as jperf ("(null)" for the lines no comparison needed); on the files with user
        // DSOs that are not here perf's addr2line pipe breaks (exit 141)
        String spec = "perf.data.branch_stack_spec";
        out.add(Arguments.of(spec, dir.resolve(spec), "--sort srcline_from,srcline_to"));
        out.add(Arguments.of(spec, dir.resolve(spec), "--sort comm,srcline_to,dso_from"));
        // perf 6.1 crashes on this one's symbol_* sorts: its default branch sort only
        out.add(Arguments.of("perf.data.branch-4.14", dir.resolve("perf.data.branch-4.14"), ""));
        out.add(Arguments.of("perf.data.branch-4.14", dir.resolve("perf.data.branch-4.14"), "--sort dso_to,cycles"));
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {2}")
    @MethodSource("modes")
    void modeIsPerfs(String name, Path file, String args) throws Exception {
        PerfOracle.assumeInstalled();
        List<String> cmd = new ArrayList<>(List.of("report", "-i", file.toString(), "--stdio"));
        Report.Options.Builder o = options(file).toBuilder();
        List<String> a = args.isEmpty() ? List.of() : List.of(args.split(" "));
        for (int i = 0; i < a.size(); i++) {
            cmd.add(a.get(i));
            switch (a.get(i)) {
                case "--group" -> o.group(true);
                case "--no-group" -> o.group(false);
                case "--no-branch-stack" -> o.branchStack(false);
                case "-n" -> o.showSamples(true);
                case "--sort" -> {
                    cmd.add(a.get(++i));
                    o.sort(SortKey.parse(a.get(i)));
                }
                default -> throw new IllegalArgumentException(a.get(i));
            }
        }
        Perf perf = perf(cmd.toArray(new String[0]));
        assertEquals(0, perf.exit, "perf " + cmd);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Report.run(o.build(), new PrintStream(out, true, StandardCharsets.UTF_8));
        assertEquals(PerfOracle.withoutTip(perf.out), PerfOracle.withoutTip(out.toString(StandardCharsets.UTF_8)));
    }

    @ParameterizedTest(name = "{0} --stats")
    @MethodSource("files")
    void statsArePerfs(String name, Path file) throws Exception {
        PerfOracle.assumeInstalled();
        Perf perf = perf("report", "-i", file.toString(), "--stats");
        // perf 6.1 refuses some (attr size 152) and gives up on others part-way, exiting 0 all the same
        Assumptions.assumeTrue(perf.exit == 0 && perf.out.contains("Aggregated stats"),
                "perf 6.1 does not read " + name + " to the end");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PerfDataFile f = PerfDataFile.open(file)) {
            EventStats.of(f).print(new PrintStream(out, true, StandardCharsets.UTF_8));
        }
        assertEquals(perf.out, out.toString(StandardCharsets.UTF_8));
    }

    private record Perf(int exit, String out) {
    }

    /** perf with the test's build-id cache, stderr dropped; its exit code is the caller's to judge. */
    private static Perf perf(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("perf", "--buildid-dir", buildIds.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("PAGER", "cat");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), String.join(" ", cmd) + " timed out");
        return new Perf(p.exitValue(), out);
    }
}
