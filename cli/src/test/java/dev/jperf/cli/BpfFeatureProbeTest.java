package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code jperf bpf feature probe} against bpftool 7.1's {@code feature probe} run live on this
 * kernel: every probe is a real load on both sides, so stdout, stderr and the exit code must be
 * the same (as root the whole report; as another user bpftool's refusal; {@code unprivileged}
 * probing as a user does, the capabilities given back after).
 */
class BpfFeatureProbeTest {
    @Test
    void probeAgreesWithBpftool() throws Exception {
        String bpftool = findBpftool();
        assumeTrue(bpftool != null, "bpftool is not installed (Debian package bpftool): nothing to compare with");
        String[][] cases = {
            {}, {"kernel"}, {"kernel", "full"}, {"macros"}, {"k", "m", "pre", "MY_"}, {"kernel", "kernel"},
            {"prefix", "X"}, {"macros", "prefix"}, {"macros", "prefix", "A", "prefix", "B"}, {"bogus"},
            {"unprivileged"}, {"kernel", "unprivileged", "macros"},
        };
        String[][] modes = {{}, {"-j"}, {"-p"}};
        int i = 0;
        for (String[] c : cases) {
            // the long reports once per mode; the refusals in every mode
            String[][] ms = c.length == 1 && c[0].equals("kernel") || c.length > 1 && c[0].startsWith("k")
                    || c.length == 0 || c[0].equals("macros") && c.length == 1 ? new String[][] {modes[i++ % 3]} : modes;
            for (String[] mode : ms) {
                List<String> cmd = new ArrayList<>(List.of(bpftool));
                cmd.addAll(List.of(mode));
                cmd.add("feature");
                cmd.add("probe");
                cmd.addAll(List.of(c));
                Process p = new ProcessBuilder(cmd).start();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
                assertTrue(p.waitFor(120, TimeUnit.SECONDS));
                List<String> args = new ArrayList<>(List.of("bpf", "feature", "probe"));
                args.addAll(List.of(c));
                args.addAll(List.of(mode));
                String caps = threadCaps();
                Run r = Run.of(args.toArray(new String[0]));
                // unprivileged drops the thread's capabilities for the probes only
                assertEquals(caps, threadCaps(), "the capabilities after " + String.join(" ", args));
                String what = String.join(" ", cmd);
                assertEquals(out, r.out(), what + ": stdout");
                assertEquals(err, r.err(), what + ": stderr");
                assertEquals(p.exitValue(), r.rc(), what + ": exit code");
            }
        }
    }

    private static String threadCaps() throws IOException {
        StringBuilder b = new StringBuilder();
        for (String line : Files.readAllLines(Path.of("/proc/thread-self/status"))) {
            if (line.startsWith("Cap")) {
                b.append(line).append('\n');
            }
        }
        return b.toString();
    }

    /** bpftool on PATH or in /usr/sbin (Debian installs it there), null when absent. */
    private static String findBpftool() {
        for (String dir : (System.getenv().getOrDefault("PATH", "") + ":/usr/sbin:/sbin").split(":")) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, "bpftool");
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        return null;
    }
}
