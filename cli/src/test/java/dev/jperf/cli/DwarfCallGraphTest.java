package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.format.Corpus;
import dev.jperf.format.PerfOracle;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code jperf record --call-graph dwarf[,SIZE]} and its neighbours against perf 6.1 run here on
 * the same command line: the arguments perf refuses (its message, exit 129), {@code lbr} without
 * a PMU that has it, and a workload without frame pointers whose callchains perf unwinds from
 * jperf's file as from its own. Every build-id cache is the test's (perf's and jperf's
 * {@code --buildid-dir}).
 */
class DwarfCallGraphTest {
    @TempDir
    Path dir;

    private record Done(int rc, String out, String err) {}

    private Done perf(String... args) throws Exception {
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        // perf 6.1 takes its cache from --buildid-dir alone (its start sets PERF_BUILDID_DIR over
        // any the caller gave): without it, perf record would add the workload to ~/.debug
        List<String> cmd = new ArrayList<>(List.of("perf", "--buildid-dir", dir.resolve("bid").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile());
        pb.environment().put("PAGER", "cat");
        Process p = pb.start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "timed out: " + cmd);
        return new Done(p.exitValue(), Files.readString(out, StandardCharsets.ISO_8859_1),
                Files.readString(err, StandardCharsets.ISO_8859_1));
    }

    private Run jperf(String... args) {
        List<String> cmd = new ArrayList<>(List.of(args));
        cmd.add(1, "--buildid-dir=" + dir.resolve("bid"));
        return Run.of(cmd.toArray(new String[0]));
    }

    /** A bad record_mode or stack size: perf's message and exit code, before anything is recorded. */
    @ParameterizedTest
    @ValueSource(strings = {"dwarf,0", "dwarf,65529", "dwarf,70000", "dwarf,abc", "dwarf,8k", "dwarf,-8", "dwarf,0x",
            "dwarf,18446744073709551615", "lbr,1", "dw", "DWARF", "foo,1", ""})
    void badArgumentsAsPerfRefusesThem(String arg) throws Exception {
        PerfOracle.assumeInstalled();
        Done theirs = perf("record", "-q", "-o", dir.resolve("perf.data").toString(), "--call-graph", arg, "--", "true");
        Run ours = jperf("record", "-q", "-o", dir.resolve("jperf.data").toString(), "--call-graph", arg, "--", "true");
        assertEquals(129, theirs.rc(), theirs.err());
        assertEquals(theirs.rc(), ours.rc(), ours.err());
        String first = theirs.err().lines().findFirst().orElse("");
        assertTrue(first.startsWith("callchain: "), theirs.err());
        assertEquals(1, ours.err().lines().count(), ours.err());
        assertTrue(ours.err().startsWith("jperf record: " + first + " ("), ours.err());
        assertFalse(Files.exists(dir.resolve("jperf.data")));
    }

    /** Sizes perf takes: strtoul's bases and blanks, rounded up to 8 bytes, empty tokens skipped, extra ones ignored. */
    @ParameterizedTest
    @ValueSource(strings = {"dwarf", "dwarf,100", "dwarf,0x100", "dwarf,010", "dwarf, 64", "dwarf,,4096", "dwarf,4096,1",
            "dwarf,65527", "dwarf,", "fp", "fp,x"})
    void sizesAsPerfTakesThem(String arg) throws Exception {
        PerfOracle.assumeInstalled();
        Path theirs = dir.resolve("perf.data");
        Path ours = dir.resolve("jperf.data");
        Done p = perf("record", "-q", "-o", theirs.toString(), "--call-graph", arg, "--", "true");
        assertEquals(0, p.rc(), p.err());
        Run j = jperf("record", "-q", "-o", ours.toString(), "--call-graph", arg, "--", "true");
        assertEquals(0, j.rc(), j.err());
        // the sampling event's attr (perf records a workload with one event, jperf adds its tracking dummy)
        String perfAttr = perf("evlist", "-v", "-i", theirs.toString()).out().lines().findFirst().orElseThrow();
        String ourAttr = perf("evlist", "-v", "-i", ours.toString()).out().lines().findFirst().orElseThrow();
        assertEquals(samplingFields(perfAttr), samplingFields(ourAttr), arg);
    }

    /**
     * The attr fields a call graph mode sets, without those of perf's tracking (its one event
     * tracks a workload, jperf's dummy does) and of the sample's identity (perf takes ID for a
     * workload's two events, jperf IDENTIFIER for its events and dummy).
     */
    private static String samplingFields(String attr) {
        return attr.replaceAll(", (mmap|comm|task|mmap_data|mmap2|comm_exec|ksymbol|bpf_event): 1", "")
                .replaceAll("\\|CPU|\\|IDENTIFIER|\\|ID(?=[|,])", "");
    }

    /** lbr on events no PMU here samples branches for: perf's error line and exit code. */
    @ParameterizedTest
    @ValueSource(strings = {"", "-e task-clock"})
    void lbrAsPerfAnswersIt(String events) throws Exception {
        PerfOracle.assumeInstalled();
        List<String> args = new ArrayList<>(List.of("record", "-q", "-o", dir.resolve("x.data").toString(),
                "--call-graph", "lbr"));
        if (!events.isEmpty()) {
            args.addAll(List.of(events.split(" ")));
        }
        args.addAll(List.of("--", "true"));
        Done theirs = perf(args.toArray(new String[0]));
        assumeTrue(theirs.rc() != 0, "this machine's PMU records LBR call stacks: " + theirs.err());
        Run ours = jperf(args.toArray(new String[0]));
        assertEquals(theirs.rc(), ours.rc(), ours.err());
        List<String> lines = theirs.err().lines().filter(l -> !l.isBlank()).toList();
        assertEquals("Error:", lines.get(0), theirs.err());
        assertEquals("jperf record: " + lines.get(1) + "\n", ours.err());
    }

    /** --user-regs lists perf refuses (or asks to list): perf's line, perf record named jperf record, exit 129. */
    @ParameterizedTest
    @ValueSource(strings = {"?", "foo", "", "ax,", "ax,?", "ds"})
    void userRegsRefusedAsPerfRefusesThem(String list) throws Exception {
        PerfOracle.assumeInstalled();
        Done theirs = perf("record", "-o", dir.resolve("perf.data").toString(), "--user-regs=" + list, "--", "true");
        Run ours = jperf("record", "-o", dir.resolve("jperf.data").toString(), "--user-regs=" + list, "--", "true");
        assertEquals(129, theirs.rc(), theirs.err());
        assertEquals(theirs.rc(), ours.rc(), ours.err());
        String line = theirs.err().lines().filter(l -> !l.isBlank() && !l.equals("Warning:")).findFirst().orElse("");
        assertTrue(line.startsWith("available registers: ") || line.startsWith("Unknown register "), theirs.err());
        assertEquals(1, ours.err().lines().count(), ours.err());
        assertTrue(ours.err().startsWith("jperf record: " + line.replace("perf record", "jperf record") + " ("),
                ours.err());
    }

    /**
     * --user-regs with --call-graph dwarf: the sampling event's registers (the subset, IP and SP
     * forced), and perf's warning once for each event perf configures.
     */
    @ParameterizedTest
    @ValueSource(strings = {"--user-regs=ax", "--user-regs=r15,BX -D 10", "--user-regs -e cpu-clock,task-clock"})
    void userRegsWithDwarfAsPerf(String options) throws Exception {
        PerfOracle.assumeInstalled();
        List<String> args = new ArrayList<>(List.of("record", "--call-graph", "dwarf"));
        args.addAll(List.of(options.split(" ")));
        args.addAll(List.of("-o", "FILE", "--", "true"));
        int file = args.indexOf("FILE");
        args.set(file, dir.resolve("perf.data").toString());
        Done theirs = perf(args.toArray(new String[0]));
        assertEquals(0, theirs.rc(), theirs.err());
        args.set(file, dir.resolve("jperf.data").toString());
        Run ours = jperf(args.toArray(new String[0]));
        assertEquals(0, ours.rc(), ours.err());
        assertEquals(warnings(theirs.err()), warnings(ours.err()), ours.err());
        assertTrue(warnings(theirs.err()) > 0, theirs.err());
        String perfAttr = perf("evlist", "-v", "-i", dir.resolve("perf.data").toString()).out().lines().findFirst()
                .orElseThrow();
        String ourAttr = perf("evlist", "-v", "-i", dir.resolve("jperf.data").toString()).out().lines().findFirst()
                .orElseThrow();
        assertEquals(samplingFields(perfAttr), samplingFields(ourAttr), options);
    }

    private static long warnings(String err) {
        return err.lines().filter(l -> l.startsWith("WARNING: The use of --call-graph=dwarf may require all the user"))
                .count();
    }

    /**
     * lbr on an event without user space: perf falls back to frame pointers and says so in one
     * line (not with -q); the attrs are RecordOptionsTest's.
     */
    @Test
    void lbrWithoutUserSpaceFallsBackToFramePointers() throws Exception {
        PerfOracle.assumeInstalled();
        String[] args = {"record", "-o", dir.resolve("x.data").toString(), "--call-graph", "lbr", "-e", "cpu-clock:k",
            "--", "true"};
        Done theirs = perf(args);
        assumeTrue(theirs.rc() == 0, "perf cannot record cpu-clock:k here: " + theirs.err());
        Run ours = jperf(args);
        assertEquals(0, ours.rc(), ours.err());
        String warning = theirs.err().lines().findFirst().orElse("");
        assertTrue(warning.startsWith("LBR callstack option is only available"), theirs.err());
        assertEquals(warning, ours.err().lines().findFirst().orElse(""), ours.err());
        Run quiet = jperf("record", "-q", "-o", dir.resolve("q.data").toString(), "--call-graph", "lbr", "-e",
                "cpu-clock:k", "--", "true");
        assertEquals(0, quiet.rc(), quiet.err());
        assertEquals("", quiet.err());
    }

    /**
     * A workload built -O2 -fomit-frame-pointer, recorded by perf and by jperf with --call-graph
     * dwarf: perf script unwinds the same callchains from both files (each chain that holds 5 % of
     * the workload's samples in one holds 5 % in the other, the symbols compared: the ips of
     * libc and of the position-independent workload move with each run).
     */
    @Test
    void perfUnwindsJperfsFileAsItsOwn() throws Exception {
        PerfOracle.assumeInstalled();
        Path deep = build();
        Map<String, Integer> theirs = chains("perf", deep);
        Map<String, Integer> ours = chains("jperf", deep);
        assertEquals(frequent(theirs), frequent(ours), "perf:\n" + theirs + "\njperf:\n" + ours);
        assertTrue(frequent(ours).contains("leaf a6 a5 a4 a3 a2 a1 main"), ours.toString());
    }

    /** testdata/dwarf/src/deep.c built into target/ (gcc -O2 -fomit-frame-pointer). */
    private static Path build() throws Exception {
        Path src = Corpus.TESTDATA.resolve("dwarf/src/deep.c");
        Path out = Path.of("target", "dwarf-callgraph", "deep").toAbsolutePath();
        Files.createDirectories(out.getParent());
        Process p;
        try {
            p = new ProcessBuilder("gcc", "-O2", "-fomit-frame-pointer", "-o", out.toString(), src.toString())
                    .redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, "gcc is not installed: " + e.getMessage());
            throw e;
        }
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0, log);
        return out;
    }

    /** The workload's user callchains in {@code tool}'s recording, leaf first, as perf script names their frames. */
    private Map<String, Integer> chains(String tool, Path deep) throws Exception {
        Path file = dir.resolve(tool + ".data");
        String[] record = {"record", "-q", "-o", file.toString(), "--call-graph", "dwarf", "--", deep.toString(), "150"};
        if (tool.equals("perf")) {
            Done d = perf(record);
            assertEquals(0, d.rc(), d.err());
        } else {
            Run r = jperf(record);
            assertEquals(0, r.rc(), r.err());
        }
        Done script = perf("script", "-i", file.toString(), "-F", "comm,ip,sym", "--no-inline");
        assertEquals(0, script.rc(), script.err());
        Map<String, Integer> chains = new TreeMap<>();
        StringBuilder chain = null;
        for (String line : (script.out() + "\n").split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (line.isBlank() || !Character.isWhitespace(line.charAt(0))) {
                if (chain != null) {
                    chains.merge(chain.toString().trim(), 1, Integer::sum);
                }
                chain = line.startsWith("deep") ? new StringBuilder() : null;
            } else if (chain != null && f.length >= 2 && !f[0].startsWith("ffff")) {
                // user frames alone: how often the kernel's interrupt and scheduler paths show
                // above them depends on the machine's load, not on the unwinding
                chain.append(' ').append(f[1]);
            }
        }
        return chains;
    }

    /** The chains of at least 5 % of the samples, up to main (what lies under main is libc's start). */
    private static List<String> frequent(Map<String, Integer> chains) {
        int total = 0;
        for (int n : chains.values()) {
            total += n;
        }
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, Integer> e : chains.entrySet()) {
            if (e.getValue() * 20 >= total) {
                String c = e.getKey();
                int main = c.indexOf(" main ");
                out.add(main < 0 ? c : c.substring(0, main + 5));
            }
        }
        out.sort(null);
        return out;
    }
}
