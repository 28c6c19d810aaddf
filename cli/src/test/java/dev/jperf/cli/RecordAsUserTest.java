package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jperf record} as an ordinary user (see {@link AsUser}), wherever perf records as one
 * (perf_event_paranoid 2 on most distributions): per-task events on the workload or on one's own
 * processes, user space only and named {@code :u} as perf names them, no BPF metadata (reading
 * programs by id needs CAP_SYS_ADMIN) said in one warning line; system-wide refused as perf refuses
 * it. Linux perf, run as the same user, is the oracle: it records the same workload and reads
 * jperf's file.
 */
class RecordAsUserTest {
    private static final Path SAMPLES = Path.of(System.getProperty("jperf.root", ".."), "samples");
    private static final Pattern EVENT = Pattern.compile("(?m)^# event : name = ([^,]+),");
    private static final Pattern SAMPLE_EVENTS = Pattern.compile("SAMPLE events:\\s*(\\d+)");

    @TempDir
    Path dir;

    private AsUser user;
    private String spin;

    @BeforeEach
    void user() throws Exception {
        assumeTrue(perfOnPath(), "Linux perf is not in PATH (install linux-perf): it is the oracle here");
        user = AsUser.in(dir);
        spin = user.executable(SAMPLES.resolve("bin/jperf-sample-spin")).toString();
    }

    @Test
    void recordsTheWorkloadAsPerfDoes() throws Exception {
        AsUser.Result perf = user.run(user.command("perf", "record", "-q", "-o", "perf.data", "--", spin, "1"));
        assumeTrue(perf.rc() == 0, "perf record does not record as this user here either: " + perf.err().strip());
        AsUser.Result ours = user.run(user.jperf("record", "-o", "jperf.data", "--", spin, "1"));
        assertEquals(0, ours.rc(), ours.err());

        // the capture warning: one line, what is missing and the kernel's answer
        List<String> warnings = ours.err().lines().filter(l -> l.contains("warning")).toList();
        assertEquals(List.of("jperf record: warning: no BPF metadata in this recording (bpf_prog_info, BTF, program"
                + " loads): the kernel does not let jperf read BPF programs by id, which needs CAP_SYS_ADMIN"
                + " (bpf(BPF_PROG_GET_NEXT_ID, 0) failed: Operation not permitted (EPERM))"), warnings);
        assertTrue(ours.err().contains("[ jperf record: Captured and wrote "), ours.err());

        // perf, as the same user, reads the file: samples of the same order, the event named as its own
        long theirs = samples(perfAsUser("report", "-i", "perf.data", "--stats"));
        long mine = samples(perfAsUser("report", "-i", "jperf.data", "--stats"));
        assertTrue(mine * 10 >= theirs && mine <= theirs * 10, "jperf " + mine + " samples, perf " + theirs);
        String perfEvent = firstEvent(perfAsUser("report", "-i", "perf.data", "--header-only"));
        String header = perfAsUser("report", "-i", "jperf.data", "--header-only", "-I");
        assertEquals(perfEvent, firstEvent(header));
        assertTrue(perfEvent.matches("[a-z-]+:u\\w*"), perfEvent);
        assertTrue(header.contains(", exclude_kernel = 1, "), header);
        String report = perfAsUser("report", "-i", "jperf.data", "--stdio");
        assertTrue(report.contains(" of event '" + perfEvent + "'") && report.contains("[.] spin_step"), report);
        // no kernel symbol from the zeros a user's /proc/kallsyms shows
        String dump = perfAsUser("report", "-i", "jperf.data", "-D");
        assertFalse(Pattern.compile("PERF_RECORD_KSYMBOL addr 0 |PERF_RECORD_MMAP -1/0: \\[0\\(").matcher(dump).find(),
                dump.lines().filter(l -> l.contains("KSYMBOL") || l.contains("MMAP -1")).toList().toString());

        // and jperf's own readers, as the user
        AsUser.Result head = user.run(user.jperf("report", "-i", "jperf.data", "--header-only", "-I"));
        assertEquals(0, head.rc(), head.err());
        assertEquals(perfEvent, firstEvent(head.out()));
        AsUser.Result jreport = user.run(user.jperf("report", "-i", "jperf.data", "--stdio"));
        assertEquals(0, jreport.rc(), jreport.err());
        assertTrue(jreport.out().contains(" of event '" + perfEvent + "'") && jreport.out().contains("[.] spin_step"),
                jreport.out());
    }

    /** An event asked for by name falls back to user space as perf's does: {@code cpu-clock:u}, also the dummy. */
    @Test
    void namedEventAndOwnProcessByPidAndTid() throws Exception {
        Process target = user.start(user.command(spin, "30"));
        try {
            String pid = Long.toString(target.pid());
            AsUser.Result perf = user.run(user.command("perf", "record", "-q", "-e", "cpu-clock", "-p", pid, "-o",
                    "perf.data", "--", "sleep", "0.3"));
            assumeTrue(perf.rc() == 0, "perf record -p does not record as this user here either: " + perf.err().strip());
            for (String option : List.of("-p", "-t")) {
                AsUser.Result ours = user.run(user.jperf("record", "-q", "-e", "cpu-clock", option, pid, "--duration",
                        "0.3", "-o", "jperf.data"));
                assertEquals(0, ours.rc(), ours.err());
                assertTrue(samples(perfAsUser("report", "-i", "jperf.data", "--stats")) > 0, option);
                String header = perfAsUser("report", "-i", "jperf.data", "--header-only");
                assertEquals(firstEvent(perfAsUser("report", "-i", "perf.data", "--header-only")), firstEvent(header));
                assertTrue(header.contains("# event : name = cpu-clock:u, "), header);
                assertTrue(header.contains("# event : name = dummy:HGu, "), header); // perf 6.1's, as with --delay
            }
        } finally {
            target.destroy();
        }
    }

    /** -a (and -C) as perf refuses them for a user: one line, perf's exit code. */
    @Test
    void systemWideRefusedAsPerfRefusesIt() throws Exception {
        AsUser.Result perf = user.run(user.command("perf", "record", "-q", "-a", "-o", "perf.data", "--", "true"));
        assumeTrue(perf.rc() != 0, "perf records system-wide as this user here (perf_event_paranoid "
                + Files.readString(Path.of("/proc/sys/kernel/perf_event_paranoid")).strip() + ")");
        for (String option : List.of("-a", "-C0")) {
            AsUser.Result ours = user.run(user.jperf("record", option, "-o", "jperf.data", "--", "true"));
            assertEquals(perf.rc(), ours.rc(), ours.err());
            assertEquals(1, ours.err().lines().count(), ours.err());
            assertTrue(ours.err().startsWith("jperf record: access to performance monitoring and observability"
                    + " operations is limited: no permission to open event '"), ours.err());
            assertTrue(ours.err().contains(" on the CPUs (system-wide) (kernel.perf_event_paranoid = "), ours.err());
            assertFalse(Files.exists(user.home.resolve("jperf.data")), "nothing recorded");
        }
    }

    private String perfAsUser(String... args) throws Exception {
        String[] cmd = new String[args.length + 1];
        cmd[0] = "perf";
        System.arraycopy(args, 0, cmd, 1, args.length);
        AsUser.Result r = user.run(user.command(cmd));
        assertEquals(0, r.rc(), String.join(" ", cmd) + ": " + r.err());
        String warnings = r.err();
        assertTrue(!warnings.contains("out of order") && !warnings.contains("failed to process"), warnings);
        return r.out();
    }

    private static long samples(String stats) {
        Matcher m = SAMPLE_EVENTS.matcher(stats);
        assertTrue(m.find(), stats);
        return Long.parseLong(m.group(1));
    }

    private static String firstEvent(String header) {
        Matcher m = EVENT.matcher(header);
        assertTrue(m.find(), header);
        return m.group(1);
    }

    private static boolean perfOnPath() {
        for (String d : System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(d, "perf"))) {
                return true;
            }
        }
        return false;
    }
}
