package dev.jperf.cli;

import dev.jperf.bpf.BtfCommandLine;
import dev.jperf.bpf.Output;
import dev.jperf.cli.options.OptionValue;
import dev.jperf.cli.options.Options;
import java.io.PrintStream;
import java.util.List;

/**
 * {@code jperf bpf btf ...}: bpftool 7.1's {@code btf} commands ({@code list}, {@code show},
 * {@code dump}) with its words, output, {@code Error: } lines and exit codes
 * ({@link BtfCommandLine}).
 */
final class BpfBtfCommand implements Subcommand {
    private boolean json;
    private boolean pretty;
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
        return new Options("jperf bpf btf { show | list } [id BTF_ID] [<options>]",
                "jperf bpf btf dump { id BTF_ID | prog PROG | map MAP [key | value | kv | all] | file FILE } [format { raw | c }] [<options>]")
                .flag('j', "json", "print bpftool's JSON (bpftool -j)")
                .flag('p', "pretty", "print bpftool's JSON, indented (bpftool -p)")
                .value('B', "base-btf", "FILE", "the base BTF of split BTF (bpftool -B)");
    }

    @Override
    public void set(String name, OptionValue v) {
        switch (name) {
            case "json" -> json = v.on();
            case "pretty" -> {
                pretty = v.on();
                json |= pretty;
            }
            case "base-btf" -> baseBtf = v.text();
            default -> throw new IllegalStateException("option not handled: " + name);
        }
    }

    @Override
    public void arguments(List<String> positional, List<String> all) {
        words = List.copyOf(positional);
    }

    @Override
    public int call() {
        PrintStream out = System.out;
        Output output = new Output(json, pretty, out);
        int code = BtfCommandLine.run(output, words, baseBtf, System.err);
        out.print(output.finish());
        out.flush();
        System.err.flush();
        return code;
    }
}
