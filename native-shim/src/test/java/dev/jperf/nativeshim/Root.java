package dev.jperf.nativeshim;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Whether the tests run with the privilege perf_event_open -a and bpf(2) need. */
final class Root {
    private Root() {}

    static boolean isRoot() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) {
                    return line.split("\\s+")[2].equals("0");
                }
            }
        } catch (IOException e) {
            return false;
        }
        return false;
    }

    static final String REASON = "needs root (CAP_PERFMON + CAP_BPF) on a real kernel";
}
