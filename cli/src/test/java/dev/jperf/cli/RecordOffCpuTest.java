package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.Corpus;
import dev.jperf.format.PerfOracle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code record --off-cpu}: a workload times its own waits (a sleep, a pipe read, a futex wait on a
 * thread join) and the off-CPU time jperf recorded for each, as perf 6.1 reads the file, is within
 * 5 % of it; perf's report of the offcpu-time event equals jperf's. Debian's perf cannot record
 * off-CPU time (built without BPF skeletons), so perf is the reader here.
 */
class RecordOffCpuTest {
    @TempDir
    static Path dir;
    private static Path file;
    private static String workloadOut;

    @BeforeAll
    static void record() throws Exception {
        Privilege.assumeBpf();
        PerfOracle.assumeInstalled();
        Path script = dir.resolve("offcpu_waits.py");
        try (var in = RecordOffCpuTest.class.getResourceAsStream("/offcpu_waits.py")) {
            Files.write(script, in.readAllBytes());
        }
        file = dir.resolve("offcpu.data");
        StatTest.Result r = StatTest.exec(StatTest.jperf(List.of(), "record", "--off-cpu", "-N", "-q", "-o",
                file.toString(), "--", "python3", script.toString()));
        assertEquals(0, r.rc(), r.err());
        workloadOut = r.out();
    }

    @Test
    void eachWaitIsTheTimeTheWorkloadMeasured() throws Exception {
        Map<String, Double> measured = new HashMap<>();
        Map<String, String> thread = new HashMap<>();
        for (String l : workloadOut.lines().toList()) {
            if (l.matches("(sleep|pipe|futex) [0-9]+ [0-9.e-]+")) {
                String[] f = l.split(" ");
                thread.put(f[1], f[0]);
                measured.put(f[0], Double.parseDouble(f[2]));
            }
        }
        assertEquals(3, measured.size(), workloadOut);
        PerfOracle.Result s = PerfOracle.perf("script", "-i", file.toString(), "-F", "tid,period,event,ip,sym");
        assertEquals(0, s.rc(), s.err());
        // each sample: "TID PERIOD offcpu-time:" then its callchain, the first line the frame that
        // blocked; each wait was timed in a thread of its own
        Map<String, Long> offCpu = new HashMap<>();
        List<String> lines = s.out().lines().toList();
        java.util.regex.Pattern sample = java.util.regex.Pattern.compile("\\s*(\\d+)\\s+(\\d+)\\s+offcpu-time:\\s*");
        for (int i = 0; i + 1 < lines.size(); i++) {
            java.util.regex.Matcher m = sample.matcher(lines.get(i));
            if (!m.matches() || !thread.containsKey(m.group(1))) {
                continue;
            }
            String top = lines.get(i + 1).trim();
            String kind = thread.get(m.group(1));
            boolean blocked = switch (kind) {
                case "sleep" -> top.contains("nanosleep");
                case "pipe" -> top.matches(".*\\b(__libc_)?read\\b.*");
                default -> top.contains("futex");
            };
            if (blocked) {
                offCpu.merge(kind, Long.parseLong(m.group(2)), Long::sum);
            }
        }
        for (Map.Entry<String, Double> m : measured.entrySet()) {
            Long ns = offCpu.get(m.getKey());
            assertTrue(ns != null, "no off-CPU sample for the " + m.getKey() + " wait in:\n" + s.out());
            double seconds = ns / 1e9;
            assertTrue(Math.abs(seconds - m.getValue()) <= 0.05 * m.getValue(), m.getKey() + ": off-CPU " + seconds
                    + " s, the workload measured " + m.getValue() + " s");
        }
    }

    @Test
    void perfReportsTheOffCpuEventAsJperfDoes() throws Exception {
        PerfOracle.Result perf = PerfOracle.perf("report", "-i", file.toString(), "--stdio", "--no-children",
                "--sort", "comm,dso,sym");
        assertEquals(0, perf.rc(), perf.err());
        // the build-id cache perf is given (PerfOracle's), never the user's
        Run jperf = Run.of("report", "--buildid-dir", Corpus.buildIdDir().toString(), "-i", file.toString(), "--stdio",
                "--no-children", "--sort", "comm,dso,sym");
        assertEquals(0, jperf.rc(), jperf.err());
        String section = offCpuSection(perf.out());
        assertTrue(section.contains("of event 'offcpu-time'"), perf.out());
        assertEquals(section, offCpuSection(jperf.out()));
    }

    /** The report's part for the offcpu-time event, up to the closing tip. */
    private static String offCpuSection(String report) {
        int from = report.indexOf("# Samples: ", report.indexOf("offcpu-time") - 40);
        int to = report.indexOf("# (Tip:", from);
        return report.substring(from, to < 0 ? report.length() : to);
    }
}
