package dev.jperf.bpf;

import java.io.PrintStream;
import java.util.List;

/**
 * bpftool 7.1's {@code btf} command line (btf.c's do_show, do_dump and cmd_select): its words,
 * matched by prefix as bpftool matches them, its errors as p_err prints them ({@code Error: }
 * on stderr, or the {@code {"error": ...}} object in JSON mode), its help, and its return value
 * as the exit code.
 */
public final class BtfCommandLine {
    private static final String HELP_FORMAT = "Usage: %1$s { show | list } [id BTF_ID]\n"
            + "       %1$s dump BTF_SRC [format FORMAT]\n"
            + "       %1$s help\n"
            + "\n"
            + "       BTF_SRC := { id BTF_ID | prog PROG | map MAP [{key | value | kv | all}] | file FILE }\n"
            + "       FORMAT  := { raw | c }\n"
            + "       MAP := { id MAP_ID | pinned FILE | name MAP_NAME }\n"
            + "       PROG := { id PROG_ID | pinned FILE | tag PROG_TAG | name PROG_NAME }\n"
            + "       OPTIONS := { {-j|--json} [{-p|--pretty}] | {-B|--base-btf} }\n";

    private BtfCommandLine() {
    }

    /**
     * Runs {@code jperf bpf btf WORDS} into {@code output} ({@code baseBtf}: bpftool's
     * {@code -B}, or null), its messages to {@code err}; bpftool's exit code.
     */
    public static int run(Output output, List<String> words, String baseBtf, PrintStream err) {
        try {
            runWords(output, words, baseBtf, err);
            return 0;
        } catch (BpftoolException e) {
            report(output, e.getMessage(), err);
            return e.exitCode();
        } catch (Usage u) {
            if (u.getMessage() != null) {
                report(output, u.getMessage(), err);
            }
            help(output, err);
            return 255;
        }
    }

    /** p_err. */
    private static void report(Output output, String message, PrintStream err) {
        if (output.json()) {
            output.error(message);
        } else {
            err.println("Error: " + message);
        }
    }

    private static final String HELP = String.format(HELP_FORMAT, "jperf bpf btf");

    /** bpftool's is_prefix: {@code word} begins {@code full} (an empty word begins every one). */
    static boolean isPrefix(String word, String full) {
        return full.startsWith(word);
    }

    /** bpftool's usage(): its help, then exit -1. */
    private static final class Usage extends RuntimeException {
        Usage(String message) {
            super(message, null, false, false);
        }
    }

    private static void help(Output output, PrintStream err) {
        if (output.json()) {
            output.nul();
        } else {
            err.print(HELP);
        }
    }

    private static void runWords(Output output, List<String> words, String baseBtf, PrintStream err) {
        BtfCommands c = new BtfCommands(output, err);
        if (baseBtf != null) {
            c.baseBtf(baseBtf);
        }
        if (words.isEmpty()) {
            c.list();
            return;
        }
        String verb = words.get(0);
        List<String> args = words.subList(1, words.size());
        if (isPrefix(verb, "show") || isPrefix(verb, "list")) {
            show(c, args);
        } else if (isPrefix(verb, "help")) {
            help(output, err);
        } else if (isPrefix(verb, "dump")) {
            dump(c, args);
        } else {
            throw new Usage(null);
        }
    }

    /** do_show: nothing, or {@code id ID}. */
    private static void show(BtfCommands c, List<String> args) {
        if (args.size() == 2) {
            if (!isPrefix(args.get(0), "id")) {
                throw new BpftoolException("expected 'id', got: '" + args.get(0) + "'?");
            }
            int id = id(args.get(1));
            c.show(id);
            return;
        }
        if (!args.isEmpty()) {
            throw new BpftoolException("what is '" + args.get(0) + "'?");
        }
        c.list();
    }

    /** do_dump. */
    private static void dump(BtfCommands c, List<String> args) {
        needs("dump", args, 2);
        String src = args.get(0);
        List<String> rest = args.subList(1, args.size());
        BtfCommands.Source s;
        if (isPrefix(src, "map") || isPrefix(src, "prog")) {
            boolean map = isPrefix(src, "map");
            needs(src, rest, 2);
            BpfHandle h = handle(rest.get(0), rest.get(1), !map);
            rest = rest.subList(2, rest.size());
            if (map) {
                String which = null;
                if (!rest.isEmpty() && (isPrefix(rest.get(0), "key") || isPrefix(rest.get(0), "value")
                        || isPrefix(rest.get(0), "all") || isPrefix(rest.get(0), "kv"))) {
                    which = rest.get(0);
                    rest = rest.subList(1, rest.size());
                }
                s = c.byMap(h, which == null ? null : isPrefix(which, "key") ? "key"
                        : isPrefix(which, "value") ? "value" : isPrefix(which, "all") ? "all" : "kv");
            } else {
                s = c.byProg(h);
            }
        } else if (isPrefix(src, "id")) {
            s = c.byId(id(rest.get(0)));
            rest = rest.subList(1, rest.size());
        } else if (isPrefix(src, "file")) {
            s = c.byFile(rest.get(0));
            rest = rest.subList(1, rest.size());
        } else {
            throw new BpftoolException("unrecognized BTF source specifier: '" + src + "'");
        }
        boolean cFormat = false;
        while (!rest.isEmpty()) {
            if (!isPrefix(rest.get(0), "format")) {
                throw new BpftoolException("unrecognized option: '" + rest.get(0) + "'", false, -22);
            }
            if (rest.size() < 2) {
                throw new BpftoolException("expecting value for 'format' option\n", false, -22);
            }
            String f = rest.get(1);
            if (f.equals("c")) {
                cFormat = true;
            } else if (f.equals("raw")) {
                cFormat = false;
            } else {
                throw new BpftoolException("unrecognized format specifier: '" + f + "', possible values: raw, c", false, -22);
            }
            rest = rest.subList(2, rest.size());
        }
        c.dump(s, cFormat);
    }

    /** REQ_ARGS: at least {@code n} words after {@code word}. */
    private static void needs(String word, List<String> args, int n) {
        if (args.size() < n) {
            throw new Usage("'" + word + "' needs at least " + n + " arguments, " + args.size() + " found");
        }
    }

    /** map_parse_fds / prog_parse_fds: {@code id ID}, {@code name NAME}, {@code tag TAG} (programs), {@code pinned PATH}. */
    private static BpfHandle handle(String kind, String value, boolean prog) {
        if (isPrefix(kind, "id")) {
            return BpfHandle.id(id(value));
        }
        if (prog && isPrefix(kind, "tag")) {
            return BpfHandle.tag(value);
        }
        if (isPrefix(kind, "name")) {
            return BpfHandle.name(value);
        }
        if (isPrefix(kind, "pinned")) {
            return BpfHandle.pinned(value);
        }
        throw new BpftoolException(prog ? "expected 'id', 'tag', 'name' or 'pinned', got: '" + kind + "'?"
                : "expected 'id', 'name' or 'pinned', got: '" + kind + "'?");
    }

    /** strtoul(s, &end, 0) with nothing left over. */
    private static int id(String s) {
        try {
            long v;
            if (s.startsWith("0x") || s.startsWith("0X")) {
                v = Long.parseUnsignedLong(s.substring(2), 16);
            } else if (s.length() > 1 && s.startsWith("0")) {
                v = Long.parseUnsignedLong(s.substring(1), 8);
            } else {
                v = Long.parseUnsignedLong(s);
            }
            return (int) v; // strtoul's value stored in a __u32
        } catch (NumberFormatException e) {
            throw new BpftoolException("can't parse " + s + " as ID");
        }
    }
}
