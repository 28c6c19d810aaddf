package dev.jperf.cli;

import static dev.jperf.report.CorpusFixture.CORPUS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.PerfDataFile;
import dev.jperf.format.RecordStream;
import dev.jperf.report.CorpusFixture;
import dev.jperf.report.PerfOracle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code jperf inject -i IN -o OUT}: the copy holds the same events and records; without -o a
 * pipe-mode stream on stdout, as perf inject writes; bad input is one line.
 */
class InjectTest {
    @TempDir
    Path tmp;

    static long records(Path f) {
        try (PerfDataFile p = PerfDataFile.open(f); RecordStream r = p.records()) {
            long n = 0;
            while (r.hasNext()) {
                r.next();
                n++;
            }
            return n;
        }
    }

    @Test
    void pipeInputBecomesAFileWithTheSameRecords() {
        Path in = CORPUS.resolve("f-pipe/perf.data");
        Path out = tmp.resolve("perf.data");
        Run r = Run.of("inject", "-i", in.toString(), "-o", out.toString());
        assertEquals(0, r.rc(), r.err());
        assertEquals("", r.out());
        assertEquals("", r.err());
        try (PerfDataFile orig = PerfDataFile.open(in); PerfDataFile copy = PerfDataFile.open(out)) {
            assertTrue(orig.isPipe());
            assertFalse(copy.isPipe());
            assertEquals(orig.events().size(), copy.events().size());
            for (int i = 0; i < orig.events().size(); i++) {
                assertEquals(orig.events().get(i).name(), copy.events().get(i).name());
                assertArrayEquals(orig.events().get(i).ids(), copy.events().get(i).ids());
            }
            assertEquals(orig.featureBits(), copy.featureBits());
            // The pipe's HEADER_ATTR records (one per event) and HEADER_FEATURE records (one per
            // feature, and the end mark) moved into the header.
            long headerRecords = orig.events().size() + orig.featureBits().size() + 1;
            assertEquals(records(in) - headerRecords, records(out));
        }
    }

    @Test
    void existingOutputIsKeptAsOld() throws Exception {
        Path in = CORPUS.resolve("c-process/perf.data");
        Path out = tmp.resolve("perf.data");
        Files.writeString(out, "previous");
        Run r = Run.of("inject", "-i", in.toString(), "-o", out.toString());
        assertEquals(0, r.rc(), r.err());
        assertEquals("previous", Files.readString(tmp.resolve("perf.data.old")));
        assertEquals(records(in), records(out));
    }

    @Test
    void damagedInputWarnsAndIsCopied() {
        Path in = CORPUS.resolve("h-damaged/truncated.data");
        Path out = tmp.resolve("perf.data");
        Run r = Run.of("inject", "-i", in.toString(), "-o", out.toString());
        assertEquals(0, r.rc(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        r.err().lines().forEach(l -> assertTrue(l.startsWith("warning: " + in), l));
        assertEquals(records(in), records(out));
    }

    @Test
    void badInputIsOneLine() {
        Path out = tmp.resolve("perf.data");
        Path bad = CORPUS.resolve("h-damaged/bad-magic.data");
        Run r = Run.of("inject", "-i", bad.toString(), "-o", out.toString());
        // perf's exit code for an input it cannot open
        assertEquals(255, r.rc());
        assertEquals("jperf inject: " + bad + ": not a perf.data file (bad magic)\n", r.err());

        r = Run.of("inject", "-i", CORPUS.resolve("c-process/perf.data").toString(), "-o",
                tmp.resolve("no-such-dir/perf.data").toString());
        assertEquals(1, r.rc());
        assertEquals("jperf inject: " + tmp.resolve("no-such-dir/perf.data") + ": cannot create: No such file or directory\n",
                r.err());

        r = Run.of("inject", "-i", bad.toString());
        assertEquals(255, r.rc());
        assertEquals("jperf inject: " + bad + ": not a perf.data file (bad magic)\n", r.err());
    }

    /** {@code CMD > out}, stdout as bytes; stderr must be empty. */
    private static void toFile(Path out, List<String> cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.PIPE).start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), cmd.toString());
        assertEquals(0, p.exitValue(), cmd + ": " + err);
    }

    /** perf's --stats block and stdio report of a file, as lines (the random tip left out). */
    private static String perfView(Path f, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("report", "-i", f.toString()));
        cmd.addAll(List.of(args));
        String out = PerfOracle.run(cmd.toArray(String[]::new));
        return String.join("\n", PerfOracle.withoutTip(out.contains("Aggregated stats:") ? out.substring(out.indexOf("Aggregated stats:")) : out));
    }

    /**
     * Without -o, as perf inject: a pipe-mode stream on stdout. perf reads it as it reads perf
     * inject's own stream of the same file (record counts, report), and a stream input (f-pipe,
     * which perf 6.1's inject cannot pass on whole) gives the report of the original.
     */
    @ParameterizedTest
    @ValueSource(strings = {"c-process", "a-system-wide-bpf", "g-two-events"})
    void streamOnStdoutAsPerfInjects(String kase) throws Exception {
        PerfOracle.assumeInstalled();
        Path in = CORPUS.resolve(kase + "/perf.data");
        Path ours = tmp.resolve("jperf.pipe");
        Path theirs = tmp.resolve("perf.pipe");
        toFile(ours, StatTest.jperf(List.of(), "inject", "-i", in.toString()));
        toFile(theirs, List.of("perf", "inject", "-i", in.toString()));
        try (PerfDataFile f = PerfDataFile.open(ours)) {
            assertTrue(f.isPipe());
        }
        String kallsyms = CorpusFixture.kallsyms().toString();
        assertEquals(perfView(theirs, "--stats"), perfView(ours, "--stats"));
        assertEquals(perfView(theirs, "--stdio", "--kallsyms", kallsyms), perfView(ours, "--stdio", "--kallsyms", kallsyms));
    }

    @Test
    void streamInputToStreamOutputKeepsTheReport() throws Exception {
        PerfOracle.assumeInstalled();
        Path in = CORPUS.resolve("f-pipe/perf.data");
        Path ours = tmp.resolve("jperf.pipe");
        toFile(ours, StatTest.jperf(List.of(), "inject", "-i", in.toString()));
        String kallsyms = CorpusFixture.kallsyms().toString();
        assertEquals(perfView(in, "--stdio", "--kallsyms", kallsyms), perfView(ours, "--stdio", "--kallsyms", kallsyms));
        assertEquals(records(in), records(ours));
    }

    /** {@code perf record -o - | jperf inject -o perf.data}: the stream on stdin becomes a file. */
    @Test
    void pipeOnStdinBecomesAFile() throws Exception {
        Path in = CORPUS.resolve("f-pipe/perf.data");
        Path fromFile = tmp.resolve("from-file.data");
        assertEquals(0, Run.of("inject", "-i", in.toString(), "-o", fromFile.toString()).rc());
        Path out = tmp.resolve("perf.data");
        Run r = Run.withStdin(in, "inject", "-o", out.toString());
        assertEquals(0, r.rc(), r.err());
        assertEquals("", r.err());
        assertArrayEquals(Files.readAllBytes(fromFile), Files.readAllBytes(out));

        // a file-mode perf.data on stdin: perf inject says "incompatible file format", exit 255
        r = Run.withStdin(CORPUS.resolve("c-process/perf.data"), "inject", "-o", out.toString());
        assertEquals(255, r.rc());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("jperf inject: stdin: "), r.err());
    }

    /**
     * The records of a perf.data file (file or pipe mode) in file order: the type of each, and a
     * build-id record's bytes, its file name made neutral where perf names the vdso by the
     * temporary copy it extracted (/tmp/perf-vdso.so-XXXXXX: a new name each run).
     */
    static List<String> fileOrder(Path f) throws Exception {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(f)).order(ByteOrder.LITTLE_ENDIAN);
        boolean pipe = b.getLong(8) == 16;
        long at = pipe ? 16 : b.getLong(40);
        long end = pipe ? b.limit() : at + b.getLong(48);
        List<String> out = new ArrayList<>();
        while (at + 8 <= end) {
            int type = b.getInt((int) at);
            int size = Short.toUnsignedInt(b.getShort((int) at + 6));
            assertTrue(size >= 8 && at + size <= end, f + ": record at " + at);
            if (type == 67) {
                byte[] r = new byte[size];
                b.get((int) at, r);
                String name = new String(r, 36, size - 36, StandardCharsets.ISO_8859_1).replace("\0", "");
                if (name.startsWith("/tmp/perf-vdso.so-")) {
                    name = "[vdso]";
                }
                out.add(type + " " + HexFormat.of().formatHex(r, 0, 36) + " " + name);
            } else if (!(pipe && (type == 64 || type == 80))) {
                // a stream's HEADER_ATTR and HEADER_FEATURE records are each writer's own
                out.add(Integer.toString(type));
            }
            at += size;
        }
        return out;
    }

    /**
     * -b (a build-id record before the first sample of each DSO, the kernel's records in perf's
     * time order) and --buildid-all (before each file's first map): the records in file order and
     * the build-id table perf buildid-list reads, as perf inject writes them.
     */
    @ParameterizedTest
    @CsvSource({"c-process, -b", "c-process, --buildid-all", "b-callchains-bpf, -b", "a-system-wide-bpf, -b",
        "a-system-wide-bpf, --buildid-all", "g-two-events, -b", "d-bpf-storm, -b"})
    void buildIdsAsPerfInjects(String kase, String option) throws Exception {
        PerfOracle.assumeInstalled();
        Path in = CORPUS.resolve(kase + "/perf.data");
        Path ours = tmp.resolve("jperf.data");
        Path theirs = tmp.resolve("perf.data");
        // perf's build-id cache a directory of the test's, never ~/.debug
        toFile(tmp.resolve("perf.out"), List.of("perf", "--buildid-dir", tmp.resolve("buildid").toString(), "inject", option,
                "-i", in.toString(), "-o", theirs.toString()));
        Run r = Run.of("inject", option, "-i", in.toString(), "-o", ours.toString());
        assertEquals(0, r.rc(), r.err());
        assertEquals("", r.err());
        List<String> expected = fileOrder(theirs);
        assertTrue(expected.stream().anyMatch(l -> l.startsWith("67 ")), "perf injected no build-id");
        assertEquals(expected, fileOrder(ours));
        assertEquals(PerfOracle.run("buildid-list", "-i", theirs.toString()), PerfOracle.run("buildid-list", "-i", ours.toString()));
    }

    /**
     * A stream through {@code inject -b} and on to a report: perf record's stream made here, perf's
     * and jperf's inject of it (the same records, build-ids looked up on this machine, the vdso
     * this process runs with), and the whole pipeline {@code perf record -o - | jperf inject -b |
     * perf report -i -} reporting what jperf's stream says.
     */
    @Test
    void streamThroughInjectBuildIds() throws Exception {
        PerfOracle.assumeInstalled();
        String workload = "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done";
        Path rec = tmp.resolve("rec.pipe");
        String perf = "perf --buildid-dir " + tmp.resolve("buildid");
        Process p = new ProcessBuilder("perf", "--buildid-dir", tmp.resolve("buildid").toString(), "record", "-q", "-o", "-",
                "--", "sh", "-c", workload)
                .redirectOutput(rec.toFile()).redirectError(tmp.resolve("rec.err").toFile()).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "perf record timed out");
        String why = Files.readString(tmp.resolve("rec.err"));
        Assumptions.assumeTrue(p.exitValue() == 0 || "root".equals(System.getProperty("user.name")),
                () -> "perf record: the kernel refuses this user: " + why);
        assertEquals(0, p.exitValue(), why);
        Path theirs = tmp.resolve("perf.pipe");
        Path ours = tmp.resolve("jperf.pipe");
        shell(perf + " inject -b < " + rec + " > " + theirs);
        shell(command(StatTest.jperf(List.of(), "inject", "-b")) + " < " + rec + " > " + ours);
        List<String> expected = fileOrder(theirs);
        assertTrue(expected.stream().anyMatch(l -> l.startsWith("67 ")), "perf injected no build-id");
        assertEquals(expected, fileOrder(ours));
        String report = " report -i - --stdio --sort comm,dso -q";
        String piped = shell(perf + " record -q -o - -- sh -c '" + workload + "' | "
                + command(StatTest.jperf(List.of(), "inject", "-b")) + " | " + perf + report);
        assertTrue(piped.contains("sh "), piped);
        assertEquals(shell(perf + report + " < " + theirs), shell(perf + report + " < " + ours));
    }

    /** --strip without --itrace (which jperf, without an AUX trace decoder, does not take): perf's line and exit code. */
    @Test
    void stripWithoutItraceIsRefusedAsPerfRefusesIt() throws Exception {
        PerfOracle.assumeInstalled();
        String in = CORPUS.resolve("c-process/perf.data").toString();
        Path theirs = tmp.resolve("perf.data");
        Process p = new ProcessBuilder("perf", "inject", "--strip", "-i", in, "-o", theirs.toString())
                .redirectErrorStream(true).start();
        String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        Path ours = tmp.resolve("jperf.data");
        Run r = Run.of("inject", "--strip", "-i", in, "-o", ours.toString());
        assertEquals(p.exitValue(), r.rc());
        assertEquals(said, r.err());
        assertEquals(Files.exists(theirs), Files.exists(ours));
    }

    private static String command(List<String> args) {
        StringBuilder b = new StringBuilder();
        for (String a : args) {
            b.append(b.length() == 0 ? "" : " ").append('\'').append(a.replace("'", "'\\''")).append('\'');
        }
        return b.toString();
    }

    /** {@code sh -c CMD}'s stdout; it must succeed. */
    private static String shell(String cmd) throws Exception {
        Process p = new ProcessBuilder("sh", "-c", cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), cmd);
        assertEquals(0, p.exitValue(), cmd);
        return out;
    }
}
