package dev.jperf.cli;

import dev.jperf.cli.options.OptionValue;
import dev.jperf.cli.options.Options;
import dev.jperf.format.PerfDataFile;
import dev.jperf.report.header.BuildIdList;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * {@code jperf buildid-list}: the build-ids a perf.data file recorded (HEADER_BUILD_ID), an ELF
 * file's, or the running kernel's ({@code -k}), as {@code perf buildid-list} prints them.
 */
final class BuildidListCommand implements Subcommand {
    private String input;
    private boolean kernel;
    private boolean withHits;
    private boolean kernelMaps;

    @Override
    public String name() {
        return "buildid-list";
    }

    @Override
    public String summary() {
        return "List the build-ids in a perf.data file";
    }

    @Override
    public Options options() {
        return new Options("jperf buildid-list [<options>]")
                .flag('f', "force", "don't complain, do it")
                .flag('H', "with-hits", "Show only DSOs with hits")
                .value('i', "input", "file", "input file name")
                .flag('k', "kernel", "Show current kernel build id")
                .flag('m', "kernel-maps", "Show build id of current kernel + modules")
                .flag('v', "verbose", "be more verbose");
    }

    @Override
    public void set(String name, OptionValue v) {
        switch (name) {
            case "input" -> input = v.text();
            case "kernel" -> kernel = v.on();
            case "with-hits" -> withHits = v.on();
            case "kernel-maps" -> kernelMaps = v.on();
            case "force", "verbose" -> {
                // perf's owner check and debug output: nothing of jperf's depends on them
            }
            default -> throw new IllegalStateException("option not handled: " + name);
        }
    }

    @Override
    public int call() throws IOException {
        PrintStream out = Input.stdout();
        if (kernel) {
            Optional<String> id = BuildIdList.ofKernel(Path.of("/sys/kernel/notes"));
            id.ifPresent(out::println);
            out.flush();
            return id.isPresent() ? 0 : 1;
        }
        if (withHits || kernelMaps) {
            throw new IllegalArgumentException((withHits ? "--with-hits" : "--kernel-maps") + " is not supported yet");
        }
        String name = Input.name(input);
        if (!Input.STDIN.equals(name) && Files.isRegularFile(Path.of(name))) {
            // perf's first question: is the input an ELF file?
            Optional<String> elf = BuildIdList.ofElf(Path.of(name));
            if (elf.isPresent()) {
                out.println(elf.get());
                out.flush();
                return 0;
            }
        }
        try (PerfDataFile file = Input.open(input)) {
            BuildIdList.print(file, out);
        }
        return 0;
    }
}
