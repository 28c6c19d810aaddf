package dev.jperf.cli;

import dev.jperf.bpf.BatchFile;
import dev.jperf.bpf.BpftoolException;
import dev.jperf.bpf.BtfCommandLine;
import dev.jperf.bpf.Output;
import dev.jperf.cli.options.OptionValue;
import dev.jperf.cli.options.Options;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
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
 * {@code -j} one array of {@code {"command": [...], "output": ...}} objects. The objects jperf has
 * commands for are prog, map, link, btf and feature; another is refused in one line.
 */
final class BpfBatchCommand implements Subcommand {
    /** bpftool's commands[], in its order: the first a word begins is the one run. */
    private static final String[] OBJECTS = {"help", "batch", "prog", "map", "link", "cgroup", "perf", "net", "feature",
        "btf", "gen", "struct_ops", "iter", "version"};

    private boolean json;
    private boolean pretty;
    private boolean bpffs;
    private List<String> words = List.of();

    @Override
    public String name() {
        return "bpf batch";
    }

    @Override
    public String summary() {
        return "Run a file of bpftool commands (prog, map, link, btf, feature), as bpftool batch does";
    }

    @Override
    public Options options() {
        return new Options("jperf bpf batch file FILE [<options>]",
                "FILE: a bpftool command a line (without 'bpftool'); '#' comments, '\\' continues a line, '-' is stdin")
                .flag('j', "json", "print bpftool's JSON (bpftool -j)")
                .flag('p', "pretty", "print bpftool's JSON, indented (bpftool -p)")
                .flag('f', "bpffs", "show where each object is pinned in a bpf file system (bpftool -f)");
    }

    @Override
    public void set(String name, OptionValue v) {
        switch (name) {
            case "json" -> json = v.on();
            case "pretty" -> {
                pretty = v.on();
                json |= pretty;
            }
            case "bpffs" -> bpffs = v.on();
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
        int code = batch(output);
        out.print(output.finish());
        out.flush();
        System.err.flush();
        return code;
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
        if (object == null) {
            return fail(output, new BpftoolException("unknown object '" + cmd.get(0) + "': prog, map, link, btf or feature"));
        }
        switch (object) {
            case "prog", "map", "link", "feature":
                return new BpfProgMapCommand(object).words(rest, bpffs).execute(output);
            case "btf":
                return BtfCommandLine.run(output, rest, null, System.err);
            default:
                return fail(output, new BpftoolException("'" + object + "' is not supported by jperf's batch: prog, map,"
                        + " link, btf or feature"));
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
