package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jperf bpf perf|net|cgroup tree|struct_ops show} as an ordinary user (nobody when the
 * suite runs as root) against bpftool 7.1 run as the same user: the kernel's refusals reported as
 * bpftool reports them, stdout (JSON error objects included), the error lines and exit codes alike.
 */
class BpfMiscAsUserTest {
    @Test
    void refusalsAgree(@TempDir Path dir) throws Exception {
        Path bpftool = Path.of("/usr/sbin/bpftool");
        assumeTrue(Files.isExecutable(bpftool), "bpftool is not installed (Debian package bpftool): nothing to compare with");
        AsUser user = AsUser.in(dir);
        String[][] commands = {{"perf"}, {"net"}, {"cgroup", "tree"}, {"struct_ops", "show"}};
        for (String[] c : commands) {
            for (String mode : new String[] {null, "-j"}) {
                List<String> b = new ArrayList<>(List.of(bpftool.toString()));
                List<String> j = new ArrayList<>(List.of("bpf"));
                if (mode != null) {
                    b.add(mode);
                }
                b.addAll(List.of(c));
                j.addAll(List.of(c));
                if (mode != null) {
                    j.add(mode);
                }
                AsUser.Result br = user.run(user.command(b.toArray(new String[0])));
                AsUser.Result jr = user.run(user.jperf(j.toArray(new String[0])));
                String what = String.join(" ", j);
                assertEquals(br.out(), jr.out(), "stdout of " + what);
                assertEquals(errors(br.err()), errors(jr.err()), "stderr of " + what);
                assertEquals(br.rc(), jr.rc(), "exit code of " + what);
            }
        }
    }

    /** bpftool's error and hint lines (libbpf's are its own). */
    private static String errors(String err) {
        StringBuilder b = new StringBuilder();
        for (String line : err.split("\n")) {
            if (line.startsWith("Error: ") || line.startsWith("HINT: ")) {
                b.append(line).append('\n');
            }
        }
        return b.toString();
    }
}
