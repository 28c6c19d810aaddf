package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code jperf bpf btf} through jperf's command line against bpftool 7.1: stdout, the
 * {@code Error:} line and the exit code (bpf's {@code BtfAgreementTest} covers the commands).
 */
class BpfBtfCommandTest {
    private static final Path OBJECT = Path.of(System.getProperty("jperf.testdata", "../testdata"))
            .resolve("bpf-objects/obj/bootstrap.bpf.o");

    @Test
    void dumpsAndFailsAsBpftool() throws Exception {
        String bpftool = null;
        for (String dir : (System.getenv().getOrDefault("PATH", "") + ":/usr/sbin:/sbin").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "bpftool"))) {
                bpftool = Path.of(dir, "bpftool").toString();
                break;
            }
        }
        assumeTrue(bpftool != null, "bpftool is not installed (Debian package bpftool): nothing to compare with");
        String[][] cases = {
            {"dump", "file", OBJECT.toString(), "format", "c"},
            {"-j", "dump", "file", OBJECT.toString()},
            {"dump", "file", OBJECT.toString(), "format", "yaml"},
            {"dump", "file", "/nonexistent"},
            {"-j", "dump", "file", OBJECT.toString(), "format", "c"},
        };
        for (String[] c : cases) {
            List<String> args = new ArrayList<>(List.of("bpf", "btf"));
            args.addAll(List.of(c));
            Run jp = Run.of(args.toArray(new String[0]));
            List<String> cmd = new ArrayList<>(List.of(bpftool));
            if (c[0].equals("-j")) {
                cmd.add("-j");
            }
            cmd.add("btf");
            cmd.addAll(List.of(c).subList(c[0].equals("-j") ? 1 : 0, c.length));
            Process p = new ProcessBuilder(cmd).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            String what = String.join(" ", c);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), what);
            assertEquals(out, jp.out(), what);
            assertEquals(p.exitValue(), jp.rc(), what);
            assertEquals(err.lines().filter(l -> l.startsWith("Error: ")).toList(),
                    jp.err().lines().filter(l -> l.startsWith("Error: ")).toList(), what);
        }
    }
}
