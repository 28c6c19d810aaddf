package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * perf record's options jperf takes, each against perf 6.1 recording the same thing here: the
 * attrs {@code perf evlist -v} prints, the header sections, the build-id cache. System-wide
 * ({@code -a}), where perf and jperf open the same events; every build-id cache is a directory
 * of the test's (jperf's {@code PERF_BUILDID_DIR}, perf's {@code --buildid-dir}), for both.
 */
class RecordOptionsTest {
    @TempDir
    Path dir;

    private Path perf;

    @BeforeEach
    void machine() throws IOException {
        boolean root = Files.readAllLines(Path.of("/proc/self/status")).stream()
                .anyMatch(l -> l.startsWith("Uid:") && l.split("\\s+")[2].equals("0"));
        assumeTrue(root, "recording system-wide needs root (CAP_PERFMON) on a real kernel");
        perf = Stream.of(System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator))
                .map(d -> Path.of(d, "perf")).filter(Files::isExecutable).findFirst().orElse(null);
        assumeTrue(perf != null, "Linux perf is not in PATH (install linux-perf): it is the oracle here");
    }

    /** What a process printed and its exit code. */
    private record Done(int rc, String out, String err) {}

    private Done run(List<String> cmd, Path buildIdDir) throws Exception {
        if (cmd.get(0).equals(perf.toString())) {
            // perf 6.1 takes its cache from --buildid-dir alone (its start sets PERF_BUILDID_DIR
            // over any the caller gave): without it, perf record would fill ~/.debug
            cmd = new ArrayList<>(cmd);
            cmd.addAll(1, List.of("--buildid-dir", buildIdDir.toString()));
        }
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile());
        pb.environment().put("PERF_BUILDID_DIR", buildIdDir.toString());
        Process p = pb.start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "timed out: " + cmd);
        return new Done(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    /** perf, or jperf in a JVM of its own, as the launcher starts it. */
    private List<String> tool(boolean jperf) {
        if (!jperf) {
            return new ArrayList<>(List.of(perf.toString()));
        }
        return new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), Main.class.getName()));
    }

    /** {@code tool record -q -a -o file OPTIONS -- sleep 0.2}: tool is perf, or jperf in a JVM of its own. */
    private Done record(boolean jperf, Path file, Path buildIdDir, String... options) throws Exception {
        List<String> cmd = tool(jperf);
        cmd.addAll(List.of("record", "-q", "-a", "-o", file.toString()));
        cmd.addAll(List.of(options));
        cmd.addAll(List.of("--", "sleep", "0.2"));
        return run(cmd, buildIdDir);
    }

    private Done recordOk(boolean jperf, Path file, Path buildIdDir, String... options) throws Exception {
        Done d = record(jperf, file, buildIdDir, options);
        assertEquals(0, d.rc(), (jperf ? "jperf " : "perf ") + String.join(" ", options) + ": " + d.err());
        return d;
    }

    private String perf(Path buildIdDir, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(perf.toString()));
        cmd.addAll(List.of(args));
        Done d = run(cmd, buildIdDir);
        assertEquals(0, d.rc(), "perf " + String.join(" ", args) + ": " + d.err());
        return d.out();
    }

    private static String missingFeatures(String header) {
        return header.lines().filter(l -> l.startsWith("# missing features:")).findFirst().orElse("");
    }

    /**
     * -i, --all-user, --all-kernel, --switch-events, --namespaces, -T, -n, -g, --call-graph,
     * --user-regs, -d, --phys-data, -W, -R, --running-time, --no-bpf-event, --sample-cpu,
     * --sample-identifier, --no-buffering, -P, -F, -c, --kernel-callchains, --user-callchains,
     * --code-page-size, --data-page-size, -I, -k, --group, -s, --synth: every
     * event's attr as perf sets it (the tracking dummy's callchain settings included), the events
     * named as perf names them.
     */
    @ParameterizedTest
    @ValueSource(strings = {"-i", "--no-inherit", "--all-user", "--all-kernel", "--all-user -e task-clock,cpu-clock:k",
            "--all-kernel -i -e cpu-clock:u,page-faults", "--switch-events", "--namespaces", "-T",
            "--timestamp -i", "-n", "--no-samples -e task-clock", "-g", "--call-graph fp", "--call-graph dwarf",
            "--call-graph dwarf,4000", "--call-graph=dwarf,65528 -e task-clock,cpu-clock:u", "-g --call-graph dwarf,100",
            "--call-graph dwarf -g", "--call-graph dwarf --all-user", "--call-graph lbr -e cpu-clock:k", "--user-regs",
            "--user-regs=ax,SP", "--call-graph dwarf --user-regs=ax", "--user-regs=r15 -e cpu-clock,task-clock -g",
            "-d", "--data --call-graph dwarf", "--phys-data", "-W", "--weight -e task-clock", "-R",
            "--raw-samples -e task-clock,cpu-clock", "--running-time", "--running-time -e task-clock -n",
            "--no-bpf-event", "--sample-cpu", "--sample-identifier", "-d -R -W --phys-data --running-time",
            "--no-buffering", "--no-buffering -e task-clock -n", "-P", "--period -c 100000", "-c 100000",
            "-F 1000", "-F 1000 -n", "-c 50000 -P -e task-clock,cpu-clock", "-F 999 -g", "-c 20000 --call-graph dwarf",
            "-P --call-graph lbr -e cpu-clock:k", "--kernel-callchains -g", "--user-callchains",
            "--user-callchains --kernel-callchains --call-graph dwarf", "--code-page-size", "--data-page-size -e task-clock",
            "--code-page-size --data-page-size -c 100000", "--intr-regs", "-I", "--intr-regs=ax,sp",
            "-Isi,R8 -e task-clock,cpu-clock", "--clockid mono", "-k CLOCK_MONOTONIC_RAW", "-k 4 -e task-clock,cpu-clock",
            "-k boot -c 100000", "--clockid=real", "-k Tai", "--group", "--group -e task-clock,cpu-clock",
            "--group -e cpu-clock,task-clock,page-faults -c 10000", "--stat", "-s --running-time -e task-clock",
            "--synth=task", "--synth no"})
    void attrsAsPerfSetsThem(String options) throws Exception {
        String[] opts = options.split(" ");
        Path bid = dir.resolve("bid");
        recordOk(false, dir.resolve("perf.data"), bid, opts);
        recordOk(true, dir.resolve("jperf.data"), bid, opts);
        String theirs = perf(bid, "evlist", "-v", "-i", dir.resolve("perf.data").toString());
        String ours = perf(bid, "evlist", "-v", "-i", dir.resolve("jperf.data").toString());
        assertEquals(theirs, ours, options);
        // jperf reads its own file the same
        Run j = Run.of("evlist", "-v", "-i", dir.resolve("jperf.data").toString());
        assertEquals(0, j.rc(), j.err());
        assertEquals(theirs, j.out(), options);
    }

    /**
     * -P with -c: every sample carries its period and, the events' sample_types alike, perf's ID
     * in place of IDENTIFIER; perf reads jperf's file as its own: the header's events (ids aside)
     * and each sample's event and period.
     */
    @Test
    void periodIsSampledAsPerfSamplesIt() throws Exception {
        Path bid = dir.resolve("bid");
        String[] opts = {"-P", "-c", "100000", "-e", "task-clock,cpu-clock"};
        recordOk(false, dir.resolve("perf.data"), bid, opts);
        recordOk(true, dir.resolve("jperf.data"), bid, opts);
        List<String> headers = new ArrayList<>();
        for (String f : List.of("perf.data", "jperf.data")) {
            String header = perf(bid, "report", "--header-only", "-i", dir.resolve(f).toString());
            headers.add(header.lines().filter(l -> l.startsWith("# event : "))
                    .map(l -> l.replaceAll("id = \\{[^}]*\\}", "id")).toList().toString());
            String out = perf(bid, "script", "-i", dir.resolve(f).toString(), "-F", "event,period");
            Set<String> lines = out.lines().map(l -> l.strip().replaceAll("\\s+", " ")).collect(Collectors.toSet());
            assertEquals(Set.of("100000 task-clock:", "100000 cpu-clock:"), lines, f);
        }
        assertTrue(headers.get(0).contains("sample_type = IP|TID|TIME|ID|CPU|PERIOD,"), headers.get(0));
        assertEquals(headers.get(0), headers.get(1));
        // jperf reads its file as perf does
        Run j = Run.of("script", "-i", dir.resolve("jperf.data").toString(), "-F", "event,period");
        assertEquals(0, j.rc(), j.err());
        assertEquals(perf(bid, "script", "-i", dir.resolve("jperf.data").toString(), "-F", "event,period"), j.out());
    }

    /**
     * -I and --code-page-size: perf script prints every sample's interrupt registers and code page
     * size from jperf's file as from its own.
     */
    @Test
    void intrRegsAndPageSizesAreReadByPerf() throws Exception {
        Path bid = dir.resolve("bid");
        String[] opts = {"-I", "--code-page-size", "--data-page-size"};
        recordOk(false, dir.resolve("perf.data"), bid, opts);
        recordOk(true, dir.resolve("jperf.data"), bid, opts);
        for (String f : List.of("perf.data", "jperf.data")) {
            String out = perf(bid, "script", "-i", dir.resolve(f).toString(), "-F", "iregs,code_page_size");
            assertTrue(out.lines().count() > 0, f);
            assertTrue(out.lines().allMatch(l -> l.matches("\\s*ABI:[12](\\s+[A-Z0-9]+:0x[0-9a-f]+){20}(\\s+\\S+)?\\s*")),
                    f + ":\n" + out.lines().limit(3).toList());
        }
    }

    /**
     * -k: the header's clock sections as perf writes them (the clock's name and resolution, a
     * reference time in its layout), the samples' times on that clock; the clocks perf refuses,
     * refused with its exit code.
     */
    @Test
    void clockidWritesTheClockSections() throws Exception {
        Path bid = dir.resolve("bid");
        for (String clock : List.of("mono", "CLOCK_BOOTTIME", "tai")) {
            recordOk(false, dir.resolve("perf.data"), bid, "-k", clock);
            recordOk(true, dir.resolve("jperf.data"), bid, "-k", clock);
            List<String> headers = new ArrayList<>();
            for (String f : List.of("perf.data", "jperf.data")) {
                String header = perf(bid, "report", "--header-only", "-i", dir.resolve(f).toString());
                headers.add(header.lines().filter(l -> l.startsWith("# clockid") || l.startsWith("# missing features"))
                        .toList().toString()
                        + header.lines().filter(l -> l.startsWith("# reference time: "))
                                .map(l -> l.replaceAll("[0-9]", "0")).toList());
            }
            assertTrue(headers.get(0).contains("# clockid: "), headers.get(0));
            assertEquals(headers.get(0), headers.get(1), clock);
        }
        // the samples are on the clock asked: CLOCK_REALTIME's seconds since 1970
        recordOk(true, dir.resolve("jperf.data"), bid, "-k", "realtime");
        long now = System.currentTimeMillis() / 1000;
        String times = perf(bid, "script", "-i", dir.resolve("jperf.data").toString(), "-F", "time");
        assertTrue(times.lines().count() > 0);
        assertTrue(times.lines().allMatch(l -> Math.abs(Double.parseDouble(l.strip().replace(":", "")) - now) < 60), times);
        for (String bad : List.of("foo", "99")) {
            Done theirs = record(false, dir.resolve("perf.data"), bid, "-k", bad);
            Done ours = record(true, dir.resolve("jperf.data"), bid, "-k", bad);
            assertTrue(theirs.rc() != 0, bad);
            assertEquals(theirs.rc(), ours.rc(), bad + ": " + ours.err());
        }
        Done twice = record(true, dir.resolve("jperf.data"), bid, "-k", "1", "--clockid", "4");
        assertEquals(record(false, dir.resolve("perf.data"), bid, "-k", "1", "--clockid", "4").rc(), twice.rc());
    }

    /**
     * --group: perf's group (the tracking dummy in it, as perf 6.1 puts it) in the header and in
     * perf evlist -g; perf report shows it in its group view, a column per member.
     */
    @Test
    void groupIsWrittenAsPerfWritesIt() throws Exception {
        Path bid = dir.resolve("bid");
        String[] opts = {"--group", "-e", "task-clock,cpu-clock"};
        recordOk(false, dir.resolve("perf.data"), bid, opts);
        recordOk(true, dir.resolve("jperf.data"), bid, opts);
        List<String> seen = new ArrayList<>();
        for (String f : List.of("perf.data", "jperf.data")) {
            String file = dir.resolve(f).toString();
            seen.add(perf(bid, "evlist", "-g", "-i", file) + perf(bid, "report", "--header-only", "-i", file).lines()
                    .filter(l -> l.startsWith("# group:") || l.startsWith("# missing features")).toList());
            String report = perf(bid, "report", "-i", file, "--stdio", "--sort", "comm");
            assertTrue(report.contains("of events 'anon group { task-clock, cpu-clock, dummy:HG }'"), f + ":\n" + report);
        }
        assertTrue(seen.get(0).startsWith("{task-clock,cpu-clock,dummy:HG}\n"), seen.get(0));
        assertEquals(seen.get(0), seen.get(1));
    }

    /**
     * --synth: the records synthesized at start (time 0) of each kind, present or not, as in
     * perf's recording: no tasks but the workload's COMM with no/none, the tasks without their maps
     * with task, both with mmap and all; a name perf does not know refused as perf refuses it.
     */
    @Test
    void synthChoosesWhatIsSynthesized() throws Exception {
        Path bid = dir.resolve("bid");
        for (String synth : List.of("no", "task", "mmap", "all", "none,mmap", "cgroup", "task,cgroup")) {
            List<String> kinds = new ArrayList<>();
            for (boolean jperf : new boolean[] {false, true}) {
                Path file = dir.resolve(jperf ? "jperf.data" : "perf.data");
                recordOk(jperf, file, bid, "--synth=" + synth);
                String out = perf(bid, "script", "-i", file.toString(), "--show-task-events", "--show-mmap-events");
                Set<String> seen = new java.util.TreeSet<>();
                Matcher m = Pattern.compile(" 0\\.000000: (PERF_RECORD_(COMM|MMAP2|MMAP))").matcher(out);
                while (m.find()) {
                    seen.add(m.group(1));
                }
                kinds.add(seen.toString());
            }
            assertEquals(kinds.get(0), kinds.get(1), "--synth=" + synth);
        }
        Done theirs = record(false, dir.resolve("perf.data"), bid, "--synth=foo");
        Done ours = record(true, dir.resolve("jperf.data"), bid, "--synth=foo");
        assertEquals(129, theirs.rc());
        assertEquals(theirs.rc(), ours.rc(), ours.err());
        assertTrue(ours.err().contains("Invalid synth option: foo"), ours.err());
    }

    /**
     * -s: each child task's counts written by the kernel as it exits (PERF_RECORD_READ), as many
     * as in perf's recording of the same workload; jperf's report counts them as perf's does.
     */
    @Test
    void statRecordsEachChildsCounts() throws Exception {
        Path bid = dir.resolve("bid");
        List<String> reads = new ArrayList<>();
        for (boolean jperf : new boolean[] {false, true}) {
            Path file = dir.resolve(jperf ? "jperf.data" : "perf.data");
            List<String> cmd = tool(jperf);
            cmd.addAll(List.of("record", "-q", "-s", "-e", "task-clock", "-o", file.toString(), "--", "sh", "-c",
                    "ls / >/dev/null; ls / >/dev/null"));
            Done d = run(cmd, bid);
            assertEquals(0, d.rc(), d.err());
            String stats = perf(bid, "report", "--stats", "-i", file.toString());
            Matcher m = Pattern.compile("READ events:\\s+(\\d+)").matcher(stats);
            assertTrue(m.find(), stats);
            reads.add(m.group(1));
            Run ours = Run.of("report", "--stats", "-i", file.toString());
            assertEquals(0, ours.rc(), ours.err());
            assertTrue(ours.out().contains("READ events: " + " ".repeat(Math.max(0, 10 - m.group(1).length())) + m.group(1)),
                    ours.out());
        }
        assertTrue(Integer.parseInt(reads.get(0)) >= 2, reads.toString());
        assertEquals(reads.get(0), reads.get(1));
    }

    /**
     * -b, -j: perf's answer, exit code and message (a machine without branch stack sampling
     * refuses the event; one with it records the attrs perf sets), and its usage errors.
     */
    @ParameterizedTest
    @ValueSource(strings = {"-b", "--branch-any", "-j any", "--branch-filter any_call,u", "-j u", "-j k,cond -e task-clock",
            "-j foo", "-j any -b", "-b -b", "-j hw_index"})
    void branchStackAsPerfAnswers(String options) throws Exception {
        String[] opts = options.split(" ");
        Path bid = dir.resolve("bid");
        Done theirs = record(false, dir.resolve("perf.data"), bid, opts);
        Done ours = record(true, dir.resolve("jperf.data"), bid, opts);
        assertEquals(theirs.rc(), ours.rc(), options + ": perf " + theirs.err() + "jperf " + ours.err());
        if (theirs.rc() == 0) {
            assertEquals(perf(bid, "evlist", "-v", "-i", dir.resolve("perf.data").toString()),
                    perf(bid, "evlist", "-v", "-i", dir.resolve("jperf.data").toString()), options);
        } else {
            // perf's error, its message as perf words it (perf adds the usage after a usage error)
            String why = theirs.err().lines().filter(l -> !l.isBlank() && !l.equals("Error:")).findFirst().orElseThrow()
                    .replaceFirst("^Error: ", "");
            assertTrue(ours.err().contains(why.strip()), options + ": perf " + theirs.err() + "jperf " + ours.err());
        }
    }

    /** -n: no samples, as in perf's recording; the tasks' records still there. */
    @Test
    void noSamplesRecordsNoSample() throws Exception {
        Path bid = dir.resolve("bid");
        recordOk(false, dir.resolve("perf.data"), bid, "-n");
        recordOk(true, dir.resolve("jperf.data"), bid, "--no-samples");
        for (String f : List.of("perf.data", "jperf.data")) {
            String stats = perf(bid, "report", "-i", dir.resolve(f).toString(), "--stats");
            assertFalse(stats.contains("SAMPLE events:"), f + ":\n" + stats);
            assertTrue(stats.matches("(?s).*COMM events:\\s*[1-9].*"), f + ":\n" + stats);
        }
        recordOk(true, dir.resolve("with.data"), bid);
        String with = perf(bid, "report", "-i", dir.resolve("with.data").toString(), "--stats");
        assertTrue(with.matches("(?s).*SAMPLE events:\\s*[1-9].*"), with);
    }

    /** Both asked: perf's parse-options refuses the pair (exit 129), jperf in one line. */
    @Test
    void allUserAndAllKernelAreExclusive() throws Exception {
        Path bid = dir.resolve("bid");
        Done theirs = record(false, dir.resolve("perf.data"), bid, "--all-user", "--all-kernel");
        Done ours = record(true, dir.resolve("jperf.data"), bid, "--all-user", "--all-kernel");
        assertEquals(theirs.rc(), ours.rc(), ours.err());
        assertTrue(theirs.err().contains("option `all-kernel' cannot be used with all-user"), theirs.err());
        assertEquals(1, ours.err().lines().count(), ours.err());
        assertTrue(ours.err().contains("option `all-kernel' cannot be used with all-user"), ours.err());
        assertFalse(Files.exists(dir.resolve("jperf.data")));
    }

    /** -B: no HEADER_BUILD_ID and nothing cached; without it the section and the cache are there. */
    @Test
    void noBuildIdLeavesTheSectionAndTheCacheOut() throws Exception {
        Path perfBid = dir.resolve("perf-bid");
        Path ourBid = dir.resolve("jperf-bid");
        recordOk(false, dir.resolve("perf.data"), perfBid, "-B");
        recordOk(true, dir.resolve("jperf.data"), ourBid, "--no-buildid");
        String theirs = missingFeatures(perf(perfBid, "report", "--header-only", "-i", dir.resolve("perf.data").toString()));
        String ours = missingFeatures(perf(ourBid, "report", "--header-only", "-i", dir.resolve("jperf.data").toString()));
        assertTrue(theirs.contains(" BUILD_ID "), theirs);
        assertEquals(theirs, ours);
        assertFalse(Files.exists(perfBid));
        assertFalse(Files.exists(ourBid));

        recordOk(true, dir.resolve("with.data"), ourBid);
        String with = missingFeatures(perf(ourBid, "report", "--header-only", "-i", dir.resolve("with.data").toString()));
        assertFalse(with.contains(" BUILD_ID "), with);
        assertTrue(Files.isDirectory(ourBid.resolve(".build-id")), "the cache is filled without -B");
    }

    /** -N: the build-ids of the DSOs hit are in the header, as perf lists them, and the cache stays untouched. */
    @Test
    void noBuildIdCacheKeepsTheSectionAndLeavesTheCacheAlone() throws Exception {
        Path perfBid = dir.resolve("perf-bid");
        Path ourBid = dir.resolve("jperf-bid");
        recordOk(false, dir.resolve("perf.data"), perfBid, "-N");
        recordOk(true, dir.resolve("jperf.data"), ourBid, "--no-buildid-cache");
        String theirs = missingFeatures(perf(perfBid, "report", "--header-only", "-i", dir.resolve("perf.data").toString()));
        String ours = missingFeatures(perf(ourBid, "report", "--header-only", "-i", dir.resolve("jperf.data").toString()));
        assertFalse(theirs.contains(" BUILD_ID "), theirs);
        assertEquals(theirs, ours);
        String ids = perf(ourBid, "buildid-list", "-i", dir.resolve("jperf.data").toString());
        assertTrue(ids.contains(" [kernel.kallsyms]") || ids.contains(" /"), ids);
        assertFalse(Files.exists(perfBid));
        assertFalse(Files.exists(ourBid));
    }

    /**
     * --switch-events: the kernel's context-switch records in the file, CPU-wide system-wide and
     * per task on a workload, as in perf's recording of the same (sleep switches out and back in).
     */
    @ParameterizedTest
    @ValueSource(strings = {"SWITCH_CPU_WIDE", "SWITCH"})
    void switchEventsRecordTheSwitches(String type) throws Exception {
        Path bid = dir.resolve("bid");
        boolean systemWide = type.equals("SWITCH_CPU_WIDE");
        for (boolean jperf : new boolean[] {false, true}) {
            Path file = dir.resolve(jperf ? "jperf.data" : "perf.data");
            List<String> cmd = tool(jperf);
            cmd.addAll(List.of("record", "-q", "--switch-events", "-o", file.toString()));
            if (systemWide) {
                cmd.add("-a");
            }
            cmd.addAll(List.of("--", "sleep", "0.2"));
            Done d = run(cmd, bid);
            assertEquals(0, d.rc(), d.err());
            String stats = perf(bid, "report", "-i", file.toString(), "--stats");
            assertTrue(stats.matches("(?s).*\\n\\s*" + type + " events:\\s*[1-9].*"), (jperf ? "jperf" : "perf") + ":\n" + stats);
            String script = perf(bid, "script", "-i", file.toString(), "--show-switch-events");
            assertTrue(script.contains("PERF_RECORD_" + type + " OUT") && script.contains("PERF_RECORD_" + type + " IN"),
                    script.lines().filter(l -> l.contains("SWITCH")).limit(5).toList().toString());
        }
    }

    /** perf script's MMAP2 lines of process {@code pid} in {@code file}. */
    private List<String> mmaps(Path file, Path bid, long pid) throws Exception {
        String marker = "PERF_RECORD_MMAP2 " + pid + "/" + pid + ":";
        // no sample fields that need an unwind: perf unwinds each sample it prints a callchain of
        return perf(bid, "script", "-i", file.toString(), "--show-mmap-events", "-F", "comm,pid").lines().filter(l -> l.contains(marker))
                .map(String::strip).toList();
    }

    /**
     * --call-graph dwarf turns on perf's sample_address: the maps of a process found at start are
     * synthesized with its readable data maps (PERF_RECORD_MISC_MMAP_DATA), as perf synthesizes
     * them; without it only the executable ones.
     */
    @Test
    void dwarfSynthesizesDataMapsAsPerfDoes() throws Exception {
        Path bid = dir.resolve("bid");
        Process sleeper = new ProcessBuilder("sleep", "60").start();
        try {
            long pid = sleeper.pid();
            recordOk(false, dir.resolve("perf.data"), bid, "--call-graph", "dwarf");
            recordOk(true, dir.resolve("jperf.data"), bid, "--call-graph", "dwarf");
            recordOk(true, dir.resolve("fp.data"), bid, "-g");
            List<String> theirs = mmaps(dir.resolve("perf.data"), bid, pid);
            assertTrue(theirs.stream().anyMatch(l -> l.endsWith("rw-p [stack]")), theirs.toString());
            assertEquals(theirs, mmaps(dir.resolve("jperf.data"), bid, pid));
            List<String> fp = mmaps(dir.resolve("fp.data"), bid, pid);
            assertFalse(fp.isEmpty());
            assertTrue(fp.stream().allMatch(l -> l.matches(".*: [r-]-x[ps] .*")), fp.toString());
        } finally {
            sleeper.destroy();
        }
    }

    private static final Pattern NAMESPACES =
            Pattern.compile("PERF_RECORD_NAMESPACES (\\d+/\\d+) - nr_namespaces: (\\d+)\\n([^\\]]*\\])");

    /** pid/tid to the namespaces perf script prints for it, the first record of each. */
    private Map<String, String> namespaces(Path file, Path bid) throws Exception {
        Map<String, String> out = new LinkedHashMap<>();
        Matcher m = NAMESPACES.matcher(perf(bid, "script", "-i", file.toString(), "--show-namespace-events"));
        while (m.find()) {
            out.putIfAbsent(m.group(1), m.group(2) + " " + m.group(3).replaceAll("\\s+", " "));
        }
        return out;
    }

    /**
     * --namespaces: a NAMESPACES record for every task found at start, as perf synthesizes them
     * (the devices and inodes of /proc/TID/ns/*): every task both files describe is described alike.
     */
    @Test
    void namespacesAreSynthesizedAsPerfDoes() throws Exception {
        Path bid = dir.resolve("bid");
        recordOk(false, dir.resolve("perf.data"), bid, "--namespaces");
        recordOk(true, dir.resolve("jperf.data"), bid, "--namespaces");
        Map<String, String> theirs = namespaces(dir.resolve("perf.data"), bid);
        Map<String, String> ours = namespaces(dir.resolve("jperf.data"), bid);
        int common = 0;
        for (Map.Entry<String, String> e : theirs.entrySet()) {
            String mine = ours.get(e.getKey());
            if (mine != null) {
                assertEquals(e.getValue(), mine, "namespaces of " + e.getKey());
                common++;
            }
        }
        // pid 1 and the kernel threads live through both recordings
        assertTrue(common >= 2, "tasks in both: " + common + "\nperf: " + theirs.keySet() + "\njperf: " + ours.keySet());
        String stats = perf(bid, "report", "-i", dir.resolve("jperf.data").toString(), "--stats");
        assertTrue(stats.matches("(?s).*NAMESPACES events:\\s*[1-9].*"), stats);
    }

    private static final Path SPIN = Path.of(System.getProperty("jperf.root", ".."), "samples/bin/jperf-sample-spin");
    private static final Pattern EXEC = Pattern.compile("(?m)^\\s*(\\d+\\.\\d+): PERF_RECORD_COMM exec: ");
    private static final Pattern SAMPLE = Pattern.compile("(?m)^\\s*(\\d+\\.\\d+): $");

    /** Seconds from the workload's exec to its first sample (perf script's times), or -1 without a sample. */
    private double execToFirstSample(Path file, Path bid) throws Exception {
        String script = perf(bid, "script", "-i", file.toString(), "-F", "time", "--show-task-events");
        Matcher exec = EXEC.matcher(script);
        assertTrue(exec.find(), script.lines().limit(20).toList().toString());
        Matcher sample = SAMPLE.matcher(script);
        if (!sample.find(exec.end())) {
            return -1;
        }
        return Double.parseDouble(sample.group(1)) - Double.parseDouble(exec.group(1));
    }

    private Done recordSpin(boolean jperf, Path file, Path bid, String... options) throws Exception {
        List<String> cmd = tool(jperf);
        cmd.addAll(List.of("record", "-o", file.toString()));
        cmd.addAll(List.of(options));
        cmd.addAll(List.of("--", SPIN.toString(), "1"));
        Done d = run(cmd, bid);
        assertEquals(0, d.rc(), d.err());
        return d;
    }

    /**
     * -D ms: no sample before the delay has passed since the workload started, then sampling, as in
     * perf's recording of the same; -D -1: no sample at all. Both say so as perf does.
     */
    @Test
    void delayStartsSamplingLate() throws Exception {
        assumeTrue(Files.isExecutable(SPIN), "the samples module's spin workload is not built: " + SPIN);
        Path bid = dir.resolve("bid");
        for (boolean jperf : new boolean[] {false, true}) {
            String who = jperf ? "jperf" : "perf";
            Path file = dir.resolve(who + ".data");
            Done d = recordSpin(jperf, file, bid, "-D", "500");
            assertTrue(d.err().startsWith("Events disabled\nEvents enabled\n"), who + ": " + d.err());
            double late = execToFirstSample(file, bid);
            assertTrue(late >= 0.45, who + ": first sample " + late + " s after exec");
            recordSpin(jperf, file, bid, "-q", "-D", "-1");
            assertEquals(-1, execToFirstSample(file, bid), who + " -D -1");
        }
        recordSpin(true, dir.resolve("now.data"), bid, "-q");
        double now = execToFirstSample(dir.resolve("now.data"), bid);
        assertTrue(now >= 0 && now < 0.45, "without -D: first sample " + now + " s after exec");
    }

    /**
     * --timestamp-filename: the finished file renamed NAME.YYYYmmddHHMMSScc (local time), said in a
     * Dump line, the summary naming it NAME.&lt;timestamp&gt;, as perf does.
     */
    @Test
    void timestampFilenameRenamesTheFile() throws Exception {
        Path bid = dir.resolve("bid");
        for (boolean jperf : new boolean[] {false, true}) {
            String who = jperf ? "jperf" : "perf";
            Path sub = Files.createDirectory(dir.resolve(who));
            java.time.LocalDateTime before = java.time.LocalDateTime.now().withNano(0);
            List<String> cmd = tool(jperf);
            cmd.addAll(List.of("record", "--timestamp-filename", "-o", sub.resolve("ts.data").toString(), "--",
                    "sleep", "0.1"));
            Done d = run(cmd, bid);
            assertEquals(0, d.rc(), d.err());
            List<Path> files;
            try (Stream<Path> s = Files.list(sub)) {
                files = s.toList();
            }
            assertEquals(1, files.size(), who + ": " + files);
            String name = files.get(0).getFileName().toString();
            assertTrue(name.matches("ts\\.data\\.\\d{16}"), who + ": " + name);
            java.time.LocalDateTime stamp = java.time.LocalDateTime.parse(name.substring(8, 22),
                    java.time.format.DateTimeFormatter.ofPattern("yyyyMMddHHmmss"));
            assertTrue(!stamp.isBefore(before) && stamp.isBefore(before.plusMinutes(2)), who + ": " + name);
            assertTrue(d.err().contains("record: Dump " + files.get(0) + " ]\n"), who + ": " + d.err());
            assertTrue(d.err().contains(" MB " + sub.resolve("ts.data") + ".<timestamp> ("), who + ": " + d.err());
            assertTrue(perf(bid, "report", "-i", files.get(0).toString(), "--stats").contains("COMM events:"));
        }
    }

    /**
     * The sample options' fields as perf reads them from jperf's file: every sample with an
     * address, a physical address, a weight and raw data; perf script prints the same fields of
     * its own file.
     */
    @Test
    void sampleFieldsAreReadByPerf() throws Exception {
        Path bid = dir.resolve("bid");
        String[] opts = {"-d", "-R", "-W", "--phys-data", "--running-time"};
        recordOk(false, dir.resolve("perf.data"), bid, opts);
        recordOk(true, dir.resolve("jperf.data"), bid, opts);
        for (String f : List.of("perf.data", "jperf.data")) {
            String out = perf(bid, "script", "-i", dir.resolve(f).toString(), "-F", "cpu,addr,weight,phys_addr");
            assertTrue(out.lines().count() > 0, f);
            assertTrue(out.lines().allMatch(l -> l.matches("\\s*\\[\\d{3}\\]\\s+[0-9a-f]+\\s+\\d+\\s+[0-9a-f]+\\s*")), f + ":\n"
                    + out.lines().limit(5).toList());
            String stats = perf(bid, "report", "-i", dir.resolve(f).toString(), "--stats");
            assertTrue(stats.matches("(?s).*SAMPLE events:\\s*[1-9].*"), f + ":\n" + stats);
        }
    }

    /** --no-bpf-event: no BPF program synthesized or captured, no bpf_prog_info in the header, as perf's file. */
    @Test
    void noBpfEventLeavesBpfOut() throws Exception {
        Path bid = dir.resolve("bid");
        recordOk(false, dir.resolve("perf.data"), bid, "--no-bpf-event");
        recordOk(true, dir.resolve("jperf.data"), bid, "--no-bpf-event");
        recordOk(true, dir.resolve("with.data"), bid);
        for (String f : List.of("perf.data", "jperf.data")) {
            String header = perf(bid, "report", "--header-only", "-i", dir.resolve(f).toString());
            assertFalse(header.contains("# bpf_prog_info "), f + ":\n" + header);
            String dump = perf(bid, "report", "-D", "-i", dir.resolve(f).toString());
            assertFalse(dump.contains("PERF_RECORD_BPF_EVENT"), f);
        }
        // without the option both record the programs loaded here (when there are any)
        recordOk(false, dir.resolve("perf-with.data"), bid);
        assumeTrue(perf(bid, "report", "-D", "-i", dir.resolve("perf-with.data").toString())
                .contains("PERF_RECORD_BPF_EVENT"), "no BPF program is loaded on this machine");
        assertTrue(perf(bid, "report", "-D", "-i", dir.resolve("with.data").toString())
                .contains("PERF_RECORD_BPF_EVENT"));
    }

    /** --dry-run: options parsed, nothing recorded or written, exit 0; a bad event still refused. */
    @Test
    void dryRunWritesNothing() throws Exception {
        Path bid = dir.resolve("bid");
        Done theirs = record(false, dir.resolve("perf.data"), bid, "--dry-run");
        Done ours = record(true, dir.resolve("jperf.data"), bid, "--dry-run");
        assertEquals(0, theirs.rc(), theirs.err());
        assertEquals(0, ours.rc(), ours.err());
        assertEquals(theirs.err(), ours.err());
        assertFalse(Files.exists(dir.resolve("perf.data")));
        assertFalse(Files.exists(dir.resolve("jperf.data")));
        Done bad = record(true, dir.resolve("jperf.data"), bid, "--dry-run", "-e", "no-such-event");
        assertTrue(bad.rc() != 0, bad.err());
        assertFalse(Files.exists(dir.resolve("jperf.data")));
    }

    /**
     * -F above kernel.perf_event_max_sample_rate: throttled to it with perf's warning, or with
     * --strict-freq refused with perf's error and exit status; -q silences both, as perf's.
     */
    @Test
    void strictFreqRefusesWhatTheKernelWouldThrottle() throws Exception {
        Path bid = dir.resolve("bid");
        long max;
        // one read(2): Files.readString returns only the first digit of it on some kernels
        try (java.io.FileInputStream in = new java.io.FileInputStream("/proc/sys/kernel/perf_event_max_sample_rate")) {
            max = Long.parseLong(new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim());
        }
        String over = Long.toString(max * 2);
        // the refusals first: they sample nothing, so the kernel has no cause to lower its limit before the
        // throttled recording reads it
        for (List<String> opts : List.of(List.of("-q", "-F", over, "--strict-freq"),
                List.of("-F", over, "--strict-freq"), List.of("-F", over))) {
            Done[] done = new Done[2];
            for (int t = 0; t < 2; t++) {
                List<String> cmd = tool(t == 1);
                cmd.addAll(List.of("record", "-a", "-o", dir.resolve(t == 1 ? "jperf.data" : "perf.data").toString()));
                cmd.addAll(opts);
                cmd.addAll(List.of("--", "sleep", "0.1"));
                done[t] = run(cmd, bid);
            }
            assertEquals(done[0].rc(), done[1].rc(), opts + ": " + done[1].err());
            assertEquals(withoutSummary(done[0].err()), withoutSummary(done[1].err()), opts.toString());
        }
        // the throttled recording (the last): the sampling event at the limit in both
        for (String f : List.of("perf.data", "jperf.data")) {
            String first = perf(bid, "evlist", "-v", "-i", dir.resolve(f).toString()).lines().findFirst().orElse("");
            assertTrue(first.contains("sample_freq }: " + max + ","), f + ": " + first);
        }
    }

    /** stderr without the summary lines ("[ perf record: ..." or "[ jperf record: ..."). */
    private static String withoutSummary(String err) {
        return err.lines().filter(l -> !l.matches("\\[ j?perf record: .*")).reduce("", (a, b) -> a + b + "\n");
    }

    /**
     * --max-size: the session stops once that much is written, saying so as perf does, and the
     * workload is ended (its exit status, 143, is record's); a size without B/K/M/G is refused.
     */
    @Test
    void maxSizeStopsTheSession() throws Exception {
        Path bid = dir.resolve("bid");
        for (int t = 0; t < 2; t++) {
            Path file = dir.resolve(t == 1 ? "jperf.data" : "perf.data");
            List<String> cmd = tool(t == 1);
            cmd.addAll(List.of("record", "-a", "--max-size=100K", "-o", file.toString(), "--", "sleep", "10"));
            long start = System.nanoTime();
            Done d = run(cmd, bid);
            assertTrue(System.nanoTime() - start < 8_000_000_000L, "not stopped: " + d.err());
            assertEquals(143, d.rc(), d.err());
            assertTrue(d.err().matches("(?s)\\[ j?perf record: perf size limit reached \\(\\d+ KB\\), stopping session \\]\n.*"),
                    d.err());
            assertTrue(perf(bid, "report", "-i", file.toString(), "--stats").matches("(?s).*SAMPLE events:\\s*[1-9].*"));
        }
        for (String bad : List.of("100000", "20x", "0", "1.5M")) {
            Done theirs = record(false, dir.resolve("perf.data"), bid, "--max-size=" + bad);
            Done ours = record(true, dir.resolve("jperf.data"), bid, "--max-size=" + bad);
            assertEquals(129, theirs.rc(), bad);
            assertEquals(theirs.rc(), ours.rc(), bad + ": " + ours.err());
            assertEquals(1, ours.err().lines().count(), ours.err());
        }
    }
}
