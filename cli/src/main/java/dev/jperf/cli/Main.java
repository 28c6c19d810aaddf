package dev.jperf.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code jperf} command: perf's subcommands, spelled as perf spells them. */
@Command(name = "jperf",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        synopsisSubcommandLabel = "COMMAND",
        description = {"Records and reports perf.data files; understands BPF programs.", ""},
        commandListHeading = "%n The most commonly used jperf commands are:%n",
        subcommands = {CommandLine.HelpCommand.class, RecordCommand.class, ReportCommand.class, AnnotateCommand.class,
            ScriptCommand.class, DumpCommand.class, InjectCommand.class})
public final class Main implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns the exit code; bad input is one line on stderr, never a stack trace. */
    public static int run(String... args) {
        CommandLine cl = new CommandLine(new Main());
        // perf's "record [options] command args...": everything from the command on is its own
        cl.getSubcommands().get("record").setStopAtPositional(true);
        cl.setExecutionExceptionHandler(new ErrorHandler());
        return cl.execute(args);
    }
}
