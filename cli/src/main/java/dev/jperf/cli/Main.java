package dev.jperf.cli;

import dev.jperf.cli.options.UsageException;
import dev.jperf.nativeshim.JnaBoot;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/** The {@code jperf} command: perf's subcommands, spelled as perf spells them. */
public final class Main {
    /** perf's exit code for a command line it cannot parse. */
    static final int USAGE_ERROR = 129;
    /** perf's global option naming the build-id cache for the command after it. */
    private static final String BUILDID_DIR = "--buildid-dir";
    /** perf's global --no-pager: no pager for the command's output. */
    private static final String NO_PAGER = "--no-pager";

    /** The subcommands, in the order help lists them. */
    private static final List<String> COMMANDS = List.of("record", "stat", "report", "annotate", "script", "flamegraph", "dump", "inject",
            "evlist", "buildid-list", "buildid-cache", "list", "diff", "top");

    private Main() {
    }

    public static void main(String[] args) {
        int first = globalOptions(args);
        if (args.length > first && (args[first].equals("record") || args[first].equals("stat")
                || args[first].equals("bpf") || args[first].equals("top"))) {
            JnaBoot.prepare();
        }
        int code = run(args);
        if (code != 0) {
            dropClassList();
        }
        System.exit(code);
    }

    /**
     * The launcher has this run list the classes it loads for the class-data sharing archive
     * (property jperf.classlist); a failed run loaded an error path's classes, not the command's.
     */
    private static void dropClassList() {
        String list = System.getProperty("jperf.classlist");
        if (list != null) {
            try {
                Files.deleteIfExists(Path.of(list));
            } catch (IOException | RuntimeException e) {
                // the next run lists its classes again only if this list is gone; nothing else depends on it
            }
        }
    }

    /**
     * How many leading arguments are perf's options before the command: {@code --buildid-dir DIR}
     * or {@code --buildid-dir=DIR}, and --no-pager.
     */
    static int globalOptions(String[] args) {
        int i = 0;
        while (i < args.length) {
            if (args[i].equals(BUILDID_DIR) && i + 1 < args.length) {
                i += 2;
            } else if (args[i].equals(NO_PAGER)) {
                i++;
            } else if (args[i].startsWith(BUILDID_DIR + "=")) {
                i++;
            } else {
                break;
            }
        }
        return i;
    }

    /** Runs the command line and returns the exit code; bad input is one line on stderr, never a stack trace. */
    public static int run(String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        int skip = globalOptions(args);
        Path buildIdDir = null;
        Pager.disabled = false;
        for (int i = 0; i < skip; i++) {
            if (args[i].equals(NO_PAGER)) {
                Pager.disabled = true;
                continue;
            }
            buildIdDir = Path.of(args[i].equals(BUILDID_DIR) ? args[++i] : args[i].substring(BUILDID_DIR.length() + 1));
        }
        args = Arrays.copyOfRange(args, skip, args.length);
        String first = args.length > 0 ? args[0] : "--help";
        switch (first) {
            case "--help", "-h" -> {
                usage(out);
                return 0;
            }
            case "--version", "version" -> {
                out.println(Version.text());
                return 0;
            }
            case "help" -> {
                if (args.length == 1) {
                    usage(out);
                    return 0;
                }
                if (args[1].equals("bpf")) {
                    if (args.length == 2) {
                        out.print(bpfCommands(new StringBuilder("\n jperf bpf's commands (jperf help bpf SUBCOMMAND for its options):\n"))
                                .append('\n'));
                        return 0;
                    }
                    Subcommand b = bpfCommand(args[2]);
                    if (b == null) {
                        return unknown("bpf " + args[2], err);
                    }
                    b.options().usage(out);
                    return 0;
                }
                Subcommand c = find(args[1]);
                if (c == null) {
                    return unknown(args[1], err);
                }
                c.options().usage(out);
                return 0;
            }
            case "bpf" -> {
                return bpf(Arrays.asList(args).subList(1, args.length), out, err);
            }
            case "data" -> {
                if (args.length < 2 || !args[1].equals("convert")) {
                    err.println("jperf data: " + (args.length < 2 ? "a subcommand is needed" : "'" + args[1] + "' is not a data subcommand")
                            + "; usage: jperf data convert [<options>]");
                    err.flush();
                    return USAGE_ERROR;
                }
                DataConvertCommand c = new DataConvertCommand();
                if (buildIdDir != null) {
                    c.buildIdDir(buildIdDir);
                }
                return run(c, Arrays.asList(args).subList(2, args.length), out, err);
            }
            default -> {
                Subcommand c = find(first);
                if (c == null) {
                    return unknown(first, err);
                }
                if (buildIdDir != null) {
                    c.buildIdDir(buildIdDir);
                }
                return run(c, Arrays.asList(args).subList(1, args.length), out, err);
            }
        }
    }

    private static int run(Subcommand c, List<String> args, PrintStream out, PrintStream err) {
        try {
            List<String> positional = c.options().parse(args, c, out);
            if (positional == null) {
                return 0; // help was printed
            }
            c.arguments(positional, args);
            return c.call();
        } catch (UsageException e) {
            err.println("jperf " + c.name() + ": " + e.getMessage() + " (jperf " + c.name() + " -h lists the options)");
            err.flush();
            return USAGE_ERROR;
        } catch (Exception e) {
            return Failure.report(c.name(), e, err);
        }
    }

    /**
     * The subcommand called {@code name}, null if none is. A switch rather than a table of
     * constructor references: a command's start runs no invokedynamic it can avoid (each call site's
     * bootstrap costs CPU on its one run), and only the command asked for is built.
     */
    static Subcommand find(String name) {
        switch (name) {
            case "record":
                return new RecordCommand();
            case "stat":
                return new StatCommand();
            case "report":
                return new ReportCommand();
            case "annotate":
                return new AnnotateCommand();
            case "script":
                return new ScriptCommand();
            case "flamegraph":
                return new FlamegraphCommand();
            case "dump":
                return new DumpCommand();
            case "inject":
                return new InjectCommand();
            case "evlist":
                return new EvlistCommand();
            case "buildid-list":
                return new BuildidListCommand();
            case "buildid-cache":
                return new BuildidCacheCommand();
            case "list":
                return new ListCommand();
            case "diff":
                return new DiffCommand();
            case "top":
                return new TopCommand();
            default:
                return null;
        }
    }

    /** {@code jperf bpf OBJECT ...}: the BPF commands, bpftool's way (a noun, then a verb). */
    private static int bpf(List<String> args, PrintStream out, PrintStream err) {
        String sub = args.isEmpty() ? "" : args.get(0);
        Subcommand c = bpfCommand(sub);
        if (c == null) {
            err.println("jperf bpf: " + (sub.isEmpty() ? "a subcommand is needed" : "'" + sub + "' is not a bpf subcommand")
                    + "; usage: jperf bpf load OBJ [-p PROG]... | jperf bpf run OBJ [--duration S]"
                    + " | jperf bpf {prog|map|link|btf} {list|show|dump|pin|...} ... | jperf bpf gen skeleton OBJ [--java] | jperf bpf top (jperf help bpf lists them)");
            err.flush();
            return USAGE_ERROR;
        }
        return run(c, args.subList(1, args.size()), out, err);
    }

    private static int unknown(String name, PrintStream err) {
        err.println("jperf: '" + name + "' is not a jperf command. See 'jperf --help'.");
        err.flush();
        return 1;
    }

    /** The {@code jperf bpf} subcommands, a line each. */
    private static StringBuilder bpfCommands(StringBuilder b) {
        for (String sub : List.of("load", "run", "prog", "map", "link", "btf", "feature", "gen", "batch", "cgroup", "net", "perf", "iter", "struct_ops", "top")) {
            b.append(String.format("   %-12s %s%n", "bpf " + sub, bpfCommand(sub).summary()));
        }
        return b;
    }

    /** The {@code jperf bpf SUB} command, null if none is. */
    private static Subcommand bpfCommand(String sub) {
        switch (sub) {
            case "load":
                return new BpfLoadCommand();
            case "run":
                return new BpfRunCommand();
            case "prog":
            case "map":
            case "link":
            case "feature":
                return new BpfProgMapCommand(sub);
            case "cgroup":
            case "struct_ops":
            case "iter":
            case "net":
            case "perf":
                return new BpfMiscCommand(sub);
            case "top":
                return new BpfTopCommand();
            case "btf":
                return new BpfBtfCommand();
            case "gen":
                return new BpfGenCommand();
            case "batch":
                return new BpfBatchCommand();
            default:
                return null;
        }
    }

    /** perf's main usage: the commands with a line each. */
    private static void usage(PrintStream out) {
        StringBuilder b = new StringBuilder();
        b.append("\n usage: jperf [--version] [--help] [--buildid-dir DIR] [--no-pager] COMMAND [ARGS]\n\n");
        b.append(" Records and reports perf.data files; understands BPF programs.\n\n");
        b.append(" The most commonly used jperf commands are:\n");
        for (String name : COMMANDS) {
            Subcommand c = find(name);
            b.append(String.format("   %-12s %s%n", c.name(), c.summary()));
        }
        bpfCommands(b);
        b.append("\n See 'jperf help COMMAND' (or 'jperf COMMAND -h') for the options of a command.\n\n");
        out.print(b);
        out.flush();
    }
}
