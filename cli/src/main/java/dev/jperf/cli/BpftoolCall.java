package dev.jperf.cli;

import dev.jperf.bpf.BpftoolException;
import dev.jperf.bpf.Output;
import dev.jperf.cli.options.Options;
import java.io.PrintStream;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;

/**
 * The frame of a bpftool-like command: its output (text, or bpftool's JSON with {@code -j}/{@code
 * -p}) and a failure as bpftool reports it: the {@code Error: ...} line on stderr (its JSON object
 * on stdout with {@code -j}), p_info's lines after, usage() as the help on stderr ({@code null}
 * with {@code -j}), and bpftool's exit code.
 */
final class BpftoolCall {
    private BpftoolCall() {}

    static int call(BpftoolFlags flags, Options usage, Consumer<Output> run) {
        return frame(flags, output -> execute(output, usage, run));
    }

    /** {@code run} (which reports its own failures) into the output {@code flags} ask for, ended as bpftool's exit ends it: the exit code. */
    static int frame(BpftoolFlags flags, ToIntFunction<Output> run) {
        PrintStream out = System.out;
        Output output = new Output(flags.json, flags.pretty, out);
        int code = run.applyAsInt(output);
        out.print(output.finish());
        out.flush();
        System.err.flush();
        return code;
    }

    /** Runs {@code run} into {@code output} (a batch's commands share one): the exit code, a failure reported as bpftool's. */
    static int execute(Output output, Options usage, Consumer<Output> run) {
        boolean json = output.json();
        try {
            run.accept(output);
        } catch (BpftoolException e) {
            if (e.isUsage()) {
                if (json) {
                    output.nul();
                } else {
                    usage.usage(System.err);
                }
                return e.exitCode();
            }
            if (json && !e.onStdout() && !e.isQuiet()) {
                output.error(e.getMessage());
            }
            if (!output.errorWritten() && !e.isQuiet()) {
                System.err.println("Error: " + e.getMessage());
            }
            if (!json && e.info() != null) {
                System.err.print(e.info());
            }
            return e.exitCode();
        }
        return output.exitCode();
    }
}
