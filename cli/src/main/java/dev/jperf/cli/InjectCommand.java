package dev.jperf.cli;

import dev.jperf.cli.options.OptionValue;
import dev.jperf.cli.options.Options;
import dev.jperf.format.PerfDataFile;
import dev.jperf.format.feature.BuildIds;
import dev.jperf.format.feature.Feature;
import dev.jperf.format.writer.BuildIdInjector;
import dev.jperf.format.writer.PerfDataCopier;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;

/**
 * {@code jperf inject [-i IN] [-o OUT]}: perf inject without options, rewriting a perf.data (file
 * or pipe mode, or a pipe-mode stream on stdin) as a file-mode perf.data that perf 6.1 reads, or
 * without {@code -o} (or {@code -o -}) as a pipe-mode stream on stdout, as perf inject writes; a
 * damaged input's readable part becomes a sound file.
 */
final class InjectCommand implements Subcommand {
    private String input = "-";
    private String output = "-";
    private boolean buildIds;
    private boolean buildIdAll;
    private boolean strip;
    /** -f/--force: a file of another user read all the same. */
    private boolean force;

    @Override
    public String name() {
        return "inject";
    }

    @Override
    public String summary() {
        return "Copy any readable perf.data to a file-mode perf.data that Linux perf 6.1 reads";
    }

    @Override
    public Options options() {
        return new Options("jperf inject [<options>]")
                .value('i', "input", "file", "input file name, or - for a pipe-mode stream on stdin (the default)")
                .value('o', "output", "file", "output file name; an existing one is renamed <file>.old (default: a pipe-mode stream on stdout)")
                .flag('b', "build-ids", "Inject build-ids into the output stream")
                .flag('\0', "buildid-all", "Inject build-ids of all DSOs into the output stream")
                .flag('f', "force", "don't complain, do it")
                .flag('\0', "strip", "strip non-synthesized events (use with --itrace; jperf has no --itrace,"
                        + " so it is refused as perf refuses it alone)");
    }

    @Override
    public void set(String name, OptionValue v) {
        switch (name) {
            case "input" -> input = v.text();
            case "output" -> output = v.text();
            case "build-ids" -> buildIds = v.on();
            case "buildid-all" -> buildIdAll = v.on();
            case "strip" -> strip = v.on();
            case "force" -> force = v.on();
            default -> throw new IllegalStateException("option not handled: " + name);
        }
    }

    @Override
    public int call() throws IOException {
        if (strip) {
            // perf's words and exit code (-1); jperf decodes no AUX trace, so there is no --itrace to give
            System.err.println("--strip option requires --itrace option");
            return 255;
        }
        PerfDataCopier.Result r;
        try (PerfDataFile in = Input.open(input, force)) {
            // perf: --buildid-all implies -b
            BuildIdInjector inject = buildIds || buildIdAll ? new BuildIdInjector(buildIdAll,
                    in.features().get(Feature.BUILD_ID.bit()).map(f -> (BuildIds) f).orElse(null)) : null;
            r = output.equals("-") ? PerfDataCopier.copyToStream(in, stdout(), "stdout", inject)
                    : PerfDataCopier.copy(in, Path.of(output), inject);
        }
        for (String w : r.warnings()) {
            System.err.println("warning: " + w);
        }
        return 0;
    }

    /** stdout as a channel the writer may close: closing flushes it and leaves it open. */
    private static WritableByteChannel stdout() {
        PrintStream out = System.out;
        return Channels.newChannel(new OutputStream() {
            @Override
            public void write(int b) {
                out.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                out.write(b, off, len);
            }

            @Override
            public void flush() {
                out.flush();
            }

            @Override
            public void close() {
                out.flush();
            }
        });
    }
}
