package dev.jperf.bpf;

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
        int n = 0;
        for (String part : mask.split(",")) {
            int dash = part.indexOf('-');
            try {
                n += dash < 0 ? 1 : Integer.parseInt(part.substring(dash + 1)) - Integer.parseInt(part.substring(0, dash)) + 1;
            } catch (NumberFormatException e) {
                throw new BpftoolException("Can't get # of possible cpus: bad mask '" + mask + "' in " + p);
            }
        }
        if (n <= 0 || n > 1 << 16) {
            throw new BpftoolException("Can't get # of possible cpus: bad mask '" + mask + "' in " + p);
        }
        return n;
    }
}
