package dev.jperf.recorder;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;

/** The threads events are opened for, as perf's target: every task (-1), the workload, -t, or -p's threads. */
public final class Targets {
    private Targets() {
    }

    static List<Integer> threads(RecordOptions options, Workload workload) throws IOException {
        if (options.systemWide()) {
            return List.of(-1);
        }
        if (workload != null) {
            return List.of(workload.pid());
        }
        if (!options.tids().isEmpty()) {
            return options.tids();
        }
        List<Integer> tids = new ArrayList<>();
        for (int pid : options.pids()) {
            Path task = Path.of("/proc/" + pid + "/task");
            if (!Files.isDirectory(task)) {
                throw new RecordException("no such process: " + pid);
            }
            try (var s = Files.list(task)) {
                List<Integer> these = new ArrayList<>();
                for (Iterator<Path> i = s.iterator(); i.hasNext(); ) {
                    these.add(Integer.parseInt(i.next().getFileName().toString()));
                }
                Collections.sort(these);
                tids.addAll(these);
            }
        }
        return tids;
    }

    /** A thread's comm, "" once it is gone. */
    public static String comm(int tid) {
        try {
            return Files.readString(Path.of("/proc/" + tid + "/comm")).strip();
        } catch (IOException e) {
            return "";
        }
    }

    /** A thread's process id, -1 once it is gone. */
    static int tgid(int tid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + tid + "/status"))) {
                if (line.startsWith("Tgid:")) {
                    return Integer.parseInt(line.substring(5).strip());
                }
            }
        } catch (IOException e) {
            return -1;
        }
        return -1;
    }
}
