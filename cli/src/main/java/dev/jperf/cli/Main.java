package dev.jperf.cli;

import dev.jperf.nativeshim.JnaBoot;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code jperf} command: perf's subcommands, spelled as perf spells them. */
@Command(name = "jperf",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        synopsisSubcommandLabel = "COMMAND",
        description = {"Records and reports perf.data files; understands BPF programs.", ""},
        commandListHeading = "%n The most commonly used jperf commands are:%n")
public final class Main implements Runnable {
    /** The subcommands, in the order help lists them. */
    private static final Class<?>[] SUBCOMMANDS = {CommandLine.HelpCommand.class, RecordCommand.class,
        ReportCommand.class, AnnotateCommand.class, ScriptCommand.class, DumpCommand.class, InjectCommand.class};

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("record")) {
            JnaBoot.prepare();
        }
        System.exit(run(args));
    }

    /** Runs the command line and returns the exit code; bad input is one line on stderr, never a stack trace. */
    public static int run(String... args) {
        CommandLine cl = new CommandLine(new Main());
        // picocli's model of a command costs start-up time: build only the one asked for
        // (all of them for help, usage and errors)
        String first = args.length > 0 ? args[0] : "";
        boolean one = false;
        for (Class<?> c : SUBCOMMANDS) {
            one |= !first.equals("help") && first.equals(c.getAnnotation(Command.class).name());
        }
        for (Class<?> c : SUBCOMMANDS) {
            if (!one || first.equals(c.getAnnotation(Command.class).name())) {
                cl.addSubcommand(c);
            }
        }
        // perf's "record [options] command args...": everything from the command on is its own
        CommandLine record = cl.getSubcommands().get("record");
        if (record != null) {
            record.setStopAtPositional(true);
        }
        // perf's option parser lets a later occurrence of an option replace an earlier one
        // ("--sort sym ... --sort comm" sorts by comm); picocli refuses that unless told
        cl.setOverwrittenOptionsAllowed(true);
        cl.setExecutionExceptionHandler(new ErrorHandler());
        return cl.execute(args);
    }
}
