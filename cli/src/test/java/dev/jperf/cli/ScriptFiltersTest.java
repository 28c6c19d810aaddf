package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.report.CorpusFixture;
import dev.jperf.report.PerfOracle;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * script's sample filters (-c/--comms, --pid, --tid, -C/--cpu, --time, --dsos, -S/--symbols with
 * names or addresses, --addr-range), each against perf 6.1 on the same file, byte for byte.
 */
class ScriptFiltersTest {
    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
        "a-system-wide-bpf | --comms loader",
        "a-system-wide-bpf | -c swapper,loader -F comm,tid,time,ip,sym",
        "a-system-wide-bpf | --pid 14625,0 --show-task-events --show-mmap-events --show-switch-events",
        "a-system-wide-bpf | --tid 14631 -C 1",
        "a-system-wide-bpf | -C 0 --show-task-events",
        "a-system-wide-bpf | -C 1 --show-task-events --show-mmap-events --show-bpf-events --show-round-events",
        "b-callchains-bpf | --dsos [kernel.kallsyms]",
        "b-callchains-bpf | -S do_syscall_64 --show-mmap-events",
        "b-callchains-bpf | -S ffffffff821ef666 -G",
        "b-callchains-bpf | -S 0xffffffff821ef666,do_syscall_64 -G",
        "b-callchains-bpf | -S ffffffff821ef620 --addr-range 100 -G",
        "b-callchains-bpf | -S ffffffff821ef620 --addr-range=-5 -G",
        "g-two-events | --time 5539.5,5540",
        "g-two-events | --time 5539.5,5540 --show-task-events --reltime",
        "g-two-events | --time ,5539.3 --deltatime --pid 15620",
        "g-two-events | --time 0.3,0.31 --reltime",
        "g-two-events | --time ,0.01 --reltime",
        "g-two-events | --time 0.3, --reltime",
    })
    void asPerfPrintsThem(String kase, String options) throws Exception {
        PerfOracle.assumeInstalled();
        CorpusFixture.installBinaries();
        List<String> args = new ArrayList<>(List.of("script", "-i", CorpusFixture.data(kase).toString(),
                "--kallsyms", CorpusFixture.kallsyms().toString()));
        args.addAll(List.of(options.split(" ")));
        String theirs = PerfOracle.run(args.toArray(String[]::new));
        args.addAll(0, List.of("--buildid-dir", CorpusFixture.buildIdDir().toString()));
        Run ours = Run.of(args.toArray(String[]::new));
        assertEquals(0, ours.rc(), ours.err());
        assertEquals(theirs, ours.out());
    }

    /** The filters keep something and drop something: the cases above are not all or nothing. */
    @Test
    void aFilterKeepsSomeLines() throws Exception {
        PerfOracle.assumeInstalled();
        String data = CorpusFixture.data("b-callchains-bpf").toString();
        String k = CorpusFixture.kallsyms().toString();
        String b = CorpusFixture.buildIdDir().toString();
        long all = Run.of("--buildid-dir", b, "script", "-i", data, "--kallsyms", k, "-G").out().lines().count();
        long some = Run.of("--buildid-dir", b, "script", "-i", data, "--kallsyms", k, "-G", "-S", "ffffffff821ef620", "--addr-range", "100")
                .out().lines().count();
        assertTrue(some > 0 && some < all, some + " of " + all);
    }

    /** -C on a file whose samples have no CPU: perf's line and status, nothing printed. */
    @Test
    void cpuListWithoutCpusIsRefusedAsPerfDoes() throws Exception {
        PerfOracle.assumeInstalled();
        String data = CorpusFixture.data("c-process").toString();
        String[] perf = perf("script", "-i", data, "-C", "0");
        Run ours = Run.of("--buildid-dir", CorpusFixture.buildIdDir().toString(), "script", "-i", data, "-C", "0");
        assertEquals(Integer.parseInt(perf[0]), ours.rc(), ours.err());
        assertNotEquals(0, ours.rc());
        assertEquals(perf[1], ours.out());
        assertEquals(perf[2], ours.err());
    }

    /** report -C on such a file: perf prints the header's hint, its error, and exits 0. */
    @Test
    void reportCpuListWithoutCpusAsPerf() throws Exception {
        PerfOracle.assumeInstalled();
        String data = CorpusFixture.data("c-process").toString();
        String[] perf = perf("report", "-i", data, "--stdio", "-C", "0");
        Run ours = Run.of("--buildid-dir", CorpusFixture.buildIdDir().toString(), "report", "-i", data, "--stdio", "-C", "0");
        assertEquals(Integer.parseInt(perf[0]), ours.rc(), ours.err());
        assertEquals(perf[1], ours.out());
        assertEquals(perf[2], ours.err());
    }

    /** --reltime --time on a stream (no HEADER_SAMPLE_TIME): perf's hint and -EINVAL. */
    @Test
    void reltimeRangeWithoutSampleTimesAsPerf() throws Exception {
        PerfOracle.assumeInstalled();
        String data = CorpusFixture.data("f-pipe").toString();
        String[] perf = perf("script", "-i", data, "--time", "0.3,0.31", "--reltime");
        Run ours = Run.of("--buildid-dir", CorpusFixture.buildIdDir().toString(), "script", "-i", data, "--time", "0.3,0.31", "--reltime");
        assertEquals(Integer.parseInt(perf[0]), ours.rc(), ours.err());
        assertEquals(perf[1], ours.out());
        assertEquals(perf[2], ours.err());
    }

    @Test
    void addrRangeIsADecimalIntegerAsInPerf() throws Exception {
        PerfOracle.assumeInstalled();
        String data = CorpusFixture.data("c-process").toString();
        String[] perf = perf("script", "-i", data, "--addr-range", "0x40");
        Run ours = Run.of("--buildid-dir", CorpusFixture.buildIdDir().toString(), "script", "-i", data, "--addr-range", "0x40");
        assertEquals(Integer.parseInt(perf[0]), ours.rc(), ours.err());
        assertFalse(ours.err().isEmpty());
        assertTrue(ours.err().lines().findFirst().orElse("").contains("addr-range"), ours.err());
    }

    /** perf's status, stdout and stderr; its build-id cache the corpus's, never ~/.debug. */
    static String[] perf(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("perf", "--buildid-dir", CorpusFixture.buildIdDir().toString()));
        cmd.addAll(List.of(args));
        File out = File.createTempFile("jperf-perf", ".out");
        File err = File.createTempFile("jperf-perf", ".err");
        try {
            Process p = new ProcessBuilder(cmd).redirectOutput(out).redirectError(err).start();
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "perf timed out");
            return new String[] {Integer.toString(p.exitValue()), Files.readString(out.toPath(), StandardCharsets.UTF_8),
                Files.readString(err.toPath(), StandardCharsets.UTF_8)};
        } finally {
            out.delete();
            err.delete();
        }
    }
}
