package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.format.Corpus;
import dev.jperf.format.writer.PerfDataWriter;
import dev.jperf.report.SyntheticData;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code jperf diff BASE NEW...} against {@code perf diff} run live on corpus recordings (the corpus
 * kallsyms and vdso for both) and on two recordings made here, every line and the exit code: events
 * paired by type and config, entries by the sort keys, perf's columns (-c, -p, -F, -t, more than
 * two files), its order (-o), -b, the filters and --time. Beyond perf, BPF programs paired by name
 * whatever their tag, and perf's pairing with --no-bpf-by-name.
 */
class DiffTest {
    @TempDir
    Path dir;

    @BeforeAll
    static void perfIsHere() {
        dev.jperf.format.PerfOracle.assumeInstalled();
        Corpus.installBinaries();
    }

    private static String corpus(String name) {
        return Corpus.CORPUS.resolve(name).resolve("perf.data").toString();
    }

    private static List<String> words(String s) {
        return s.isBlank() ? List.of() : List.of(s.trim().split(" +"));
    }

    /** perf diff and jperf diff of {@code files} with {@code options}; jperf gets {@code jperfOnly} too. */
    private static void assertSame(List<String> files, List<String> options, List<String> jperfOnly) throws Exception {
        String kallsyms = Corpus.kallsyms().toString();
        String cache = Corpus.buildIdDir().toString();
        List<String> perf = new ArrayList<>(List.of("perf", "--buildid-dir", cache, "diff", "--kallsyms", kallsyms));
        perf.addAll(options);
        perf.addAll(files);
        StatTest.Result p = StatTest.exec(perf);
        List<String> ours = new ArrayList<>(List.of("--buildid-dir", cache, "diff", "--kallsyms", kallsyms));
        ours.addAll(jperfOnly);
        ours.addAll(options);
        ours.addAll(files);
        Run r = Run.of(ours.toArray(String[]::new));
        assertEquals(p.rc(), r.rc(), "exit code of " + options + "; perf: " + p.err() + "; jperf: " + r.err());
        assertEquals(p.out(), r.out(), options.toString());
    }

    // pairs where a BPF program has another tag in the other file (subprogs_main of
    // a-system-wide-bpf and e-preloaded-bpf) are jperf's with --no-bpf-by-name; the default is
    // bpfProgramsPairedByName's
    @ParameterizedTest(name = "{0} [{1}] {2}")
    @CsvSource(delimiter = '|', value = {
        "c-process c-process-stripped | |",
        "c-process-stripped c-process | |",
        "a-system-wide-bpf g-two-events | |",
        "g-two-events a-system-wide-bpf | |",
        "b-callchains-bpf a-system-wide-bpf | |",
        "e-preloaded-bpf d-bpf-storm | |",
        "c-process-stripped b-callchains-bpf | |",
        "c-process c-process | |",
        "c-process c-process-stripped | -c delta |",
        "a-system-wide-bpf g-two-events | -c delta -p |",
        "e-preloaded-bpf b-callchains-bpf | -p | --no-bpf-by-name",
        "a-system-wide-bpf g-two-events | -c ratio |",
        "a-system-wide-bpf g-two-events | -c wdiff:1,2 |",
        "a-system-wide-bpf g-two-events | -c wdiff:-3,5 -F |",
        "a-system-wide-bpf g-two-events | -c wdiff:2,3 -F -p |",
        "c-process c-process-stripped | -c ratio -F -p |",
        "a-system-wide-bpf g-two-events | -o 0 |",
        "a-system-wide-bpf g-two-events | -b |",
        "c-process c-process-stripped | -b -F -c delta |",
        "a-system-wide-bpf g-two-events | -q |",
        "c-process c-process-stripped | -t ; -p -F |",
        "a-system-wide-bpf g-two-events | -t ; -c wdiff:1,2 |",
        "a-system-wide-bpf g-two-events | -s comm |",
        "a-system-wide-bpf g-two-events | -s dso |",
        "a-system-wide-bpf g-two-events | -s sym |",
        "e-preloaded-bpf b-callchains-bpf | -s sym | --no-bpf-by-name",
        "a-system-wide-bpf g-two-events | -s pid |",
        "a-system-wide-bpf g-two-events | -s cpu |",
        "a-system-wide-bpf g-two-events | -s comm,dso |",
        "a-system-wide-bpf g-two-events | -s sym,dso |",
        "a-system-wide-bpf g-two-events | -d libc.so.6 |",
        "e-preloaded-bpf b-callchains-bpf | -d libc.so.6,workload |",
        "a-system-wide-bpf g-two-events | -C workload |",
        "e-preloaded-bpf b-callchains-bpf | -C workload --percentage relative | --no-bpf-by-name",
        "a-system-wide-bpf g-two-events | -C workload --percentage relative -F -b |",
        "a-system-wide-bpf g-two-events | -S crunch_primes |",
        "e-preloaded-bpf b-callchains-bpf | -S crunch_primes,sum_series --percentage relative -F |",
        "a-system-wide-bpf g-two-events | -d [kernel.kallsyms] --percentage relative -F |",
        "a-system-wide-bpf g-two-events | --cpu 1 |",
        "e-preloaded-bpf b-callchains-bpf | --cpu 0 -F | --no-bpf-by-name",
        "a-system-wide-bpf g-two-events | --pid 1 --percentage relative |",
        "c-process c-process-stripped | --time 5504.5,5505.5 |",
        "c-process c-process-stripped | --time 5504.5,5505.5:5509,5510 |",
        "c-process c-process-stripped | --time 5505,:,5509.5 |",
        "c-process c-process-stripped | --time 10%/2 |",
        "c-process c-process-stripped | --time 33.3%-66.6%:50%/2 |",
        "c-process c-process-stripped | --time 5504.5,5505.5:20%/3 |",
        "c-process c-process-stripped b-callchains-bpf | |",
        "c-process c-process-stripped b-callchains-bpf | -q |",
        "a-system-wide-bpf g-two-events e-preloaded-bpf | -c ratio -p -F | --no-bpf-by-name",
        "a-system-wide-bpf g-two-events e-preloaded-bpf | -o 2 -c wdiff:1,3 | --no-bpf-by-name",
        "c-process b-callchains-bpf c-process-stripped d-bpf-storm | -o 2 -c ratio |",
        "c-process b-callchains-bpf c-process-stripped d-bpf-storm | -c delta -o 2 |",
        "a-system-wide-bpf g-two-events e-preloaded-bpf d-bpf-storm | -o 0 -b | --no-bpf-by-name",
        "a-system-wide-bpf g-two-events e-preloaded-bpf | -t : -F | --no-bpf-by-name",
        "a-system-wide-bpf e-preloaded-bpf | | --no-bpf-by-name",
    })
    void linesEqualPerfs(String files, String options, String jperfOnly) throws Exception {
        List<String> paths = new ArrayList<>();
        for (String f : words(files)) {
            paths.add(corpus(f));
        }
        assertSame(paths, words(options == null ? "" : options), words(jperfOnly == null ? "" : jperfOnly));
    }

    /** What perf refuses, refused with its exit code and nothing on stdout. */
    @ParameterizedTest(name = "[{1}]")
    @CsvSource(delimiter = '|', value = {
        // no branch stacks: cmd_diff's -1
        "c-process c-process-stripped | -c cycles",
        "c-process c-process-stripped | -o 2",
        // -EINVAL
        "c-process c-process-stripped | --time 5504.5,5505.5:",
        "c-process c-process-stripped | --time 10%/20",
        // usage errors
        "c-process c-process-stripped | -c wdiff",
        "c-process c-process-stripped | -c wdiff:1,0",
        "c-process c-process-stripped | -c ratio:3",
        "c-process c-process-stripped | -c foo",
        "c-process c-process-stripped | --cycles-hist",
    })
    void refusedAsPerf(String files, String options) throws Exception {
        List<String> paths = new ArrayList<>();
        for (String f : words(files)) {
            paths.add(corpus(f));
        }
        assertSame(paths, words(options), List.of());
        Run r = Run.of(concat(List.of("diff"), words(options), paths));
        assertFalse(r.err().isBlank(), "jperf says why: " + options);
        assertEquals(1, r.err().strip().lines().count(), r.err());
    }

    private static String[] concat(List<String> a, List<String> b, List<String> c) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        all.addAll(c);
        return all.toArray(String[]::new);
    }

    private static final Pattern BPF_ROW = Pattern.compile("^ +(\\S+%)? +(\\S+%)? +bpf_prog_([0-9a-f]{16})_(\\w+) ", Pattern.MULTILINE);

    /**
     * A BPF program recorded in two files under two tags (its instructions differ a little) is one
     * row in jperf's diff, with the baseline's share and the change, where perf shows the baseline's
     * row and the new file's apart; with --no-bpf-by-name jperf shows them as perf.
     */
    @Test
    void bpfProgramsPairedByName() throws Exception {
        String kallsyms = Corpus.kallsyms().toString();
        String cache = Corpus.buildIdDir().toString();
        List<String> files = List.of(corpus("a-system-wide-bpf"), corpus("e-preloaded-bpf"));
        List<String> perf = new ArrayList<>(List.of("perf", "--buildid-dir", cache, "diff", "--kallsyms", kallsyms));
        perf.addAll(files);
        StatTest.Result p = StatTest.exec(perf);
        assertEquals(0, p.rc(), p.err());
        // perf's rows per program name: their tags
        Map<String, List<String>> tags = new HashMap<>();
        Matcher m = BPF_ROW.matcher(p.out());
        while (m.find()) {
            tags.computeIfAbsent(m.group(4), k -> new ArrayList<>()).add(m.group(3));
        }
        List<String> renamed = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : tags.entrySet()) {
            if (e.getValue().stream().distinct().count() == 2) {
                renamed.add(e.getKey());
            }
        }
        assumeTrue(!renamed.isEmpty(), "no program under two tags in these files: " + tags);
        List<String> ours = new ArrayList<>(List.of("--buildid-dir", cache, "diff", "--kallsyms", kallsyms));
        ours.addAll(files);
        Run r = Run.of(ours.toArray(String[]::new));
        assertEquals(0, r.rc(), r.err());
        for (String name : renamed) {
            List<String> rows = new ArrayList<>();
            Matcher j = BPF_ROW.matcher(r.out());
            while (j.find()) {
                if (j.group(4).equals(name)) {
                    rows.add(j.group());
                    assertTrue(j.group(1) != null && j.group(2) != null, "baseline share and change: " + j.group());
                }
            }
            assertEquals(1, rows.size(), name + ": " + rows);
            assertEquals(2, p.out().lines().filter(l -> l.contains("_" + name + " ")).count(), p.out());
        }
        assertEquals(p.out().lines().count() - renamed.size(), r.out().lines().count());
    }

    /**
     * Two recordings of the corpus workload made here with jperf, its work split otherwise (all CPU,
     * then CPU and system calls), diffed by perf and jperf alike.
     */
    @Test
    void recordingsMadeHere() throws Exception {
        Path workload = Path.of("/tmp/corpus/src/workload");
        Path bid = dir.resolve("buildid");
        List<String> files = new ArrayList<>();
        for (String mode : List.of("cpu", "mixed", "sys")) {
            Path file = dir.resolve(mode + ".data");
            Run rec = Run.of("--buildid-dir", bid.toString(), "record", "-q", "-F", "999", "-o", file.toString(), "--",
                    workload.toString(), "0.4", mode, "2");
            assumeTrue(rec.rc() == 0, "jperf record: " + rec.err());
            files.add(file.toString());
        }
        for (List<String> opts : List.of(List.<String>of(), List.of("-c", "ratio", "-p"), List.of("-s", "comm,sym", "-F"),
                List.of("-c", "wdiff:1,2", "-o", "0"), List.of("-b", "-t", ","))) {
            for (List<String> pair : List.of(files.subList(0, 2), files.subList(1, 3), files)) {
                List<String> perf = new ArrayList<>(List.of("perf", "--buildid-dir", bid.toString(), "diff"));
                perf.addAll(opts);
                perf.addAll(pair);
                StatTest.Result p = StatTest.exec(perf);
                assertEquals(0, p.rc(), p.err());
                assertTrue(p.out().contains("workload"), p.out());
                List<String> ours = new ArrayList<>(List.of("--buildid-dir", bid.toString(), "diff"));
                ours.addAll(opts);
                ours.addAll(pair);
                Run r = Run.of(ours.toArray(String[]::new));
                assertEquals(0, r.rc(), r.err());
                assertEquals(p.out(), r.out(), opts + " " + pair);
            }
        }
    }

    /**
     * Rows of equal change, which only the sort keys order: DSO names ascending and an entry without
     * DSO (an unmapped address, perf's [unknown]) after them, in both sort lists.
     */
    @ParameterizedTest(name = "--sort {0}")
    @CsvSource({"'dso,sym'", "'sym,dso'", "dso"})
    void entriesWithoutDsoLast(String sort) throws Exception {
        Path base = dir.resolve("base.data");
        Path next = dir.resolve("new.data");
        writeEqualRows(base, 1);
        writeEqualRows(next, 2);
        assertSame(List.of(base.toString(), next.toString()), List.of("--sort", sort), List.of());
    }

    /** One sample of one period at an unmapped address and in each of two unreadable files; {@code n} each in the new file. */
    private static void writeEqualRows(Path data, int n) throws Exception {
        try (PerfDataWriter w = SyntheticData.create(data)) {
            int pid = 4_000_500;
            SyntheticData.comm(w, pid, "equal");
            SyntheticData.mmap2(w, pid, 0x7f0000000000L, 0x10000, 5, "/nonexistent/zzz.so");
            SyntheticData.mmap2(w, pid, 0x7f0000100000L, 0x10000, 5, "/nonexistent/aaa.so");
            long t = 1_000_000;
            for (int i = 0; i < n; i++) {
                SyntheticData.sample(w, 2, 0x5000, pid, t += 1000, 250000);
                SyntheticData.sample(w, 2, 0x7f0000000040L, pid, t += 1000, 250000);
                SyntheticData.sample(w, 2, 0x7f0000100040L, pid, t += 1000, 250000);
            }
            SyntheticData.sample(w, 2, 0x7f0000100080L + n * 0x10L, pid, t += 1000, 250000);
        }
    }
}
