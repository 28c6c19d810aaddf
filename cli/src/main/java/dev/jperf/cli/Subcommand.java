package dev.jperf.cli;

import dev.jperf.cli.options.Options;
import dev.jperf.cli.options.UsageException;
import java.util.List;

/** One {@code jperf} command: its option table bound to its fields, then its work. */
interface Subcommand {
    String name();

    /** One line for {@code jperf --help}'s command list. */
    String summary();

    /** The option table; each option sets a field of this command. */
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

    /** Runs the command; the exit code. */
    int call() throws Exception;
}
