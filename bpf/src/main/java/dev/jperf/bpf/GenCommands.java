package dev.jperf.bpf;

import dev.jperf.loader.BpfObjectException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import javax.lang.model.SourceVersion;

/**
 * {@code jperf bpf gen skeleton FILE [name OBJECT_NAME]} with {@code --java [package PACKAGE]}:
 * bpftool 7.1's gen.c command line (do_skeleton's words, prefixes, p_err lines on stderr, -1 as
 * exit code 255); the source goes to stdout: bpftool's C header ({@link CSkeleton}), or with
 * {@code --java} a Java class ({@link JavaSkeleton}).
 */
public final class GenCommands {
    /** bpftool's MAX_OBJ_NAME_LEN, with its terminating NUL. */
    static final int MAX_OBJ_NAME_LEN = 64;
    static final String HELP = "Usage: jperf bpf gen skeleton FILE [name OBJECT_NAME]\n"
            + "       jperf bpf gen skeleton FILE [name OBJECT_NAME] --java [package PACKAGE]\n"
            + "       jperf bpf gen help\n";

    private GenCommands() {
    }

    /** Runs {@code jperf bpf gen WORDS} ({@code java}: {@code --java} given); the exit code. */
    public static int run(List<String> words, boolean java, PrintStream out, PrintStream err) {
        return run(null, words, java, out, err);
    }

    /**
     * As {@link #run(List, boolean, PrintStream, PrintStream)}, a failure and help into {@code o}
     * when it is bpftool's JSON (a batch's command with {@code -j}), as bpftool's p_err and do_help.
     */
    public static int run(Output o, List<String> words, boolean java, PrintStream out, PrintStream err) {
        boolean json = o != null && o.json();
        try {
            String verb = words.isEmpty() ? "help" : words.get(0);
            if (BtfCommandLine.isPrefix(verb, "skeleton")) {
                out.print(skeleton(words.subList(1, words.size()), java, err));
                out.flush();
                return 0;
            } else if (BtfCommandLine.isPrefix(verb, "help")) {
                if (json) {
                    o.nul();
                } else {
                    err.print(HELP);
                }
                return 0;
            }
            // cmd_select: do_help, then -1
            if (json) {
                o.nul();
            } else {
                err.print(HELP);
                err.println("Error: jperf bpf gen: unknown or unsupported command '" + verb + "'");
            }
            return 255;
        } catch (Usage u) {
            if (json) {
                o.error(u.getMessage());
            } else {
                err.println("Error: " + u.getMessage());
                err.print(HELP);
            }
            return 255;
        } catch (Failure f) {
            if (json) {
                o.error(f.getMessage());
            } else {
                err.println("Error: " + f.getMessage());
            }
            return f.exitCode;
        }
    }

    private static String skeleton(List<String> args, boolean java, PrintStream err) {
        if (args.isEmpty()) {
            throw new Usage("'skeleton' needs at least 1 arguments, 0 found");
        }
        String file = args.get(0);
        String name = "";
        String pkg = null;
        int i = 1;
        while (i < args.size()) {
            if (args.size() - i < 2) {
                throw new Failure("'" + args.get(i - 1) + "' needs at least 2 arguments, " + (args.size() - i) + " found");
            }
            String w = args.get(i);
            if (BtfCommandLine.isPrefix(w, "name")) {
                if (!name.isEmpty()) {
                    throw new Failure("object name already specified");
                }
                String n = args.get(i + 1);
                name = n.length() > MAX_OBJ_NAME_LEN - 1 ? n.substring(0, MAX_OBJ_NAME_LEN - 1) : n;
            } else if (java && BtfCommandLine.isPrefix(w, "package")) {
                pkg = args.get(i + 1);
                if (!SourceVersion.isName(pkg)) {
                    throw new Failure("'" + pkg + "' is not a Java package name");
                }
            } else {
                throw new Failure("unknown arg " + w);
            }
            i += 2;
        }
        byte[] image;
        try {
            image = Files.readAllBytes(Path.of(file));
        } catch (NoSuchFileException e) {
            throw new Failure("failed to stat() " + file + ": No such file or directory");
        } catch (IOException e) {
            throw new Failure("failed to read " + file + ": " + e.getMessage());
        }
        if (name.isEmpty()) {
            name = JavaSkeleton.objectName(file);
        }
        try {
            if (!java) {
                List<String> errors = new java.util.ArrayList<>();
                String c = CSkeleton.generate(image, name, errors);
                for (String e : errors) {
                    err.println("Error: " + e);
                }
                return c;
            }
            return JavaSkeleton.generate(file, image, name, pkg);
        } catch (BpfObjectException e) {
            if (!java && e.getMessage().equals(CSkeleton.LEGACY_MAPS)) {
                // libbpf's own line, then bpftool's with libbpf_strerror(-EOPNOTSUPP); -errno as the exit code
                err.println(CSkeleton.LEGACY_MAPS);
                throw new Failure("failed to open BPF object file: Operation not supported", 256 - CSkeleton.EOPNOTSUPP);
            }
            throw new Failure("failed to open BPF object file: " + e.getMessage());
        }
    }

    /** bpftool's usage(): the error, its help, exit -1. */
    private static final class Usage extends RuntimeException {
        Usage(String message) {
            super(message, null, false, false);
        }
    }

    /** p_err and -1. */
    private static final class Failure extends RuntimeException {
        final int exitCode;

        Failure(String message) {
            this(message, 255);
        }

        Failure(String message, int exitCode) {
            super(message, null, false, false);
            this.exitCode = exitCode;
        }
    }
}
