package dev.jperf.bpf;

import dev.jperf.format.header.CpuList;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** libbpf_num_possible_cpus: the CPUs in /sys/devices/system/cpu/possible, the slots of a per-CPU map value. */
final class PossibleCpus {
    private PossibleCpus() {}

    static int count() {
        Path p = Path.of("/sys/devices/system/cpu/possible");
        String mask;
        try {
            mask = Files.readString(p).strip();
        } catch (IOException e) {
            throw new BpftoolException("Can't get # of possible cpus: " + e.getMessage());
        }
        int n;
        try {
            n = CpuList.parse(mask).size();
        } catch (IllegalArgumentException e) {
            n = 0;
        }
        if (n == 0) {
            throw new BpftoolException("Can't get # of possible cpus: bad mask '" + mask + "' in " + p);
        }
        return n;
    }
}
