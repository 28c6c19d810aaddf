package dev.jperf.cli;

import dev.jperf.cli.options.OptionSink;
import dev.jperf.cli.options.Options;
import dev.jperf.cli.options.UsageException;
import java.nio.file.Path;
import java.util.List;

/** One {@code jperf} command: its option table, the options given set into its fields ({@link #set}), then its work. */
interface Subcommand extends OptionSink {
    String name();

    /** One line for {@code jperf --help}'s command list. */
    String summary();

    /** The option table; {@link #set} receives each option given. */
    Options options();

    /**
     * The arguments that are not options ({@code positional}) and all arguments after the
     * command's name ({@code all}). Most commands take none.
     */
    default void arguments(List<String> positional, List<String> all) {
        if (!positional.isEmpty()) {
            throw new UsageException("unexpected argument '" + positional.get(0) + "'");
        }
    }

    /**
     * perf's global {@code jperf --buildid-dir DIR COMMAND}: the build-id cache for commands that
     * use one (the command's own {@code --buildid-dir} given after it wins); others ignore it.
     */
    default void buildIdDir(Path dir) {
    }

    /** Runs the command; the exit code. */
    int call() throws Exception;
}
