package dev.jperf.cli;

import dev.jperf.cli.options.UsageException;
import java.util.List;

/** The one BPF object file that {@code jperf bpf load} and {@code jperf bpf run} take, after their options. */
final class BpfObjectArgument {
    private BpfObjectArgument() {
    }

    /** The object named by the arguments that are not options: exactly one, else a usage error. */
    static String of(List<String> positional) {
        if (positional.size() != 1) {
            throw new UsageException(positional.isEmpty() ? "no BPF object given" : "one BPF object only");
        }
        return positional.get(0);
    }
}
