package dev.jperf.cli;

import dev.jperf.bpf.BatchFile;
import dev.jperf.bpf.BpftoolException;
import dev.jperf.bpf.BtfCommandLine;
import dev.jperf.bpf.GenCommands;
import dev.jperf.bpf.Output;
import dev.jperf.cli.options.OptionValue;
import dev.jperf.cli.options.Options;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code jperf bpf batch file FILE}: bpftool 7.1's batch mode (main.c's do_batch): each command
 * of the file ({@link BatchFile}'s rules) run in turn, its object chosen by prefix as bpftool
 * chooses it, until one fails (its exit code); then {@code processed N commands}, or with
 * {@code -j} one array of {@code {"command": [...], "output": ...}} objects. Every object jperf
 * has bpftool's commands for runs, {@code help} as bpftool's; {@code batch} and {@code version}
 * are refused in one line.
 */
final class BpfBatchCommand implements Subcommand {
    /** bpftool's commands[], in its order: the first a word begins is the one run. */
    private static final String[] OBJECTS = {"help", "batch", "prog", "map", "link", "cgroup", "perf", "net", "feature",
        "btf", "gen", "struct_ops", "iter", "version"};

    private static final String USAGE = "Usage: jperf bpf OBJECT { COMMAND | help } (in a batch file: OBJECT { COMMAND | help })\n"
            + "       OBJECT := { prog | map | link | cgroup | perf | net | feature | btf | gen | struct_ops | iter }\n";

    private final BpftoolFlags flags = new BpftoolFlags();
    private List<String> words = List.of();

    @Override
    public String name() {
        return "bpf batch";
    }

    @Override
    public String summary() {
        return "Run a file of bpftool commands, as bpftool batch does";
    }

    @Override
    public Options options() {
        return BpftoolFlags.declare(new Options("jperf bpf batch file FILE [<options>]",
                "FILE: a bpftool command a line (without 'bpftool'); '#' comments, '\\' continues a line, '-' is stdin"), true);
    }

    @Override
    public void set(String name, OptionValue v) {
        if (!flags.set(name, v)) {
            throw new IllegalStateException("option not handled: " + name);
        }
    }

    @Override
    public void arguments(List<String> positional, List<String> all) {
        words = List.copyOf(positional);
    }

    @Override
    public int call() {
        return BpftoolCall.frame(flags, this::batch);
    }

    private int batch(Output output) {
        try {
            if (words.size() < 2) {
                throw new BpftoolException("too few parameters for batch");
            } else if (words.size() > 2) {
                throw new BpftoolException("too many parameters for batch");
            } else if (!"file".startsWith(words.get(0))) {
                throw new BpftoolException("expected 'file', got: " + words.get(0));
            }
        } catch (BpftoolException e) {
            return fail(output, e);
        }
        String file = words.get(1);
        Reader reader;
        try {
            reader = file.equals("-") ? new InputStreamReader(System.in, StandardCharsets.ISO_8859_1)
                    : Files.newBufferedReader(Path.of(file), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            String why = e instanceof NoSuchFileException ? "No such file or directory"
                    : e instanceof AccessDeniedException ? "Permission denied" : String.valueOf(e.getMessage());
            return fail(output, new BpftoolException("Can't open file (" + file + "): " + why));
        }
        BatchFile.begin(output);
        int done = 0;
        int code = 0;
        try (BufferedReader in = new BufferedReader(reader)) {
            BatchFile batch = new BatchFile(in);
            List<String> cmd;
            while ((cmd = batch.next(done)) != null) {
                BatchFile.command(output, cmd);
                code = select(output, cmd);
                BatchFile.commandEnd(output);
                if (code != 0) {
                    break;
                }
                done++;
            }
        } catch (BpftoolException e) {
            code = fail(output, e);
        } catch (IOException e) {
            code = fail(output, new BpftoolException("reading batch file failed: " + e.getMessage()));
        }
        BatchFile.end(output, done, code == 0);
        return code;
    }

    /** cmd_select over bpftool's objects: the command run, its exit code. */
    private int select(Output output, List<String> cmd) {
        String object = null;
        for (String o : OBJECTS) {
            if (o.startsWith(cmd.get(0))) {
                object = o;
                break;
            }
        }
        List<String> rest = cmd.subList(1, cmd.size());
        if (object == null || object.equals("help")) {
            // cmd_select: do_help (the objects on stderr, null with -j); a word no object begins fails after it
            if (output.json()) {
                output.nul();
            } else {
                System.err.print(USAGE);
            }
            return object == null ? 255 : 0;
        }
        switch (object) {
            case "prog", "map", "link", "feature":
                return new BpfProgMapCommand(object).words(rest, flags.bpffs).execute(output);
            case "btf":
                return BtfCommandLine.run(output, rest, null, System.err);
            case "cgroup", "perf", "net", "struct_ops", "iter":
                return new BpfMiscCommand(object).words(rest).execute(output);
            case "gen":
                // gen writes its C on stdout whatever -j says, as bpftool's does
                System.out.flush();
                return GenCommands.run(output, rest, false, System.out, System.err);
            default:
                return fail(output, new BpftoolException("'" + object + "' is not supported by jperf's batch"));
        }
    }

    /** p_err, and bpftool's -1. */
    private static int fail(Output output, BpftoolException e) {
        if (output.json()) {
            output.error(e.getMessage());
        } else {
            System.err.println("Error: " + e.getMessage());
        }
        return e.exitCode();
    }
}
