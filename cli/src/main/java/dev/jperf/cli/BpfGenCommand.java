package dev.jperf.cli;

import dev.jperf.bpf.GenCommands;
import dev.jperf.cli.options.OptionValue;
import dev.jperf.cli.options.Options;
import java.util.List;

/**
 * {@code jperf bpf gen skeleton OBJ [name NAME] [--java [package PKG]]}: a BPF object's skeleton
 * (bpf's {@link GenCommands}) on stdout: bpftool's C header, or a Java class.
 */
final class BpfGenCommand implements Subcommand {
    private boolean java;
    private List<String> words = List.of();

    @Override
    public String name() {
        return "bpf gen";
    }

    @Override
    public String summary() {
        return "Write a BPF object's skeleton: bpftool's C header, or with --java a Java class";
    }

    @Override
    public Options options() {
        return new Options("jperf bpf gen skeleton FILE [name OBJECT_NAME] [--java [package PACKAGE]]")
                .flag('\0', "java", "write the skeleton as a Java class over jperf's loader");
    }

    @Override
    public void set(String name, OptionValue v) {
        switch (name) {
            case "java" -> java = v.on();
            default -> throw new IllegalStateException("option not handled: " + name);
        }
    }

    @Override
    public void arguments(List<String> positional, List<String> all) {
        words = List.copyOf(positional);
    }

    @Override
    public int call() {
        int code = GenCommands.run(words, java, System.out, System.err);
        System.out.flush();
        System.err.flush();
        return code;
    }
}
