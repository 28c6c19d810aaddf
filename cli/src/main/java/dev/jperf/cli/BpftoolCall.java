package dev.jperf.cli;

import dev.jperf.bpf.BpftoolException;
import dev.jperf.bpf.Output;
import dev.jperf.cli.options.Options;
import java.io.PrintStream;
import java.util.function.Consumer;

/**
 * The frame of a bpftool-like command: its output (text, or bpftool's JSON with {@code -j}/{@code
 * -p}) and a failure as bpftool reports it: the {@code Error: ...} line on stderr (its JSON object
 * on stdout with {@code -j}), p_info's lines after, usage() as the help on stderr ({@code null}
 * with {@code -j}), and bpftool's exit code.
 */
final class BpftoolCall {
    private BpftoolCall() {}

    static int call(boolean json, boolean pretty, Options usage, Consumer<Output> run) {
        PrintStream out = System.out;
        Output output = new Output(json, pretty, out);
        try {
            run.accept(output);
        } catch (BpftoolException e) {
            if (e.isUsage()) {
                if (json) {
                    output.nul();
                } else {
                    usage.usage(System.err);
                    System.err.flush();
                }
                out.print(output.finish());
                out.flush();
                return e.exitCode();
            }
            if (json && !e.onStdout() && !e.isQuiet()) {
                output.error(e.getMessage());
            }
            out.print(output.finish());
            out.flush();
            if (!output.errorWritten() && !e.isQuiet()) {
                System.err.println("Error: " + e.getMessage());
            }
            if (!json && e.info() != null) {
                System.err.print(e.info());
            }
            System.err.flush();
            return e.exitCode();
        }
        out.print(output.finish());
        out.flush();
        return output.exitCode();
    }
}
