package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.format.Corpus;
import dev.jperf.format.PerfOracle;
import dev.jperf.recorder.Privileges;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jperf stat} against {@code perf stat} as the oracle, on the corpus workload: the same
 * rows, units, columns and event list in every layout; counts that do not depend on timing
 * (page faults of a fixed program with address-space randomisation off, the unsupported
 * hardware events) equal; times within the noise. As a user (perf_event_paranoid 2) perf and jperf
 * count user space only and name the events so ("task-clock:u").
 */
class StatTest {
    @TempDir
    Path tmp;
    private String workload;

    @BeforeEach
    void setUp() throws Exception {
        PerfOracle.assumeInstalled();
        Corpus.installBinaries();
        workload = Corpus.INSTALLED.resolve("src/workload").toString();
    }

    @Test
    void defaultTableHasPerfsRowsAndLayout() throws Exception {
        Result perf = exec("perf", "stat", "--", workload, "0.05", "cpu");
        Run ours = Run.of("stat", "--", workload, "0.05", "cpu");
        assertEquals(0, ours.rc(), ours.err());
        List<String> theirs = table(perf.err);
        List<String> mine = table(ours.err());
        assertEquals(shapes(theirs), shapes(mine), ours.err());
        for (int i = 0; i < theirs.size(); i++) {
            assertEquals(theirs.get(i).length(), mine.get(i).length(), "columns of\n" + theirs.get(i) + "\n" + mine.get(i));
        }
        assertTrue(mine.get(0).startsWith(" Performance counter stats for '" + workload + " 0.05 cpu':"), mine.get(0));
        assertTrue(ours.err().contains(" seconds user\n") && ours.err().contains(" seconds sys\n"), ours.err());
        assertTrue(ours.err().endsWith(" seconds sys\n\n\n"), ours.err());
    }

    @Test
    void deterministicCountsEqualPerfs() throws Exception {
        String events = "page-faults,minor-faults,major-faults,alignment-faults,emulation-faults,cycles,instructions";
        // without address-space randomisation the workload's page faults are the same on every run
        Result perf = exec("setarch", "-R", "perf", "stat", "-x,", "-e", events, "--", workload, "0.01", "cpu");
        Result ours = exec(jperf(List.of("setarch", "-R"), "stat", "-x,", "-e", events, "--", workload, "0.01", "cpu"));
        assertEquals(0, ours.rc, ours.err);
        List<String> a = fields(perf.err, 3);
        List<String> b = fields(ours.err, 3);
        assertEquals(a, b);
        assertTrue(a.stream().anyMatch(l -> l.matches("<not supported>,,cycles(:u)?")) && Integer.parseInt(a.get(0).split(",")[0]) > 10, a.toString());
    }

    @Test
    void csvAndJsonHavePerfsFields() throws Exception {
        Result perf = exec("perf", "stat", "-x;", "--", workload, "0.01", "cpu");
        Run ours = Run.of("stat", "-x;", "--", workload, "0.01", "cpu");
        assertEquals(csvShape(perf.err, ";"), csvShape(ours.err(), ";"));
        perf = exec("perf", "stat", "-j", "--", workload, "0.01", "cpu");
        ours = Run.of("stat", "--json", "--", workload, "0.01", "cpu");
        assertEquals(jsonShape(perf.err), jsonShape(ours.err()));
        assertEquals(8, jsonShape(ours.err()).size());
    }

    @Test
    void repeatPrintsMeansAndTheirSpread() throws Exception {
        Result perf = exec("perf", "stat", "-r", "3", "--", workload, "0.01", "cpu");
        Run ours = Run.of("stat", "-r", "3", "--", workload, "0.01", "cpu");
        assertTrue(ours.err().contains(" Performance counter stats for '" + workload + " 0.01 cpu' (3 runs):"));
        List<String> mine = table(ours.err());
        assertEquals(withoutSpread(shapes(table(perf.err))), withoutSpread(shapes(mine)));
        assertTrue(mine.get(mine.size() - 1).matches(" +[0-9.]+ \\+- [0-9.]+ seconds time elapsed  \\( \\+- *[0-9.]+% \\)"),
                mine.get(mine.size() - 1));
        perf = exec("perf", "stat", "-r", "3", "-x,", "--", workload, "0.01", "cpu");
        ours = Run.of("stat", "-r", "3", "-x,", "--", workload, "0.01", "cpu");
        assertEquals(csvShape(perf.err, ","), csvShape(ours.err(), ","));
        perf = exec("perf", "stat", "-r", "3", "-j", "--", workload, "0.01", "cpu");
        ours = Run.of("stat", "-r", "3", "-j", "--", workload, "0.01", "cpu");
        assertEquals(jsonShape(perf.err), jsonShape(ours.err()));
        assertTrue(ours.err().contains("\"variance\" : "), ours.err());
    }

    @Test
    void intervalsPrintEveryTickAndTheLastPart() throws Exception {
        Result perf = exec("perf", "stat", "-I", "100", "-e", "task-clock,page-faults", "--", "sleep", "0.35");
        Run ours = Run.of("stat", "-I", "100", "-e", "task-clock,page-faults", "--", "sleep", "0.35");
        List<String> a = perf.err.lines().toList();
        List<String> b = ours.err().lines().toList();
        assertEquals(a.get(0), b.get(0)); // the column header
        // three ticks and the last part (a tick late on a busy machine may fall after the end)
        assertEquals(ticks(a).size(), ticks(b).size(), 1, ours.err());
        assertEquals(1 + 2 * ticks(b).size(), b.size(), ours.err());
        List<Double> t = new ArrayList<>(ticks(b));
        for (int i = 1; i < t.size() - 1; i++) {
            // at least the interval apart (perf's timer; a busy machine only makes them later)
            assertTrue(t.get(i) - t.get(i - 1) >= 0.09, "ticks " + t);
        }
        perf = exec("perf", "stat", "-I", "100", "-x,", "-e", "task-clock,page-faults", "--", "sleep", "0.25");
        ours = Run.of("stat", "-I", "100", "-x,", "-e", "task-clock,page-faults", "--", "sleep", "0.25");
        // the same kinds of lines; a tick more or less where the loaded machine ran the workload longer
        List<String> perfShape = csvShape(perf.err, ",");
        List<String> ourShape = csvShape(ours.err(), ",");
        assertEquals(new java.util.LinkedHashSet<>(perfShape), new java.util.LinkedHashSet<>(ourShape), ours.err());
        assertEquals(perfShape.size(), ourShape.size(), 2, ours.err());
        Run json = Run.of("stat", "-I", "100", "-j", "-e", "task-clock", "--", "sleep", "0.25");
        for (String line : json.err().lines().toList()) {
            assertTrue(line.matches("\\{\"interval\" : [0-9.]+, \"counter-value\" : .*\\}"), line);
        }
    }

    /**
     * --interval-count N: N interval lines, then none (no partial last one), while the workload is
     * still waited for, as perf; without -I it is perf's usage error.
     */
    @Test
    void intervalCountPrintsThatManyAndWaits() throws Exception {
        Result perf = exec("perf", "stat", "--interval-count", "2", "-I", "100", "-x,", "-e", "task-clock", "--", "sleep", "0.5");
        long t0 = System.nanoTime();
        Run ours = Run.of("stat", "--interval-count", "2", "-I", "100", "-x,", "-e", "task-clock", "--", "sleep", "0.5");
        long elapsedMs = (System.nanoTime() - t0) / 1_000_000;
        assertEquals(0, ours.rc(), ours.err());
        assertEquals(2, perf.err.lines().count(), perf.err);
        assertEquals(csvShape(perf.err, ","), csvShape(ours.err(), ","));
        assertTrue(elapsedMs >= 450, "the workload was waited for: " + elapsedMs + " ms");
        Result perfUsage = exec("perf", "stat", "--interval-count", "2", "-e", "task-clock", "--", "true");
        Run usage = Run.of("stat", "--interval-count", "2", "-e", "task-clock", "--", "true");
        assertEquals(perfUsage.rc, usage.rc());
        assertTrue(usage.err().contains("interval-count option should be used together with interval-print."), usage.err());
    }

    /**
     * A fixed amount of work (not a fixed time: the machine is shared) takes about the same CPU
     * time however busy the machine is: jperf's task-clock for it within the spread of the two perf
     * runs around it (at least 25 %); a burst of load from elsewhere can still land on one run, so up
     * to three rounds are measured and one must agree. Elapsed and CPUs utilized agree with each other.
     */
    @Test
    void timesAreWithinTheNoise() throws Exception {
        String[] work = {"sh", "-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done"};
        List<String> rounds = new ArrayList<>();
        Run ours = null;
        Matcher m = null;
        double taskClock = 0;
        boolean agreed = false;
        for (int round = 0; round < 3 && !agreed; round++) {
            double first = perfTaskClock(work);
            ours = Run.of(concat(new String[] {"stat", "-e", "task-clock", "--"}, work));
            double second = perfTaskClock(work);
            m = Pattern.compile("([0-9.]+) msec task-clock(?::u)? +# +([0-9.]+) CPUs utilized").matcher(ours.err());
            assertTrue(m.find(), ours.err());
            taskClock = Double.parseDouble(m.group(1));
            double mean = (first + second) / 2;
            double tolerance = Math.max(0.25 * mean, 2 * Math.abs(first - second));
            rounds.add("perf " + first + " and " + second + " msec, jperf " + taskClock);
            agreed = Math.abs(taskClock - mean) <= tolerance;
        }
        assertTrue(agreed, String.join("; ", rounds));
        Matcher e = Pattern.compile(" ([0-9.]+) seconds time elapsed").matcher(ours.err());
        assertTrue(e.find(), ours.err());
        double elapsed = Double.parseDouble(e.group(1));
        assertTrue(elapsed * 1000 >= taskClock * 0.98, "elapsed " + elapsed + " s, task-clock " + taskClock + " msec");
        assertEquals(taskClock / (elapsed * 1000), Double.parseDouble(m.group(2)), 0.002);
    }

    private static double perfTaskClock(String... work) throws Exception {
        Result r = exec(concat(new String[] {"perf", "stat", "-x,", "-e", "task-clock", "--"}, work));
        return Double.parseDouble(r.err.lines().findFirst().orElseThrow().split(",")[0]);
    }

    private static String[] concat(String[] a, String[] b) {
        String[] c = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    @Test
    void systemWideCountsEveryCpu() throws Exception {
        Result perf = exec("perf", "stat", "-a", "--", "sleep", "0.2");
        assumeTrue(perf.rc == 0 || root(), () -> "the kernel refuses this user a CPU-wide count: "
                + perf.err.lines().filter(l -> l.contains("operations is limited") || l.startsWith("perf_event_paranoid setting is"))
                        .collect(java.util.stream.Collectors.joining(" ")));
        Run ours = Run.of("stat", "-a", "--", "sleep", "0.2");
        assertEquals(shapes(table(perf.err)), shapes(table(ours.err())));
        Matcher m = Pattern.compile("msec cpu-clock +# +([0-9.]+) CPUs utilized").matcher(ours.err());
        assertTrue(m.find(), ours.err());
        int cpus = Runtime.getRuntime().availableProcessors();
        assertEquals(cpus, Double.parseDouble(m.group(1)), 0.1 * cpus);
        Run timeout = Run.of("stat", "-C", "0", "-e", "cpu-clock", "--timeout", "150");
        assertTrue(timeout.err().contains(" Performance counter stats for 'CPU(s) 0':"), timeout.err());
    }

    @Test
    void processAndThreadTargets() throws Exception {
        Process sleeper = new ProcessBuilder("sleep", "30").start();
        try {
            String pid = Long.toString(sleeper.pid());
            Result perf = exec("perf", "stat", "-p", pid, "--timeout", "200");
            Run ours = Run.of("stat", "-p", pid, "--timeout", "200");
            assertEquals(shapes(table(perf.err)), shapes(table(ours.err())));
            assertTrue(ours.err().contains(" Performance counter stats for process id '" + pid + "':"), ours.err());
            assertTrue(ours.err().matches("(?s).*     <not counted> msec task-clock(:u)? .*"), ours.err()); // it sleeps throughout
            perf = exec("perf", "stat", "-t", pid, "-x,", "--timeout", "200");
            ours = Run.of("stat", "-t", pid, "-x,", "--timeout", "200");
            assertEquals(csvShape(perf.err, ","), csvShape(ours.err(), ","));
        } finally {
            sleeper.destroy();
        }
        // the target ending ends the count
        Process quick = new ProcessBuilder("sleep", "0.3").start();
        long start = System.nanoTime();
        Run ours = Run.of("stat", "-e", "task-clock", "-p", Long.toString(quick.pid()));
        assertEquals(0, ours.rc(), ours.err());
        assertTrue(System.nanoTime() - start < 2_000_000_000L, "stat outlived its target by far");
    }

    /**
     * As an ordinary user ({@link AsUser}), as perf: user space only ({@code :u}) where paranoia
     * allows it, else one line and perf's exit code.
     */
    @Test
    void unprivilegedCountsUserSpaceOrSaysWhy() throws Exception {
        assumeTrue(Integer.parseInt(Files.readString(Path.of("/proc/sys/kernel/perf_event_paranoid")).strip()) > 1,
                "kernel.perf_event_paranoid allows the kernel to everyone here");
        AsUser user = AsUser.in(tmp);
        String mine = user.executable(Path.of(workload)).toString();
        AsUser.Result perf = user.run(user.command("perf", "stat", "--", mine, "0.01", "cpu"));
        assertEquals(0, perf.rc(), perf.err());
        AsUser.Result ours = user.run(user.jperf("stat", "--", mine, "0.01", "cpu"));
        assertEquals(0, ours.rc(), ours.err());
        assertEquals(shapes(table(perf.err())), shapes(table(ours.err())));
        assertTrue(ours.err().contains(" msec task-clock:u "), ours.err());
        perf = user.run(user.command("perf", "stat", "-a", "--timeout", "100"));
        ours = user.run(user.jperf("stat", "-a", "--timeout", "100"));
        assertEquals(perf.rc(), ours.rc(), perf.err());
        assertEquals(255, ours.rc());
        assertEquals("jperf stat: " + Privileges.noPermission("cpu-clock", -1, 1) + "\n", ours.err());
        ours = user.run(user.jperf("stat", "-b", "1"));
        assertEquals(1, ours.rc());
        assertEquals(1, ours.err().lines().count(), ours.err());
        assertTrue(ours.err().contains("(EPERM)"), ours.err());
    }

    /** -n: no default events (only -e's), so the table is the header and the times; CSV and JSON print nothing. */
    @Test
    void nullRunCountsOnlyTheEventsAsked() throws Exception {
        Result perf = exec("perf", "stat", "-n", "--", "sleep", "0.05");
        Run ours = Run.of("stat", "-n", "--", "sleep", "0.05");
        assertEquals(0, ours.rc(), ours.err());
        assertEquals(shapes(table(perf.err)), shapes(table(ours.err())), ours.err());
        assertEquals(perf.err.lines().count(), ours.err().lines().count(), ours.err());
        perf = exec("perf", "stat", "-n", "-r", "2", "--", "sleep", "0.05");
        ours = Run.of("stat", "--null", "-r", "2", "--", "sleep", "0.05");
        assertEquals(withoutSpread(shapes(table(perf.err))), withoutSpread(shapes(table(ours.err()))), ours.err());
        for (String format : List.of("-x,", "-j")) {
            perf = exec("perf", "stat", "-n", format, "--", "true");
            ours = Run.of("stat", "-n", format, "--", "true");
            assertEquals(perf.err, ours.err(), format);
            assertEquals(0, ours.rc(), ours.err());
        }
        perf = exec("perf", "stat", "-n", "-I", "100", "--", "sleep", "0.25");
        ours = Run.of("stat", "-n", "-I", "100", "--", "sleep", "0.25");
        assertEquals(perf.err, ours.err());
        perf = exec("perf", "stat", "-n", "-e", "task-clock", "--", "true");
        ours = Run.of("stat", "-n", "-e", "task-clock", "--", "true");
        assertEquals(shapes(table(perf.err)), shapes(table(ours.err())), ours.err());
        assertEquals(perf.err.lines().count(), ours.err().lines().count(), ours.err());
    }

    /** --quiet: nothing printed, no -o file written (an existing one left as it was), the workload's exit code. */
    @Test
    void quietPrintsNothing() throws Exception {
        Path out = Files.writeString(tmp.resolve("stat.txt"), "previous counts\n");
        for (List<String> extra : List.of(List.<String>of(), List.of("-x,"), List.of("-I", "100"), List.of("-o", out.toString()))) {
            List<String> perfCmd = new ArrayList<>(List.of("perf", "stat", "--quiet"));
            perfCmd.addAll(extra);
            // (with -I perf exits 0 whatever the workload's status: not what is tested here)
            perfCmd.addAll(List.of("--", "sh", "-c", extra.contains("-I") ? "sleep 0.15" : "sleep 0.15; exit 3"));
            Result perf = exec(perfCmd);
            List<String> args = new ArrayList<>(perfCmd.subList(1, perfCmd.size()));
            Run ours = Run.of(args.toArray(String[]::new));
            assertEquals(perf.rc, ours.rc(), extra.toString());
            assertEquals(perf.err, ours.err(), extra.toString());
            assertEquals("", ours.err(), extra.toString());
        }
        assertEquals("previous counts\n", Files.readString(out));
    }

    @Test
    void outputFileStartsWithTheDate() throws Exception {
        Path out = tmp.resolve("stat.txt");
        Run ours = Run.of("stat", "-o", out.toString(), "-x,", "-e", "page-faults", "--", "true");
        assertEquals("", ours.err());
        List<String> lines = Files.readAllLines(out);
        assertTrue(lines.get(0).matches("# started on \\w{3} \\w{3} [ 0-9]\\d \\d\\d:\\d\\d:\\d\\d \\d{4}"), lines.get(0));
        assertEquals("", lines.get(1));
        assertTrue(lines.get(2).matches("\\d+,,page-faults(:u)?,\\d+,100.00,,"), lines.get(2));
    }

    @Test
    void badInputLeavesThePreviousOutputFile() throws Exception {
        Path out = Files.writeString(tmp.resolve("stat.txt"), "previous counts\n");
        Run r = Run.of("stat", "-o", out.toString(), "-p", "999999999");
        assertEquals(1, r.rc());
        assertEquals("jperf stat: no process with pid 999999999 (no /proc/999999999/task)\n", r.err());
        r = Run.of("stat", "-o", out.toString(), "-e", "task-clock", "--", tmp.resolve("missing").toString());
        assertEquals(1, r.rc());
        assertEquals(1, r.err().lines().count(), r.err());
        assertEquals("previous counts\n", Files.readString(out));
        try (var files = Files.list(tmp)) {
            assertEquals(List.of(out), files.toList(), "a temporary file left behind");
        }
        r = Run.of("stat", "-o", out.toString(), "-x,", "-e", "page-faults", "--", "true");
        assertEquals(0, r.rc(), r.err());
        assertTrue(Files.readString(out).startsWith("# started on "));
    }

    @Test
    void badInputIsOneLine() throws Exception {
        List<String> fds = openFds();
        Run r = Run.of("stat", "-e", "no-such-event", "--", "true");
        assertEquals(129, r.rc());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("jperf stat: unknown event 'no-such-event'"), r.err());
        r = Run.of("stat", "-p", "999999999");
        assertEquals(1, r.rc());
        assertEquals("jperf stat: no process with pid 999999999 (no /proc/999999999/task)\n", r.err());
        r = Run.of("stat", "-e", "task-clock", "--", tmp.resolve("missing").toString());
        assertEquals(1, r.rc());
        assertEquals(1, r.err().lines().count(), r.err());
        r = Run.of("stat");
        assertEquals(129, r.rc());
        assertEquals(1, r.err().lines().count(), r.err());
        assertEquals(fds, openFds(), "fds left open");
    }

    /**
     * This JVM's fds of kernel objects (perf events, BPF programs, maps, links, the statistics
     * fd: all anonymous inodes): what a failed command must not leave open. Other fds come and
     * go with the JVM's own work.
     */
    static List<String> openFds() throws Exception {
        List<String> fds = new ArrayList<>();
        try (var s = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : s.toList()) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("anon_inode:")) {
                        fds.add(fd.getFileName() + " " + target);
                    }
                } catch (java.io.IOException e) {
                    // closed while listed
                }
            }
        }
        fds.sort(null);
        return fds;
    }

    // ---- helpers ----

    record Result(int rc, String out, String err) {}

    static boolean root() throws java.io.IOException {
        return Files.readString(Path.of("/proc/self/status")).matches("(?s).*\\nUid:\\s+0\\s.*");
    }

    /** {@code jperf ARGS} in a JVM of its own, behind {@code wrapper} (e.g. setarch -R). */
    static List<String> jperf(List<String> wrapper, String... args) {
        List<String> cmd = new ArrayList<>(wrapper);
        cmd.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    static Result exec(String... cmd) throws Exception {
        return exec(List.of(cmd));
    }

    static Result exec(List<String> cmd) throws Exception {
        File out = File.createTempFile("jperf-stat", ".out");
        File err = File.createTempFile("jperf-stat", ".err");
        try {
            Process p = new ProcessBuilder(cmd).redirectOutput(out).redirectError(err).start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(cmd + " timed out");
            }
            return new Result(p.exitValue(), Files.readString(out.toPath(), StandardCharsets.UTF_8),
                    Files.readString(err.toPath(), StandardCharsets.UTF_8));
        } finally {
            out.delete();
            err.delete();
        }
    }

    /** The lines from the "Performance counter stats" header on, blank ones left out. */
    static List<String> table(String output) {
        List<String> lines = new ArrayList<>();
        boolean in = false;
        for (String l : output.lines().toList()) {
            in |= l.startsWith(" Performance counter stats for ");
            if (in && !l.isBlank()) {
                lines.add(l);
            }
        }
        return lines;
    }

    /** A line without its numbers (and a rate's K/M/G): what layout, events and units make of it. */
    static List<String> shapes(List<String> lines) {
        List<String> out = new ArrayList<>();
        for (String l : lines) {
            out.add(l.replaceAll("\\d+(\\.\\d+)?", "0").replaceAll("[KMG]/sec", "/sec").replaceAll(" +", " ")
                    .replaceAll("'.*'", "'...'"));
        }
        return out;
    }

    /** A spread of 0 is not printed, and counts that vary (context switches) may have one or not: left out. */
    static List<String> withoutSpread(List<String> shapes) {
        List<String> out = new ArrayList<>();
        for (String s : shapes) {
            out.add(s.replaceAll(" *\\( \\+- *0% \\)", "").stripTrailing());
        }
        return out;
    }

    /** The first {@code n} fields of each CSV line. */
    static List<String> fields(String csv, int n) {
        List<String> out = new ArrayList<>();
        for (String l : csv.lines().toList()) {
            String[] f = l.split(",", -1);
            out.add(String.join(",", List.of(f).subList(0, Math.min(n, f.length))));
        }
        return out;
    }

    /** Per line: the field count and the non-numeric fields (unit, event, metric unit) in place. */
    static List<String> csvShape(String csv, String sep) {
        List<String> out = new ArrayList<>();
        for (String l : csv.lines().toList()) {
            List<String> f = new ArrayList<>();
            for (String x : l.split(Pattern.quote(sep), -1)) {
                f.add(x.strip().matches("[0-9.]+%?") ? "0" : x.replaceAll("^[KMG]/sec", "/sec"));
            }
            out.add(f.size() + ":" + String.join(sep, f));
        }
        return out;
    }

    /** Per line: the keys in order, with the event and units. */
    static List<String> jsonShape(String json) {
        List<String> out = new ArrayList<>();
        Pattern kv = Pattern.compile("\"([a-z-]+)\" : (\"[^\"]*\"|[0-9.]+)");
        for (String l : json.lines().toList()) {
            assertTrue(l.startsWith("{") && l.endsWith("}"), l);
            StringBuilder b = new StringBuilder();
            Matcher m = kv.matcher(l);
            while (m.find()) {
                String v = m.group(2);
                boolean text = m.group(1).equals("event") || m.group(1).endsWith("unit") || v.startsWith("\"<");
                b.append(m.group(1)).append('=').append(text ? v.replaceAll("[KMG]/sec", "/sec") : "0").append(' ');
            }
            out.add(b.toString());
        }
        return out;
    }

    /** The distinct interval timestamps, in order. */
    static Set<Double> ticks(List<String> lines) {
        Set<Double> t = new LinkedHashSet<>();
        for (String l : lines) {
            if (!l.startsWith("#")) {
                t.add(Double.parseDouble(l.strip().split(" +")[0]));
            }
        }
        assertFalse(t.isEmpty());
        return t;
    }
}
