package dev.jperf.cli;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.NativeException;

/** Skips a test that needs what the kernel refuses the user running it, with the kernel's answer. */
final class Privilege {
    private Privilege() {
    }

    /** bpf(2) beyond what any user may do (listing and loading programs: CAP_BPF, CAP_SYS_ADMIN). */
    static void assumeBpf() {
        try {
            new Bpf().progGetNextId(0);
        } catch (NativeException e) {
            assumeTrue(false, "bpf(2) refused here: " + e.getMessage());
        }
    }
}
