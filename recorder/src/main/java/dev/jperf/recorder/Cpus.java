package dev.jperf.recorder;

import dev.jperf.format.header.CpuList;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The CPUs this machine has online. */
final class Cpus {
    private Cpus() {}

    static List<Integer> online() {
        try {
            return CpuList.parse(Files.readString(Path.of("/sys/devices/system/cpu/online")));
        } catch (IOException e) {
            List<Integer> all = new ArrayList<>();
            for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
                all.add(i);
            }
            return all;
        }
    }
}
