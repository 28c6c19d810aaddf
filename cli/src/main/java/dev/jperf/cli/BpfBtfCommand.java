package dev.jperf.cli;

import dev.jperf.bpf.BtfCommandLine;
import dev.jperf.cli.options.OptionValue;
import dev.jperf.cli.options.Options;
import java.util.List;

/**
 * {@code jperf bpf btf ...}: bpftool 7.1's {@code btf} commands ({@code list}, {@code show},
 * {@code dump}) with its words, output, {@code Error: } lines and exit codes
 * ({@link BtfCommandLine}).
 */
final class BpfBtfCommand implements Subcommand {
    private final BpftoolFlags flags = new BpftoolFlags();
    private String baseBtf;
    private List<String> words = List.of();

    @Override
    public String name() {
        return "bpf btf";
    }

    @Override
    public String summary() {
        return "List, show and dump the kernel's BTF objects and BTF files, as bpftool does";
    }

    @Override
    public Options options() {
        return BpftoolFlags.declare(new Options("jperf bpf btf { show | list } [id BTF_ID] [<options>]",
                "jperf bpf btf dump { id BTF_ID | prog PROG | map MAP [key | value | kv | all] | file FILE } [format { raw | c }] [<options>]"),
                false)
                .value('B', "base-btf", "FILE", "the base BTF of split BTF (bpftool -B)");
    }

    @Override
    public void set(String name, OptionValue v) {
        if (name.equals("base-btf")) {
            baseBtf = v.text();
        } else if (!flags.set(name, v)) {
            throw new IllegalStateException("option not handled: " + name);
        }
    }

    @Override
    public void arguments(List<String> positional, List<String> all) {
        words = List.copyOf(positional);
    }

    @Override
    public int call() {
        return BpftoolCall.frame(flags, output -> BtfCommandLine.run(output, words, baseBtf, System.err));
    }
}
