package dev.jperf.bpf;

import dev.jperf.format.header.SystemCpus;
import java.io.IOException;

/** libbpf_num_possible_cpus (format's {@link SystemCpus#possibleCount}) with bpftool's message when it fails. */
final class PossibleCpus {
    private PossibleCpus() {}

    static int count() {
        try {
            return SystemCpus.possibleCount();
        } catch (IOException | IllegalArgumentException e) {
            throw new BpftoolException("Can't get # of possible cpus: " + e.getMessage());
        }
    }
}
